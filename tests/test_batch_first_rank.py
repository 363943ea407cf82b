"""RR without a sort: where every measure asked is RR by='first' (the grades as given), `_ranked` counts each row's first
relevant rank instead of sorting. On seeded batches with tied scores, masks, NaN padding, items scored -inf, integer and
float labels, item weights, depths, cutoffs and every tie policy the counted RR equals the sorted path's bit for bit on
numpy and to 1e-12 on `array_api_strict`; through `evaluate_batch`, RR alone (counted) equals RR beside a measure that
sorts."""
import numpy as np
import pytest
from rankmetrics_nb.evaluator.batches import evaluate_batch
from rankmetrics_nb.engine.arrays import _ranked
from rankmetrics_nb.metrics.reciprocal_rank import _k_rr
from rankmetrics_nb.metrics.batch import _first_only
from rankmetrics_nb.evaluator.batches import parse_measure

TIES = ['trec', 'double', 'stable', 'input']

def batch(seed:int, q:int=40, n:int=11, integral:bool=False):
    "Seeded scores on a few levels (ties; some -inf, float64 values that float32 ties), labels 0-3 (NaN padding), a mask and weights."
    rng = np.random.default_rng(seed)
    scores = rng.choice([0.1, 0.4, 0.4, 0.7, 1.0, 1.0 + 1e-12, 2.5, -0.0, 0.0, -1.0, -np.inf], (q, n))
    labels = rng.choice([0., 0., 0., 1., 2., 3.], (q, n))
    if integral: labels = labels.astype(np.int8)
    else: labels[rng.random((q, n)) < 0.2] = np.nan
    labels[0] = 0 if integral else np.nan                      # a row without a relevant (or valid) item
    scores[1] = -np.inf                                        # a row without a ranked item
    mask = rng.random((q, n)) > 0.15
    weights = rng.choice([0.0, 0.5, 1.0, 2.0], (q, n))
    return scores, labels, mask, weights

CASES = [dict(), dict(M=True), dict(W=True, zero_weights='mask'), dict(W=True), dict(depth=4), dict(depth=40), dict(M=True, depth=2),
         dict(negative='pad')]

def both(xp, s, l, m, w, ties, case, ks, rels):
    "Each (k, rel)'s RR, sorted and counted."
    args = dict(M=m if case.get('M') else None, W=w if case.get('W') else None, ties=ties, depth=case.get('depth'),
                negative=case.get('negative'), zero_weights=case.get('zero_weights', 'keep'))
    if args['negative'] == 'pad': l = xp.where(xp.isnan(l), -1.0, l) if xp.isdtype(l.dtype, 'real floating') else l - 1
    out = []
    for sort in (True, False):
        d = _ranked(xp, s, l, args['M'], args['W'], args['ties'], args['depth'], args['negative'], args['zero_weights'], None, scores=False, sort=sort)
        assert (d.G is None) == (not sort)
        out.append([_k_rr(d, k, dict(rel=rel, by='first', nonpositive='retrieved')) for k in ks for rel in rels])
    return out

@pytest.mark.parametrize('seed', range(6))
@pytest.mark.parametrize('ties', TIES)
@pytest.mark.parametrize('integral', [False, True])
def test_counted_equals_sorted_on_numpy(seed, ties, integral):
    s, l, m, w = batch(seed, integral=integral)
    for case in CASES:
        for scores in (s, s.astype(np.float32)):                # float32: 'trec' rounds float64 scores to float32 (more ties)
            sorted_, counted = both(np, scores, l, m, w, ties, case, [None, 1, 3, 20], [1, 2, 0.5, -1])
            for a, b in zip(sorted_, counted):
                assert a.dtype == b.dtype == np.float64
                assert a.tobytes() == b.tobytes(), (case, ties)
            assert any((a > 0).any() for a in counted) and any(((a > 0) & (a < 1)).any() for a in counted)

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('ties', TIES)
def test_counted_equals_sorted_on_array_api_strict(seed, ties):
    xs = pytest.importorskip('array_api_strict')
    s, l, m, w = batch(seed)
    for case in CASES:
        sorted_, counted = both(xs, xs.asarray(s), xs.asarray(l), xs.asarray(m), xs.asarray(w), ties, case, [None, 2, 5], [1, 3])
        ref, _ = both(np, s, l, m, w, ties, case, [None, 2, 5], [1, 3])
        for a, b, c in zip(sorted_, counted, ref):
            np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(np.asarray(b), c, rtol=1e-12, atol=1e-12)

def test_only_rr_by_first_is_counted():
    "RR by='most_relevant', nonpositive='not_retrieved' and any other measure beside RR sort."
    assert _first_only([parse_measure('RR'), parse_measure('RR@3'), parse_measure('RR(rel=2)@5')])
    for names in (['RR', 'P@1'], ['RR(by=most_relevant)'], ['RR(nonpositive=not_retrieved)'], []):
        assert not _first_only([parse_measure(n) for n in names])

@pytest.mark.parametrize('seed', range(4))
@pytest.mark.parametrize('ties', TIES)
def test_evaluate_batch_alone_and_beside(seed, ties):
    "evaluate_batch: RR alone (counted) and beside P@1 (sorted) give the same values bit for bit, with depth and queries='qrels' too."
    s, l, m, _ = batch(seed)
    names = ['RR', 'RR@2', 'RR(rel=2)@5']
    for kw in (dict(), dict(depth=3), dict(queries='qrels')):
        alone = evaluate_batch(s, l, names, mask=m, ties=ties, **kw)
        beside = evaluate_batch(s, l, names + ['P@1'], mask=m, ties=ties, **kw)
        assert alone.values.tobytes() == np.ascontiguousarray(beside.values[:, :3]).tobytes()
        assert list(alone.means().values()) == list(beside.means().values())[:3]
