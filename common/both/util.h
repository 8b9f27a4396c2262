/* util.h - small pieces every other file needs: errors, memory, whole-buffer I/O, clocks. */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

/* Print "grade: <message>" to stderr and exit with status 2 (usage or set-up error). */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* malloc/calloc/realloc that die on failure. */
void *xmalloc(size_t bytes);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t bytes);
/* A block for a big array that is filled whole before it is read (a case's inputs, a triad's
 * arrays), kept when given back and handed out again for a size up to an eighth smaller (each
 * stage draws its timed shape afresh): a gigabyte's pages are faulted in once per process, not
 * once per stage (0.7 s each on a 2-core VM). Small sizes are plain malloc and free. */
void *big_take(size_t bytes);
void big_give(void *p);
char *xstrdup(const char *s);

/* Write or read exactly `bytes` bytes, retrying on EINTR and short transfers.
 * Return 0 on success, -1 on error or end of file. */
int write_all(int fd, const void *buf, size_t bytes);
int read_all(int fd, void *buf, size_t bytes);

/* Monotonic time in seconds. */
double now_s(void);

/* WB_PHASES=1: "phase: <name> <seconds since the last phase>" on stderr, to see where grading
 * time goes. Does nothing otherwise. */
void phase(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read a whole file into a NUL-terminated string (caller frees); NULL if unreadable. */
char *read_text(const char *path, size_t max_bytes);

/* 64-bit FNV-1a hash of a byte string. */
uint64_t fnv1a(const void *data, size_t bytes, uint64_t h);

/* mkdir -p; 0 on success. */
int mkdirs(const char *path);

#endif
