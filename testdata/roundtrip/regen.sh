#!/bin/sh
# Regenerates the round-trip corpus of tests/unit/elf_roundtrip_test.cpp with
# the CUDA 13.0 toolchain: ptxas REL objects (a/b/s/t/tr), ptxas
# whole-program EXEC (whole), nvlink EXEC (linked, sl, tl, trl) and
# nvlink -r (partial) outputs for sm_75, sm_90, sm_100 and sm_110.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
NVLINK=${NVLINK:-/usr/local/cuda/bin/nvlink}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
for a in 75 90 100; do
  $NVCC -arch=sm_$a -rdc=true -cubin a.cu -o a_sm$a.cubin
  $NVCC -arch=sm_$a -rdc=true -cubin b.cu -o b_sm$a.cubin
  $NVLINK -arch=sm_$a a_sm$a.cubin b_sm$a.cubin -o linked_sm$a.cubin
done
for a in 90 100; do
  $NVLINK -arch=sm_$a -r a_sm$a.cubin b_sm$a.cubin -o partial_sm$a.cubin
  $NVCC -arch=sm_$a -cubin w.cu -o whole_sm$a.cubin
done
$NVCC -arch=sm_110 -rdc=true -cubin s.cu -o s_sm110.cubin
$NVLINK -arch=sm_110 s_sm110.cubin -o sl_sm110.cubin
$NVCC -arch=sm_110 -rdc=true -cubin t.cu -o t_sm110.cubin
$NVLINK -arch=sm_110 t_sm110.cubin -o tl_sm110.cubin
rm -f t_sm110.cubin
$PTXAS -arch=sm_100 -c tr.ptx -o tr_sm100.cubin
$NVLINK -arch=sm_100 tr_sm100.cubin -o trl_sm100.cubin
