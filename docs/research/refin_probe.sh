#!/bin/bash
# Research (docs/notes/refinalization.md): build a probe kernel and link it with nvlink and
# with dlink without re-finalization (--dlink-no-refinalize).
#   docs/research/refin_probe.sh probe.cu [arch]  ->  $REFIN_DIR/probe/<name>/<arch>/{in,n,d}.cubin
# Needs a symlink named nvlink to build/bin/dlink in $REFIN_DIR/bin (the tool name is in the output).
src=$1; arch=${2:-sm_100}; n=$(basename "$src" .cu); R=${REFIN_DIR:-/tmp/sb}
d=$R/probe/$n/$arch; mkdir -p "$d"; cp "$src" "$d/src.cu"; cd "$d" || exit 1
/usr/local/cuda/bin/nvcc -arch=$arch -rdc=true -cubin -o in.cubin src.cu || exit 1
/usr/local/cuda/bin/nvlink -arch=$arch in.cubin -o n.cubin || exit 1
DLINK_EXPERIMENTAL_MERCURY=1 "$R/bin/nvlink" --dlink-no-refinalize -arch=$arch in.cubin -o d.cubin
