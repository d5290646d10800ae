#!/usr/bin/env python3
"""Regenerates ../nvlink_names.tsv: mangled name <TAB> name as nvlink prints it.

Each probe_*.cu here is compiled to a relocatable sm_80 cubin and linked by
nvlink with -dump-callgraph; so is one more source made from raw_names.txt and
fuzz_names.txt, which gives each name listed there to an extern "C" device
function. The callgraph numbers its nodes in the order of the FUNC symbols in
the input's symbol table (functions nvlink drops print empty); the script
checks that order against the input's call relocations before trusting it.
Names printed unchanged are left out unless they start with _Z: those show
what nvlink does with names it cannot demangle.

Usage: regen.py [--cuda /usr/local/cuda]
A first line "// flags: ..." in a .cu adds nvcc options for that file.
"""
import argparse, os, re, struct, subprocess, sys, tempfile

R_CUDA_CALL = 0x3A  # the call relocation kind in sm_80 cubins


def elf_functions(path):
    """FUNC symbols in symbol-table order, and the call targets of each text section."""
    data = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)
    secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]

    def cstr(off):
        return data[off:data.index(b'\0', off)].decode()

    names = [cstr(secs[shstrndx][4] + s[0]) for s in secs]
    symtab = next(i for i, s in enumerate(secs) if s[1] == 2)
    _, _, _, _, off, size, link, _, _, entsize = secs[symtab]
    syms = []
    for k in range(size // entsize):
        name, info, _, shndx, _, _ = struct.unpack_from('<IBBHQQ', data, off + k * entsize)
        syms.append((cstr(secs[link][4] + name), info & 0xF, shndx))
    funcs = [n for n, typ, _ in syms if typ == 2]
    calls = {}
    for i, s in enumerate(secs):
        if s[1] not in (4, 9):  # RELA, REL
            continue
        target = names[s[7]]
        for k in range(s[5] // s[9]):
            _, rinfo = struct.unpack_from('<QQ', data, s[4] + k * s[9])
            if rinfo & 0xFFFFFFFF == R_CUDA_CALL:
                calls.setdefault(target, set()).add(syms[rinfo >> 32][0])
    return funcs, calls


# "N: <marks><name> [<registers>] -> <callees>"; no registers for undefined
# functions, nothing after "N: " for dropped ones.
NODE = re.compile(r"^(\d+): ([\^&]*)(.*?)(?: \[\d+\])? ->((?: \d+)*)$")
EMPTY = re.compile(r'^(\d+): $')


def callgraph(text):
    nodes = {}
    for line in text.splitlines():
        if m := NODE.match(line):
            nodes[int(m[1])] = (m[3], {int(e) for e in m[4].split()})
        elif m := EMPTY.match(line):
            nodes[int(m[1])] = ('', set())
    return nodes


def raw_probe(tmp, here):
    names = {}
    for list_file in ('raw_names.txt', 'fuzz_names.txt'):
        for line in open(os.path.join(here, list_file)):
            line = line.strip()
            if line and not line.startswith('#'):
                names[line] = None
    cu = os.path.join(tmp, 'raw_names.cu')
    with open(cu, 'w') as f:
        for n in names:
            f.write(f'extern "C" __device__ __noinline__ int {n}(int x) {{ return x * 3 + 1; }}\n')
        f.write('extern "C" __global__ void raw_kernel(int *o) {\n')
        for i, n in enumerate(names):
            f.write(f'  o[{i}] = {n}(o[{i}]);\n')
        f.write('}\n')
    return cu


def probe(cu, cuda, tmp):
    flags = []
    first = open(cu).readline()
    if first.startswith('// flags:'):
        flags = first.split(':', 1)[1].split()
    cubin = os.path.join(tmp, os.path.basename(cu) + '.cubin')
    subprocess.run([f'{cuda}/bin/nvcc', '-arch=sm_80', '-rdc=true', '-cubin', *flags, '-o', cubin, cu],
                   check=True)
    linked = os.path.join(tmp, 'out.cubin')
    out = subprocess.run([f'{cuda}/bin/nvlink', '-arch=sm_80', '-dump-callgraph', cubin, '-o', linked],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit(f'{cu}: nvlink failed:\n{out.stderr}')
    nodes = callgraph(out.stderr)
    funcs, calls = elf_functions(cubin)
    if len(funcs) != len(nodes):
        sys.exit(f'{cu}: {len(nodes)} callgraph nodes but {len(funcs)} FUNC symbols')
    by_name = {f: i + 1 for i, f in enumerate(funcs)}
    for f, targets in calls.items():
        if f.startswith('.text.') and f[6:] in by_name and nodes[by_name[f[6:]]][0]:
            want = {by_name[t] for t in targets if t in by_name}
            if not want <= nodes[by_name[f[6:]]][1]:  # virtual calls add edges
                sys.exit(f'{cu}: node order does not match the symbol table at {f[6:]}')
    return [(f, nodes[i + 1][0]) for i, f in enumerate(funcs) if nodes[i + 1][0]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cuda', default='/usr/local/cuda')
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    pairs = {}
    with tempfile.TemporaryDirectory() as tmp:
        probes = [os.path.join(here, f) for f in sorted(os.listdir(here)) if f.endswith('.cu')]
        for cu in probes + [raw_probe(tmp, here)]:
            for mangled, shown in probe(cu, args.cuda, tmp):
                if mangled == shown and not mangled.startswith('_Z'):
                    continue
                if pairs.get(mangled, shown) != shown:
                    sys.exit(f'{mangled}: printed two ways')
                pairs[mangled] = shown
    with open(os.path.join(here, '..', 'nvlink_names.tsv'), 'w') as f:
        for mangled in sorted(pairs):
            f.write(f'{mangled}\t{pairs[mangled]}\n')
    print(f'{len(pairs)} names')


if __name__ == '__main__':
    main()
