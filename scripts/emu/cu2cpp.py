# cu2cpp.py - a CUDA file as C++ for scripts/emu/emu.h: each launch k<<<grid, block>>>(args); becomes
# emu_launch(dim3(grid), dim3(block), [=]{ k(args); }, shared_bytes, stream) (stream 0 where none is given:
# emu.h ignores it, emu_streams.h queues the launch there; the lambda copies the variables it names
# when the launch is issued, an expression of them is evaluated when the kernel runs), and
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
# Inline PTX: each `asm volatile("template" : outputs : inputs : clobbers);` becomes calls of
# emu_ptx.h's functions, one an instruction of the template, chosen by its text, its %N operands
# replaced by the operands' expressions (outputs are lvalues: the functions take them by reference).
# An instruction not known here becomes emu_ptx_unknown, which names it when it runs. An asm that
# is not PTX (x86 in host code, an asm label, a compiler barrier) is left as it is: it runs here.
def c_string(tokens):  # the text of adjacent string literals, or None where the template is not one
    out = ''
    for lit in re.findall(r'\s*"((?:[^"\\]|\\.)*)"\s*', tokens):
        out += re.sub(r'\\(.)', lambda e: {'n': '\n', 't': '\t'}.get(e.group(1), e.group(1)), lit)
    return out if re.fullmatch(r'(\s*"(?:[^"\\]|\\.)*"\s*)*', tokens) else None
def split_asm(body):  # top-level ':' and ',' outside strings and brackets
    sections, ops, cur, d, k = [], [], '', 0, 0
    while k < len(body):
        ch = body[k]
        if ch == '"':
            e = k + 1
            while body[e] != '"': e += 2 if body[e] == '\\' else 1
            cur += body[k:e + 1]; k = e + 1; continue
        if ch in '([{': d += 1
        if ch in ')]}': d -= 1
        if d == 0 and ch == ':': sections.append(ops + [cur]); ops, cur = [], ''
        elif d == 0 and ch == ',' and sections: ops.append(cur); cur = ''
        else: cur += ch
        k += 1
    return sections + [ops + [cur]]
