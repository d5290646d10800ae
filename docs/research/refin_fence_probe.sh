#!/bin/bash
# Research (docs/notes/refinalization.md, release fences): build a probe kernel and link it
# with nvlink, with dlink without re-finalization (raw.cubin: ptxas's code) and with dlink.
#   docs/research/refin_fence_probe.sh probe.cu [arch]  ->  $REFIN_DIR/fence/<name>/<arch>/{in,n,raw,d}.cubin
# Needs a symlink named nvlink to build/bin/dlink in $REFIN_DIR/bin (the tool name is in the output).
# DLINK_LOG=debug on the last link names the step that kept a kernel.
src=$(realpath "$1"); arch=${2:-sm_100}; n=$(basename "$src" .cu); R=${REFIN_DIR:-/tmp/sb}
d=$R/fence/$n/$arch; mkdir -p "$d"; cd "$d" || exit 1
/usr/local/cuda/bin/nvcc -arch=$arch -rdc=true -cubin -o in.cubin "$src" || exit 1
/usr/local/cuda/bin/nvlink -arch=$arch in.cubin -o n.cubin || exit 1
DLINK_EXPERIMENTAL_MERCURY=1 "$R/bin/nvlink" --dlink-no-refinalize -arch=$arch in.cubin -o raw.cubin
DLINK_EXPERIMENTAL_MERCURY=1 "$R/bin/nvlink" -arch=$arch in.cubin -o d.cubin
cmp -s d.cubin n.cubin && echo "$n $arch: identical" || echo "$n $arch: differs"
