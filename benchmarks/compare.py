#!/usr/bin/env python
"""Benchmark: comparing runs with Fisher's randomisation test, rankmetrics_nb against ranx, on the
same per-query values (10 runs x 7,000 queries x 2 measures, 10,000 rounds by default).

Each job runs in a fresh subprocess that builds the seeded per-query values (untimed), times only
the tests, and reports wall and CPU seconds and the peak RSS of the timed stage (VmHWM reset after
the setup). Jobs:

* ``ours``: `compare_values(..., test='randomisation')`: every pair of runs (45) on both measures at
  once, one sign matrix (10,000 x 7,000, drawn in blocks) for all 90 columns, plus Holm, t intervals
  and effect sizes;
* ``ranx.warmup``: the first call of ranx's Fisher test in a process (numba compiles its kernel, or
  loads it from its cache), on a tiny input;
* ``ranx``: ranx's `compare` tests on the same values (`compute_statistical_significance`, the
  function `ranx.compare` calls after evaluating), after an untimed warm-up. ranx runs the test for
  every *ordered* pair (90 pairs x 2 measures = 180 tests; each unordered pair twice), so the table
  also shows the ratio against half its time.

    .venv/bin/python benchmarks/compare.py                    # the full benchmark (ranx: ~10 min)
    .venv/bin/python benchmarks/compare.py --rounds 1000 --repeat 1    # quick
"""
from __future__ import annotations
import argparse, json, statistics, sys, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run as harness  # noqa: E402  (stdlib only: the fresh-process child runner)
MARK = '@@COMPARE-BENCH@@ '
MEASURES = ['nDCG@10', 'AP']


def make_values(runs: int, queries: int, measures: int, seed: int):
    "Seeded per-query values in [0, 1]: a query effect shared by the runs, a run effect, noise; some exact zeros."
    import numpy as np
    rng = np.random.default_rng(seed)
    query = rng.beta(2, 3, (1, queries, measures))
    run = rng.normal(0, 0.01, (runs, 1, measures))
    x = np.clip(query + run + rng.normal(0, 0.15, (runs, queries, measures)), 0, 1)
    x[:, rng.uniform(size=queries) < 0.1, :] = 0.0                  # queries every run fails
    return x


def _status_mb(field):
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith(field + ':'): return int(line.split()[1]) / 1024
    except OSError: return None


def _reset_peak():
    try:
        with open('/proc/self/clear_refs', 'w') as f: f.write('5')
        return True
    except OSError: return False


def child(job: str, a) -> dict:
    import numpy as np
    X = make_values(a.runs, a.queries, len(MEASURES), a.seed)
    names = [f'run{i:02d}' for i in range(a.runs)]
    if job == 'ours':
        from rankmetrics_nb.results.compare import compare_values
        fn = lambda: compare_values(X, names, MEASURES, test='randomisation', n_resamples=a.rounds, seed=a.seed)
    else:
        from ranx.statistical_tests import compute_statistical_significance, fisher_randomization_test
        if job == 'ranx.warmup':
            fn = lambda: fisher_randomization_test(X[0, :50, 0], X[1, :50, 0], 100, 0.05, 42)
        else:
            fisher_randomization_test(X[0, :50, 0], X[1, :50, 0], 100, 0.05, 42)      # untimed warm-up
            scores = {n: {m: X[i, :, j].copy() for j, m in enumerate(MEASURES)} for i, n in enumerate(names)}
            fn = lambda: compute_statistical_significance(names, scores, 'fisher', a.rounds, 0.05, 42)
    out = {'job': job, 'rss_start_mb': _status_mb('VmRSS'), 'peak_reset': _reset_peak()}
    c0, t0 = time.process_time(), time.perf_counter()
    res = fn()
    out.update(seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0, peak_rss_mb=_status_mb('VmHWM'))
    if job == 'ours':
        out['pvalues'] = {f'{names[p]}|{names[q]}|{m}': float(res.pvalue[k, j]) for k, (p, q) in enumerate(res.pairs)
                          for j, m in enumerate(MEASURES)}
        out['exact'] = bool(res.exact)
    elif job == 'ranx':
        out['pvalues'] = {f'{p}|{q}|{m}': float(res[p, q][m]['p_value']) for i, p in enumerate(names) for q in names[i + 1:]
                          for m in MEASURES}
    return out


def run_child(job: str, a) -> dict:
    return harness.marked_result([sys.executable, __file__, '--child', job, '--runs', str(a.runs), '--queries', str(a.queries),
           '--rounds', str(a.rounds), '--seed', str(a.seed)], MARK, {'job': job})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--runs', type=int, default=10)
    ap.add_argument('--queries', type=int, default=7000)
    ap.add_argument('--rounds', type=int, default=10_000)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--repeat', type=int, default=3, help='fresh-process runs of ours (median)')
    ap.add_argument('--ranx-repeat', type=int, default=1, help='fresh-process runs of ranx (slow)')
    ap.add_argument('--no-ranx', action='store_true')
    ap.add_argument('--child', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(MARK + json.dumps(child(a.child, a)), flush=True)
        return 0
    print(f'compare benchmark: {a.runs} runs x {a.queries} queries x {len(MEASURES)} measures, Fisher randomisation '
          f'with {a.rounds} rounds, all pairs ({a.runs * (a.runs - 1) // 2}); median of fresh processes')
    jobs = {'ours': a.repeat} | ({} if a.no_ranx else {'ranx.warmup': a.ranx_repeat, 'ranx': a.ranx_repeat})
    results = {j: [] for j in jobs}
    for r in range(max(jobs.values())):
        for j, n in jobs.items():
            if r < n:
                res = run_child(j, a)
                if 'error' in res: print(f'  {j}: error: {res["error"]}'); return 1
                results[j].append(res)
                print(f'  {j}: {res["seconds"]:.2f} s (cpu {res["cpu_seconds"]:.2f} s), peak RSS {res["peak_rss_mb"]:.0f} MB', flush=True)
    med = {j: statistics.median(x['seconds'] for x in v) for j, v in results.items() if v}
    peak = {j: max(x['peak_rss_mb'] for x in v) for j, v in results.items() if v}
    grow = {j: max(x['peak_rss_mb'] - x['rss_start_mb'] for x in v) for j, v in results.items() if v}
    print(f'\n{"job":<12} {"seconds":>9} {"peak MB":>8} {"stage MB":>9}   (peak: RSS high-water mark of the process during the stage; stage: above its RSS before)')
    for j in med: print(f'{j:<12} {med[j]:>9.2f} {peak[j]:>8.0f} {grow[j]:>9.0f}')
    if 'ranx' in med:
        print(f'\nspeed-up (ranx / ours): {med["ranx"] / med["ours"]:.1f}x; against half of ranx (each unordered pair once): '
              f'{med["ranx"] / 2 / med["ours"]:.1f}x; ranx JIT warm-up (apart): {med["ranx.warmup"]:.2f} s')
        ours_p, ranx_p = results['ours'][0]['pvalues'], results['ranx'][0]['pvalues']
        import math
        worst = max(abs(ours_p[k] - ranx_p[k]) / max(math.sqrt(2 * ((ours_p[k] + ranx_p[k]) / 2) * (1 - (ours_p[k] + ranx_p[k]) / 2) / a.rounds), 1e-12)
                    for k in ours_p)
        print(f'agreement: the largest |p_ours - p_ranx| is {worst:.2f} Monte Carlo standard errors ({len(ours_p)} p-values)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
