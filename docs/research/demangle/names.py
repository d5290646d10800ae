#!/usr/bin/env python3
"""Research (docs/notes/demangling.md): every distinct symbol name starting with _Z in the
ELF symbol tables (.symtab, .nv.merc.symtab) of the cubins under the given directories."""
import os, struct, sys

def symbols(path):
    d = open(path, 'rb').read()
    if d[:4] != b'\x7fELF' or d[4] != 2:
        return
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, _ = struct.unpack_from('<HHH', d, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    for h in hdrs:
        if h[1] not in (2, 0x70000085) or h[9] != 24:  # SYMTAB, CUDA_MERC_SYMTAB
            continue
        strtab = hdrs[h[6]]
        for k in range(h[5] // 24):
            name_off, = struct.unpack_from('<I', d, h[4] + k * 24)
            s = strtab[4] + name_off
            yield d[s:d.index(b'\0', s)].decode('latin-1')

names = set()
for root in sys.argv[1:]:
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith('.cubin'):
                names.update(n for n in symbols(os.path.join(dirpath, f)) if n.startswith('_Z'))
print('\n'.join(sorted(names)))
