/* cuda_pipeline.h for scripts/emu (run.sh's -Iscripts/emu/include): __pipeline_memcpy_async,
 * __pipeline_commit and __pipeline_wait_prior as cp.async (emu_ptx.h). */
#include "emu_ptx.h"
