/* technique.c - see technique.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "elf.h"
#include "technique.h"
#include "tool.h"
#include "util.h"

/* ---- the PTX side: functions, their opcodes, their calls ---- */

typedef struct ptx_fn {
    char name[512];
    const char *body, *end; /* between the braces of its definition */
    int entry;              /* a kernel (.entry), not a device function (.func) */
} ptx_fn;

static int name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.'; }

/* The functions (.entry kernels, .func device functions) defined in normalised PTX text, at most
 * max. A declaration without a body is left out. */
static int ptx_functions(const char *t, ptx_fn *fn, int max)
{
    int n = 0;
    for (const char *p = t; n < max && (p = strstr(p, ".")) != NULL;) {
        int entry = !strncmp(p, ".entry", 6), func = !strncmp(p, ".func", 5);
        if ((!entry && !func) || name_char(p[entry ? 6 : 5])) {
            p++;
            continue;
        }
        p += entry ? 6 : 5;
        p += strspn(p, " \t\r\n");
        if (*p == '(') { /* a device function's return value: "(.param.b32 func_retval0)" */
            const char *close = strchr(p, ')');
            if (!close) break;
            p = close + 1 + strspn(close + 1, " \t\r\n");
        }
        size_t k = 0;
        while (name_char(p[k]) && k + 1 < sizeof fn[n].name) k++;
        if (!k) continue;
        snprintf(fn[n].name, sizeof fn[n].name, "%.*s", (int)k, p);
        p += k;
        /* its parameters, then a body, or ';' for a declaration */
        int depth = 0;
        while (*p && !(depth == 0 && (*p == '{' || *p == ';'))) depth += (*p == '(') - (*p == ')'), p++;
        if (*p != '{') continue;
        const char *body = ++p;
        for (depth = 1; *p && depth; p++) depth += (*p == '{') - (*p == '}');
        fn[n].body = body, fn[n].end = p, fn[n].entry = entry;
        n++;
    }
    return n;
}

/* The opcode of one statement (the text before its ';'): past braces, labels ("$L__BB0_2:"),
 * directives (".loc 1 5 3", which ends with a line, not a ';') and a predicate ("@%p1", "@!%p2").
 * Empty where the statement is a directive. */
static void statement_opcode(const char *s, const char *end, char *op, size_t len)
{
    op[0] = '\0';
    while (s < end) {
        s += strspn(s, " \t\r\n{}");
        if (s >= end) return;
        size_t word = 0;
        while (s + word < end && !isspace((unsigned char)s[word]) && s[word] != '{' && s[word] != '}') word++;
        /* a label ("$L__BB0_2:"), which the normalising may have joined to a directive after it
         * ("$L__BB0_2:.loc"); a single ':' (an opcode may hold "::", as in ld.global.L1::no_allocate) */
        const char *colon = NULL;
        for (size_t k = 0; k < word && !colon; k++)
            if (s[k] == ':' && (k + 1 == word || s[k + 1] != ':') && (k == 0 || s[k - 1] != ':')) colon = s + k;
        if (colon) {
            s = colon + 1;
            continue;
        }
        if (*s == '.') { /* a directive: to the end of its line */
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            if (!nl) return;
            s = nl + 1;
            continue;
        }
        if (*s == '@') { /* a predicate */
            s += word;
            continue;
        }
        snprintf(op, len, "%.*s", (int)word, s);
        return;
    }
}

static int matches_any(const char *op, const char *patterns)
{
    char words[1024], *save = NULL;
    snprintf(words, sizeof words, "%s", patterns);
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (fnmatch(w, op, 0) == 0) return 1;
    return 0;
}

/* Does a call in [s, end) name the function `name` (a whole token)? */
static int names(const char *s, const char *end, const char *name)
{
    size_t k = strlen(name);
    for (const char *p = s; p + k <= end && (p = memmem(p, (size_t)(end - p), name, k)) != NULL; p += k)
        if ((p == s || !name_char(p[-1])) && (p + k == end || !name_char(p[k]))) return 1;
    return 0;
}

/* Does function i, or a function it calls (transitively: `seen` marks those visited), use a
 * matching instruction? */
static int uses(const ptx_fn *fn, int n, int i, const char *patterns, char *seen)
{
    if (seen[i]) return 0;
    seen[i] = 1;
    char op[128];
    for (const char *s = fn[i].body; s < fn[i].end;) {
        const char *semi = memchr(s, ';', (size_t)(fn[i].end - s));
        const char *end = semi ? semi : fn[i].end;
        statement_opcode(s, end, op, sizeof op);
        if (op[0] && matches_any(op, patterns)) return 1;
        if (!strncmp(op, "call", 4))
            for (int j = 0; j < n; j++)
                if (j != i && !seen[j] && names(s, end, fn[j].name) && uses(fn, n, j, patterns, seen)) return 1;
        s = end + 1;
    }
    return 0;
}

enum { MAX_PTX_FUNCTIONS = 512, MAX_SHARED = 64 };

/* One PTX file, read once: normalised, its functions found, its .shared variables named. */
typedef struct ptx_file {
    char *text;
    ptx_fn *fn;
    int n;
    char shared[MAX_SHARED][256]; /* module-level and kernels' own ("demoted") */
    int nshared;
} ptx_file;

static void ptx_open(ptx_file *p, const char *raw)
{
    p->text = xstrdup(raw);
    ptx_normalise(p->text);
    p->fn = xcalloc(MAX_PTX_FUNCTIONS, sizeof *p->fn);
    p->n = ptx_functions(p->text, p->fn, MAX_PTX_FUNCTIONS);
    p->nshared = 0;
    for (const char *d = p->text; (d = strstr(d, ".shared")) != NULL; d += 7) {
        const char *q = d + 7, *name = NULL;
        while (*q && *q != ';' && *q != '\n' && q - d < 400) { /* ".shared.align 4 .b8 name[4224];" */
            if (name_char(*q) && *q != '.' && (q[-1] == ' ' || q[-1] == '\t')) name = q;
            q++;
        }
        if (name && *q == ';' && p->nshared < MAX_SHARED)
            snprintf(p->shared[p->nshared++], sizeof p->shared[0], "%.*s", (int)strcspn(name, "[; \t\n"), name);
    }
}

static void ptx_close(ptx_file *p)
{
    free(p->fn);
    free(p->text);
}

static int kernel_index(const ptx_file *p, const char *kernel)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->fn[i].name, kernel)) return i;
    return -1;
}

static int uses_in(const ptx_file *p, int k, const char *patterns)
{
    char *seen = xcalloc(MAX_PTX_FUNCTIONS, 1);
    int found = uses(p->fn, p->n, k, patterns, seen);
    free(seen);
    return found;
}

int ptx_kernel_uses(const char *ptx, const char *kernel, const char *patterns)
{
    ptx_file p;
    ptx_open(&p, ptx);
    int k = kernel_index(&p, kernel), found = k < 0 ? -1 : uses_in(&p, k, patterns);
    ptx_close(&p);
    return found;
}

/* ---- the PTX side: shared-memory bank conflicts ----
 *
 * The kernel's integer arithmetic is run for the 32 lanes of a block's first warp, in the text's
 * order (branches and predicates ignored: each register keeps the value of its first definition
 * in the text, a loop's first trip), from %tid, %ntid and the addresses of its .shared variables;
 * a value read from memory or a parameter is unknown, and so is anything computed from it. Each
 * ld.shared and st.shared whose address is known in every lane is a warp's access: its degree of
 * conflict is the most distinct 4-byte words one bank serves in one phase (32 lanes a phase for
 * accesses of 4 bytes or less, 16 for 8 bytes, 8 for 16). blockDim.x is not in the PTX: the warp's
 * lanes are laid out for 8, 16 and 32 threads across, and the kernel is judged by the layout that
 * conflicts least. */

enum { LANES = 32, MAX_REGS = 4096 };

