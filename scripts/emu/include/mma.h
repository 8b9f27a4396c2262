/* mma.h for scripts/emu (run.sh's -Iscripts/emu/include): nvcuda::wmma on the CPU (emu_wmma.h). */
#include "emu_wmma.h"
