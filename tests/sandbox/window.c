/* window.c - a stand-in runner for the output window's test (build/tests/sandbox-window, started by
 * `sandbox-check RUNNER window`): what a hostile runner can do to the window it is given, with no
 * system-call filter in the way (the real runner's filter refuses ftruncate and fcntl's seals as
 * well; the seals must hold on their own).
 *
 * It maps PROTO_WINDOW_FD, tries to shrink it, grow it and seal it against the scorer's reads (each
 * must fail), writes a known pattern, and says the output is in the window (MSG_OUTPUT_WINDOW); then
 * it shrinks its own view of it (munmap, madvise) and waits for the scorer to finish. Without a
 * window it says so all the same: the scorer must refuse that answer. Exit 0, or the step that went
 * wrong. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto.h"

#define WINDOW_TEST_BYTES (1u << 20) /* check.c starts it with a window of this size */

static int say_in_window(void)
{
    msg_head h = {PROTO_MAGIC, MSG_OUTPUT_WINDOW, 0};
    return write(PROTO_OUT_FD, &h, sizeof h) == (ssize_t)sizeof h ? 0 : 1;
}

int main(void)
{
    struct stat st;
    if (fstat(PROTO_WINDOW_FD, &st)) return say_in_window() ? 1 : 0; /* no window: claim one anyway */
    if ((size_t)st.st_size != WINDOW_TEST_BYTES) return 2;
    uint32_t *w = mmap(NULL, WINDOW_TEST_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, PROTO_WINDOW_FD, 0);
    if (w == MAP_FAILED) return 3;
    if (ftruncate(PROTO_WINDOW_FD, 0) == 0) return 4;                          /* the scorer's reads would fault */
    if (ftruncate(PROTO_WINDOW_FD, 2 * WINDOW_TEST_BYTES) == 0) return 5;      /* ... or it would grow unbounded */
    if (fcntl(PROTO_WINDOW_FD, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_FUTURE_WRITE) == 0) return 6;
    for (uint32_t i = 0; i < WINDOW_TEST_BYTES / 4; i++) w[i] = i * 2654435761u;
    if (say_in_window()) return 7;
    munmap(w, WINDOW_TEST_BYTES); /* its own view only */
    char c;
    return read(PROTO_IN_FD, &c, 1) < 0 ? 8 : 0; /* until the scorer closes the channel */
}
