/* test_audit.c - the build audit's report of a refused call: named as the source spells it
 * (demangled C++, or the symbol where c++filt is missing) and placed at the line of the student's
 * file that makes it. Each test builds one small file of tests/fixtures/ with build_runner, as the
 * grader does, and reads the message; the build stops at the audit, so nothing is linked or run. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "config.h"
#include "tests.h"

#define SCRATCH "build/tmp/audit-test"

static const char *const lab01_functions[] = {"matvec_rows", "matvec_contiguous", "matvec_unrolled"};
static const char *const lab04_functions[] = {"vector_add",        "reduce_interleaved", "reduce_strided",
                                              "reduce_sequential", "reduce_shuffle",     "reduce_vectorized",
                                              "matvec_thread",     "matvec_warp",        "matvec_block"};

/* The number of the first line of `file` that holds `text` (0: none). */
static int line_of(const char *file, const char *text)
{
    char *src = slurp(file);
    ck_assert_msg(src != NULL, "cannot read %s", file);
    char *at = strstr(src, text);
    int line = 1;
    for (char *p = src; at && p < at; p++) line += *p == '\n';
    free(src);
    return at ? line : 0;
}

/* Build `source` for the lab in `lab_dir` with `compiler` and `cflags` in a fresh scratch folder
 * `name`, the lab's allow_calls from its thresholds.conf; the build status, the message in msg. */
static int build(const char *name, const char *compiler, const char *cuda_home, const char *cflags, const char *lab_dir,
                 const char *source, const char *const *functions, int nfunctions, char *msg, size_t len)
{
    char scratch[256], conf[256], err[256];
    snprintf(scratch, sizeof scratch, SCRATCH "/%s", name);
    ck_assert_int_eq(sh("rm -rf %s && mkdir -p %s", scratch, scratch), 0);
    snprintf(conf, sizeof conf, "%s/thresholds.conf", lab_dir);
    config c;
    ck_assert_msg(config_load(&c, conf, err, sizeof err) == 0, "%s", err);
    const char *allow = config_str(&c, "allow_calls");
    build_spec b = {compiler, cuda_home, source, lab_dir, scratch, "/nonexistent/runner-base.o", cflags, "",
                    functions, nfunctions, allow ? allow : "", NULL, NULL};
    int st = build_runner(&b, msg, len);
    config_free(&c);
    return st;
}

/* A C call the lab does not allow, made in a static helper the compiler inlines: the message
 * names the call, the student's file and the line (not the scratch copy the grader compiled). */
START_TEST(test_audit_names_refused_call_at_its_line)
{
    const char *src = "tests/fixtures/audit_fopen.c";
    char msg[4096], want[512];
    int st = build("fopen", "gcc", NULL, "-std=c11 -O3 -march=native", "grading/01-cpu-matvec", src, lab01_functions, 3,
                   msg, sizeof msg);
    ck_assert_msg(st == BUILD_AUDIT, "status %d: %s", st, msg);
    snprintf(want, sizeof want, "calls fopen at %s:%d, in the code of ", src, line_of(src, "fopen("));
    ck_assert_msg(strstr(msg, want) != NULL, "wanted \"%s\" in: %s", want, msg);
    ck_assert_msg(strstr(msg, "student.c") == NULL, "names the scratch copy: %s", msg);
}
END_TEST

/* C++ from g++, outside the CUDA labs: the C++ runtime is not allowed there. operator new[] is
 * named as the source spells it, and by its symbol when c++filt can't be found (here: a PATH
 * whose copy of /usr/bin lacks it); the line is found either way. */
