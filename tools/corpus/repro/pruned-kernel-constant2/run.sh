#!/bin/bash
# Reproducer (found by tools/corpus on code-samples posts/printf-alternative; fixed, kept as a check): a kernel that
# nvlink prunes (not referenced by host code) leaves its OCG constant bank
# ".nv.constant2.<kernel>" behind in dlink's output; nvlink drops it with the kernel.
# (source: the golden case testdata/src/pruned_kernel_constant2)
#   tools/corpus/repro/pruned-kernel-constant2/run.sh [ARCH] [DLINK]
set -eu
here=$(dirname "$0")
exec "$here/../compare.sh" "$here/../../../../testdata/src/pruned_kernel_constant2/k.cu" "${1:-sm_80}" "${2:-$here/../../../../build/bin/dlink}" -SW .nv.constant2