typedef struct ptx_reg { char name[24]; int known; long long v[LANES]; } ptx_reg;
typedef struct ptx_machine {
    ptx_reg *reg;
    int nreg;
    const ptx_file *file; /* its .shared variables, each at 65536 (i + 1) */
    int warp;             /* the lanes are those of the block's warp `warp` (0: the first) */
} ptx_machine;

static ptx_reg *reg_of(ptx_machine *m, const char *name, int make)
{
    for (int i = 0; i < m->nreg; i++)
        if (!strcmp(m->reg[i].name, name)) return &m->reg[i];
    if (!make || m->nreg == MAX_REGS || strlen(name) >= sizeof m->reg[0].name) return NULL;
    ptx_reg *r = &m->reg[m->nreg++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->known = 0;
    return r;
}

/* An operand's value in each lane of the layout `bx` threads across: 1 when known. */
static int operand(ptx_machine *m, const char *o, int bx, long long *v)
{
    o += strspn(o, " \t");
    char word[256];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(o, " \t"), o);
    if (!word[0]) return 0;
    for (int l = 0; l < LANES; l++) { /* special registers */
        long long x, t = (long long)m->warp * LANES + l;
        if (!strcmp(word, "%tid.x")) x = t % bx;
        else if (!strcmp(word, "%tid.y")) x = t / bx;
        else if (!strcmp(word, "%laneid")) x = l;
        else if (!strcmp(word, "%ntid.x")) x = bx;
        else if (!strcmp(word, "%warpid")) x = m->warp;
        else if (!strncmp(word, "%tid.", 5) || !strncmp(word, "%ctaid.", 7)) x = 0;
        else break;
        v[l] = x;
        if (l == LANES - 1) return 1;
    }
    if (word[0] == '%') {
        ptx_reg *r = reg_of(m, word, 0);
        if (!r || !r->known) return 0;
        memcpy(v, r->v, sizeof r->v);
        return 1;
    }
    char *end;
    long long x = strtoll(word, &end, 0); /* decimal, 0x hex, negative */
    if (end != word && !*end) {
        for (int l = 0; l < LANES; l++) v[l] = x;
        return 1;
    }
    for (int i = 0; i < m->file->nshared; i++)
        if (!strcmp(word, m->file->shared[i])) {
            for (int l = 0; l < LANES; l++) v[l] = 65536LL * (i + 1);
            return 1;
        }
    return 0;
}

/* An address "[%r5+132]", "[sym]", "[%rd2+-4]" in each lane: 1 when known. */
static int address(ptx_machine *m, const char *a, int bx, long long *v)
{
    const char *open = strchr(a, '[');
    if (!open) return 0;
    char in[256];
    snprintf(in, sizeof in, "%.*s", (int)strcspn(open + 1, "]"), open + 1);
    long long off = 0;
    char *plus = strchr(in, '+');
    if (plus) off = strtoll(plus + 1, NULL, 0), *plus = '\0';
    if (!operand(m, in, bx, v)) return 0;
    for (int l = 0; l < LANES; l++) v[l] += off;
    return 1;
}

/* The bytes one lane moves in a shared access: its type's size times its vector length. */
static int access_bytes(const char *op)
{
    int n = strstr(op, ".v4") ? 4 : strstr(op, ".v2") ? 2 : 1, size = 4;
    const char *t = strrchr(op, '.');
    if (t && (!strcmp(t, ".f64") || !strcmp(t, ".b64") || !strcmp(t, ".u64") || !strcmp(t, ".s64"))) size = 8;
    if (t && (!strcmp(t, ".f16") || !strcmp(t, ".b16") || !strcmp(t, ".u16") || !strcmp(t, ".s16"))) size = 2;
    if (t && (!strcmp(t, ".b8") || !strcmp(t, ".u8") || !strcmp(t, ".s8"))) size = 1;
    if (t && !strcmp(t, ".b128")) size = 16;
    return n * size;
}

/* The degree of conflict of one access: the most distinct words a bank serves in a phase. */
static int conflict_degree(const long long *addr, int bytes)
{
    int phase = bytes <= 4 ? LANES : bytes == 8 ? 16 : 8, worst = 1;
    for (int p0 = 0; p0 < LANES; p0 += phase) {
        long long words[LANES * 4];
        int n = 0;
        for (int l = p0; l < p0 + phase; l++)
            for (int w = 0; w < (bytes + 3) / 4 && n < LANES * 4; w++) {
                long long word = addr[l] / 4 + w, seen = 0;
                for (int k = 0; k < n && !seen; k++) seen = words[k] == word;
                if (!seen) words[n++] = word;
            }
        for (int bank = 0; bank < 32; bank++) {
            int d = 0;
            for (int k = 0; k < n; k++) d += ((words[k] % 32) + 32) % 32 == bank;
            if (d > worst) worst = d;
        }
    }
    return worst;
}

/* An integer comparison of setp ("setp.lt.u32"): 1 true, 0 false, -1 not one it knows. */
static int compare(const char *op, long long a, long long b)
{
    char cmp[8] = "", type[8] = "";
    if (sscanf(op, "setp.%7[a-z].%7[a-z0-9]", cmp, type) != 2 || type[0] == 'f') return -1;
    int u = type[0] == 'u' || type[0] == 'b', wide = strstr(type, "64") != NULL;
    unsigned long long ua = wide ? (unsigned long long)a : (unsigned)a, ub = wide ? (unsigned long long)b : (unsigned)b;
    long long sa = wide ? a : (int)a, sb = wide ? b : (int)b;
    if (!strcmp(cmp, "eq")) return ua == ub;
    if (!strcmp(cmp, "ne")) return ua != ub;
    if (!strcmp(cmp, "lt") || !strcmp(cmp, "lo")) return u || cmp[1] == 'o' ? ua < ub : sa < sb;
    if (!strcmp(cmp, "le") || !strcmp(cmp, "ls")) return u || cmp[1] == 's' ? ua <= ub : sa <= sb;
    if (!strcmp(cmp, "gt") || !strcmp(cmp, "hi")) return u || cmp[1] == 'i' ? ua > ub : sa > sb;
    if (!strcmp(cmp, "ge") || !strcmp(cmp, "hs")) return u || cmp[1] == 's' ? ua >= ub : sa >= sb;
    return -1;
}

/* One statement of integer arithmetic, or an integer comparison into a predicate (setp; not, and,
 * or of predicates), lane by lane; its destination unknown where it is anything else, or where an
 * operand is unknown. */
