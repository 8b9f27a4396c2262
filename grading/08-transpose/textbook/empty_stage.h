/* empty_stage.h - a stage a lab-08 textbook file leaves empty (each file fills one stage, the
 * stage its first line names, and is graded on that one alone). */
#ifndef EMPTY_STAGE
#define EMPTY_STAGE(name) \
    extern "C" void transpose_##name(int m, int n, const float *in, float *out) { (void)m, (void)n, (void)in, (void)out; }
#endif
