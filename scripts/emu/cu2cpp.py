# cu2cpp.py - a CUDA file as C++ for scripts/emu/emu.h: each launch k<<<grid, block>>>(args); becomes
# emu_launch(dim3(grid), dim3(block), [=]{ k(args); }, shared_bytes) (a stream argument is dropped), and
# `extern __shared__ T s[];` a pointer into the launch's dynamic shared memory, and a `__shared__`
# declaration a reference to the running block's own copy.
# A quoted include of a subfolder of the lab's grading folder (argv[2]: a plant's "planted/base.h",
# a textbook file's "textbook/harris_tiles.h") is inlined first, so that its launches are rewritten too. Every line keeps its number, and #line
# directives name the .cu file: g++'s errors point at the student's own line.
import os, re, sys
def inline(text, root, name):
    def one(m):
        path = os.path.join(root, m.group(1))
        # a helper of the lab's own files (planted/, textbook/, honest/): its launches rewritten too
        if not (root and '/' in m.group(1) and not m.group(1).startswith('..') and os.path.isfile(path)): return m.group(0)
        after = text.count('\n', 0, m.start()) + 2  # the line after the include, in the including file
        return '#line 1 "%s"\n%s\n#line %d "%s"' % (path, inline(open(path).read(), root, path), after, name)
    return re.sub(r'#include "([^"]+)"', one, text)
src = inline(open(sys.argv[1]).read(), sys.argv[2] if len(sys.argv) > 2 else '', sys.argv[1])
src = re.sub(r'#include <cuda_runtime.h>\n', '\n', src)
# dynamic shared memory: `extern __shared__ T name[];` points into the launch's buffer (emu.h)
src = re.sub(r'extern\s+__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([A-Za-z_][\w:]*(?:\s*\*)?)\s+(?:__align__\(\s*\d+\s*\)\s+)?(\w+)\s*\[\s*\]\s*;',
             r'\1 *\2 = (\1 *)emu_dynamic_shared;', src)
# `__shared__ T a[N], b;` in a kernel: references to storage of the block's own (emu.h's emu_shared:
# one copy a block running at once), one statement a name, on the same line.
shared_ids = [0]
def split_top(text):
    parts, d, cur = [], 0, ''
    for ch in text:
        if ch in '([': d += 1
        if ch in ')]': d -= 1
        if ch == ',' and d == 0: parts.append(cur); cur = ''
        else: cur += ch
    return parts + [cur]
def shared(m):
    typ, decls = m.group(1).strip(), m.group(2)
    out = []
    for d in split_top(decls):
        dm = re.match(r'\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)$', d)
        if not dm: return m.group(0)  # a form not known here: left to emu.h's fallback
        name, dims = dm.group(1), re.sub(r'\s+', '', dm.group(2))
        shared_ids[0] += 1
        if dims: out.append('%s (&%s)%s = *emu_shared<%s%s, %d>();' % (typ, name, dims, typ, dims, shared_ids[0]))
        else: out.append('%s &%s = *emu_shared<%s, %d>();' % (typ, name, typ, shared_ids[0]))
    return ' '.join(out)
src = re.sub(r'(?<!extern )__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?((?:(?:volatile|const|unsigned|signed|long|short)\s+)*[A-Za-z_][\w:]*(?:<[^;<>]*>)?)\s+([^;{}()=]*(?:\([^;{}]*\))?[^;{}=]*);',
             shared, src)
out, i = [], 0
pat = re.compile(r'([A-Za-z_]\w*(?:<[^<>;]*>)?)\s*<<<')
while True:
    m = pat.search(src, i)
    if not m: out.append(src[i:]); break
    out.append(src[i:m.start()])
    j = m.end(); depth = 0; k = j
    while not (depth == 0 and src.startswith('>>>', k)):
        if src[k] in '([': depth += 1
        elif src[k] in ')]': depth -= 1
        k += 1
    cfg = src[j:k]; k += 3
    parts = split_top(cfg)
    while src[k] != '(': k += 1
    a = k; d = 0
    while True:
        if src[k] == '(': d += 1
        elif src[k] == ')':
            d -= 1
            if d == 0: break
        k += 1
    args = src[a + 1:k]
    smem = parts[2].strip() if len(parts) > 2 and parts[2].strip() else '0'  # dynamic shared memory; a stream is dropped
    out.append('emu_launch(dim3(%s), dim3(%s), [=]{ %s(%s); }, (size_t)(%s))' % (parts[0].strip(), parts[1].strip(), m.group(1), args, smem))
    out.append('\n' * src.count('\n', m.start(), k + 1))  # the launch's own line breaks, kept
    i = k + 1
sys.stdout.write('#line 1 "%s"\n' % sys.argv[1] + ''.join(out))