static void execute(ptx_machine *m, const char *op, char args[][96], int n, int bx)
{
    if (n < 1 || args[0][0] != '%') return;
    args[0][strcspn(args[0], "|")] = '\0'; /* setp's second destination ("%p1|%p2") is left unknown */
    if (!strncmp(op, "ld", 2) && (strstr(op, ".v2") || strstr(op, ".v4"))) /* "{%r1, %r2, ...}": all unknown */
        for (int i = 1; i < n - 1; i++) {
            ptx_reg *r = args[i][0] == '%' ? reg_of(m, args[i], 1) : NULL;
            if (r) r->known = 0;
        }
    ptx_reg *d = reg_of(m, args[0], 1);
    if (!d) return;
    long long a[LANES], b[LANES], c[LANES], r[LANES];
    char base[24];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(op, "."), op);
    int ka = n > 1 && operand(m, args[1], bx, a), kb = n > 2 && operand(m, args[2], bx, b), kc = n > 3 && operand(m, args[3], bx, c);
    int is32 = strstr(op, "32") && !strstr(op, ".wide") && !strstr(op, "64");
    int ok = 1;
    for (int l = 0; l < LANES && ok; l++) {
        if (!strcmp(base, "setp")) ok = ka && kb && n == 3 && compare(op, a[l], b[l]) >= 0, r[l] = ok ? compare(op, a[l], b[l]) : 0;
        else if (!strcmp(base, "not") && strstr(op, ".pred")) ok = ka, r[l] = !a[l];
        else if (!strcmp(base, "mov") || !strcmp(base, "cvt") || !strcmp(base, "cvta")) ok = ka, r[l] = a[l];
        else if (!strcmp(base, "add")) ok = ka && kb, r[l] = a[l] + b[l];
        else if (!strcmp(base, "sub")) ok = ka && kb, r[l] = a[l] - b[l];
        else if (!strcmp(base, "mul") && !strstr(op, ".hi")) ok = ka && kb, r[l] = a[l] * b[l];
        else if (!strcmp(base, "mad") && !strstr(op, ".hi")) ok = ka && kb && kc, r[l] = a[l] * b[l] + c[l];
        else if (!strcmp(base, "shl")) ok = ka && kb && b[l] >= 0 && b[l] < 63, r[l] = ok ? a[l] << b[l] : 0;
        else if (!strcmp(base, "shr")) ok = ka && kb && b[l] >= 0 && b[l] < 63, r[l] = ok ? a[l] >> b[l] : 0;
        else if (!strcmp(base, "and")) ok = ka && kb, r[l] = a[l] & b[l];
        else if (!strcmp(base, "or")) ok = ka && kb, r[l] = a[l] | b[l];
        else if (!strcmp(base, "xor")) ok = ka && kb, r[l] = a[l] ^ b[l];
        else if (!strcmp(base, "not")) ok = ka, r[l] = ~a[l];
        else if (!strcmp(base, "neg")) ok = ka, r[l] = -a[l];
        else if (!strcmp(base, "min")) ok = ka && kb, r[l] = a[l] < b[l] ? a[l] : b[l];
        else if (!strcmp(base, "max")) ok = ka && kb, r[l] = a[l] > b[l] ? a[l] : b[l];
        else if (!strcmp(base, "div")) ok = ka && kb && b[l] != 0, r[l] = ok ? a[l] / b[l] : 0;
        else if (!strcmp(base, "rem")) ok = ka && kb && b[l] != 0, r[l] = ok ? a[l] % b[l] : 0;
        else ok = 0;
        if (ok && is32 && strcmp(base, "setp")) r[l] = (long long)(int)(unsigned)r[l];
    }
    d->known = ok;
    if (ok) memcpy(d->v, r, sizeof r);
}

/* One statement's opcode (as statement_opcode) and its operands, split at commas, braces and
 * blanks trimmed ("{%f1, %f2}" gives "%f1" and "%f2"): how many, at most 6. */
static int statement_args(const char *s, const char *end, char *op, size_t len, char args[][96])
{
    statement_opcode(s, end, op, len);
    if (!op[0]) return 0;
    const char *a = strstr(s, op) + strlen(op);
    char line[600];
    snprintf(line, sizeof line, "%.*s", (int)(end - a), a);
    int na = 0;
    for (char *save = NULL, *t = strtok_r(line, ",", &save); t && na < 6; t = strtok_r(NULL, ",", &save)) {
        t += strspn(t, " \t\n{");
        snprintf(args[na], 96, "%.*s", (int)strcspn(t, "}\n"), t);
        char *e = args[na] + strlen(args[na]);
        while (e > args[na] && (e[-1] == ' ' || e[-1] == '\t')) *--e = '\0';
        na++;
    }
    return na;
}

/* As conflicts_in, and into *stride (where not NULL) the most words between lanes 0 and 1 of a
 * warp's scalar shared access (4 bytes or less, blockDim.x 32 across): 1 for s[tid], 2 for
 * s[2 * tid + 1], as a work-efficient tree's first step reads. */
static int conflicts_stride_in(const ptx_file *p, int k, int *accesses, int *shared_ops, char *where, size_t len, int *stride)
{
    const ptx_fn *fn = p->fn;
    int best = -1;
    *accesses = *shared_ops = 0;
    if (where && len) where[0] = '\0';
    ptx_machine m = {xcalloc(MAX_REGS, sizeof(ptx_reg)), 0, p};
    /* a kernel that never reads %tid.y has a block one thread high: its lanes are 32 across */
    static const int layouts[] = {32, 16, 8};
    int nlayouts = k >= 0 && names(fn[k].body, fn[k].end, "%tid.y") ? 3 : 1;
    for (int li = 0; k >= 0 && li < nlayouts; li++) {
        int bx = layouts[li], worst = 0, count = 0;
        char worst_at[200] = "";
        m.nreg = 0;
        for (const char *s = fn[k].body; s < fn[k].end;) {
            const char *semi = memchr(s, ';', (size_t)(fn[k].end - s));
            const char *end = semi ? semi : fn[k].end;
            char op[128], args[6][96];
            int na = statement_args(s, end, op, sizeof op, args);
            if (op[0]) {
                int ld = !strncmp(op, "ld.shared", 9), st = !strncmp(op, "st.shared", 9);
                if (ld || st) {
                    long long addr[LANES];
                    if (li == 0) ++*shared_ops;
                    const char *at = ld ? (na > 1 ? args[na - 1] : "") : args[0];
                    if (address(&m, at, bx, addr)) {
                        int d = conflict_degree(addr, access_bytes(op));
                        long long apart = (addr[1] - addr[0]) / 4;
                        if (stride && li == 0 && access_bytes(op) <= 4 && llabs(apart) > *stride) *stride = (int)llabs(apart);
                        count++;
                        if (d > worst) {
                            const char *in = strchr(at, '[') ? strchr(at, '[') + 1 : at;
                            worst = d;
                            snprintf(worst_at, sizeof worst_at, "%s [%.*s]", op, (int)strcspn(in, "]"), in);
                        }
                    }
                    if (ld) { /* a vector destination "{%f1, %f2, ...}": every register unknown */
                        for (int i = 0; i < na - 1; i++) {
                            ptx_reg *r = args[i][0] == '%' ? reg_of(&m, args[i], 1) : NULL;
                            if (r) r->known = 0;
                        }
                    }
                } else if (strncmp(op, "st", 2) && strncmp(op, "bra", 3) && strncmp(op, "setp", 4) && strncmp(op, "bar", 3))
                    execute(&m, op, args, na, bx);
            }
            s = end + 1;
        }
        if (count > *accesses) *accesses = count;
        if (count && (best < 0 || worst < best)) {
            best = worst;
            if (where && len) snprintf(where, len, "%s", worst_at);
        }
    }
    free(m.reg);
    return best < 0 ? 0 : best;
}

static int conflicts_in(const ptx_file *p, int k, int *accesses, int *shared_ops, char *where, size_t len)
{
    return conflicts_stride_in(p, k, accesses, shared_ops, where, len, NULL);
}

int ptx_kernel_stride(const char *ptx, const char *kernel)
{
    ptx_file p;
    ptx_open(&p, ptx);
    int k = kernel_index(&p, kernel), acc, ops, stride = 0;
    if (k >= 0) conflicts_stride_in(&p, k, &acc, &ops, NULL, 0, &stride);
    ptx_close(&p);
    return k < 0 ? -1 : stride;
}

int ptx_kernel_conflicts(const char *ptx, const char *kernel, int *accesses, int *shared_ops, char *where, size_t len)
{
    ptx_file p;
    ptx_open(&p, ptx);
    int k = kernel_index(&p, kernel), d = -1;
    *accesses = *shared_ops = 0;
    if (where && len) where[0] = '\0';
    if (k >= 0) d = conflicts_in(&p, k, accesses, shared_ops, where, len);
    ptx_close(&p);
    return d;
}

/* ---- the PTX side: branches that diverge around shared-memory reads ----
 *
 * The same arithmetic, comparisons into predicates too, run for each of the 8 warps of a block of
 * 256 threads (blockDim.x 256, or 32 across and 8 high where the kernel reads %tid.y). A branch
 * guarded by a predicate ("@%p1 bra $L__BB0_4", forward), whose skipped range reads shared memory,
 * or a guarded shared read itself, diverges in a warp where its predicate is known in every lane
 * and is not the same in all 32: a tree whose working threads thin out inside every warp
 * (tid % (2 * stride) == 0), where sequential addressing (tid < stride) keeps whole warps busy
 * or idle until the last five steps, which only warp 0 takes. The figure: the most warps one
 * such branch diverges in (the first trip of a loop, as above). */

