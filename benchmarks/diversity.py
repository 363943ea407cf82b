"""Time the diversity measures (ndeval's whole table: alpha-nDCG, ERR-IA, NRBP, MAP-IA, P-IA, strec)
on real data: the TREC Web 2012 diversity qrels and the four Indri baseline runs ("TREC Web Track
2012 qrels, NIST"; runs from the track's public baselines), as found in ../shared/conformance/diversity.

No peer runs here: ndeval is a C program that is not installed (the conformance tests compare our
numbers with its outputs instead). Reported: median seconds per run over --repeat repetitions, in
this process, for reading + joining + every measure at depths 5, 10, 20, and for a deeper table
(cutoffs 5..1000) that ndeval cannot compute.

    .venv/bin/python benchmarks/diversity.py [--repeat 5]
"""
import argparse, statistics, sys, time, warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIV = ROOT.parent / 'shared' / 'conformance' / 'diversity'


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--data', type=Path, default=DIV, help='the conformance/diversity folder')
    a = ap.parse_args(argv)
    qrels = a.data / 'qrels' / 'wt2012.qrels-for-ndeval.txt'
    runs = sorted((a.data / 'runs').glob('wt2012.baseline.*.txt'))
    if not qrels.exists() or not runs:
        print(f'diversity benchmark: skipped, no data at {a.data}')
        return 0
    from rankmetrics_nb.interop.ndeval import diversity_table
    rows = []
    for run in runs:
        for label, kw in [('ndeval table (@5,10,20)', {}), ('deep table (@5..1000)', dict(cutoffs=(5, 10, 20, 100, 1000)))]:
            times = []
            for _ in range(a.repeat):
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    t0 = time.perf_counter(); table = diversity_table(qrels, run, **kw); times.append(time.perf_counter() - t0)
            lines = sum(1 for _ in open(run))
            rows.append((run.name, label, lines, statistics.median(times)))
    width = max(len(r[0]) for r in rows)
    print(f"{'run':{width}}  {'what':24}  {'lines':>6}  {'median s':>8}")
    for name, label, lines, s in rows: print(f'{name:{width}}  {label:24}  {lines:6d}  {s:8.3f}')
    return 0


if __name__ == '__main__': sys.exit(main())
