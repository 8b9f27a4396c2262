/* expect: audit
 * threats: 13 (rows of ../shared/GRADER_THREATS.md)
 * Includes a file from outside the lab that is no C at all: the compile fails, and the grader
 * must still name the include (an audit finding), not quote the file back in a compile error. */
#include "/etc/passwd"
