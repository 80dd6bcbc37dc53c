/* Cache block sizes, from the caches the machine reports, overridable by TGEMM_MC/KC/NC.
 *
 * KC: as many k steps as L1 holds cache lines (512 for 32 KiB): a kc-deep micro-panel of B one line
 *     wide (AVX2's 16 floats or 8 doubles) fills L1 while the micro-kernel streams A past it. Deep
 *     panels pay: each tile of C is loaded and stored once per kc, and on a Zen 3 core (32 KiB L1)
 *     sgemm 2048^3 ran at 88 GFLOP/s with kc = 256 (half of L1) and 93 with kc = 512 (all of it);
 *     A's micro-panel streams from L2 with the hardware prefetcher ahead of it. AVX-512's panels are
 *     two lines wide and keep kc = 512 all the same (twice L1, fed from L2): on Zen 4, 1 thread, kc
 *     256 / 384 / 512 gave sgemm 1024^3 104.8 / 108.3 / 108.6 GFLOP/s (AVX2 108.7), 4096x64x4096
 *     79.5 / 83.6 / 86.1 (86.5), dgemm 4096x64x4096 42.8 / 44.9 / 46.3 (45.6).
 * MC: the packed mc x kc block of A stays in L2 across the whole jr loop: a quarter of L2 (on the same
 *     core mc = 60 against 252 gained another 2-4%: the B panels streaming through L2 need room).
 *     A shallow product (depth at most KC / 4) takes at most 48 rows: there C's traffic is most of
 *     the work, each of the block's rows of C is a stream that the jr loop walks along, and the
 *     hardware prefetchers follow a few dozen streams, not a quarter of L2's worth of rows; B's
 *     panels, kc x NR, are small enough to be read again for every 48 rows. Emerald Rapids, 1
 *     thread, ab-gemm against mc = 168: sgemm 4096x4096x32 1.50x, 4096x4096x64 1.21x,
 *     8192x2048x48 1.35x, dgemm 4096x4096x32 1.10x, 4096x4096x128 1.00x; 24 rows gave the same
 *     (1.45x, 1.19x, 1.34x, 1.12x, 1.00x), 96 rows at 4096x4096x32 about half the gain.
 * NC: the packed kc x nc block of B lives in L3 (shared by the threads), counted as at most 32 MiB
 *     (cpuinfo's l3_plan: a VM's reported L3 can be the whole socket's). How much of L3 trades
 *     two costs. Every jc step
 *     packs all of A again (from L3 or DRAM), which a wider panel amortizes over more columns; but
 *     an L3 is shared by all cores of its complex, other tenants' included, and the panel must stay
 *     there while every A block of the ic loop streams past it. A sixteenth (2 MiB of 32) by
 *     default: on the Zen 3 VM, AVX2, sgemm 4000^3 at 1 thread went from 77 to 84 GFLOP/s (OpenBLAS
 *     86, medians of 5 alternating runs) when the panel shrank from 8 MiB (a quarter) to 2 MiB,
 *     dgemm 4000^3 from 40 to 43; 1 and 4 MiB did no better than 2 within the noise. The faster
 *     the kernel, the more A's packing weighs: a deep product (depth >= 256) takes 1/b_share of L3,
 *     a quarter for AVX-512 (Zen 5, full-width FMAs, 1 thread, ab-gemm side by side against a
 *     sixteenth: sgemm 1024^3 1.02, 2048^3 1.03, 4000^3 1.04, 4096x4096x384 1.04; dgemm 1.05, 1.05,
 *     1.06, 1.05; 2 threads 1.03-1.06; a half was no better, and at dgemm 4000^3 worse, 0.98; AVX2
 *     forced on the same core: 1.00-1.04), a sixteenth for AVX2 as measured on the Zen 3. Zen 4's
 *     AVX-512 and Intel's take the quarter unmeasured (Intel's server parts have less L3 a core).
 *     A shallow product keeps the sixteenth: its C blocks, mc x nc, stream through L2 at a high
 *     rate and a wider panel makes them push B's panel out of it (sgemm 4096x4096x32 0.89 with a
 *     quarter, 128 deep 1.01). But the sixteenth is counted at full depth, kc = KC: a product of
 *     depth at most KC / 4 (whose blocks of A are 48 rows, above) takes at least a quarter of L2
 *     at its own depth, so that each row of C is a long stream rather than a few dozen lines
 *     (the Zen 3's 512 KiB L2 gives it the same 1024 columns at depth 32). Emerald Rapids, ab-gemm,
 *     tgemm / MKL in the same runs, 672 columns against the whole 4096: sgemm 4096x4096x32 0.77 ->
 *     0.82 at 1 thread, 0.79 -> 0.92 at 2; dgemm 0.82 -> 0.91 and 0.76 -> 0.94 (2048 columns, what
 *     this rule gives dgemm there: 0.86 and 0.92); 8192x2048x48 1.54 -> 1.69 (1 thread).
 * None depends on the thread count, so results are bitwise the same for any number of threads.
 */
#include <stdlib.h>

#include "cpu.h"

TG__PRIVATE int64_t tg__env_size(const char *name)
{
    const char *s = getenv(name);
    char *end;
    long long v;
    if (!s || !*s) return 0;
    v = strtoll(s, &end, 10);
    return (*end == '\0' && v > 0) ? (int64_t)v : 0;
}

/* Rounds x down to a multiple of q, but never below q. */
static int64_t tg__round_down(int64_t x, int64_t q) { return x < q ? q : x / q * q; }

TG__PRIVATE tg__blocks tg__block_sizes(const tg__kernel *k, int64_t depth)
{
    static int read;
    static int64_t env_mc, env_kc, env_nc;
    const tg__cpuinfo *cpu = tg__cpu();
    int64_t es = (int64_t)k->es, l3 = cpu->l3_plan, share, mc, nc;
    int shallow;
    tg__blocks b;
    if (!TG__LOAD_ACQUIRE(&read)) {
        env_mc = tg__env_size("TGEMM_MC");
        env_kc = tg__env_size("TGEMM_KC");
        env_nc = tg__env_size("TGEMM_NC");
        TG__STORE_RELEASE(&read, 1);
    }
    b.kc = env_kc ? env_kc : tg__round_down(cpu->l1d / 64, 8);
    shallow = depth <= b.kc / 4;
    mc = cpu->l2 / 4 / (b.kc * es);
    b.mc = tg__round_down(env_mc ? env_mc : shallow ? tg__min(mc, 48) : mc, k->mr);
    share = depth >= 256 ? k->b_share : 16;
    nc = l3 / share / (b.kc * es);
    if (shallow) {
        const int64_t quarter_l2 = cpu->l2 / 4 / (depth * es); /* columns at the product's depth */
        if (nc < quarter_l2) nc = quarter_l2;
    }
    b.nc = tg__round_down(env_nc ? env_nc : nc, k->nr);
    return b;
}
