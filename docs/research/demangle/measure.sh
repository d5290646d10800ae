#!/bin/bash
# Research (docs/notes/demangling.md): dlink's demangler against __cxa_demangle and LLVM's
# Itanium demangler (Debian llvm-14-dev) on nvlink's measured pairs and on every _Z name
# of the golden cubins. Run from the repository root; writes to ${OUT:-/tmp/demangle}.
set -e
OUT=${OUT:-/tmp/demangle}; mkdir -p "$OUT"
g++ -std=c++20 -O1 -Iinclude -I/usr/lib/llvm-14/include docs/research/demangle/compare.cpp \
  src/demangle.cpp src/demangle/*.cpp -L/usr/lib/llvm-14/lib -lLLVMDemangle -o "$OUT/compare"
cut -f1 testdata/demangle/nvlink_names.tsv | "$OUT/compare" > "$OUT/pairs.tsv"
python3 docs/research/demangle/names.py testdata/golden | "$OUT/compare" > "$OUT/golden.tsv"
python3 docs/research/demangle/tally.py "$OUT/pairs.tsv" "$OUT/golden.tsv"
