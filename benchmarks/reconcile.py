#!/usr/bin/env python
"""Benchmark: `reconcile_measures` (nDCG@10, AP and RR under 'ours' and every preset) against one `evaluate` call
of the same three measures, from the same TREC files (the MS MARCO-scale `msmarco` dataset of make_data.py by default).

Each job runs in a fresh subprocess: imports untimed, then the clock measures the whole call from the file paths
(reading, joining, measuring). Jobs:

* ``evaluate``: `evaluate(qrels, run, MEASURES, per_query=True)` under this library's own conventions;
* ``evaluate_each``: what a user does without `reconcile`: one `evaluate` per tool whose preset computes the
  measures (presets that refuse a measure are skipped, as `reconcile` reports them refused);
* ``reconcile``: `reconcile_measures(qrels, run, MEASURES)`: every tool's column and everything its attributions
  need (each Shapley combination is computed when an attribution is asked for, on the cached joins).

The table gives the median seconds and the ratio to ``evaluate``; the issue's target is "at most a few times one
`evaluate` call".

    .venv/bin/python benchmarks/reconcile.py                     # msmarco, 3 repeats
    .venv/bin/python benchmarks/reconcile.py --dataset trec --repeat 1
"""
from __future__ import annotations
import argparse, json, statistics, subprocess, sys, time, warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run as harness  # noqa: E402  (stdlib only: the fresh-process child runner)
MARK = '@@RECONCILE-BENCH@@ '
MEASURES = ['nDCG@10', 'AP', 'RR']
JOBS = ['evaluate', 'evaluate_each', 'reconcile']


def _each(qrels, run):
    "One `evaluate` per preset that computes every measure (refusals are what `reconcile` reports)."
    from rankmetrics_nb.evaluator.evaluate import evaluate
    from rankmetrics_nb.registry.conventions import CONVENTIONS
    from rankmetrics_nb.engine.checks import EvalInputError
    out = {'ours': evaluate(qrels, run, MEASURES, per_query=True)}
    for name in CONVENTIONS:
        try: out[name] = evaluate(qrels, run, MEASURES, per_query=True, conventions=name)
        except EvalInputError: pass
    return out


def child(job: str, data: Path) -> dict:
    warnings.simplefilter('ignore')
    from rankmetrics_nb.evaluator.evaluate import evaluate
    from rankmetrics_nb.results.reconcile import reconcile_measures
    qrels, run = str(data / 'qrels.txt'), str(data / 'run.txt')
    fn = {'evaluate': lambda: evaluate(qrels, run, MEASURES, per_query=True),
          'evaluate_each': lambda: _each(qrels, run),
          'reconcile': lambda: reconcile_measures(qrels, run, MEASURES)}[job]
    c0, t0 = time.process_time(), time.perf_counter()
    res = fn()
    out = {'job': job, 'seconds': time.perf_counter() - t0, 'cpu_seconds': time.process_time() - c0}
    if job == 'reconcile':
        out['reproduced'] = {m: len(r.means) for m, r in res.items()}
        out['refused'] = {m: len(r.refused) for m, r in res.items()}
        t1 = time.perf_counter()
        a = res['nDCG@10'].attribution('trec_eval', 'sklearn')
        out['attribution_seconds'] = time.perf_counter() - t1
        out['attribution_parts'] = len(a)
    elif job == 'evaluate_each': out['evaluations'] = len(res)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dataset', default='msmarco')
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--jobs', default=','.join(JOBS))
    ap.add_argument('--child', help=argparse.SUPPRESS)
    a = ap.parse_args()
    data = HERE / 'data' / a.dataset
    if a.child:
        print(MARK + json.dumps(child(a.child, data)))
        return
    if not (data / 'run.txt').is_file():
        subprocess.run([sys.executable, str(HERE / 'make_data.py')], check=True)
    jobs, runs = a.jobs.split(','), {}
    for _ in range(a.repeat):
        for job in jobs:                                   # repetitions interleaved across jobs
            res = harness.marked_result([sys.executable, __file__, '--dataset', a.dataset, '--child', job], MARK, {'job': job})
            if 'error' in res: sys.exit(f"{job} failed: {res['error']}")
            runs.setdefault(job, []).append(res)
    base = statistics.median(r['seconds'] for r in runs['evaluate']) if 'evaluate' in runs else None
    print(f"dataset {a.dataset}, measures {', '.join(MEASURES)}, {a.repeat} repeats (median)")
    print(f"{'job':<15}{'seconds':>9}{'cpu s':>9}{'× evaluate':>12}  detail")
    for job, rs in runs.items():
        s, c = statistics.median(r['seconds'] for r in rs), statistics.median(r['cpu_seconds'] for r in rs)
        extra = {k: v for k, v in rs[-1].items() if k not in ('job', 'seconds', 'cpu_seconds', 'process_seconds')}
        print(f"{job:<15}{s:>9.2f}{c:>9.2f}{(s / base if base else float('nan')):>12.2f}  {json.dumps(extra)}")
    out = HERE / 'results' / f'reconcile_{a.dataset}.json'
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({'dataset': a.dataset, 'measures': MEASURES, 'runs': runs}, indent=1))


if __name__ == '__main__':
    main()
