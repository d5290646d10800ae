#!/bin/sh
# Regenerates the reader test inputs with the CUDA 13.0.88 toolchain and GNU binutils.
# Run from this directory. Outputs are checked in; tests assert their structure.
set -e
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
$NVCC -arch=sm_90 -rdc=true -c k1.cu -o zstd_rdc.o
$NVCC -arch=sm_90 -rdc=true -c k1.cu --compress-mode=speed -o lz4_rdc.o
$NVCC -arch=sm_90 -rdc=true -c k1.cu --compress-mode=none -o raw_rdc.o
$NVCC -arch=sm_90 -rdc=true -c k2.cu -o k2.o
$NVCC -arch=sm_90 -c k2.cu -o nonrdc.o
$NVCC -rdc=true -c k2.cu -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=[sm_90,compute_90] -o multiarch.o
$NVCC -arch=sm_90 -rdc=true -c k3.cu -o hostrefs.o
$NVCC -arch=compute_90 -rdc=true -G -c k2.cu -o debug_ptx.o
$NVCC -rdc=true -fatbin k2.cu -gencode arch=compute_90a,code=[sm_90a,compute_90a] \
  -gencode arch=compute_100f,code=sm_100f -gencode arch=compute_75,code=compute_75 -o variants.fatbin
$NVCC -rdc=true -fatbin k2.cu -gencode arch=compute_90,code=lto_90 -o lto.fatbin
ld -r zstd_rdc.o k2.o -o ldr.o
objcopy -O elf32-x86-64 zstd_rdc.o x32_rdc.o
gcc -O2 -c host.c -o host.o
rm -f libdev.a libthin.a k2_with_a_long_member_name.o
cp k2.o k2_with_a_long_member_name.o
ar rc libdev.a k2_with_a_long_member_name.o host.o
rm k2_with_a_long_member_name.o
ar rcT libthin.a k2.o host.o