enum { DIVERGE_WARPS = 8 };

static int divergence_in(const ptx_file *p, int k, int *branches, char *where, size_t len)
{
    const ptx_fn *fn = p->fn;
    enum { MAX_BRANCHES = 4096 };
    int *diverged = xcalloc(MAX_BRANCHES, sizeof *diverged), *offset = xcalloc(MAX_BRANCHES, sizeof *offset), nb = 0, bx = names(fn[k].body, fn[k].end, "%tid.y") ? 32 : 256;
    ptx_machine m = {xcalloc(MAX_REGS, sizeof(ptx_reg)), 0, p, 0};
    char (*text)[120] = xcalloc(MAX_BRANCHES, sizeof *text);
    for (int w = 0; w < DIVERGE_WARPS; w++) {
        m.nreg = 0, m.warp = w;
        for (const char *s = fn[k].body; s < fn[k].end;) {
            const char *semi = memchr(s, ';', (size_t)(fn[k].end - s)), *end = semi ? semi : fn[k].end;
            char op[128], args[6][96], guard[32] = "";
            int na = statement_args(s, end, op, sizeof op, args);
            const char *o = op[0] ? strstr(s, op) : s, *at = memchr(s, '@', (size_t)(o - s)); /* "@%p1", "@!%p1" */
            if (at) sscanf(at + 1 + (at[1] == '!'), "%31[^ \t]", guard);
            else at = o;
            /* a forward branch's target, and whether its range reads shared memory */
            const char *label = NULL;
            if (!strncmp(op, "bra", 3) && na >= 1) {
                char def[110];
                snprintf(def, sizeof def, "%s:", args[0]);
                label = strstr(end, def);
                if (label && label >= fn[k].end) label = NULL;
            }
            ptx_reg *r = guard[0] ? reg_of(&m, guard, 0) : NULL;
            int known = r && r->known, split = 0, taken = !guard[0];
            for (int l = 1; known && l < LANES; l++) split |= (r->v[l] != 0) != (r->v[0] != 0);
            if (known && !split) taken = (r->v[0] != 0) != (at[1] == '!');
            int around = guard[0] && ((label && memmem(end, (size_t)(label - end), "ld.shared", 9)) || !strncmp(op, "ld.shared", 9));
            if (around) { /* one entry a branch, by its place in the text */
                int i = 0, off = (int)(s - fn[k].body);
                while (i < nb && offset[i] != off) i++;
                if (i == nb && nb < MAX_BRANCHES) offset[nb++] = off, snprintf(text[i], sizeof text[i], "%.*s", (int)strcspn(at, "\n"), at);
                if (i < nb) diverged[i] += known && split;
            }
            if (label && taken) { /* the whole warp jumps: what it skips, it does not run */
                s = label;
                continue;
            }
            if (op[0] && strncmp(op, "st", 2) && strncmp(op, "bra", 3) && strncmp(op, "bar", 3))
                execute(&m, op, args, na, bx); /* a load's value is unknown */
            s = end + 1;
        }
    }
    int most = 0;
    for (int b = 0; b < nb; b++)
        if (diverged[b] > most) {
            most = diverged[b];
            if (where && len) snprintf(where, len, "%s", text[b]);
        }
    *branches = nb;
    free(text);
    free(offset);
    free(diverged);
    free(m.reg);
    return most;
}

int ptx_kernel_divergence(const char *ptx, const char *kernel, int *branches, char *where, size_t len)
{
    ptx_file p;
    ptx_open(&p, ptx);
    int k = kernel_index(&p, kernel), d = -1;
    *branches = 0;
    if (where && len) where[0] = '\0';
    if (k >= 0) d = divergence_in(&p, k, branches, where, len);
    ptx_close(&p);
    return d;
}

/* ---- the PTX side: passes over global memory ----
 *
 * The kernel's text cut at each synchronisation (shfl.sync, bar.sync, barrier.sync, bar.red): the
 * pieces that read global memory (ld.global, or a generic ld that is not of a parameter) are its
 * passes. A softmax reading its row for the maximum, again for the sum and again to write makes
 * three, with a reduction between each; an online softmax two; one that keeps the row in registers
 * one. */

static int is_sync(const char *op)
{
    return !strncmp(op, "shfl.sync", 9) || !strncmp(op, "bar.sync", 8) || !strncmp(op, "barrier.sync", 12) ||
           !strncmp(op, "bar.red", 7) || !strncmp(op, "barrier.red", 11);
}

static int global_read(const char *op)
{
    if (strncmp(op, "ld.", 3) && strncmp(op, "ldu.", 4)) return 0;
    return !strstr(op, ".param") && !strstr(op, ".shared") && !strstr(op, ".local") && !strstr(op, ".const");
}

static int passes_in(const ptx_file *p, int k)
{
    int passes = 0, reading = 0;
    for (const char *s = p->fn[k].body; s < p->fn[k].end;) {
        const char *semi = memchr(s, ';', (size_t)(p->fn[k].end - s)), *end = semi ? semi : p->fn[k].end;
        char op[128];
        statement_opcode(s, end, op, sizeof op);
        if (is_sync(op)) passes += reading, reading = 0;
        else if (global_read(op)) reading = 1;
        s = end + 1;
    }
    return passes + reading;
}

int ptx_kernel_passes(const char *ptx, const char *kernel)
{
    ptx_file p;
    ptx_open(&p, ptx);
    int k = kernel_index(&p, kernel), n = k < 0 ? -1 : passes_in(&p, k);
    ptx_close(&p);
    return n;
}

/* ---- the PTX side: chains of fused multiply-adds in a loop ----
 *
 * A loop is a backward branch's range of the kernel's text. Its fma instructions are linked where
 * one's addend is another's result: each linked set is one chain of dependent multiply-adds (an
 * accumulator carried round the loop is one set). An fma both of whose multiplicands feed two or
 * more fmas of the loop is an outer product's: a value of A and a value of B each reused, as a
 * thread's 2D tile of C reuses them (a 1D tile reuses only one side). */

typedef struct fma_op { char d[32], a[32], b[32], c[32]; } fma_op;

