#!/usr/bin/env python
"""Benchmark: discriminative power over many runs (100 runs x 200 topics x 1,000 resamples by default).

Each job runs in a fresh subprocess that builds seeded per-topic values (untimed), then times one call and
reports wall and CPU seconds and the peak RSS of the timed stage (VmHWM reset after the setup). Jobs:

* ``randomisation``: `discriminative_power(X, test='randomisation')`: all 4,950 pairs at once, one shared matrix of
  sign vectors (1,000 x 200) for every pair;
* ``randomised_tukey``: the same with the randomised Tukey HSD test (1,000 shuffles of every topic's scores among
  the runs, one null distribution of the range for all pairs);
* ``bootstrap``: the same with the paired bootstrap test (one shared matrix of resampled topics);
* ``t``: the same with the paired t-test (no resampling: the floor of the pipeline);
* ``per-pair``: the randomisation test called once per pair with the same seed (what a script that loops over
  pairs does); its p-values are checked equal to the shared matrix's;
* ``swaps``: `swap_rates` at sizes 10, 20, ..., 100 with 100 trials each.

    .venv/bin/python benchmarks/inference.py                 # the default sizes
    .venv/bin/python benchmarks/inference.py --runs 30 --repeat 1
"""
from __future__ import annotations
import argparse, json, statistics, sys, time
from pathlib import Path
from compare import _status_mb, _reset_peak       # benchmarks/compare.py: the peak-RSS probes

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run as harness  # noqa: E402  (stdlib only: the fresh-process child runner)
MARK = '@@INFERENCE-BENCH@@ '
JOBS = ('randomisation', 'randomised_tukey', 'bootstrap', 't', 'per-pair', 'swaps')


def make_values(runs: int, topics: int, seed: int):
    "Seeded per-topic values in [0, 1]: a topic effect shared by the runs, a run effect, noise."
    import numpy as np
    rng = np.random.default_rng(seed)
    x = rng.beta(2, 3, (1, topics)) + rng.normal(0, 0.03, (runs, 1)) + rng.normal(0, 0.12, (runs, topics))
    return np.clip(x, 0, 1)


def child(job: str, a) -> dict:
    import numpy as np
    from rankmetrics_nb.stats.inference import discriminative_power, swap_rates
    from rankmetrics_nb.stats.significance import randomisation_test
    X = make_values(a.runs, a.topics, a.seed)
    if job == 'per-pair':
        i, j = np.triu_indices(a.runs, 1)
        fn = lambda: np.array([randomisation_test(X[b] - X[c], a.resamples, a.seed)[0][0] for c, b in zip(i, j)])
    elif job == 'swaps':
        fn = lambda: swap_rates(X, sizes=list(range(10, min(100, a.topics // 2) + 1, 10)), n_trials=100, seed=a.seed)
    else:
        fn = lambda: discriminative_power(X, test=job, n_resamples=a.resamples, seed=a.seed)
    out = {'job': job, 'rss_start_mb': _status_mb('VmRSS'), 'peak_reset': _reset_peak()}
    c0, t0 = time.process_time(), time.perf_counter()
    res = fn()
    out.update(seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0, peak_rss_mb=_status_mb('VmHWM'))
    if job == 'per-pair':
        shared = discriminative_power(X, n_resamples=a.resamples, seed=a.seed).pvalue[:, 0]
        out['equal_to_shared'] = bool(np.array_equal(shared, res))
    elif job != 'swaps':
        out['power'] = float(res.power[0])
    return out


def run_child(job: str, a) -> dict:
    return harness.marked_result([sys.executable, __file__, '--child', job, '--runs', str(a.runs), '--topics', str(a.topics),
           '--resamples', str(a.resamples), '--seed', str(a.seed)], MARK, {'job': job})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--runs', type=int, default=100)
    ap.add_argument('--topics', type=int, default=200)
    ap.add_argument('--resamples', type=int, default=1000)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--repeat', type=int, default=3, help='fresh-process runs per job (median)')
    ap.add_argument('--jobs', default=','.join(JOBS), help=f'comma-separated, from: {", ".join(JOBS)}')
    ap.add_argument('--child', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(MARK + json.dumps(child(a.child, a)), flush=True)
        return 0
    jobs = [j for j in a.jobs.split(',') if j]
    print(f'inference benchmark: discriminative power of {a.runs} runs ({a.runs * (a.runs - 1) // 2} pairs) x {a.topics} topics, '
          f'{a.resamples} resamples; median of {a.repeat} fresh processes')
    results = {j: [] for j in jobs}
    for _ in range(a.repeat):
        for j in jobs:
            res = run_child(j, a)
            if 'error' in res: print(f'  {j}: error: {res["error"]}'); return 1
            results[j].append(res)
            extra = (f', equal to the shared matrix: {res["equal_to_shared"]}' if 'equal_to_shared' in res else
                     f', power {res["power"]:.3f}' if 'power' in res else '')
            print(f'  {j}: {res["seconds"]:.2f} s (cpu {res["cpu_seconds"]:.2f} s), peak RSS {res["peak_rss_mb"]:.0f} MB{extra}', flush=True)
    print(f'\n{"job":<18} {"seconds":>9} {"peak MB":>8} {"stage MB":>9}   (peak: RSS high-water mark during the stage; stage: above the RSS before it)')
    for j, v in results.items():
        print(f'{j:<18} {statistics.median(x["seconds"] for x in v):>9.2f} {max(x["peak_rss_mb"] for x in v):>8.0f} '
              f'{max(x["peak_rss_mb"] - x["rss_start_mb"] for x in v):>9.0f}')
    if 'per-pair' in results and 'randomisation' in results:
        ratio = statistics.median(x['seconds'] for x in results['per-pair']) / statistics.median(x['seconds'] for x in results['randomisation'])
        print(f'\none shared sign matrix vs one test per pair: {ratio:.1f}x faster, identical p-values: '
              f'{all(x["equal_to_shared"] for x in results["per-pair"])}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
