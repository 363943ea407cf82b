"""Time `rankmetrics trec_eval -m all_trec` against pytrec_eval-terrier evaluating its whole measure set, on the same files.

Each timing is a fresh process, from files to every per-query value (wall time, median of --repeat runs), with the
process's peak memory. pytrec_eval parses the files with its own `parse_qrel`/`parse_run` and evaluates
`pytrec_eval.supported_measures` (trec_eval 9.0.8's set); ours runs the command with `-q` as well, writing
trec_eval's text output to /dev/null (so ours also formats ~100 values per query).

    .venv/bin/python benchmarks/trec_eval_all.py [--dataset msmarco|msmarco-quick|trec] [--repeat 3]
"""
import argparse, json, statistics, subprocess, sys, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_data

PYTREC = """
import sys, pytrec_eval
with open(sys.argv[1]) as f: qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f: run = pytrec_eval.parse_run(f)
res = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
print(len(res), sum(len(v) for v in res.values()), file=sys.stderr)
"""
OURS = """
import sys
from rankmetrics_nb.trec_eval import main
with open('/dev/null', 'w') as out: sys.exit(main(['-q', '-m', 'all_trec', sys.argv[1], sys.argv[2]], out=out))
"""
PEAK = "import resource, sys; print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)"

def timed(code:str, qrels, run)->tuple:
    "(seconds, peak MB) of `code` in a fresh interpreter."
    wrapper = f"import subprocess, sys, time; t = time.perf_counter(); r = subprocess.run([sys.executable, '-c', {code!r}, {str(qrels)!r}, {str(run)!r}]); " \
              f"print(time.perf_counter() - t, file=sys.stderr); {PEAK}; sys.exit(r.returncode)"
    p = subprocess.run([sys.executable, '-c', wrapper], capture_output=True, text=True)
    if p.returncode: raise SystemExit(p.stderr)
    lines = p.stderr.strip().splitlines()
    return float(lines[-2]), int(lines[-1]) / 1024

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--dataset', default='msmarco'); ap.add_argument('--repeat', type=int, default=3)
    a = ap.parse_args()
    make_data.ensure(a.dataset)
    paths = make_data.paths(a.dataset)
    rows = {}
    for name, code in (('rankmetrics trec_eval -q -m all_trec', OURS), ('pytrec_eval, all supported measures', PYTREC)):
        runs = [timed(code, paths['qrels'], paths['run']) for _ in range(a.repeat)]
        rows[name] = (statistics.median(t for t, _ in runs), max(m for _, m in runs))
        print(f'{name}: {rows[name][0]:.2f} s, peak {rows[name][1]:.0f} MB', flush=True)
    (ours_t, ours_m), (peer_t, peer_m) = rows.values()
    table = ['| tool | time (median) | peak memory |', '|---|---|---|'] + [f'| {n} | {t:.2f} s | {m:.0f} MB |' for n, (t, m) in rows.items()]
    table.append(f'| ratio (pytrec_eval / ours) | {peer_t / ours_t:.2f}× | {peer_m / ours_m:.2f}× |')
    out = HERE / 'results' / f'trec_eval_all_{a.dataset}.md'
    out.parent.mkdir(exist_ok=True)
    out.write_text(f'# all_trec vs pytrec_eval\'s full set, {a.dataset}, median of {a.repeat}\n\n' + '\n'.join(table) + '\n')
    print('\n'.join(table))

if __name__ == '__main__': main()
