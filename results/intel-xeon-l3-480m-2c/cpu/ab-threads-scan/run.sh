#!/bin/sh
# One build at 1 and 2 threads in one process, C 16 bytes off a cache line (as malloc and the
# harness place it) and on one: where does a second thread lose? From the repository root:
#   sh results/intel-xeon-l3-480m-2c/cpu/ab-threads-scan/run.sh > results/intel-xeon-l3-480m-2c/cpu/ab-threads-scan/ab.log
LIB=${LIB:-build/libtgemm.so.0}
for off in 16 0; do
    for t in s d; do
        for shape in 48 56 64 72 80 96 128 160 192 256 40x96x48 64x32x32 24x64x48 8x128x128 \
            16x64x1024 24x64x512 8x32x2048 16x768x768 64x256x256 128x64x64 64x128x64 100x128x60 \
            256x256x4 1000x64x4 1000x128x8 300x64x8 128x128x16 512x256x16 200x400x1 64x1024x8 \
            256x128x4 4096x32x64 32x4096x64 200x96x96 1000x32x32 96x1000x64; do
            printf '%s C_OFFSET=%s %s: ' "$t" "$off" "$shape"
            C_OFFSET=$off build/ab-gemm "$t" "$shape" 3 "$LIB@1" "$LIB@2" 2>&1 | tail -1 |
                sed 's/.*rate \/ [^:]*: //'
        done
    done
done
