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
 *     The wide kernel (the descriptor's deep_kc: AVX-512's 8 x 3W tiles where zmm runs at full
 *     width, gemm.c's tg__blocked_kernel), over an L2 of 2 MiB or more, takes kc so that its
 *     8-row micro-panel of A fills two thirds of L1, L1 / (12 es) (1024 floats, 512 doubles for
 *     48 KiB), with its A block a third of L2 rather than a quarter. On the Xeon with AMX (48 KiB
 *     L1, 2 MiB L2), 1 thread, ab-gemm side by side: with the 12 x 2W tile that came before it,
 *     1024 against 768 and a quarter, sgemm 2048^3 1.036x, 4000^3 1.040x, 1000^3 1.028x,
 *     1500x1500x900 1.061x (2 threads 1.021x, 1.039x); dgemm 1.022x, 1.011x, 0.999x, 1.062x (2
 *     threads 1.019x, 1.021x), d 4096x64x4096 0.988x; 1280 and 1536 no better (s 4000^3 1.012x, d
 *     2048^3 0.946x at 1536), 384 and 512 worse (s 2048^3 0.915x, 0.986x). With the 8 x 3W tile,
 *     against 1024: s 2048^3 at 256, 512, 768 0.916x, 0.997x, 0.994x; d 2048^3 at 384, 512, 768
 *     1.010x, 1.025x, 1.037x, 4000^3 1.003x, 1.021x, 1.011x; then d at 512 by this rule: 2048^3
 *     1.018x, 4000^3 1.033x, 1001^3 1.033x, 777x1555x333 1.040x, 2 threads 1.037x and 1.025x,
 *     4096x64x4096 and 1500x1500x900 1.000x and 1.004x. Unmeasured on Emerald Rapids (the same
 *     caches); the Zen 5's 1 MiB L2 keeps L1 / 64.
 *     A last k block of at most a quarter of kc is not run on its own: its tiles would pay their
 *     fixed costs (loading and storing C, starting the next panel of B) over a few k steps. The
 *     blocks are made even instead, as many as whole kc's in k and at most a quarter deeper.
 *     Side by side, 1 thread: sgemm 2048x2048x1100 (1024 + 76 -> 552 + 552) 1.041x, 1536x1536x2100
 *     1.036x, dgemm 1.008x, 1.016x; making every k's blocks even (4000 as four of 1000, 1300 as
 *     two of 656, 2100 as three of 704) did no better, 0.98-1.01x. A KC set by the environment is
 *     taken as is (the tests probe the blocks' edges with it).
 * MC: the packed mc x kc block of A stays in L2 across the whole jr loop: a quarter of L2, a third
 *     under the wide kernel's deeper kc (above); on the Zen 3 mc = 60 against 252 gained another
 *     2-4%: the B panels streaming through L2 need room. A shallow product (depth at most a quarter
 *     of L1's lines) takes at most 48 rows: there C's traffic is most of the work, each of the
 *     block's rows of C is a stream that the jr loop walks along, and the hardware prefetchers
 *     follow a few dozen streams, not a quarter of L2's worth of rows; B's panels, kc x NR, are
 *     small enough to be read again for every 48 rows. Emerald Rapids, 1 thread, ab-gemm against mc
 *     = 168: sgemm 4096x4096x32 1.50x, 4096x4096x64 1.21x, 8192x2048x48 1.35x, dgemm 4096x4096x32
 *     1.10x, 4096x4096x128 1.00x; 24 rows gave the same (1.45x, 1.19x, 1.34x, 1.12x, 1.00x), 96
 *     rows at 4096x4096x32 about half the gain.
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
 *     forced on the same core: 1.00-1.04), a sixteenth for AVX2's fp32 as measured on the Zen 3 and
 *     an eighth for its fp64, the same 1024 columns there (a sixteenth, 512 columns, packed A twice
 *     as often a FMA; Zen 3, 1 thread, ab-gemm against a sixteenth, a copy 0.98-1.01: dgemm 4000^3
 *     1.02-1.04, 2048^3 1.00-1.06, 1000^3 1.02, 1500x1500x900 1.02, 3000x3000x300 1.01; 2 threads
 *     4000^3 1.01, 2048^3 0.98-1.01, 1000^3 1.02; an eighth for fp32 lost, s 2048^3 0.96). Zen 4's
 *     AVX-512 and Intel's take the quarter unmeasured (Intel's server parts have less L3 a core).
 *     A shallow product keeps the sixteenth: its C blocks, mc x nc, stream through L2 at a high
 *     rate and a wider panel makes them push B's panel out of it (sgemm 4096x4096x32 0.89 with a
 *     quarter, 128 deep 1.01). But the sixteenth is counted at full depth, kc = KC: a shallow
 *     product (whose blocks of A are 48 rows, above) takes at least a quarter of L2
 *     at its own depth, so that each row of C is a long stream rather than a few dozen lines
 *     (the Zen 3's 512 KiB L2 gives it the same 1024 columns at depth 32). Emerald Rapids, ab-gemm,
 *     tgemm / MKL in the same runs, 672 columns against the whole 4096: sgemm 4096x4096x32 0.77 ->
 *     0.82 at 1 thread, 0.79 -> 0.92 at 2; dgemm 0.82 -> 0.91 and 0.76 -> 0.94 (2048 columns, what
 *     this rule gives dgemm there: 0.86 and 0.92); 8192x2048x48 1.54 -> 1.69 (1 thread).
 *     A last block of columns of at most a quarter of nc is shared out among the others, as a
 *     thin last k block is (tg__share_tail): each jc step packs all of A again, which a tail of
 *     a few dozen columns does not repay. The Xeon with AMX, 1 thread, ab-gemm side by side:
 *     sgemm 2048^3 (2016 + 32 columns -> 2064) 1.024x, 2 threads 1.030x; dgemm (2040 + 8) 1.014x,
 *     2 threads 1.002x; 2100x2100x1000 1.007x both.
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

/* The block for a dimension `total` long: `block`, unless the last block would be a quarter of one
 * or less; then that tail is shared out among the others (as many as whole blocks fit, each at
 * most a quarter longer, a multiple of q), so that no pass of the loop runs over a thin tail (KC
 * and NC above say what each costs). */
static int64_t tg__share_tail(int64_t total, int64_t block, int64_t q)
{
    if (total <= block || total % block == 0 || total % block > block / 4) return block;
    return tg__ceil_div(tg__ceil_div(total, total / block), q) * q;
}

TG__PRIVATE tg__blocks tg__block_sizes(const tg__kernel *k, int64_t depth, int64_t width)
{
    static int read;
    static int64_t env_mc, env_kc, env_nc;
    const tg__cpuinfo *cpu = tg__cpu();
    int64_t es = (int64_t)k->es, l3 = cpu->l3_plan, share, mc, nc;
    int64_t lines;
    int shallow, deeper;
    tg__blocks b;
    if (!TG__LOAD_ACQUIRE(&read)) {
        env_mc = tg__env_size("TGEMM_MC");
        env_kc = tg__env_size("TGEMM_KC");
        env_nc = tg__env_size("TGEMM_NC");
        TG__STORE_RELEASE(&read, 1);
    }
    lines = tg__round_down(cpu->l1d / 64, 8); /* L1's lines, in k steps */
    deeper = k->deep_kc && cpu->l2 >= (2 << 20);
    b.kc = env_kc ? env_kc : deeper ? tg__round_down(cpu->l1d / 12 / es, 8) : lines;
    if (!env_kc) b.kc = tg__share_tail(depth, b.kc, 8);
    shallow = depth <= lines / 4;
    mc = cpu->l2 / (deeper ? 3 : 4) / (b.kc * es);
    b.mc = tg__round_down(env_mc ? env_mc : shallow ? tg__min(mc, 48) : mc, k->mr);
    share = depth >= 256 ? k->b_share : 16;
    nc = l3 / share / (b.kc * es);
    if (shallow) {
        const int64_t quarter_l2 = cpu->l2 / 4 / (depth * es); /* columns at the product's depth */
        if (nc < quarter_l2) nc = quarter_l2;
    }
    b.nc = tg__round_down(env_nc ? env_nc : nc, k->nr);
    if (!env_nc) b.nc = tg__share_tail(width, b.nc, k->nr);
    return b;
}