START_TEST(test_audit_demangles_or_falls_back_to_the_symbol)
{
    const char *src = "tests/fixtures/audit_new.cc";
    char msg[4096], want[512];
    int line = line_of(src, "new double");
    if (sh("command -v g++ > /dev/null") != 0) { /* a CPU-only machine may have gcc alone */
        printf("audit of C++ from g++: skipped: no g++\n");
        return;
    }
    int st = build("new", "g++", NULL, "-O2", "grading/01-cpu-matvec", src, lab01_functions, 3, msg, sizeof msg);
    ck_assert_msg(st == BUILD_AUDIT, "status %d: %s", st, msg);
    snprintf(want, sizeof want, "calls operator new[](unsigned long) at %s:%d", src, line);
    ck_assert_msg(strstr(msg, want) != NULL, "wanted \"%s\" in: %s", want, msg);

    /* /usr/bin again, as links, without c++filt, in place of /usr/bin on the PATH */
    char farm[PATH_MAX], path[8192] = "", *old = strdup(getenv("PATH") ? getenv("PATH") : ""), *save = NULL;
    char *kept = strdup(old);
    ck_assert_int_eq(sh("rm -rf " SCRATCH "/no-cxxfilt && mkdir -p " SCRATCH "/no-cxxfilt && "
                        "cp -s /usr/bin/* " SCRATCH "/no-cxxfilt/ 2>/dev/null; rm -f " SCRATCH "/no-cxxfilt/c++filt"),
                     0);
    ck_assert_ptr_nonnull(realpath(SCRATCH "/no-cxxfilt", farm));
    snprintf(path, sizeof path, "%s", farm);
    for (char *d = strtok_r(old, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char tool[PATH_MAX + 16];
        snprintf(tool, sizeof tool, "%s/c++filt", d);
        if (access(tool, X_OK) && strlen(path) + strlen(d) + 2 < sizeof path) strcat(strcat(path, ":"), d);
    }
    free(old);
    setenv("PATH", path, 1); /* put back below: with CK_FORK=no the next test runs in this process */
    int usable = sh("command -v c++filt > /dev/null") != 0 && sh("command -v g++ > /dev/null") == 0; /* g++ linked */
    if (usable)
        st = build("new-mangled", "g++", NULL, "-O2", "grading/01-cpu-matvec", src, lab01_functions, 3, msg,
                   sizeof msg);
    setenv("PATH", kept, 1);
    free(kept);
    if (!usable) {
        printf("audit without c++filt: skipped: g++ is not in /usr/bin here\n");
        return;
    }
    ck_assert_msg(st == BUILD_AUDIT, "status %d: %s", st, msg);
    snprintf(want, sizeof want, "calls _Znam at %s:%d", src, line);
    ck_assert_msg(strstr(msg, want) != NULL, "wanted \"%s\" in: %s", want, msg);
}
END_TEST

/* nvcc (NVCC_FOUND, as make exports it, else the one on the PATH) into `nvcc`, and the toolkit's
 * root (CUDA_HOME, else nvcc's folder's parent) into `home`; 0 (and the test skipped) without one. */
static int find_nvcc(char *nvcc, char *home, size_t len)
{
    const char *found = getenv("NVCC_FOUND"), *root = getenv("CUDA_HOME");
    if (found && !*found) return 0; /* make: no toolkit */
    if (!found && sh("command -v nvcc > " SCRATCH "/nvcc-path.txt 2>/dev/null") != 0) return 0;
    char *where = found ? strdup(found) : slurp(SCRATCH "/nvcc-path.txt"), real[PATH_MAX];
    int ok = where && (where[strcspn(where, "\n")] = '\0', realpath(where, real) != NULL);
    if (ok) snprintf(nvcc, len, "%s", where);
    free(where);
    char *bin = ok ? strstr(real, "/bin/nvcc") : NULL;
    if (bin) *bin = '\0';
    if (root && *root) snprintf(home, len, "%s", root);
    else if (bin) snprintf(home, len, "%s", real);
    return ok && ((root && *root) || bin);
}

/* A std::thread in a CUDA lab: the refused call is in <thread>'s inline code, and is reported
 * demangled, at the line of the student's file that makes the thread; the lab's allow_calls and
 * the C++ runtime allowed in CUDA labs (operator new and delete, std::terminate) do not hide it. */
START_TEST(test_audit_names_cxx_call_in_cuda_lab_at_its_line)
{
    char nvcc[PATH_MAX], home[PATH_MAX], msg[4096], want[512];
    sh("mkdir -p " SCRATCH);
    if (!find_nvcc(nvcc, home, sizeof home)) {
        printf("audit of a .cu file: skipped: no CUDA toolkit\n");
        return;
    }
    const char *src = "tests/fixtures/audit_thread.cu";
    int st = build("thread", nvcc, home, "-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90",
                   "grading/04-warp-reduction", src, lab04_functions, 9, msg, sizeof msg);
    ck_assert_msg(st == BUILD_AUDIT, "status %d: %s", st, msg);
    snprintf(want, sizeof want,
             "calls std::thread::_M_start_thread(std::unique_ptr<std::thread::_State, std::default_delete<std::thread::"
             "_State> >, void (*)()) at %s:%d, in the code of vector_add",
             src, line_of(src, "std::thread("));
    ck_assert_msg(strstr(msg, want) != NULL, "wanted \"%s\" in: %s", want, msg);
    ck_assert_msg(strstr(msg, "std::thread::detach()") != NULL, "the other refused calls, demangled: %s", msg);
    ck_assert_msg(strstr(msg, "operator") == NULL && strstr(msg, "std::terminate") == NULL,
                  "names a call every CUDA lab allows: %s", msg);
}
END_TEST

/* C++ host code of the student's own in a CUDA lab (a class with an out-of-line inline member, a
 * function template) makes weak definitions in COMDAT groups: allowed, as the standard headers'
 * are. The same file with a weak definition under a C name is refused. And what makes the first
 * safe, on the toolkit installed: no COMDAT group that the CUDA runtime links has a C++ (mangled)
 * signature, so no group of the student's can take the place of one of its groups. */
START_TEST(test_audit_allows_cxx_inline_and_templates_in_cuda_lab)
{
    char nvcc[PATH_MAX], home[PATH_MAX], msg[4096];
    sh("mkdir -p " SCRATCH);
    if (!find_nvcc(nvcc, home, sizeof home)) {
        printf("audit of a .cu file: skipped: no CUDA toolkit\n");
        return;
    }
    const char *src = "tests/fixtures/audit_cxx_class.cu", *flags = "-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90";
    int st = build("cxx-class", nvcc, home, flags, "grading/04-warp-reduction", src, lab04_functions, 9, msg, sizeof msg);
    ck_assert_msg(st != BUILD_AUDIT && strstr(msg, "audit:") == NULL, "status %d: %s", st, msg);
    ck_assert_int_eq(sh("nm -C " SCRATCH "/cxx-class/*.o 2>/dev/null | grep -q ' W Launch::blocks() const'"), 0);
    /* the anonymous namespace's kernel stub is global in nvcc's object, and passed */
    ck_assert_int_eq(sh("nm -C " SCRATCH "/cxx-class/*.o 2>/dev/null | grep -q ' T .*(anonymous namespace)::add_kernel'"), 0);
    char weak_flags[256];
    snprintf(weak_flags, sizeof weak_flags, "%s -Dweak_c", flags);
    st = build("cxx-weak-c", nvcc, home, weak_flags, "grading/04-warp-reduction", src, lab04_functions, 9, msg, sizeof msg);
    ck_assert_msg(st == BUILD_AUDIT && strstr(msg, "defines weak symbol launch_count"), "status %d: %s", st, msg);
    ck_assert_int_eq(sh("readelf -g %s/lib64/libcudart_static.a > " SCRATCH "/groups.txt 2>/dev/null", home), 0);
    ck_assert_int_eq(sh("grep -q 'COMDAT group' " SCRATCH "/groups.txt"), 0); /* the listing is read */
    ck_assert_msg(sh("grep 'COMDAT group' " SCRATCH "/groups.txt | grep -q '\\[_Z'") != 0,
                  "the CUDA runtime links a C++ COMDAT group: student C++ could stand in for it");
}
END_TEST

Suite *audit_suite(void)
{
    Suite *s = suite_create("audit");
    TCase *t = tcase_create("refused calls");
    tcase_add_test(t, test_audit_names_refused_call_at_its_line);
    tcase_add_test(t, test_audit_demangles_or_falls_back_to_the_symbol);
    tcase_add_test(t, test_audit_names_cxx_call_in_cuda_lab_at_its_line);
    tcase_add_test(t, test_audit_allows_cxx_inline_and_templates_in_cuda_lab);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    return s;
}
