// fetch.cu - what moving one 512 MiB output from the device to the scorer costs, step by step (the
// thirty-fourth session, docs/BENCHMARKS.md "Whole outputs through a window"): the device-to-host
// copy into pageable and into registered memory, a pipe of 1 MiB between two processes (the
// channel's), and one thread's memcpy. Three runs of each; the first of a kind pays its page faults.
#include "common.h"

#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main()
{
    const size_t B = 512u << 20, PIECE = 1u << 20;
    char *d, *h = (char *)malloc(B), *g = (char *)malloc(B);
    CK(cudaMalloc(&d, B));
    CK(cudaMemset(d, 1, B));
    memset(h, 0, B), memset(g, 0, B);
    for (int r = 0; r < 3; r++) {
        double t = now();
        CK(cudaMemcpy(h, d, B, cudaMemcpyDeviceToHost));
        printf("device to pageable host memory  %.3f s\n", now() - t);
    }
    CK(cudaHostRegister(h, B, 0));
    for (int r = 0; r < 3; r++) {
        double t = now();
        CK(cudaMemcpy(h, d, B, cudaMemcpyDeviceToHost));
        printf("device to registered memory     %.3f s\n", now() - t);
    }
    CK(cudaHostUnregister(h));
    int p[2];
    if (pipe(p)) return 1;
    fcntl(p[1], F_SETPIPE_SZ, (int)PIECE);
    pid_t k = fork();
    if (k == 0) { // the writer: three outputs, a MiB a write
        close(p[0]);
        for (int r = 0; r < 3; r++)
            for (size_t o = 0; o < B;) {
                ssize_t w = write(p[1], h + o, B - o < PIECE ? B - o : PIECE);
                if (w <= 0) _exit(1);
                o += (size_t)w;
            }
        _exit(0);
    }
    close(p[1]);
    for (int r = 0; r < 3; r++) {
        double t = now();
        for (size_t o = 0; o < B;) {
            ssize_t n = read(p[0], g + o, B - o < PIECE ? B - o : PIECE);
            if (n <= 0) return 1;
            o += (size_t)n;
        }
        printf("a pipe of 1 MiB, 1 MiB reads    %.3f s\n", now() - t);
    }
    waitpid(k, NULL, 0);
    double t = now();
    memcpy(g, h, B);
    printf("memcpy, one thread              %.3f s\n", now() - t);
    return 0;
}
