/* softmax-bound.c - a check on the CPU of lab 09's error bound (grading/09-softmax/lab.c, bound_of, copied
 * here): rows drawn as the grader draws them, softmax computed in float in one order with expf and
 * with a crude fast exp (exp2f of a float product), the worst error as a fraction of the bound; and
 * two plants' arithmetic (online without rescaling; no maximum subtracted), how many rows each fails.
 *   gcc -O2 -o build/tmp/softmax-bound scripts/softmax-bound.c -lm && build/tmp/softmax-bound */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static double bound_of(double y, double t, int n)
{
    return y * ((n + 2) * 0x1p-24 + (8 + 2 * fabs(t) + 2 * log(n)) * 0x1p-23) + 0x1p-126;
}
/* a crude fast exp like __expf: exp2(x*log2e) with float rounding of the product */
static float fastexp(float x)
{
    float p = x * 1.44269504f;
    return exp2f(p);
}
static int check(const float *x, int n, const float *y, const char *what)
{
    double m = x[0], s = 0;
    for (int j = 1; j < n; j++) m = x[j] > m ? x[j] : m;
    for (int j = 0; j < n; j++) s += exp(x[j] - m);
    int bad = 0;
    double worst = 0;
    for (int j = 0; j < n; j++) {
        double t = x[j] - m, r = exp(t) / s, b = bound_of(r, t, n), e = fabs(y[j] - r);
        if (!(e <= b) || !isfinite(y[j])) bad++;
        if (b > 0 && e / b > worst) worst = e / b;
    }
    (void)what;
    return bad ? -1 : (int)(worst * 1000);
}
int main(void)
{
    srand(1);
    int ns[] = {1, 17, 31, 32, 33, 512, 1000, 4099, 100000};
    for (int a = 0; a < 9; a++) {
        int n = ns[a];
        float *x = malloc(n * 4), *y = malloc(n * 4);
        int worst_seq = 0, worst_fast = 0, caught_nr = 0, caught_ov = 0, rows = 200;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < n; j++) x[j] = -30 + 120 * (rand() / (RAND_MAX + 1.0));
            float m = -FLT_MAX, s = 0;
            for (int j = 0; j < n; j++) m = fmaxf(m, x[j]);
            for (int j = 0; j < n; j++) s += expf(x[j] - m);
            for (int j = 0; j < n; j++) y[j] = expf(x[j] - m) / s;
            int w = check(x, n, y, "seq");
            if (w < 0)
                printf("n=%d seq FAILS\n", n);
            else if (w > worst_seq)
                worst_seq = w;
            s = 0;
            for (int j = 0; j < n; j++) s += fastexp(x[j] - m);
            float rr = 1.0f / s;
            for (int j = 0; j < n; j++) y[j] = fastexp(x[j] - m) * rr;
            w = check(x, n, y, "fast");
            if (w < 0)
                printf("n=%d fast FAILS\n", n);
            else if (w > worst_fast)
                worst_fast = w;
            /* not rescaled online over lanes of 32 */
            float lm[32], ls[32];
            for (int l = 0; l < 32; l++) {
                lm[l] = -FLT_MAX;
                ls[l] = 0;
                for (int j = l; j < n; j += 32) {
                    if (x[j] > lm[l]) lm[l] = x[j];
                    ls[l] += expf(x[j] - lm[l]);
                }
            }
            float top = -FLT_MAX;
            for (int l = 0; l < 32; l++) top = fmaxf(top, lm[l]);
            s = 0;
            for (int l = 0; l < 32; l++) s += ls[l] * expf(lm[l] - top);
            for (int j = 0; j < n; j++) y[j] = expf(x[j] - top) / s;
            caught_nr += check(x, n, y, "nr") < 0;
            s = 0;
            for (int j = 0; j < n; j++) s += expf(x[j]);
            for (int j = 0; j < n; j++) y[j] = expf(x[j]) / s;
            caught_ov += check(x, n, y, "ov") < 0;
        }
        printf("n=%6d worst err/bound seq %.3f fast %.3f; not_rescaled caught %d/%d rows, overflow caught %d/%d\n", n,
               worst_seq / 1000.0, worst_fast / 1000.0, caught_nr, rows, caught_ov, rows);
        free(x);
        free(y);
    }
}
