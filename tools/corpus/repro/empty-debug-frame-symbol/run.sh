#!/bin/bash
# Reproducer (found by tools/corpus on code-samples series/cuda-cpp/optimize-data-transfers
# bandwidthtest.cu, a program without device code; fixed, kept as a check): the only input has no device code, so the
# output has an empty .debug_frame; nvlink gives it no section symbol, dlink does (every arch).
#   tools/corpus/repro/empty-debug-frame-symbol/run.sh [ARCH] [DLINK]
set -eu
here=$(dirname "$0")
exec "$here/../compare.sh" "$here/a.cu" "${1:-sm_80}" "${2:-$here/../../../../build/bin/dlink}" -sW .debug_frame