static int find_root(int *parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* The fma instructions of [from, to): their chains and outer-product fmas into *chains and *outer
 * where more; how many fmas there were. */
static int fma_range(const char *from, const char *to, fma_op *f, int *parent, int *chains, int *outer)
{
    enum { MAX_FMA = 8192 };
    int nf = 0;
    for (const char *q = from; q < to && nf < MAX_FMA;) {
        const char *qe = memchr(q, ';', (size_t)(to - q));
        if (!qe) break;
        char qop[128], line[400];
        statement_opcode(q, qe, qop, sizeof qop);
        if (!strncmp(qop, "fma.", 4)) {
            const char *a = strstr(q, qop) + strlen(qop);
            snprintf(line, sizeof line, "%.*s", (int)(qe - a), a);
            fma_op o;
            if (sscanf(line, " %31[^, \t] , %31[^, \t] , %31[^, \t] , %31[^, \t;]", o.d, o.a, o.b, o.c) == 4) f[nf++] = o;
        }
        q = qe + 1;
    }
    for (int i = 0; i < nf; i++) parent[i] = i;
    for (int i = 0; i < nf; i++) /* i's addend is j's result: one chain */
        for (int j = 0; j < nf; j++)
            if (i != j && !strcmp(f[i].c, f[j].d)) parent[find_root(parent, i)] = find_root(parent, j);
    int roots = 0, both = 0;
    for (int i = 0; i < nf; i++) {
        roots += find_root(parent, i) == i;
        int ua = 0, ub = 0;
        for (int j = 0; j < nf; j++) {
            ua += !strcmp(f[j].a, f[i].a) || !strcmp(f[j].b, f[i].a);
            ub += !strcmp(f[j].a, f[i].b) || !strcmp(f[j].b, f[i].b);
        }
        both += ua >= 2 && ub >= 2 && strcmp(f[i].a, f[i].b);
    }
    if (roots > *chains) *chains = roots;
    if (both > *outer) *outer = both;
    return nf;
}

static void fma_in(const ptx_file *p, int k, int *chains, int *outer)
{
    const ptx_fn *fn = p->fn;
    int in_loops = 0;
    *chains = *outer = 0;
    fma_op *f = k >= 0 ? xcalloc(8192, sizeof *f) : NULL;
    int *parent = k >= 0 ? xcalloc(8192, sizeof *parent) : NULL;
    for (const char *s = k >= 0 ? fn[k].body : NULL; s && s < fn[k].end;) { /* each backward branch */
        const char *semi = memchr(s, ';', (size_t)(fn[k].end - s)), *end = semi ? semi : fn[k].end;
        char op[128], target[64] = "", def[80];
        statement_opcode(s, end, op, sizeof op);
        const char *t = strncmp(op, "bra", 3) ? NULL : strstr(s, op);
        if (t) sscanf(t + strlen(op), " %63[^; \t\n]", target);
        snprintf(def, sizeof def, "%s:", target);
        const char *label = target[0] ? strstr(fn[k].body, def) : NULL;
        if (label && label < s) in_loops += fma_range(label, s, f, parent, chains, outer);
        s = end + 1;
    }
    /* no fma in any loop: a kernel unrolled whole (its sizes template parameters) is one region */
    if (k >= 0 && !in_loops) fma_range(fn[k].body, fn[k].end, f, parent, chains, outer);
    free(parent);
    free(f);
}

int ptx_kernel_fma(const char *ptx, const char *kernel, int *chains, int *outer)
{
    ptx_file p;
    ptx_open(&p, ptx);
    int k = kernel_index(&p, kernel);
    *chains = *outer = 0;
    if (k >= 0) fma_in(&p, k, chains, outer);
    ptx_close(&p);
    return k < 0 ? -1 : 0;
}

/* ---- the host side: which kernels a stage's function reaches ---- */

/* The names of the functions in the sections reached from those of `functions` (space-separated)
 * through the relocations (calls, and addresses taken: a kernel launched through a pointer, a table
 * of them), of what the reached code calls or refers to (defined in the object or not: a CUDA
 * runtime call), and of those sections ("_Z...L11tile_kernel..." for ".text._Z...": a local template's stub is reached through
 * its section). Returns how many, into names (for the caller to free); -1 where readelf failed. */
static int reached_names(const build_spec *b, const char *object, const char *functions, char ***names)
{
    elf_info e;
    if (elf_read(b, object, &e)) return -1;
    int count = 0;
    char *reached = xcalloc((size_t)e.nsec + 1, 1);
    int *queue = xcalloc((size_t)e.nsec + 1, sizeof *queue), head = 0, tail = 0;
    char list[1024], *save = NULL;
    snprintf(list, sizeof list, "%s", functions);
    for (char *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save)) { /* each a start */
        int start = symbol_index(&e, f);
        if (start >= 0 && e.sym[start].section >= 0 && e.sym[start].section < e.nsec && !reached[e.sym[start].section])
            reached[e.sym[start].section] = 1, queue[tail++] = e.sym[start].section;
    }
    while (head < tail) {
        const char *from = e.sec[queue[head++]].name;
        for (int i = 0; i < e.nrel; i++) {
            if (strcmp(e.rel[i].from, from)) continue;
            int to = section_index(&e, e.rel[i].to);
            if (to < 0) {
                int s = symbol_index(&e, e.rel[i].to);
                to = s >= 0 ? e.sym[s].section : -1;
            }
            if (to < 0 || to >= e.nsec || reached[to]) continue;
            const char *name = e.sec[to].name;
            if (strncmp(name, ".text", 5) && strncmp(name, ".data", 5) && strncmp(name, ".rodata", 7)) continue;
            reached[to] = 1, queue[tail++] = to;
        }
    }
    *names = xcalloc((size_t)e.nsym + (size_t)e.nsec + (size_t)e.nrel + 1, sizeof **names);
    for (int i = 0; i < e.nrel; i++) /* what the reached code calls or refers to, defined here or not */
        if (section_index(&e, e.rel[i].from) >= 0 && reached[section_index(&e, e.rel[i].from)] && e.rel[i].to[0])
            (*names)[count++] = xstrdup(e.rel[i].to);
    for (int i = 0; i < e.nsym; i++)
        if (e.sym[i].func && e.sym[i].section >= 0 && e.sym[i].section < e.nsec && reached[e.sym[i].section])
            (*names)[count++] = xstrdup(e.sym[i].name);
    for (int s = 0; s < e.nsec; s++)
        if (reached[s] && !strncmp(e.sec[s].name, ".text.", 6)) {
            const char *n = e.sec[s].name + 6;
            if (!strncmp(n, "unlikely.", 9)) n += 9;
            (*names)[count++] = xstrdup(n);
        }
    free(reached);
    free(queue);
    elf_free(&e);
    return count;
}

/* Each of the n names demangled (c++filt, all in one call), into out[i] (for the caller to free);
 * a name c++filt does not change, or all of them where it can't be run, as it is. */
static void demangle_all(const build_spec *b, char **in, int n, char **out)
{
    char **argv = xcalloc((size_t)n + 2, sizeof *argv), path[1100];
    argv[0] = "c++filt";
    for (int i = 0; i < n; i++) argv[i + 1] = in[i];
    snprintf(path, sizeof path, "%s/technique-names.txt", b->scratch);
    char *text = n && run_tool(argv, path, 60) == 0 ? read_text(path, 16 << 20) : NULL, *line = text;
    for (int i = 0; i < n; i++) {
        size_t k = line ? strcspn(line, "\n") : 0;
        out[i] = line && *line ? strndup(line, k) : xstrdup(in[i]);
        if (line) line = line[k] ? line + k + 1 : line + k;
    }
    free(text);
    free(argv);
}

/* A kernel's name for a message: demangled, its parameter list left out. */
static void short_name(const char *demangled, char *out, size_t len)
{
    const char *paren = strchr(demangled, '(');
    snprintf(out, len, "%.*s", paren ? (int)(paren - demangled) : (int)strlen(demangled), demangled);
}

/* ---- the x86-64 side (CPU labs): independent chains of floating-point adds in a loop ----
 *
 * Read in `objdump -d -r` of the object: a loop is a backward jump's range; in it, a register is a
 * chain when an add, subtract or fused multiply-add both reads and writes it (vaddsd %xmm1,%xmm0,
 * %xmm0; addsd %xmm1,%xmm0; vfmadd231pd ...) and no other instruction of the loop writes it. A chain
 * counts its lanes: one for a scalar (sd, ss), the vector's doubles or floats for a packed one. */

typedef struct x86_insn { unsigned long addr; char op[32], args[160]; } x86_insn;
typedef struct x86_fn { char name[512]; int first, count; } x86_fn;

/* The vector register an operand names, as a number (xmm3, ymm3 and zmm3 are one register), or -1;
 * its width in bits into *bits. */
static int vector_register(const char *arg, int *bits)
{
    int n;
    const char *p = arg + strspn(arg, " ");
    if (sscanf(p, "%%xmm%d", &n) == 1) return *bits = 128, n;
    if (sscanf(p, "%%ymm%d", &n) == 1) return *bits = 256, n;
    if (sscanf(p, "%%zmm%d", &n) == 1) return *bits = 512, n;
    return -1;
}

/* The operands of an instruction, split at the commas outside parentheses; how many. */
static int split_args(const char *args, char out[][64], int max)
{
    int n = 0, depth = 0;
    size_t k = 0;
    for (const char *p = args;; p++) {
        if (*p == '(') depth++;
        if (*p == ')') depth--;
        if ((*p == ',' && depth == 0) || !*p || *p == '#' || *p == '<') {
            if (n < max) {
                snprintf(out[n], 64, "%.*s", (int)k, p - k);
                char *brace = strchr(out[n], '{'); /* an AVX-512 mask: %zmm0{%k1} */
                if (brace) *brace = '\0';
                n++;
            }
            k = 0;
            if (*p != ',') break;
            continue;
        }
        k++;
    }
    return n;
}

