"""Time rank correlation at scale: RC of one list of a million documents with grades 0-3, and Kendall's tau-b of a
million pairs of continuous scores, on the seeded data of the rank correlation notebook's "Scale" section (which checks
their values; the times are measured here, never in a test).

    .venv/bin/python benchmarks/rank_correlation.py [--repeat 5] [--n 1000000]
"""
import argparse, statistics, sys, time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--n', type=int, default=1_000_000, help='documents in the list')
    a = ap.parse_args(argv)
    import numpy as np
    from rankmetrics_nb.metrics.rank_correlation import rank_correlation, kendall_tau
    rng = np.random.default_rng(11)                      # the notebook's seed and draws
    big = rng.integers(0, 4, a.n).astype(float)
    xb = rng.normal(size=a.n)
    yb = xb + rng.normal(size=a.n)
    rows = []
    for label, f in [(f'rank_correlation, {a.n:,} grades 0-3', lambda: rank_correlation(big)),
                     (f'kendall_tau (b), {a.n:,} normal pairs', lambda: kendall_tau(xb, yb))]:
        times = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            f()
            times.append(time.perf_counter() - t0)
        rows.append((label, statistics.median(times), min(times)))
    width = max(len(r[0]) for r in rows)
    print(f"{'what':{width}}  {'median s':>8}  {'min s':>8}")
    for label, med, low in rows: print(f'{label:{width}}  {med:8.3f}  {low:8.3f}')
    return 0


if __name__ == '__main__': sys.exit(main())
