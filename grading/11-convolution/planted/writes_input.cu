/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * A correct convolution followed by a second kernel that rescales the image in place (casting the
 * const away), as if in were the caller's to overwrite once read. Every output is right; the
 * grader compares the inputs with its own copy after every call. */
#define PLANT_WRITES_INPUT
#include "planted/base.h"

#include "planted/entry_points.h"