/* An add, subtract or fused multiply-add of floating point: 's' or 'p' (scalar, packed) into
 * *shape and 'd' or 's' (double, single) into *type; 2 for SSE's two operands (the destination
 * always read), 3 for AVX's three, 4 for an FMA (the destination always read); 0 for anything else. */
static int fp_add(const char *op, char *shape, char *type)
{
    const char *p = op;
    int vex = *p == 'v';
    p += vex;
    size_t k = strlen(p);
    if (k < 5) return 0;
    *shape = p[k - 2], *type = p[k - 1];
    if ((*shape != 's' && *shape != 'p') || (*type != 'd' && *type != 's')) return 0;
    if ((!strncmp(p, "add", 3) || !strncmp(p, "sub", 3)) && k == 5) return vex ? 3 : 2;
    if (vex && (!strncmp(p, "fmadd", 5) || !strncmp(p, "fmsub", 5) || !strncmp(p, "fnmadd", 6) || !strncmp(p, "fnmsub", 6)))
        return 4;
    return 0;
}

/* Instructions that name a register last without writing it. */
static int reads_only(const char *op)
{
    static const char *const prefix[] = {"cmp", "test", "vcomi", "vucomi", "comi", "ucomi", "prefetch", "j", "push", NULL};
    for (int i = 0; prefix[i]; i++)
        if (!strncmp(op, prefix[i], strlen(prefix[i]))) return 1;
    return 0;
}

/* The lanes of independent chains the loop [from, to] of the instructions carries. */
static int loop_chains(const x86_insn *in, int from, int to)
{
    enum { REGS = 32 };
    int lanes[REGS] = {0}, other[REGS] = {0};
    for (int i = from; i <= to; i++) {
        char args[4][64], shape = 0, type = 0;
        int n = split_args(in[i].args, args, 4), bits = 0;
        if (n == 0 || reads_only(in[i].op)) continue;
        int dest = vector_register(args[n - 1], &bits), kind = fp_add(in[i].op, &shape, &type);
        if (dest < 0 || dest >= REGS) continue;
        int reads = kind == 2 || kind == 4;
        for (int a = 0; a < n - 1 && kind == 3 && !reads; a++) {
            int b2;
            reads = vector_register(args[a], &b2) == dest;
        }
        if (kind && reads) {
            int l = shape == 's' ? 1 : bits / (type == 'd' ? 64 : 32);
            if (l > lanes[dest]) lanes[dest] = l;
        } else other[dest] = 1;
    }
    int chains = 0;
    for (int r = 0; r < REGS; r++)
        if (!other[r]) chains += lanes[r];
    return chains;
}

/* objdump -d -r's text (changed: split into lines), parsed: its functions and their instructions. */
static void x86_parse(char *text, x86_insn **ins, int *nins, x86_fn **fns, int *nfns)
{
    char *save = NULL;
    int cap = 0, fcap = 0;
    *ins = NULL, *fns = NULL, *nins = 0, *nfns = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned long addr;
        char name[512];
        if (sscanf(l, "%lx <%511[^>]>:", &addr, name) == 2 && l[0] != ' ' && l[0] != '\t') {
            if (*nfns == fcap) *fns = xrealloc(*fns, (size_t)(fcap = fcap * 2 + 16) * sizeof **fns);
            x86_fn *f = &(*fns)[(*nfns)++];
            snprintf(f->name, sizeof f->name, "%s", name);
            f->first = *nins, f->count = 0;
            continue;
        }
        char *colon = strchr(l, ':');
        if (!*nfns || !colon || sscanf(l, " %lx:", &addr) != 1) continue;
        char *p = colon + 1 + strspn(colon + 1, " \t");
        if (!strncmp(p, "R_X86_64_", 9)) { /* a relocation of the instruction above: "R_X86_64_PLT32 name-0x4" */
            char sym[400];
            if (*nins && sscanf(p, "%*s %399s", sym) == 1 && strlen((*ins)[*nins - 1].args) < 100) {
                sym[strcspn(sym, "+-")] = '\0';
                size_t used = strlen((*ins)[*nins - 1].args);
                snprintf((*ins)[*nins - 1].args + used, sizeof (*ins)[*nins - 1].args - used, " <%s>", sym);
            }
            continue;
        }
        if (*nins == cap) *ins = xrealloc(*ins, (size_t)(cap = cap * 2 + 256) * sizeof **ins);
        x86_insn *in = &(*ins)[(*nins)++];
        in->addr = addr;
        size_t k = strcspn(p, " \t");
        snprintf(in->op, sizeof in->op, "%.*s", (int)k, p);
        snprintf(in->args, sizeof in->args, "%s", p + k + strspn(p + k, " \t"));
        (*fns)[*nfns - 1].count++;
    }
}

int x86_most_chains(const char *disassembly, const char *function)
{
    x86_insn *in;
    x86_fn *fn;
    int nin, nfn;
    char *text = xstrdup(disassembly);
    x86_parse(text, &in, &nin, &fn, &nfn);
    free(text);
    char *seen = xcalloc((size_t)nfn + 1, 1);
    int queue[64], head = 0, tail = 0, best = -1;
    for (int f = 0; f < nfn; f++)
        if (!strcmp(fn[f].name, function)) seen[f] = 1, queue[tail++] = f;
    if (tail) best = 0;
    while (head < tail) {
        const x86_fn *f = &fn[queue[head++]];
        for (int i = f->first; i < f->first + f->count; i++) {
            const char *lt = strrchr(in[i].args, '<'); /* a relocation's name, appended, before objdump's guess */
            if (in[i].op[0] == 'j' || !strncmp(in[i].op, "call", 4)) {
                char target[512] = "";
                if (lt) sscanf(lt + 1, "%511[^>+]", target);
                for (int g = 0; g < nfn && tail < 64; g++)
                    if (!seen[g] && !strcmp(fn[g].name, target)) seen[g] = 1, queue[tail++] = g;
            }
            unsigned long to;
            if (in[i].op[0] != 'j' || sscanf(in[i].args, "%lx", &to) != 1 || to > in[i].addr) continue;
            int from = i;
            while (from > f->first && in[from].addr > to) from--;
            int c = loop_chains(in, from, i);
            if (c > best) best = c;
        }
    }
    free(seen);
    free(in);
    free(fn);
    return best;
}

/* x86_most_chains of `function` in the object's disassembly (objdump -d -r); -1 where objdump
 * could not be run or the function is not there. */
static int most_chains(const build_spec *b, const char *object, const char *function)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/technique-disassembly.txt", b->scratch);
    char *argv[] = {"objdump", "-d", "-r", "--no-show-raw-insn", (char *)object, NULL};
    char *text = run_tool(argv, path, 60) == 0 ? read_text(path, 64 << 20) : NULL;
    int got = text ? x86_most_chains(text, function) : -1;
    free(text);
    return got;
}

