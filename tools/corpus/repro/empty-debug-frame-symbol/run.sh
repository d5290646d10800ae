#!/bin/bash
# Reproducer (found by tools/corpus on code-samples series/cuda-cpp/optimize-data-transfers
# bandwidthtest.cu, a program without device code; fixed, kept as a check): the only input has no device code, so the
# output has an empty .debug_frame; nvlink gives it no section symbol, dlink does (every arch).
#   tools/corpus/repro/empty-debug-frame-symbol/run.sh [ARCH] [DLINK]
set -eu
arch=${1:-sm_80}
dlink=$(realpath "${2:-$(dirname "$0")/../../../../build/bin/dlink}")
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
cp "$(dirname "$0")/a.cu" "$w/"; cd "$w"
nvcc -arch="$arch" -rdc=true -c a.cu -o a.o
args=(-m64 --arch="$arch" --register-link-binaries=reg.c -L/usr/local/cuda/bin/../targets/x86_64-linux/lib/stubs
      -L/usr/local/cuda/bin/../targets/x86_64-linux/lib -cpu-arch=X86_64 ../a.o -lcudadevrt -o out.cubin --host-ccbin gcc)
mkdir n d bin; ln -s "$dlink" bin/nvlink
(cd n && /usr/local/cuda/bin/nvlink "${args[@]}")
(cd d && ../bin/nvlink "${args[@]}")
if cmp -s n/out.cubin d/out.cubin; then echo "$arch: identical"; else
  echo "$arch: DIFFER"; readelf -sW d/out.cubin 2>/dev/null | grep -F .debug_frame || true; exit 1; fi
