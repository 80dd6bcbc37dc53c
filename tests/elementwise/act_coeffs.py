#!/usr/bin/env python3
"""The polynomial coefficients of the vector activations (cpu/elementwise_act_simd.inc), derived.

Run once when the approximations change (needs mpmath: pip install mpmath); it prints the C tables
that the source holds, and the largest relative error of each polynomial with its coefficients
rounded to the type (exact arithmetic otherwise; the rounding of the evaluation is measured by
tests/elementwise/test_elementwise.c --sweep (make test-act-sweep) on the real code).

exp(r), |r| <= h:       exp(r) = 1 + r + r^2 g(r), g interpolated at Chebyshev nodes (near-minimax;
                        1 + r stay exact, the fitted part is a correction of relative size r^2/2);
                        float: h = ln2/16, degree 3, beside the table 2^(j/8), j = 0..7, that
                        takes the rest of the reduction; CUDA's fp64 GELU erf: h = ln2/2,
                        degree 11.
exp(r) = (R + r) / (R - r), |r| <= h: the CPU's double. R = r coth(r/2) is even, 2 + s G(s) at
                        s = r^2, G interpolated at Chebyshev nodes of s in [0, h^2]; an error d
                        in R is one of about d r / 2 in exp(r). AVX2: h = ln2/4, degree 3 (2:
                        ~8 ulp), beside 1 and sqrt2; AVX-512: h = ln2/16, degree 2 (1: ~11 ulp),
                        beside the table 2^(j/8) in double.
The flush clamps:       exp is 0 where its scaled table entry is: the entry 1 with floor(n/8) =
                        -127 (float) or floor(n/2) = -1023 (AVX2's double) added to its exponent
                        field; in CUDA's fp64 GELU erf, where 2^n's exponent field is 0; in
                        AVX-512's double, scaled by the scaling instruction, where floor(n/8) is
                        -1077. The clamp of each activation's -|x| puts its argument t in that
                        band, mid-way but for the band AVX2 shares with CUDA, whose clamps are
                        checked to lie in it.
erfc(z) = t exp(g(t) - z^2), t = 1 / (1 + z/2), 0 <= z <= 14: the CUDA fp16/bf16 GELU erf
                        (cuda/elementwise/elementwise.cu), g interpolated at Chebyshev nodes of
                        t in [1/8, 1]; only to ~1e-6, far under fp16's and bf16's half ulp
                        (2^-11, 2^-8), with the hardware's approximate exp and division.
erfcx(y) = exp(y^2) erfc(y), 0 <= y <= Y:  smooth and bounded (1 at 0, ~1/(y sqrt(pi)) far out).
                        float: a polynomial in t = (y - K) / (y + K), interpolated at Chebyshev
                        nodes in t: t maps [0, Y] onto [-1, (Y - K)/(Y + K)], which takes the 1/y
                        tail in with few terms (K and the degree chosen by trying, for the least work
                        below the type's half ulp).
                        double in CUDA: the same, K = 4, Y = 9, degree 20.
                        double on the CPU: a rational function P(y) / Q(y) of degrees 8 and 8,
                        near-minimax over [0, 9] in relative error divided by the slack the tests
                        give (1 up to y ~ 5.95, growing past it, where results fall under 2^-53 and
                        are judged in absolute terms): within 3.5 ulp of that (degrees 8 and 9:
                        0.5, one fma more; 7 and 8: 12), 15 fmas, two additions and one division
                        where the polynomial in t of the float form needed degree 20 in double (two
                        fmas and the same division to form t).
                        Fitted by linearised least squares at Chebyshev nodes, iterated with the
                        weights 1/Q of the last solution (Sanathanan-Koerner) and then the errors'
                        (Lawson), and printed as the source uses it: erfcx/2 = c P/Q in x = -y
                        sqrt2 (the activation's clamped -|x|), so that the code forms neither y nor
                        a product by 1/2, with P and Q monic and c in a table of c 2^(j/8); the powers of -1/sqrt2 alternate the signs, and every term
                        of Horner's rule then has the sign of the last, so nothing cancels.

usage: python3 tests/elementwise/act_coeffs.py
"""
import os
import re
import struct

import mpmath as mp

mp.mp.dps = 60


def cheb_fit(f, a, b, n):
    """Monomial coefficients (constant first) of the degree n - 1 interpolant of f at the n
    Chebyshev nodes of [a, b]."""
    xs = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (k + mp.mpf(1) / 2) / n) for k in range(n)]
    vander = mp.matrix([[x ** j for j in range(n)] for x in xs])
    c = mp.lu_solve(vander, mp.matrix([f(x) for x in xs]))
    return [c[j] for j in range(n)]