/* A CPU lab's requirement: "@chains>=K". */
static int technique_x86(const build_spec *b, const char *function, const char *spec, char *msg, size_t len)
{
    char object[1100], reqs[2048], *save = NULL;
#ifndef __x86_64__
    (void)b, (void)function, (void)spec;
    snprintf(msg, len, "technique not checked: the machine-code reader knows x86-64 only");
    return -1;
#endif
    snprintf(object, sizeof object, "%s/student.o", b->scratch);
    snprintf(reqs, sizeof reqs, "%s", spec);
    for (char *r = strtok_r(reqs, ";", &save); r; r = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(r, ':');
        const char *what = colon ? r : "the technique", *pats = colon ? colon + 1 : r;
        if (colon) *colon = '\0';
        what += strspn(what, " \t");
        int want = 0;
        if (sscanf(pats, " @chains>=%d", &want) != 1) {
            snprintf(msg, len, "technique not checked: '%s' is not @chains>=K, what a CPU lab can ask", pats);
            return -1;
        }
        int got = most_chains(b, object, function);
        if (got < 0) {
            snprintf(msg, len, "technique not checked: objdump could not read %s in the object", function);
            return -1;
        }
        if (got >= want) continue;
        snprintf(msg, len, "the loops of %s (and of the functions it calls) carry %d independent chain%s of "
                           "floating-point adds at most, where this stage asks for %s: %d or more (read in the machine "
                           "code gcc made of your file: a register an add or fused multiply-add both reads and writes "
                           "in a loop is a chain, a vector register one a lane).\nThis stage earns its speed points "
                           "with that technique: the code of an earlier stage does not earn them, however fast",
                 function, got, got == 1 ? "" : "s", what, want);
        return 0;
    }
    return 1;
}

/* The figures technique_check computes, as a requirement spells them (the bound follows). */
static const char *const figures[] = {"@conflicts<=", "@fchains>=", "@outer>=", "@divergent<=",
                                      "@passes<=",    "@stride>=",  "@chains>=", "@calls "};

int technique_known(const char *patterns)
{
    patterns += strspn(patterns, " \t");
    if (*patterns != '@') return 1;
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        if (!strncmp(patterns, figures[i], strlen(figures[i]))) return 1;
    return 0;
}

