#!/usr/bin/env python3
"""Research (docs/notes/demangling.md): tallies compare's output.
Usage: tally.py PAIRS.tsv GOLDEN.tsv (rows: mangled, dlink, __cxa_demangle, LLVM).
The reference is nvlink's text: testdata/demangle/nvlink_names.tsv for the pairs; for the
golden names dlink's text, which the golden suite checks against nvlink wherever nvlink
prints it (-dump-callgraph)."""
import collections, glob, re, sys

nv = dict(l.rstrip('\n').split('\t', 1) for l in open('testdata/demangle/nvlink_names.tsv'))
def rows(p): return [l.rstrip('\n').split('\t') for l in open(p)]
pairs, golden = rows(sys.argv[1]), rows(sys.argv[2])
printed = ''.join(open(p, errors='replace').read()
                  for p in glob.glob('testdata/golden/*/*/expected.std*'))
callgraph = [r for r in golden if r[1] != r[0] and r[1] + ' [' in printed]

def norm(s): return re.sub(r'\s', '', s)
def kinds(m, ref, g):
    if g == m: return {'GNU gives no text, nvlink demangles'}
    if ref == m: return {'nvlink prints the raw name, GNU demangles'}
    ks = set()
    if re.search(r'\[(deleting|subobject|complete|base|allocating)\]', ref): ks.add('constructor/destructor kind')
    if re.search(r'\bT\d+\b', ref): ks.add('template parameters unsubstituted (T1, T2)')
    if re.search(r'\((unsigned |signed )?(int|long|char|short|bool|long long|unsigned)\)-?\d', ref): ks.add('literal printed as a cast')
    if '<unnamed>' in ref: ks.add('<unnamed> for (anonymous namespace)')
    if 'std::basic_' in ref and 'std::basic_' not in g: ks.add('std:: abbreviations expanded')
    if norm(ref) == norm(g): ks.add('spacing only')
    elif not ks:
        if norm(re.sub(r'(\w+) const\b', r'const \1', g)) == norm(ref): ks.add('cv-qualifier placement (and spacing)')
        else: ks.add('other (unnamed and lambda types, float literals, member pointers, vectors, thunks, _INTERNAL names)')
    return ks

for title, rs, ref in (('nvlink pairs', pairs, lambda r: nv[r[0]]),
                       ('golden symbols', golden, lambda r: r[1]),
                       ('golden callgraph names', callgraph, lambda r: r[1])):
    n = len(rs)
    same = [sum(r[k] == ref(r) for r in rs) for k in (1, 2, 3)]
    print(f'{title}: {n} names; identical: dlink {same[0]}, __cxa_demangle {same[1]}, LLVM {same[2]}')
    c = collections.Counter()
    for r in rs:
        if r[2] != ref(r):
            c.update(kinds(r[0], ref(r), r[2]))
    for k, v in c.most_common():
        print(f'  {v:5d}  {k}')