def to_type(v, single):
    """v rounded to float or double (to nearest), as an mpf."""
    return mp.fadd(v, 0, prec=24 if single else 53, rounding='n')


def c_literal(v, single):
    return ("%.9e" % float(v)) + "f" if single else "%.17e" % float(v)


def worst_rel(poly, f, a, b, pts=2000):
    w = mp.mpf(0)
    for i in range(pts + 1):
        x = a + (b - a) * mp.mpf(i) / pts
        w = max(w, abs(mp.polyval(poly[::-1], x) / f(x) - 1))
    return w


def exp_table(degree, single, h):

    def g(r):  # near 0 (a node is there for odd counts) by its series: the quotient cancels
        return (mp.exp(r) - 1 - r) / r ** 2 if abs(r) > 1e-20 else 1 / mp.mpf(2) + r / 6

    c = [mp.mpf(1), mp.mpf(1)] + [to_type(v, single) for v in cheb_fit(g, -h, h, degree - 1)]
    return c, worst_rel(c, mp.exp, -h, h)


def exp_quotient_table(degree, h):

    def g(s):  # near 0 by its series: the quotient cancels
        return (mp.sqrt(s) * mp.coth(mp.sqrt(s) / 2) - 2) / s if s > 1e-20 else 1 / mp.mpf(6) - s / 360

    c = [to_type(v, False) for v in cheb_fit(g, mp.mpf(0), h * h, degree + 1)]
    worst = mp.mpf(0)
    for i in range(-2000, 2001):
        r = h * i / 2000
        big_r = 2 + r * r * mp.polyval(c[::-1], r * r)
        worst = max(worst, abs((big_r + r) / (big_r - r) / mp.exp(r) - 1))
    return c, worst


def erfcx_table(k, y_max, degree, single):
    t_max = (y_max - k) / (y_max + k)

    def f(t):
        y = k * (1 + t) / (1 - t)
        return mp.exp(y * y) * mp.erfc(y)

    c = [to_type(v, single) for v in cheb_fit(f, mp.mpf(-1), t_max, degree + 1)]
    return c, worst_rel(c, f, mp.mpf(-1), t_max)


def erfcx_slack(y):
    """How many times the relative error allowed near 0 GELU erf allows at x = -y sqrt2: 1 while its
    value y/sqrt2 erfc(y) is at least 2^-53, and 2^-53 over that value below, where the tests judge a
    result in absolute terms (past y ~ 5.95)."""
    value = y / mp.sqrt(2) * mp.erfc(y)
    return max(mp.mpf(1), mp.mpf(2) ** -53 / value) if y > 0 else mp.mpf(1)


def erfcx_rational(m, n, y_max, nodes=240, rounds=40):
    """erfcx(y)/2 = c P(x)/Q(x) at x = -y sqrt2, P of degree m and Q of degree n, both monic and
    rounded to double, with the table of c 2^(j/8), j = 0..7, that takes c into exp's, and the
    ratio's largest relative error (exact arithmetic, c rounded) over [0, y_max], each point's error
    divided by its slack (erfcx_slack), by which the fit weights it too (fitted with Q(0) = 1)."""
    ys = [y_max / 2 * (1 - mp.cos(mp.pi * (i + mp.mpf(1) / 2) / nodes)) for i in range(nodes)]
    f = [mp.exp(y * y) * mp.erfc(y) for y in ys]
    slack = [erfcx_slack(y) for y in ys]
    w, lawson = [1 / v for v in f], [1 / v for v in slack]
    for it in range(rounds):
        a = mp.matrix(nodes, m + 1 + n)
        b = mp.matrix(nodes, 1)
        for i, y in enumerate(ys):  # (P - f Q) w lawson, unknowns p_0..p_m, q_1..q_n
            wl = w[i] * lawson[i]
            for j in range(m + 1):
                a[i, j] = wl * y ** j
            for j in range(1, n + 1):
                a[i, m + j] = -wl * f[i] * y ** j
            b[i] = wl * f[i]
        c = mp.qr_solve(a, b)[0]
        p, q = [c[j] for j in range(m + 1)], [mp.mpf(1)] + [c[m + j] for j in range(1, n + 1)]
        w = [1 / (f[i] * mp.polyval(q[::-1], y)) for i, y in enumerate(ys)]
        if it >= 5:  # Lawson: weight each node by its error, towards equal ripples
            err = [abs(mp.polyval(p[::-1], y) * w[i] - 1) / slack[i] for i, y in enumerate(ys)]
            total = sum(lawson[i] * err[i] for i in range(nodes))
            lawson = [lawson[i] * err[i] * nodes / total for i in range(nodes)]
    # in x = -y sqrt2, halved, then both made monic: erfcx/2 = c P(x) / Q(x), c = -1/sqrt(2 pi) or near
    s = -1 / mp.sqrt(2)
    pe = [v * s ** j / 2 for j, v in enumerate(p)]
    qe = [v * s ** j for j, v in enumerate(q)]
    c = pe[m] / qe[n]
    pd = [to_type(v / pe[m], False) for v in pe]
    qd = [to_type(v / qe[n], False) for v in qe]
    tab = [to_type(c * mp.mpf(2) ** (mp.mpf(j) / 8), False) for j in range(8)]
    worst = mp.mpf(0)
    for i in range(2001):
        y = y_max * mp.mpf(i) / 2000
        x = -y * mp.sqrt(2)
        ratio = tab[0] * mp.polyval(pd[::-1], x) / mp.polyval(qd[::-1], x)
        worst = max(worst, abs(ratio / (mp.exp(y * y) * mp.erfc(y) / 2) - 1) / erfcx_slack(y))
    return pd, qd, tab, worst