int technique_check(const build_spec *b, const char *function, const char *spec, char *msg, size_t len)
{
    if (!strstr(b->compiler, "nvcc")) return technique_x86(b, function, spec, msg, len);
    char object[1100], pattern[1100];
    snprintf(object, sizeof object, "%s/student.o", b->scratch);
    snprintf(pattern, sizeof pattern, "%s/keep/*.ptx", b->scratch);
    msg[0] = '\0';
    char **host = NULL;
    int nhost = reached_names(b, object, function, &host);
    if (nhost < 0) {
        snprintf(msg, len, "technique not checked: readelf could not read the object");
        return -1;
    }
    /* every PTX file (one an architecture) and the kernels defined in each */
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        snprintf(msg, len, "technique not checked: no PTX from nvcc in %s/keep", b->scratch);
        for (int i = 0; i < nhost; i++) free(host[i]);
        free(host);
        return -1;
    }
    /* each file read and parsed once; ptx[f].text NULL where it could not be read */
    ptx_file *ptx = xcalloc(g.gl_pathc, sizeof *ptx);
    char **kernels = xcalloc(MAX_PTX_FUNCTIONS, sizeof *kernels);
    int nkernels = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        char *raw = read_text(g.gl_pathv[f], 64 << 20);
        if (!raw) continue;
        ptx_open(&ptx[f], raw);
        free(raw);
        for (int i = 0; i < ptx[f].n && nkernels < MAX_PTX_FUNCTIONS; i++) {
            if (!ptx[f].fn[i].entry) continue;
            int known = 0;
            for (int k = 0; k < nkernels && !known; k++) known = !strcmp(kernels[k], ptx[f].fn[i].name);
            if (!known) kernels[nkernels++] = xstrdup(ptx[f].fn[i].name);
        }
    }
    /* the kernels the function reaches: the same name, or the same demangled (a local
     * template's host stub is spelt with an 'L' its PTX name lacks) */
    char **all = xcalloc((size_t)(nhost + nkernels) + 1, sizeof *all), **plain = xcalloc((size_t)(nhost + nkernels) + 1, sizeof *plain);
    for (int i = 0; i < nhost; i++) all[i] = host[i];
    for (int k = 0; k < nkernels; k++) all[nhost + k] = kernels[k];
    demangle_all(b, all, nhost + nkernels, plain);
    int *hit = xcalloc((size_t)nkernels + 1, sizeof *hit), nhit = 0;
    for (int k = 0; k < nkernels; k++)
        for (int i = 0; i < nhost && !hit[k]; i++)
            if (!strcmp(host[i], kernels[k]) || !strcmp(plain[i], plain[nhost + k])) hit[k] = 1, nhit++;
    int result = 1;
    if (!nhit) { /* a stage that launches nothing yet (a starter's) is not judged by its technique */
        snprintf(msg, len, "technique not checked: no kernel found that %s launches", function);
        result = -1;
    }
    /* each requirement: "what: patterns", met by any reached kernel in any PTX file */
    char reqs[2048], *save = NULL;
    snprintf(reqs, sizeof reqs, "%s", spec);
    for (char *r = strtok_r(reqs, ";", &save); r && result == 1; r = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(r, ':');
        const char *what = colon ? r : "the instructions", *pats = colon ? colon + 1 : r;
        if (colon) *colon = '\0';
        what += strspn(what, " \t");
        int met = 0, most = -1;
        char worst[200] = "", worst_kernel[300] = "";
        int least = 0, fchains = 0;
        if (!strncmp(pats + strspn(pats, " \t"), "@calls", 6)) {
            /* host code: the stage's functions, or what they reach, call one of the named functions */
            const char *names_wanted = pats + strspn(pats, " \t") + 6;
            for (int i = 0; i < nhost && !met; i++) met = matches_any(host[i], names_wanted);
            if (met) continue;
            result = 0;
            char listed[300], *o = listed;
            for (const char *q = function; *q && o < listed + sizeof listed - 2; q++) /* "a b c": "a, b, c" */
                if (*q == ' ') *o++ = ',', *o++ = ' ';
                else *o++ = *q;
            *o = '\0';
            snprintf(msg, len, "%s, and the functions %s call%s, call none of:%s; this stage asks for %s (read in the "
                               "relocations of the object nvcc made of your file).\nThis stage earns its speed points "
                               "with that technique: the code of an earlier stage does not earn them, however fast",
                     listed, strchr(function, ' ') ? "they" : "it", strchr(function, ' ') ? "" : "s", names_wanted, what);
            continue;
        }
        if (sscanf(pats, " @fchains>=%d", &least) == 1 || sscanf(pats, " @outer>=%d", &least) == 1) {
            /* the most independent fma chains (or outer-product fmas) any loop of a reached kernel has */
            int want_outer = strstr(pats, "@outer") != NULL, got = 0;
            for (size_t f = 0; f < g.gl_pathc; f++)
                for (int k = 0; k < nkernels; k++) {
                    int c, o;
                    int at = hit[k] && ptx[f].text ? kernel_index(&ptx[f], kernels[k]) : -1;
                    if (at >= 0) {
                        fma_in(&ptx[f], at, &c, &o);
                        int v = want_outer ? o : c;
                        if (v > got) got = v;
                    }
                }
            fchains = got;
            if (got >= least) continue;
            result = 0;
            snprintf(msg, len, "the loops of the kernels %s launches have %d %s at most, where this stage asks for %s: "
                               "%d or more (read in the PTX nvcc made of your file: %s).\nThis stage earns its speed "
                               "points with that technique: the code of an earlier stage does not earn them, however fast",
                     function, fchains, want_outer ? "outer-product multiply-adds" : "independent chains of multiply-adds",
                     what, least, want_outer ? "an fma both of whose multiplicands feed two or more fmas of the loop, as "
                     "a value of A and one of B are each reused across a thread's 2D tile of C" : "fma instructions linked "
                     "where one's addend is another's result make one chain; one accumulator is one chain");
            continue;
        }
        if (sscanf(pats, " @divergent<=%d", &most) == 1) {
            /* every reached kernel's branches around shared reads split `most` warps at most */
            int worst_warps = 0;
            for (size_t f = 0; f < g.gl_pathc; f++)
                for (int k = 0; k < nkernels; k++) {
                    int idx = hit[k] && ptx[f].text ? kernel_index(&ptx[f], kernels[k]) : -1, nb;
                    char at[200];
                    int d = idx < 0 ? 0 : divergence_in(&ptx[f], idx, &nb, at, sizeof at);
                    if (d > worst_warps) {
                        worst_warps = d;
                        snprintf(worst, sizeof worst, "%s", at);
                        short_name(plain[nhost + k], worst_kernel, sizeof worst_kernel);
                    }
                }
            if (worst_warps <= most) continue;
            result = 0;
            snprintf(msg, len, "%s launches the kernel %s, where the branch `%s` around a shared-memory read splits "
                               "the lanes of %d of the %d warps of a 256-thread block (some lanes take it, some not), "
                               "and this stage asks for %s: %d warps at most (read in the PTX nvcc made of your file, "
                               "its arithmetic run for each warp's lanes, a loop's first trip).\nThis stage earns its "
                               "speed points with that technique: the code of an earlier stage does not earn them, "
                               "however fast",
                     function, worst_kernel, worst, worst_warps, DIVERGE_WARPS, what, most);
            continue;
        }
        if (sscanf(pats, " @stride>=%d", &least) == 1) {
            /* the widest lane-to-lane stride of a scalar shared access in any reached kernel */
            int widest = 0, followed = 0;
            for (size_t f = 0; f < g.gl_pathc; f++)
                for (int k = 0; k < nkernels; k++) {
                    int idx = hit[k] && ptx[f].text ? kernel_index(&ptx[f], kernels[k]) : -1, acc = 0, ops, w = 0;
                    if (idx >= 0) conflicts_stride_in(&ptx[f], idx, &acc, &ops, NULL, 0, &w);
                    followed += acc;
                    if (w > widest) widest = w;
                }
            if (widest >= least) continue;
            result = 0;
            snprintf(msg, len, "the shared-memory accesses of the kernels %s launches are at most %d word%s apart from "
                               "one lane to the next, where this stage asks for %s: %d or more (read in the PTX nvcc "
                               "made of your file, %d access%s followed from the thread index, a warp of 32 across).\n"
                               "This stage earns its speed points with that technique: the code of an earlier stage does "
                               "not earn them, however fast",
                     function, widest, widest == 1 ? "" : "s", what, least, followed, followed == 1 ? "" : "es");
            continue;
        }
        if (sscanf(pats, " @passes<=%d", &most) == 1) {
            /* the fewest passes over global memory any reached kernel that reads it makes */
            int fewest = 0;
            for (size_t f = 0; f < g.gl_pathc; f++)
                for (int k = 0; k < nkernels; k++) {
                    int idx = hit[k] && ptx[f].text ? kernel_index(&ptx[f], kernels[k]) : -1;
                    int n = idx < 0 ? 0 : passes_in(&ptx[f], idx);
                    if (n > 0 && (!fewest || n < fewest)) fewest = n;
                }
            if (!fewest) {
                snprintf(msg, len, "technique not checked: no kernel %s launches reads global memory", function);
                result = -1;
                break;
            }
            if (fewest <= most) continue;
            result = 0;
            snprintf(msg, len, "every kernel %s launches reads global memory in %d passes or more (the pieces of its "
                               "code between warp or block synchronisations that read it), and this stage asks for %s: "
                               "%d at most (read in the PTX nvcc made of your file).\nThis stage earns its speed points "
                               "with that technique: the code of an earlier stage does not earn them, however fast",
                     function, fewest, what, most);
            continue;
        }
        if (sscanf(pats, " @conflicts<=%d", &most) == 1) {
            /* every reached kernel's shared accesses within `most`, and a shared access somewhere */
            int followed = 0, seen = 0, over = 0, degree = 0;
            for (size_t f = 0; f < g.gl_pathc; f++)
                for (int k = 0; k < nkernels; k++) {
                    int acc, ops;
                    char at[200];
                    int idx = hit[k] && ptx[f].text ? kernel_index(&ptx[f], kernels[k]) : -1;
                    if (idx < 0) continue;
                    int d = conflicts_in(&ptx[f], idx, &acc, &ops, at, sizeof at);
                    followed += acc, seen += ops;
                    if (acc && d > most && d > degree) {
                        over = 1, degree = d;
                        snprintf(worst, sizeof worst, "%s", at);
                        short_name(plain[nhost + k], worst_kernel, sizeof worst_kernel);
                    }
                }
            if (seen && !followed) {
                snprintf(msg, len, "technique not checked: the addresses of the shared-memory accesses of %s's kernels "
                                   "do not follow from the thread index alone", function);
                result = -1;
                break;
            }
            met = seen && !over;
            if (!met && over) {
                result = 0;
                snprintf(msg, len, "%s launches the kernel %s, where a warp's shared-memory access `%s` conflicts "
                                   "%d-way (one bank serves %d distinct words at once; the block taken as 8, 16 or 32 "
                                   "threads across, whichever conflicts least), and this stage asks for %s: %d-way at "
                                   "most (read in the PTX nvcc made of your file, its arithmetic run for a warp's 32 "
                                   "lanes).\nThis stage earns its speed points with that technique: the code of an "
                                   "earlier stage does not earn them, however fast",
                         function, worst_kernel, worst, degree, degree, what, most);
                continue;
            }
        } else if (pats[strspn(pats, " \t")] == '!') {
            /* "!pattern ...": met by a reached kernel with no instruction matching any of them */
            char plain_pats[1024], *o = plain_pats;
            for (const char *q = pats; *q && o < plain_pats + sizeof plain_pats - 1; q++)
                if (*q != '!') *o++ = *q;
            *o = '\0';
            int any = 0;
            for (size_t f = 0; f < g.gl_pathc && !met; f++)
                for (int k = 0; k < nkernels && !met; k++)
                    if (hit[k] && ptx[f].text) {
                        int idx = kernel_index(&ptx[f], kernels[k]);
                        any |= idx >= 0;
                        met = idx >= 0 && uses_in(&ptx[f], idx, plain_pats) == 0;
                    }
            if (met || !any) continue;
            result = 0;
            snprintf(msg, len, "every kernel %s launches has an instruction matching %s, and this stage asks for a "
                               "kernel with %s (read in the PTX nvcc made of your file).\nThis stage earns its speed "
                               "points with that technique: the code of an earlier stage does not earn them, however fast",
                     function, plain_pats + strspn(plain_pats, " \t"), what);
            continue;
        } else
            for (size_t f = 0; f < g.gl_pathc && !met; f++)
                for (int k = 0; k < nkernels && !met; k++)
                    if (hit[k] && ptx[f].text) {
                        int idx = kernel_index(&ptx[f], kernels[k]);
                        met = idx >= 0 && uses_in(&ptx[f], idx, pats) == 1;
                    }
        if (met) continue;
        result = 0;
        char list[600] = "", one[300];
        int shown = 0;
        for (int k = 0; k < nkernels; k++) {
            if (!hit[k]) continue;
            if (shown++ == 3) {
                snprintf(list + strlen(list), sizeof list - strlen(list), ", ...");
                break;
            }
            short_name(plain[nhost + k], one, sizeof one);
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", shown > 1 ? ", " : "", one);
        }
        char trimmed[512];
        snprintf(trimmed, sizeof trimmed, "%s", pats + strspn(pats, " \t"));
        trimmed[strcspn(trimmed, "\n")] = '\0';
        snprintf(msg, len, "%s launches %s %s, and %s %s (looked for in the PTX nvcc made of your file: %s).\n"
                           "This stage earns its speed points with that technique: the code of an earlier stage does "
                           "not earn them, however fast",
                 function, nhit > 1 ? "the kernels" : "the kernel", list, nhit > 1 ? "none of them has" : "it has no", what,
                 trimmed);
    }
    for (int i = 0; i < nhost + nkernels; i++) free(plain[i]);
    for (int i = 0; i < nhost; i++) free(host[i]);
    for (int k = 0; k < nkernels; k++) free(kernels[k]);
    for (size_t f = 0; f < g.gl_pathc; f++)
        if (ptx[f].text) ptx_close(&ptx[f]);
    free(all), free(plain), free(host), free(kernels), free(ptx), free(hit);
    globfree(&g);
    return result;
}
