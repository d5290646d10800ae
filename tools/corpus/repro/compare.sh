#!/bin/bash
# One corpus reproducer: compile SRC.cu with -rdc=true for ARCH, device-link it with nvlink and
# with dlink on nvcc -dlink's command line, and compare the outputs. On a difference, print the
# lines of `readelf READELF_FLAGS` that match PATTERN.
#   compare.sh SRC.cu ARCH DLINK READELF_FLAGS PATTERN
set -eu
src=$(realpath "$1") arch=$2 dlink=$(realpath "$3") flags=$4 pattern=$5
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
cp "$src" "$w/a.cu"; cd "$w"
nvcc -arch="$arch" -rdc=true -c a.cu -o a.o
args=(-m64 --arch="$arch" --register-link-binaries=reg.c -L/usr/local/cuda/bin/../targets/x86_64-linux/lib/stubs
      -L/usr/local/cuda/bin/../targets/x86_64-linux/lib -cpu-arch=X86_64 ../a.o -lcudadevrt -o out.cubin --host-ccbin gcc)
mkdir n d bin; ln -s "$dlink" bin/nvlink
(cd n && /usr/local/cuda/bin/nvlink "${args[@]}")
(cd d && ../bin/nvlink "${args[@]}")
if cmp -s n/out.cubin d/out.cubin; then echo "$arch: identical"; else
  echo "$arch: DIFFER"; readelf "$flags" d/out.cubin 2>/dev/null | grep -F -- "$pattern" || true; exit 1; fi
