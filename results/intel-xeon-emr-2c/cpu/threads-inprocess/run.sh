#!/bin/sh
# One build at 1 and at 2 threads in one process (ab-gemm's LIB@N), MKL likewise beside it:
# whether a second thread pays, side by side. Run from the repository root after
# `make build/libtgemm.so build/ab-gemm`, with nothing else running.
MKL=${MKL:-/root/.pyenv/versions/3.11.7/lib/libmkl_rt.so.3}
LINES=${LINES:-15}
for dt in s d; do
    for shape in 40 48 56 64 72 80 96 128 48x96x96 16x768x768 64x256x256 \
                 1000 777x1555x333 4096x64x4096 64x4096x64 4096x4096x32 32x32x4096 8x4096x4096; do
        build/ab-gemm $dt $shape $LINES build/libtgemm.so@1 build/libtgemm.so@2 \
            build/libtgemm.so@1 "$MKL@1" "$MKL@2"
    done
done
