/* tool.h - run a tool (a compiler, readelf, nm, cuobjdump ...) as a child process under a
 * wall-clock limit, its output to a file, and quote what it said. The scorer's only way of
 * running a program other than the student's runner (which sandbox.c starts). */
#ifndef TOOL_H
#define TOOL_H

#include <stddef.h>

/* The wall-clock limit of a binutils or compiler step of the build and the audit. */
#define TOOL_TIMEOUT_S 60.0

/* Run argv with stdout+stderr to out_path, under a wall-clock limit. Returns the exit status,
 * or -1 if it could not run or was killed. */
int run_tool(char *const argv[], const char *out_path, double timeout_s);
/* The same, with the size limit on any file it writes (run_tool's is 64 MiB). */
int run_tool_files(char *const argv[], const char *out_path, double timeout_s, size_t max_file_bytes);
/* The start of what a tool wrote to `path`, after `prefix`, into msg. */
void tool_message(const char *path, char *msg, size_t len, const char *prefix);

#endif
