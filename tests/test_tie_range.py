"""The tie spans the counting join finds equal those read off the sorted ranking's tie flags (every path: dict runs, arrays,
bisection and counting, depth cuts), and `tie_range` brackets the value under every tie policy on seeded runs (outside its rows, no policy moves a value)."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.registry.measures import parse_measure
from rankmetrics_nb.evaluator.tie_range import tied_cells, tie_range
from joined_three_ways import joined_three_ways

def seeded(trial:int):
    rng = np.random.default_rng(1000 + trial)
    run, qrels = {}, {}
    for q in range(int(rng.integers(1, 25))):
        L = int(rng.integers(0, 120))
        docs = [f'd{x}' for x in rng.choice(3000, L, replace=False)]
        sc = np.round(rng.normal(0, 1, L), int(rng.integers(0, 3)))
        if trial % 3 == 0:
            o = np.argsort(-sc, kind="stable")
            docs, sc = [docs[i] for i in o], sc[o]
        if L: run[f'q{q}'] = dict(zip(docs, map(float, sc)))
        judged = list(rng.choice(docs, min(int(rng.integers(0, 60)), L), replace=False)) if L else []
        if judged: qrels[f'q{q}'] = {d: int(g) for d, g in zip(judged, rng.integers(-1, 4, len(judged)))}
    return qrels, run

FIELDS = ('rows', 'cols', 'grades', 'start', 'size')

@pytest.mark.parametrize('trial', range(24))
def test_counted_spans_equal_the_sorted_rankings(trial):
    qrels, run = seeded(trial)
    if not run or not qrels: return
    how = dict(ties=['trec', 'double'][trial % 2], depth=[None, 30][trial // 2 % 2], queries=['run', 'qrels'][trial // 4 % 2])
    fast, arrays, general = joined_three_ways(qrels, run, small_blocks=bool(trial % 2), **how)
    want = tied_cells(general)
    assert general.tie_spans is None
    for b in (fast, arrays):
        got = tied_cells(b)
        for f in FIELDS: np.testing.assert_array_equal(getattr(got, f), getattr(want, f), err_msg=f'{f} {how}')

@pytest.mark.parametrize('trial', range(12))
def test_every_policy_lies_within_the_range(trial):
    qrels, run = seeded(trial)
    if not run or not qrels: return
    for m in ('AP', 'nDCG@10', 'RR', 'P@5'):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', QueryMismatchWarning)
            rows, hi, lo = tie_range(join(qrels, run), m)
            base = join(qrels, run)
            for ties in ('trec', 'double', 'stable', 'expected') + (('input',) if trial % 3 == 0 else ()):   # (input: runs in score order)
                b = join(qrels, run, ties=ties)
                v = parse_measure(m).compute(b)
                at = np.searchsorted(b.qids, base.qids[rows])
                assert (lo - 1e-12 <= v[at]).all() and (v[at] <= hi + 1e-12).all(), (trial, m, ties)
                others = np.setdiff1d(np.arange(len(b)), at)
                np.testing.assert_allclose(v[others], parse_measure(m).compute(base)[others], rtol=0, atol=1e-12)
