/* expect: audit
 * threats: 13 (rows of ../shared/GRADER_THREATS.md)
 * Includes the reference solution through the lab header folder. nvcc lists the files it read
 * while it compiles, so the build must refuse this one even though it compiles cleanly. */
#include "../../solutions/08-transpose/transpose.cu"
