"""`evaluate` against pytrec_eval-terrier and ranx on the same files: end to end, parse only, and in memory.

Each row is a fresh interpreter; wall time of the timed part, median of --repeat runs, and the process's peak memory.
Measures: nDCG@10, nDCG, AP, RR, RR@10, P@10, R@100 (pytrec_eval has no RR@10: it computes the other six;
ranx computes all seven, and its first call compiles its numba kernels: timed separately as "ranx JIT warm-up").

    .venv/bin/python benchmarks/evaluate_peers.py [--dataset msmarco|msmarco-quick|trec] [--repeat 3]
"""
import argparse, statistics, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_data

OURS = ['nDCG@10', 'nDCG', 'AP', 'RR', 'RR@10', 'P@10', 'R@100']
PYTREC = ['ndcg_cut_10', 'ndcg', 'map', 'recip_rank', 'P_10', 'recall_100']
RANX = ['ndcg@10', 'ndcg', 'map', 'mrr', 'mrr@10', 'precision@10', 'recall@100']

PRE = "import sys, time, warnings; warnings.simplefilter('ignore'); Q, R = sys.argv[1], sys.argv[2]\n"
JOBS = {
    'ours: parse both files': "from rankmetrics_nb import read_qrels, read_run\nt = time.perf_counter(); read_qrels(Q); read_run(R)",
    'ours: files → per-query values': f"from rankmetrics_nb import evaluate\nt = time.perf_counter(); evaluate(Q, R, {OURS!r}, per_query=True)",
    'ours: in memory (loaded) → values': f"from rankmetrics_nb import evaluate, read_qrels, read_run\nq, r = read_qrels(Q), read_run(R)\nt = time.perf_counter(); evaluate(q, r, {OURS!r}, per_query=True)",
    'pytrec_eval: files → per-query values': f"import pytrec_eval\nt = time.perf_counter()\nq = pytrec_eval.parse_qrel(open(Q)); r = pytrec_eval.parse_run(open(R))\npytrec_eval.RelevanceEvaluator(q, {set(PYTREC)!r}).evaluate(r)",
    'pytrec_eval: in memory (loaded) → values': f"import pytrec_eval\nq = pytrec_eval.parse_qrel(open(Q)); r = pytrec_eval.parse_run(open(R))\nt = time.perf_counter(); pytrec_eval.RelevanceEvaluator(q, {set(PYTREC)!r}).evaluate(r)",
    'ranx JIT warm-up (tiny input)': "import ranx\nt = time.perf_counter(); ranx.evaluate(ranx.Qrels({'q': {'d': 1}}), ranx.Run({'q': {'d': 1.0, 'e': 0.5}}), " + repr(RANX) + ")",
    'ranx: files → per-query values (warm)': "import ranx\nranx.evaluate(ranx.Qrels({'q': {'d': 1}}), ranx.Run({'q': {'d': 1.0, 'e': 0.5}}), " + repr(RANX) + ")\n"
        f"t = time.perf_counter(); ranx.evaluate(ranx.Qrels.from_file(Q, kind='trec'), ranx.Run.from_file(R, kind='trec'), {RANX!r}, return_mean=False, make_comparable=True)",
}
POST = "\nprint(time.perf_counter() - t, file=sys.stderr)\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"

def timed(code:str, qrels, run)->tuple:
    p = subprocess.run([sys.executable, '-c', PRE + code + POST, str(qrels), str(run)], capture_output=True, text=True)
    if p.returncode: raise SystemExit(p.stderr)
    t, m = p.stderr.strip().splitlines()[-2:]
    return float(t), int(m) / 1024

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--dataset', default='msmarco'); ap.add_argument('--repeat', type=int, default=3)
    a = ap.parse_args()
    make_data.ensure(a.dataset)
    paths = make_data.paths(a.dataset)
    res = {}
    for name, code in JOBS.items():
        runs = [timed(code, paths['qrels'], paths['run']) for _ in range(a.repeat)]
        res[name] = (statistics.median(t for t, _ in runs), max(m for _, m in runs))
        print(f'{name}: {res[name][0]:.2f} s, {res[name][1]:.0f} MB', flush=True)
    e2e, parse, mem = res['ours: files → per-query values'][0], res['ours: parse both files'][0], res['ours: in memory (loaded) → values'][0]
    ratio = {'pytrec_eval: files → per-query values': e2e, 'pytrec_eval: in memory (loaded) → values': mem,
             'ranx: files → per-query values (warm)': e2e}
    lines = ['| job | time (median) | peak memory | ratio |', '|---|---|---|---|']
    for name, (t, m) in res.items():
        r = ''
        if name == 'ours: files → per-query values': r = f'{t / parse:.2f}× our parse time'
        elif name in ratio: r = f'{t / ratio[name]:.2f}× ours (theirs ÷ ours)'
        lines.append(f'| {name} | {t:.2f} s | {m:.0f} MB | {r} |')
    out = HERE / 'results' / f'evaluate_peers_{a.dataset}.md'
    out.parent.mkdir(exist_ok=True)
    out.write_text(f'# evaluate vs peers, {a.dataset}, median of {a.repeat}\n\n' + '\n'.join(lines) + '\n')
    print('\n'.join(lines))

if __name__ == '__main__': main()
