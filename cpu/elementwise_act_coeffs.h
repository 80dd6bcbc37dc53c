/* The constants of the vector activations (elementwise_act_simd.inc): polynomial coefficients,
 * exp's table, and the split constants of the argument reductions. One copy for every vector
 * width and for the CUDA fp64 GELU erf (cuda/elementwise/elementwise.cu), which is why the tables
 * are lists in macros: the CPU code makes them arrays (elementwise_act_simd.inc), the CUDA code
 * arrays in the device's constant memory, which host arrays cannot be read as. Macros only, so that
 * cpu/elementwise.h can carry it to both. tests/elementwise/act_coeffs.py derives the coefficients
 * and says what each is for.
 */
#ifndef TGEMM_CPU_ELEMENTWISE_ACT_COEFFS_H
#define TGEMM_CPU_ELEMENTWISE_ACT_COEFFS_H

/* Float: exp(r) = 1 + r + r^2 (c2 + c3 r) for |r| <= ln2/16, constant term first, and 2^(j/8) for
 * j = 0..7, the table that takes the rest of the reduction, each entry stored less j in its three
 * top mantissa bits (elementwise_act_simd.inc: the scaling adds them back), correctly rounded
 * (act_coeffs.py). */
#define TG__EW_EXP_CS \
    1.000000000e+00f, 1.000000000e+00f, 5.000391006e-01f, 1.666744798e-01f
#define TG__EW_EXP_TAB_S \
    1.000000000e+00f, 9.827538729e-01f, 9.696035385e-01f, 9.609197974e-01f, 9.571067691e-01f, \
    9.586054087e-01f, 9.658964276e-01f, 9.795040488e-01f
/* Double, AVX2's form: exp(r) = (R + r) / (R - r) for |r| <= ln2/4, with R = r coth(r/2) =
 * 2 + s G(s) at s = r^2, G of degree 3 (act_coeffs.py: constant term first); its table of two, 1
 * and sqrt2, is a blend (elementwise_act_simd.inc). */
#define TG__EW_EXPQ_CD \
    1.66666666666666408e-01, -2.77777777749556526e-03, 6.61375191404781987e-05, \
    -1.65093419649559040e-06
/* Double, CUDA's fp64 GELU erf (cuda/elementwise/elementwise.cu): exp(r) = 1 + r + r^2 g(r) for
 * |r| <= ln2/2, g of degree 9 (act_coeffs.py): constant term first. */
#define TG__EW_EXP_CD \
    1.00000000000000000e+00, 1.00000000000000000e+00, 5.00000000000000111e-01, \
    1.66666666666666685e-01, 4.16666666666241636e-02, 8.33333333333006500e-03, \
    1.38888889171967186e-03, 1.98412698630405450e-04, 2.48015213223686919e-05, \
    2.75572684803100238e-06, 2.76200758799833672e-07, 2.51003758325612340e-08

/* Double, AVX-512's form: exp(r) = (R + r) / (R - r) as AVX2's, for |r| <= ln2/16, G of degree 2
 * (act_coeffs.py: constant term first), and 2^(j/8) for j = 0..7, the table that takes the rest of
 * the reduction, correctly rounded. */
#define TG__EW_EXPQ8_CD \
    1.66666666666666324e-01, -2.77777777450208697e-03, 6.61329116992572636e-05
#define TG__EW_EXP_TAB_D \
    1.00000000000000000e+00, 1.09050773266525769e+00, 1.18920711500272103e+00, \
    1.29683955465100964e+00, 1.41421356237309515e+00, 1.54221082540794074e+00, \
    1.68179283050742900e+00, 1.83400808640934243e+00

/* erfcx(y) = exp(y^2) erfc(y) for 0 <= y <= Y. Float: a polynomial in t = (y - K) / (y + K), K = 4,
 * Y = 6, degree 8. Double, on the CPU: erfcx(y) / 2 = c P(x) / Q(x) at x = -y sqrt2 for y <= 9, P
 * and Q of degree 8, both monic, and c 2^(j/8) for j = 0..7, exp's table with c taken in (c, the
 * first entry, is the ratio of their leading coefficients); in CUDA: a polynomial in t as in float, K = 4, Y = 9,
 * degree 20 (cuda/elementwise/elementwise.cu says why the GPU keeps it). act_coeffs.py; constant
 * term first. */
#define TG__EW_ERFCX_CS \
    1.369994581e-01f, -2.590681314e-01f, 2.187201232e-01f, -1.642530710e-01f, 1.089507639e-01f, \
    -6.320964545e-02f, 3.128184378e-02f, -1.218442898e-02f, 5.332567263e-03f
#define TG__EW_ERFCX_CD \
    1.36999457625061383e-01, -2.59068048760171643e-01, 2.18719678918264965e-01, \
    -1.64257816697305103e-01, 1.08963177398900823e-01, -6.31078156399690893e-02, \
    3.12990565185783665e-02, -1.28439460254792751e-02, 4.06026363334238433e-03, \
    -7.99126884724387547e-04, -2.17619181424029877e-05, 7.89835229833096256e-05, \
    -2.25542416514530572e-05, -1.90258450892662559e-06, 2.93774607144760460e-06, \
    -4.20166030222073068e-07, -2.81760939564512646e-07, 1.22378990901473426e-07, \
    5.69792079964610074e-08, -2.21833542929462775e-10, -1.97674196628839905e-09
