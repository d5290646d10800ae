#!/bin/bash
# Reproducer (found by tools/corpus on HeCBench flame-cuda and Rodinia myocyte, sm_90 and
# sm_90a only; fixed, golden case empty_rela_constant2): the inputs' kernels have ".rela.nv.constant2.<kernel>" sections that nvlink
# drops together with their names; dlink drops the sections too (same section list) but
# leaves the names ".rela.nv.constant2.<kernel>" in .shstrtab/.strtab, so the string tables
# and every offset after them differ. Needs the HeCBench snapshot (tools/corpus/manifest).
#   tools/corpus/repro/dangling-rela-constant2-names/run.sh [ARCH]
set -eu
arch=${1:-sm_90}
c=$(dirname "$0")/../../corpus
"$c" extract --prog hec-flame >/dev/null && "$c" plan >/dev/null
"$c" compile --prog hec-flame --arch "$arch" --jobs 2
"$c" diff --prog hec-flame --arch "$arch" --keep-outputs | grep -A2 '^- hec-flame' || true
