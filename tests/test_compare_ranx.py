"""`compare` against ranx's `compare` on the same runs: the t-test p-values agree exactly (both are Student's
paired t on the same per-query values) and Fisher's randomisation p-values within Monte Carlo error.
ranx compiles its kernels with numba on first use (slow once); the collection is kept small."""
import math
import numpy as np
import pytest
from rankmetrics_nb import compare

ranx = pytest.importorskip('ranx', reason='ranx (a dev dependency) is not installed')

@pytest.fixture(scope='module')
def collection():
    "40 queries, 3 runs of 30 documents with distinct scores; every query has a relevant document."
    rng = np.random.default_rng(11)
    qrels, runs = {}, {f'r{i}': {} for i in range(3)}
    for q in range(40):
        qid = f'q{q}'
        grades = rng.choice([0, 0, 0, 1, 2], 40)
        grades[rng.integers(40)] = 2
        qrels[qid] = {f'd{j}': int(g) for j, g in enumerate(grades) if g > 0}
        for i, name in enumerate(runs):
            score = grades * (0.3 + 0.2 * i) + rng.normal(0, 1, 40)
            top = np.argsort(-score)[:30]
            runs[name][qid] = {f'd{j}': float(30 - r) + rng.uniform(0, 0.5) for r, j in enumerate(top)}
    return qrels, runs

@pytest.fixture(scope='module')
def ranx_report(collection):
    qrels, runs = collection
    def report(test, **kw):
        return ranx.compare(ranx.Qrels(qrels), [ranx.Run(r, name=n) for n, r in runs.items()], ['ndcg@10', 'map'],
                            stat_test=test, rounding_digits=12, **kw)
    return report

def test_same_per_query_values(collection):
    qrels, runs = collection
    ours = compare(qrels, runs, ['nDCG@10', 'AP'], correction='none')
    for i, (name, run) in enumerate(runs.items()):
        r = ranx.Run(run, name=name)
        ref = ranx.evaluate(ranx.Qrels(qrels), r, ['ndcg@10', 'map'], return_mean=False)
        pos = {q: j for j, q in enumerate(ours.qids.tolist())}
        order = [pos[q] for q in r.keys()]                     # ranx's query order -> ours
        assert np.allclose(ours.values[i, order, 0], np.asarray(ref['ndcg@10']), rtol=0, atol=1e-12)
        assert np.allclose(ours.values[i, order, 1], np.asarray(ref['map']), rtol=0, atol=1e-12)

def test_t_test_pvalues_equal_ranx(collection, ranx_report):
    qrels, runs = collection
    ours = compare(qrels, runs, ['nDCG@10', 'AP'], test='t', correction='none')
    rep = ranx_report('student')
    for k, (a, b) in enumerate(ours.pairs):
        for m, metric in enumerate(['ndcg@10', 'map']):
            ref = rep.comparisons[ours.runs[a], ours.runs[b]][metric]['p_value']
            assert abs(ours.pvalue[k, m] - ref) <= 1e-12

def test_fisher_pvalues_within_monte_carlo_error_of_ranx(collection, ranx_report):
    qrels, runs = collection
    R = 4000
    ours = compare(qrels, runs, ['nDCG@10', 'AP'], test='randomisation', correction='none', n_resamples=R, seed=3)
    rep = ranx_report('fisher', n_permutations=R)
    for k, (a, b) in enumerate(ours.pairs):
        for m, metric in enumerate(['ndcg@10', 'map']):
            ref, p = rep.comparisons[ours.runs[a], ours.runs[b]][metric]['p_value'], ours.pvalue[k, m]
            pbar = (ref + p) / 2
            assert abs(p - ref) <= 4 * math.sqrt(2 * pbar * (1 - pbar) / R) + 1e-12, (ours.runs[a], ours.runs[b], metric, p, ref)
