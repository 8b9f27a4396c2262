/* util.c - see util.h. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

noreturn void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("grade: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) die("out of memory (%zu bytes)", bytes);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) die("out of memory (%zu x %zu bytes)", count, size);
    return p;
}

void *xrealloc(void *p, size_t bytes)
{
    p = realloc(p, bytes ? bytes : 1);
    if (!p) die("out of memory (%zu bytes)", bytes);
    return p;
}

/* The big blocks, handed out (out) or kept for the next take; a block given back when every slot
 * is kept replaces the one kept longest. Blocks are taken with a sixteenth to spare, so a shape
 * drawn a little larger next time still fits. */
#define BIG_MIN ((size_t)64 << 20)
enum { BIG_SLOTS = 8 };
static struct { void *p; size_t bytes; unsigned long long age; int out; } big[BIG_SLOTS];
static unsigned long long big_clock;

void *big_take(size_t bytes)
{
    if (bytes < BIG_MIN) return xmalloc(bytes);
    int fit = -1, free_slot = -1, oldest = -1;
    for (int i = 0; i < BIG_SLOTS; i++) {
        if (!big[i].p) free_slot = i;
        else if (!big[i].out && big[i].bytes >= bytes && big[i].bytes - big[i].bytes / 8 <= bytes &&
                 (fit < 0 || big[i].bytes < big[fit].bytes))
            fit = i;
        if (big[i].p && !big[i].out && (oldest < 0 || big[i].age < big[oldest].age)) oldest = i;
    }
    if (fit >= 0) {
        big[fit].out = 1;
        return big[fit].p;
    }
    if (free_slot < 0 && oldest >= 0) { /* room for the new one */
        free(big[oldest].p);
        big[oldest].p = NULL;
        free_slot = oldest;
    }
    size_t room = bytes + bytes / 16;
    void *p = xmalloc(room);
    if (free_slot >= 0) big[free_slot].p = p, big[free_slot].bytes = room, big[free_slot].out = 1;
    return p; /* every slot out: a plain block, freed when given back */
}

void big_give(void *p)
{
    for (int i = 0; p && i < BIG_SLOTS; i++)
        if (big[i].p == p) {
            big[i].out = 0;
            big[i].age = ++big_clock;
            return;
        }
    free(p);
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

int write_all(int fd, const void *buf, size_t bytes)
{
    const char *p = buf;
    while (bytes > 0) {
        ssize_t k = write(fd, p, bytes);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        bytes -= (size_t)k;
    }
    return 0;
}

int read_all(int fd, void *buf, size_t bytes)
{
    char *p = buf;
    while (bytes > 0) {
        ssize_t k = read(fd, p, bytes);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        bytes -= (size_t)k;
    }
    return 0;
}

double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

char *read_text(const char *path, size_t max_bytes)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *s = xmalloc(max_bytes + 1);
    size_t n = fread(s, 1, max_bytes, f);
    fclose(f);
    s[n] = '\0';
    return s;
}

uint64_t fnv1a(const void *data, size_t bytes, uint64_t h)
{
    const unsigned char *p = data;
    if (h == 0) h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int mkdirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

void phase(const char *fmt, ...)
{
    static double last;
    static int on = -1;
    if (on < 0) on = getenv("WB_PHASES") && *getenv("WB_PHASES") == '1';
    if (!on) return;
    double t = now_s();
    if (last == 0) last = t;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "phase: %-40s %7.3f s\n", what, t - last);
    last = t;
}
