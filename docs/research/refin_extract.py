#!/usr/bin/env python3
"""Pair .text.<f> sections of dlink output (= ptxas input code) and nvlink output for
sm_100+ golden jobs; dump per-instruction fields. Research tool (refinalization.md)."""
import struct, sys, glob, os, pickle

def sections(path):
    d = open(path, 'rb').read()
    if d[:4] != b'\x7fELF': return {}
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    so = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = d[so + h[0]: d.index(b'\0', so + h[0])].decode()
        out[name] = d[h[4]: h[4] + h[5]] if h[1] != 8 else b''
    return out

def fields(ins):
    lo, hi = struct.unpack('<QQ', ins)
    c = hi >> 41
    return dict(lo=lo, hi=hi, op=lo & 0xfff, stall=(hi >> 41) & 15, yld=(hi >> 45) & 1,
                wr=(hi >> 46) & 7, rd=(hi >> 49) & 7, wait=(hi >> 52) & 63, reuse=(hi >> 58) & 15)

def main():
    res = []
    for dpath in sorted(glob.glob('/tmp/sb/jobs/*/*/d.cubin')):
        job = os.path.dirname(dpath)
        case, arch = job.split('/')[-2:]
        ds, ns = sections(dpath), sections(job + '/n.cubin')
        for name, dd in ds.items():
            if not name.startswith('.text.') or name not in ns: continue
            nd = ns[name]
            if len(dd) < 16: continue
            first = fields(dd[:16])
            res.append(dict(case=case, arch=arch, name=name, d=dd, n=nd))
    pickle.dump(res, open('/tmp/sb/pairs.pkl', 'wb'))
    print(len(res))

if __name__ == '__main__':
    main()
