#!/bin/bash
# Research (docs/notes/refinalization.md): classify dlink's re-finalization on probe kernels.
#   docs/research/refin_classify.sh DLINK ARCH file.cu...
# Per file: "identical" (dlink == nvlink), "kept" (dlink left ptxas's code, nvlink rewrote),
# "not-refinalized" (nvlink kept ptxas's code and so did dlink) or "NEITHER" (dlink's code is
# neither ptxas's nor nvlink's).
dlink=$(readlink -f "$1"); arch=$2; shift 2
w=$(mktemp -d); mkdir -p "$w/bin"; ln -s "$dlink" "$w/bin/nvlink"
for src in "$@"; do
  n=$(basename "$src" .cu)
  /usr/local/cuda/bin/nvcc -arch="$arch" -rdc=true -cubin -o "$w/$n.cubin" "$src" 2>/dev/null || { echo "$n build-failed"; continue; }
  /usr/local/cuda/bin/nvlink -arch="$arch" "$w/$n.cubin" -o "$w/n.cubin" || continue
  DLINK_EXPERIMENTAL_MERCURY=1 "$w/bin/nvlink" -arch="$arch" "$w/$n.cubin" -o "$w/d.cubin"
  DLINK_EXPERIMENTAL_MERCURY=1 "$w/bin/nvlink" --dlink-no-refinalize -arch="$arch" "$w/$n.cubin" -o "$w/p.cubin"
  if cmp -s "$w/n.cubin" "$w/d.cubin"; then
    cmp -s "$w/n.cubin" "$w/p.cubin" && echo "$n not-refinalized" || echo "$n identical"
  elif cmp -s "$w/d.cubin" "$w/p.cubin"; then echo "$n kept"
  else echo "$n NEITHER"; fi
done
rm -rf "$w"