#define TG__EW_ERFCX_PD \
    1.48563959578035498e+12, -1.75354405556337354e+12, 1.03510585062755298e+12, \
    -3.76865586116171326e+11, 9.01089677775090179e+10, -1.40703102936394444e+10, \
    1.33054127980557251e+09, -5.92607642694047317e+07, 1.00000000000000000e+00
#define TG__EW_ERFCX_QD \
    2.00025654721142892e+04, -3.95693537687539647e+04, 3.55070989384608765e+04, \
    -1.89398983034826742e+04, 6.59512969611305925e+03, -1.54298018085725994e+03, \
    2.38431330816143571e+02, -2.24522339529171582e+01, 1.00000000000000000e+00
#define TG__EW_EXP_TAB_ERF_D \
    6.73197104093325779e-09, 7.34126647621630161e-09, 8.00570785987010538e-09, \
    8.73028632664737994e-09, 9.52044474759073609e-09, 1.03821186156600341e-08, \
    1.13217806318251867e-08, 1.23464893265451132e-08

/* ln2 as hi + lo (hi the nearest value of the type; fma forms t - n hi exactly, since it is below
 * 0.5 and a multiple of 2^-54 in double whenever n is not 0, and t - n hi/8 in float, below 2^-4
 * and a multiple of 2^-27; float's reduction takes no second step, so has no lo), log2(e), and the
 * rounding constants 1.5 2^23 and 1.5 2^52: t log2(e) + M (8 t log2(e) + M in float) is M plus the
 * integer n nearest to t / ln2 (8 t / ln2), which then sits in M's low bits (AVX-512's double takes
 * M / 8, whose ulp is 1/8: t log2(e) + M/8 holds n/8 for n = round(8 t / ln2)). Macros, not
 * objects, so that each vector width folds them into its own constants; they stay defined, since
 * every width's instantiation uses them. */
#define TG__LN2_HI_S 6.931471825e-01f
#define TG__LN2_HI_D 6.93147180559945286e-01
#define TG__LN2_LO_D 2.31904681384629956e-17
#define TG__LOG2E 1.4426950408889634
#define TG__ROUND_S 12582912.0f
#define TG__ROUND_D 6755399441055744.0
/* Where each activation's exp is flushed to 0 (elementwise_act_simd.inc): the clamp of -|x| that
 * puts exp's argument t in the band where its scale is 0 -- float t in [-88.07, -87.99], mid-way
 * (n = round(8t / ln2) = -1016: floor(n/8) = -127 and the table's entry 1); the double t of
 * AVX2 and of CUDA's fp64 GELU erf in [-709.26, -708.92], the part of AVX2's band (n = round(2t /
 * ln2) = -2046: floor(n/2) = -1023 and the table's entry 1) within CUDA's (n = round(t / ln2) =
 * -1023), at -708.93 to -708.95 (the mid-point of an earlier band, which AVX-512 shared before it
 * took the scaling instruction: kept, so that the CUDA code stays as it ran on the GPU);
 * AVX-512's double t in [-746.56, -745.87], mid-way (floor(n/8) = -1077, where the scaling
 * instruction rounds to 0) -- so that every input
 * at or past the clamp gets exp = 0 exactly, as do those short of it whose t is already in the
 * band (act_coeffs.py). Sigmoid and SiLU: t = -|x|; GELU tanh: t = -2u(x); GELU erf: t = -x^2/2. */
#define TG__FLUSH_S 88.03f
#define TG__FLUSH_TANH_S 10.031f
#define TG__FLUSH_ERF_S 13.2687f
#define TG__FLUSH_D 708.93
#define TG__FLUSH_TANH_D 21.151
#define TG__FLUSH_ERF_D 37.655
#define TG__FLUSH8_D 746.216
#define TG__FLUSH8_TANH_D 21.5274
#define TG__FLUSH8_ERF_D 38.632
/* -2u(x) = x (A + B x^2), A = 2 sqrt(2/pi), B = 2 sqrt(2/pi) 0.044715, both times hi / ln2 for
 * the type's hi above (GELU tanh's argument comes so scaled and saves a step of exp's reduction,
 * elementwise_act_simd.inc), act_coeffs.py: A as A1, A cut to a multiple of 2^-20 (float) or 2^-49
 * (double), and the rest, A - A1 (GELU tanh forms A1 - w exactly); B as hi + lo. */
#define TG__GELU_A1_S 1.595768929e+00f
#define TG__GELU_A1_LO_S 1.974628105e-07f
#define TG__GELU_A1_D 1.59576912160573059e+00
#define TG__GELU_A1_LO_D 6.89622309667478395e-17
#define TG__GELU_B_D 7.13548162726002494e-02
#define TG__GELU_B_LO_D (-3.00481690936622886e-18)
#define TG__GELU_B_S 7.135481387e-02f
#define TG__GELU_B_LO_S 2.594903625e-09f
#define TG__SQRT1_2 7.07106781186547573e-01

#endif /* TGEMM_CPU_ELEMENTWISE_ACT_COEFFS_H */