def erfc_half_table(degree):
    """g(t) = ln(erfc(z) / t) + z^2 at z = 2 (1 - t) / t, t in [1/8, 1] (z in [0, 14]); its absolute
    error is E's relative error."""
    def g(t):
        z = 2 * (1 - t) / t
        return mp.log(mp.erfc(z) / t) + z * z

    lo = mp.mpf(1) / 8
    c = [to_type(v, True) for v in cheb_fit(g, lo, mp.mpf(1), degree + 1)]
    err = max(abs(mp.polyval(c[::-1], t) - g(t)) for t in (lo + (1 - lo) * mp.mpf(i) / 2000 for i in range(2001)))
    return c, err


def show(name, coeffs, err, single):
    print("/* %s: max relative error %s (%.2f ulp of the type) */" %
          (name, mp.nstr(err, 3), float(err / mp.mpf(2) ** (-24 if single else -53))))
    print("{" + ", ".join(c_literal(v, single) for v in coeffs) + "}")


def flush_clamps():
    """The band of exp's argument t whose scale has exponent field 0 (so exp(t) = 0 exactly), and
    for each activation the clamp of |x| that puts t mid-way in it (elementwise_act_coeffs.h); for
    the band AVX2 shares with CUDA, whose clamps were set mid-way in an earlier band, where those
    clamps put t, each checked to lie inside."""
    ln2 = mp.log(2)
    a = 2 * mp.sqrt(2 / mp.pi)

    def minus_2u(x):
        return -a * (x + mp.mpf("0.044715") * x ** 3)

    bands = {"float": (-1016.5 * ln2 / 8, -1015.5 * ln2 / 8),  # n = round(8t/ln2) = -1016:
             # floor(n/8) = -127 and the table's entry 1
             # AVX2's n = round(2t / ln2) = -2046 (floor(n/2) = -1023, the table's entry 1) within
             # CUDA's n = round(t / ln2) = -1023
             "double, AVX2 and CUDA": (max(-2046.5 * ln2 / 2, -1023.5 * ln2),
                                       min(-2045.5 * ln2 / 2, -1022.5 * ln2)),
             # floor(n/8) = -1077, where the scaling instruction rounds T N < 4 to 0
             "double, AVX-512": (-8616.5 * ln2 / 8, -8608.5 * ln2 / 8)}
    # the clamps in use, read from the header, so that the check is of the source's values
    header = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cpu",
                               "elementwise_act_coeffs.h")).read()
    kept = {"double, AVX2 and CUDA": tuple(
        mp.mpf(re.search(r"#define TG__FLUSH%s_D (\S+)" % n, header).group(1))
        for n in ("", "_TANH", "_ERF"))}
    for t, (lo, hi) in bands.items():
        mid = (lo + hi) / 2
        tanh = mp.findroot(lambda x: minus_2u(x) - mid, 15)
        print("flush, %s: t in [%s, %s]; |x| clamps mid-way: sigmoid/SiLU %s, GELU tanh %s, GELU "
              "erf %s" % (t, mp.nstr(lo, 6), mp.nstr(hi, 6), mp.nstr(-mid, 6), mp.nstr(tanh, 6),
                          mp.nstr(mp.sqrt(-2 * mid), 6)))
        if t in kept:
            sig, tanh, erf = kept[t]
            ts = (-sig, minus_2u(tanh), -erf * erf / 2)
            assert all(lo < v < hi for v in ts), "a kept clamp is off its band"
            print("  the clamps in use, %s, %s, %s, put t at %s" % (
                sig, tanh, erf, ", ".join(mp.nstr(v, 6) for v in ts)))


