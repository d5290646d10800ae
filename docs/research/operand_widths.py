#!/usr/bin/env python3
"""Operand widths of sm_100+ SASS, measured on ptxas's own waits (kOperandWidths in
src/mercury/sass.h; docs/notes/refinalization.md, "Operand widths measured on ptxas's
code").

Usage: operand_widths.py [--uniform] CUBIN...   (cubins of ptxas's code: links made
with dlink --dlink-no-refinalize, e.g. every job of tools/corpus at sm_100 and sm_120)

--uniform measures against pending LDCU results (width from bits 72-79) instead:
src/mercury/operand_widths_uniform.inc.

In straight-line code, track each pending LDS/LDG result (0x984/0x981, width from bits
73-75) alone on its scoreboard index. At a later instruction that names none of the
result's registers in bytes 2, 3, 4 or 8 (bits 16-23, 24-31, 32-39, 64-71) but whose
byte v has an aligned span (4 from a multiple of 4, 2 from an even register, else 1)
reaching one of them at offset k, count whether ptxas waits on that index there. An
operand that reads or writes k registers past v makes ptxas wait (RAW or WAW); one that
never waits at offset 1 in 30 or more cases, nor at 2 or 3, is one register wide; one
that waits at 1 but never at 2 or 3 (30 or more cases) at most two.
Prints the table rows and the counts behind them.
"""
import collections
import struct
import sys

sys.path.insert(0, __file__.rsplit('/', 1)[0])
from refin_extract import sections  # noqa: E402

CONTROL = (0x947, 0x94d, 0x941, 0x945, 0x547, 0x948, 0x949, 0x94a)
MEMORY = (0x980, 0x981, 0x984, 0x983, 0xb82, 0x7ac, 0x919, 0x9c3, 0x388, 0x986)


def span(v):
    return 4 if v % 4 == 0 else 2 if v % 2 == 0 else 1


def count(paths, uniform=False):
    c = collections.Counter()
    for path in paths:
        for name, d in sections(path).items():
            if not name.startswith('.text.'):
                continue
            code = [struct.unpack_from('<QQ', d, o) for o in range(0, len(d) - 15, 16)]
            pend = {}  # index -> result registers (None: not an exact load result)
            for lo, hi in code:
                op = lo & 0xfff
                wait, wr, rd = hi >> 52 & 63, hi >> 46 & 7, hi >> 49 & 7
                if op in CONTROL:
                    pend = {}
                    continue
                waited = {sb for sb in pend if wait >> sb & 1}
                named = {2: lo >> 16 & 0xff, 3: lo >> 24 & 0xff, 4: lo >> 32 & 0xff, 8: hi & 0xff}
                if op not in MEMORY:
                    for sb, regs in pend.items():
                        if regs is None or any(v in regs for v in named.values()):
                            continue
                        for byte, v in named.items():
                            offs = [r - v for r in regs if v != 0xff and v < r < v + span(v)]
                            if offs:
                                c[(op, byte, min(offs), sb in waited)] += 1
                for sb in waited:
                    pend.pop(sb, None)
                if rd != 7:
                    pend[rd] = None
                if wr != 7:
                    dest = lo >> 16 & 0xff
                    if uniform:
                        size = hi >> 8 & 0xff
                        width = 1 if size == 0x08 else 2 if size == 0x0a else 4 if size == 0x0c else 0
                        exact = op == 0x7ac and wr not in pend and width and dest != 0xff
                    else:
                        size = hi >> 9 & 7
                        width = 1 if size <= 4 else 2 if size == 5 else 4 if size == 6 else 0
                        exact = op in (0x981, 0x984) and wr not in pend and width and dest != 0xff
                    pend[wr] = set(range(dest, dest + width)) if exact else None
    return c


def main():
    uniform = sys.argv[1] == '--uniform'
    c = count(sys.argv[2:] if uniform else sys.argv[1:], uniform)
    keys = sorted({(op, byte) for op, byte, _, _ in c})
    for op, byte in keys:
        n = {k: (c[(op, byte, k, False)], c[(op, byte, k, True)]) for k in (1, 2, 3)}
        width = None
        if n[1][0] >= 30 and n[1][1] == 0 and n[2][1] == 0 and n[3][1] == 0:
            width = 1
        elif n[1][1] > 0 and n[2][0] + n[3][0] >= 30 and n[2][1] == 0 and n[3][1] == 0:
            width = 2
        if width:
            print(f'    {{{op:#05x}, {byte}, {width}}},  // no wait / wait at +1 +2 +3: {n[1]} {n[2]} {n[3]}')


if __name__ == '__main__':
    main()
