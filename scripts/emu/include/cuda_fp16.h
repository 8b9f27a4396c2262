/* cuda_fp16.h for scripts/emu (run.sh's -Iscripts/emu/include): __half on the CPU (emu_half.h). */
#include "emu_half.h"