def main():
    for single in (True, False):
        t = "float" if single else "double"
        deg, h, name = (3, mp.log(2) / 16, "ln2/16") if single else (11, mp.log(2) / 2, "ln2/2")
        c, e = exp_table(deg, single, h)
        show("exp, %s%s, |r| <= %s, degree %d" % (t, "" if single else " (CUDA)", name, deg), c, e,
             single)
        # the table of 2^(j/8) that takes the rest of an eighth-step reduction
        tab = [to_type(mp.mpf(2) ** (mp.mpf(j) / 8), single) for j in range(8)]
        err = max(abs(v / mp.mpf(2) ** (mp.mpf(j) / 8) - 1) for j, v in enumerate(tab))
        show("2^(j/8), %s, j = 0..7" % t, tab, err, single)
        if single:  # as the source holds it: its bits less j << 20 (j in the three top mantissa
            # bits), which the scaling's addition of n << 20 puts back
            stored = [struct.unpack("<f", struct.pack("<i", struct.unpack("<i", struct.pack(
                "<f", float(v)))[0] - (j << 20)))[0] for j, v in enumerate(tab)]
            print("/* the same, its bits less j << 20 (the source's table) */\n{" +
                  ", ".join(c_literal(v, True) for v in stored) + "}")
        if not single:
            c, e = exp_quotient_table(3, mp.log(2) / 4)
            show("exp = (R + r) / (R - r), R = 2 + s G(s), double (AVX2), |r| <= ln2/4, G of "
                 "degree 3", c, e, False)
            c, e = exp_quotient_table(2, mp.log(2) / 16)
            show("exp = (R + r) / (R - r), R = 2 + s G(s), double (AVX-512), |r| <= ln2/16, G of "
                 "degree 2", c, e, False)
        k, y_max, deg = (4, 6, 8) if single else (4, 9, 20)
        c, e = erfcx_table(mp.mpf(k), mp.mpf(y_max), deg, single)
        show("erfcx, %s, K = %d, y <= %d, degree %d" % ("float" if single else "double (CUDA)", k, y_max, deg),
             c, e, single)
        if not single:
            pd, qd, tab, e = erfcx_rational(8, 8, mp.mpf(9))
            show("erfcx/2 = c P/Q at x = -y sqrt2, double, y <= 9, degrees 8 and 8, monic (error "
                 "over slack): P", pd, e, False)
            print("/* Q */\n{" + ", ".join(c_literal(v, False) for v in qd) + "}")
            print("/* c 2^(j/8), j = 0..7 */\n{" + ", ".join(c_literal(v, False) for v in tab) + "}")
    c, e = erfc_half_table(7)
    print("/* erfc for fp16/bf16 (CUDA), g(t), degree 7: max absolute error of g (relative of erfc) %s */"
          % mp.nstr(e, 3))
    print("{" + ", ".join(c_literal(v, True) for v in c) + "}")
    flush_clamps()
    # GELU tanh's A = 2 sqrt(2/pi) and B = 0.044715 A, times hi / ln2 for the type's hi of ln2 (its
    # argument comes so scaled and saves exp's second reduction step): A as A1, cut to a multiple
    # of 2^-20 (float) or 2^-49 (double), so that A1 - w is exact for w = fma(B, x^2, A1) < 16, and
    # the rest; B as hi + lo. (The factor, 1 + 2.7e-9 in float, moves the flush clamps' t above by
    # under 3e-7, far inside their bands.)
    a = 2 * mp.sqrt(2 / mp.pi)
    for single, bits in ((True, 20), (False, 49)):
        f = to_type(mp.log(2), single) / mp.log(2)
        a1 = mp.nint(a * f * mp.mpf(2) ** bits) / mp.mpf(2) ** bits
        b = to_type(mp.mpf("0.044715") * a * f, single)
        assert to_type(a1, single) == a1
        print("GELU tanh, %s: A1 %s (%d / 2^%d), A f - A1 %s, B f %s, lo %s (f = hi / ln2)" % (
            "float" if single else "double", c_literal(a1, single), int(a1 * 2 ** bits), bits,
            c_literal(to_type(a * f - a1, single), single), c_literal(b, single),
            c_literal(to_type(mp.mpf("0.044715") * a * f - b, single), single)))
    # The constants of the reductions and of the arguments, each as the nearest value of the type
    # and the nearest to the rest.
    for name, v in (("ln2", mp.log(2)),
                    ("1/sqrt(2)", 1 / mp.sqrt(2))):
        for single in (True, False):
            hi = to_type(v, single)
            print("%s %s: hi %s lo %s" % (name, "float" if single else "double",
                                          c_literal(hi, single), c_literal(to_type(v - hi, single), single)))


if __name__ == "__main__":
    main()
