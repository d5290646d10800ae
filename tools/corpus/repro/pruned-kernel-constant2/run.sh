#!/bin/bash
# Reproducer (found by tools/corpus on code-samples posts/printf-alternative; fixed, kept as a check): a kernel that
# nvlink prunes (not referenced by host code) leaves its OCG constant bank
# ".nv.constant2.<kernel>" behind in dlink's output; nvlink drops it with the kernel.
#   tools/corpus/repro/pruned-kernel-constant2/run.sh [ARCH] [DLINK]
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
  echo "$arch: DIFFER"; readelf -SW d/out.cubin 2>/dev/null | grep '\.nv\.constant2' || true; exit 1; fi
