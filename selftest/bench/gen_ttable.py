#!/usr/bin/env python3
"""Generate the two-sided Student's t table of analysis/stat/stats.c from first principles.

The quantile t solves P(|T| < t) = level for T with df degrees of freedom:
P(|T| < t) = 1 - I_x(df/2, 1/2) with x = df / (df + t^2), I the regularized
incomplete beta function, evaluated here by its continued fraction (modified
Lentz), and t found by bisection. The infinity row is the normal quantile,
P(|Z| < z) = erf(z / sqrt(2)). Values are rounded to three decimals.

  gen_ttable.py                 print the C rows
  gen_ttable.py --check FILE    exit 1 unless FILE holds exactly these rows
"""
import math
import re
import sys

LEVELS = (80, 90, 95, 98, 99, 99.5)
MAXDF = 100


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            return h
    raise ArithmeticError("betacf did not converge")


def betai(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lfront = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
              + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lfront) * betacf(a, b, x) / a
    return 1.0 - math.exp(lfront) * betacf(b, a, 1.0 - x) / b


def central_t(t, df):
    """P(|T| < t) for Student's t with df degrees of freedom."""
    return 1.0 - betai(df / 2.0, 0.5, df / (df + t * t))


def central_z(z):
    return math.erf(z / math.sqrt(2.0))


def solve(prob, target):
    lo, hi = 0.0, 1.0
    while prob(hi) < target:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if prob(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def table():
    """Rows: index 0 is the infinity row, then df 1..MAXDF."""
    rows = [[solve(central_z, lv / 100.0) for lv in LEVELS]]
    for df in range(1, MAXDF + 1):
        rows.append([solve(lambda t: central_t(t, df), lv / 100.0)
                     for lv in LEVELS])
    return rows


def rounded(v):
    r = round(v, 3)
    # A quantile this close to a rounding boundary would need more care.
    if abs(abs(v - r) - 0.0005) < 1e-9:
        raise ArithmeticError("%.12f is too close to a rounding boundary" % v)
    return r


def c_rows():
    out = []
    for i, row in enumerate(table()):
        name = "inf" if i == 0 else "%d" % i
        cells = ", ".join("%7.3f" % rounded(v) for v in row)
        out.append("\t/* %4s */ { %s }," % (name, cells))
    return out


def main(argv):
    rows = c_rows()
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        have = [l for l in text.splitlines() if re.match(r"\t/\* +(inf|\d+) \*/ \{", l)]
        if have != rows:
            missing = [r for r in rows if r not in have]
            sys.stderr.write("gen_ttable: %s: table differs from the generated one "
                             "(first differing row: %s)\n"
                             % (argv[2], missing[0].strip() if missing else "extra rows"))
            return 1
        return 0
    if len(argv) != 1:
        sys.stderr.write("usage: gen_ttable.py [--check FILE]\n")
        return 2
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