OPND = r'(%\d+|%\[\w+\]|-?\d+)'
PTX = [  # (pattern, call): groups of the pattern are operands (or literals), named in the call
    (r'cp\.async\.(ca|cg)\.shared(?:::cta)?\.global(?:\.L2::\d+B)?\s+\[' + OPND + r'\]\s*,\s*\[' + OPND + r'\]\s*,\s*'
     + OPND + r'(?:\s*,\s*' + OPND + r')?',
     lambda g, o: 'emu_ptx_cp_async(__FILE__, __LINE__, "%s", %s, %s, %s, %s)'
                  % (g[0], o(g[1]), o(g[2]), o(g[3]), o(g[4]) if g[4] else o(g[3]))),
    (r'cp\.async\.commit_group', lambda g, o: 'emu_ptx_commit()'),
    (r'cp\.async\.wait_group\s+' + OPND, lambda g, o: 'emu_ptx_wait(%s)' % o(g[0])),
    (r'cp\.async\.wait_all', lambda g, o: 'emu_ptx_wait_all()'),
    (r'ldmatrix\.sync\.aligned\.m8n8\.x([124])(\.trans)?\.shared(?:::cta)?\.b16\s+\{\s*([^}]*)\}\s*,\s*\['
     + OPND + r'(?:\s*\+\s*(\d+))?\s*\]',
     lambda g, o: 'emu_ptx_ldmatrix<%s, %s>(__FILE__, __LINE__, %s%s, %s)'
                  % (g[0], 'true' if g[1] else 'false', o(g[3]), ' + ' + g[4] if g[4] else '',
                     ', '.join(o(x.strip()) for x in g[2].split(',')))),
    (r'mma\.sync\.aligned\.m16n8k(16|8)\.row\.col\.f32\.f16\.f16\.f32\s+' + r'\s*,\s*'.join([r'\{\s*([^}]*)\}'] * 4),
     lambda g, o: 'emu_ptx_mma_m16n8k%s(__FILE__, __LINE__, %s)'
                  % (g[0], ', '.join(o(x.strip()) for part in g[1:] for x in part.split(',')))),
]
def rewrite_asm(text):
    out, i = [], 0
    pat = re.compile(r'\b(?:asm|__asm__|__asm)\s*(?:(?:volatile|__volatile__)\s*)?\(')
    # comments (and strings, so that a "//" in one starts none) are skipped: "asm (" in prose is no statement
    skip = [x.span() for x in re.finditer(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"', text, re.S)
            if x.group(0)[0] == '/']
    while True:
        m = pat.search(text, i)
        while m and any(a <= m.start() < b for a, b in skip): m = pat.search(text, m.end())
        if not m: out.append(text[i:]); break
        k, d = m.end(), 1  # the closing parenthesis, past strings
        while d and k < len(text):
            if text[k] == '"':
                k += 1
                while text[k] != '"': k += 2 if text[k] == '\\' else 1
            elif text[k] == '(': d += 1
            elif text[k] == ')': d -= 1
            k += 1
        sections = split_asm(text[m.end():k - 1])
        template = c_string(''.join(sections[0]))
        operands, names = [], {}
        for sec in sections[1:3]:
            for op in sec:
                om = re.fullmatch(r'\s*(?:\[(\w+)\]\s*)?"[^"]*"\s*\((.*)\)\s*', op, re.S)
                if om:
                    if om.group(1): names[om.group(1)] = len(operands)
                    operands.append('(' + om.group(2).strip() + ')')
        def operand(tok):
            if tok.startswith('%['): return operands[names[tok[2:-1]]]
            if tok.startswith('%'): return operands[int(tok[1:])]
            return tok
        # "mma\n\t.sync" is one opcode; PTX opcodes have a type or a qualifier after a dot (x86's none)
        instructions = [re.sub(r'\s+', ' ', re.sub(r'\s+\.', '.', x.strip())) for x in (template or '').split(';')]
        if not any(re.match(r'(@!?\w+ )?(trap|exit|[a-z][a-z0-9_]*\.[a-z])', x) for x in instructions):
            out.append(text[i:k]); i = k; continue
        calls = []
        for ins in instructions:
            if not ins: continue
            for p, call in PTX:
                pm = re.fullmatch(p, ins)
                if pm:
                    try: calls.append(call(pm.groups(), operand)); break
                    except (IndexError, KeyError, ValueError): pass
            else:
                calls.append('emu_ptx_unknown(__FILE__, __LINE__, "%s")'
                             % ins.replace('\\', '\\\\').replace('"', '\\"'))
        out.append(text[i:m.start()] + '(' + ', '.join(calls + ['(void)0']) + ')'
                   + '\n' * text.count('\n', m.start(), k))  # the statement's line breaks, kept
        i = k
    return ''.join(out)
src = rewrite_asm(src)
# dynamic shared memory: `extern __shared__ T name[];` points into the launch's buffer (emu.h)
src = re.sub(r'extern\s+__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?((?:(?:unsigned|signed|const|volatile)\s+)*[A-Za-z_][\w:]*(?:\s*\*)?)\s+(?:__align__\(\s*\d+\s*\)\s+)?(\w+)\s*\[\s*\]\s*;',
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
    smem = parts[2].strip() if len(parts) > 2 and parts[2].strip() else '0'  # dynamic shared memory
    stream = parts[3].strip() if len(parts) > 3 and parts[3].strip() else '0'  # 0: the default stream, as in CUDA
    out.append('emu_launch(dim3(%s), dim3(%s), [=]{ %s(%s); }, (size_t)(%s), %s)' % (parts[0].strip(), parts[1].strip(), m.group(1), args, smem, stream))
    out.append('\n' * src.count('\n', m.start(), k + 1))  # the launch's own line breaks, kept
    i = k + 1
sys.stdout.write('#line 1 "%s"\n' % sys.argv[1] + ''.join(out))
