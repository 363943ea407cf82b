"""Diversity measures: agreement with pytrec_eval-terrier (trec_eval's C code) on the benchmark's
TREC-scale data read as single-subtopic diversity judgements, and hypothesis property tests
(derandomized, so no unseeded randomness) against the definitions, computed one document at a
time in exact fractions."""
import warnings
from fractions import Fraction
from itertools import permutations
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.engine.joins import join_subtopics
from rankmetrics_nb.metrics.diversity import (alpha_gains, alpha_dcg, alpha_ndcg, err_ia, nerr_ia, nrbp, nnrbp, map_ia,
                                              p_ia, strec)
from conftest import pytrec, SEEDED as _SEEDED

SEEDED = settings(_SEEDED, max_examples=150)

# ---------------------------------------------------------------- pytrec_eval on the TREC-scale data

@pytest.fixture(scope='module')
def one_subtopic(trec_scale):
    "The TREC-scale qrels (iteration column 0) read as one subtopic per query, joined in trec_eval's order; and pytrec_eval's values."
    pe = pytrec()
    with open(trec_scale['qrels']) as f: qrels = pe.parse_qrel(f)
    with open(trec_scale['run']) as f: run = pe.parse_run(f)
    measures = {'map', 'recip_rank', 'P.5,10,100', 'success.1,5,10'}
    theirs = pe.RelevanceEvaluator(qrels, measures).evaluate(run)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join_subtopics(trec_scale['qrels'], trec_scale['run'], ties='trec')
    return b, theirs

def test_one_subtopic_reduces_to_trec_eval(one_subtopic):
    "With one subtopic, MAP-IA = map, P-IA@k = P_k, strec@k = success_k, ERR-IA (alpha 1) = recip_rank, per query to 1e-12."
    b, theirs = one_subtopic
    assert sorted(b.qids) == sorted(theirs) and b.judgements.shape[2] == 1
    pairs = [(map_ia(b), 'map'), (err_ia(b, alpha=1), 'recip_rank')]
    pairs += [(p_ia(b, k=k), f'P_{k}') for k in (5, 10, 100)] + [(strec(b, k=k), f'success_{k}') for k in (1, 5, 10)]
    for ours, name in pairs:
        want = np.array([theirs[q][name] for q in b.qids])
        assert np.abs(ours - want).max() <= 1e-12, name

def test_trec_scale_data_exercises_the_cases(one_subtopic):
    "The data has relevant documents the run missed and a query without any: R_s and S = 0 matter."
    b, _ = one_subtopic
    found, judged = b.judgements.sum(axis=(1, 2)), b.ideal.sum(axis=(1, 2))
    assert (judged > found).any() and (judged == 0).any()
    assert (map_ia(b)[judged == 0] == 0).all() and (nnrbp(b)[judged == 0] == 0).all()

# ---------------------------------------------------------------- the definitions, in exact fractions

def gains_by_definition(rows, alpha):
    "g(r) for one ranking (rows of 0/1 per subtopic), one document at a time, as fractions."
    seen, out = {}, []
    for row in rows:
        out.append(sum((1 - alpha) ** seen.get(s, 0) for s, j in enumerate(row) if j))
        for s, j in enumerate(row):
            if j: seen[s] = seen.get(s, 0) + 1
    return out

def best_dcg_by_brute_force(candidates, alpha, k):
    "The largest α-DCG@k over every ordered choice of k candidates (floats)."
    n = len(candidates)
    if n == 0: return 0.0
    return max(sum(float(g) / math.log2(r + 2) for r, g in enumerate(gains_by_definition([candidates[i] for i in p], alpha)))
               for p in permutations(range(n), min(k, n)))

ALPHAS = st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1)])
ranking = st.integers(1, 4).flatmap(lambda S: st.tuples(
    st.lists(st.lists(st.integers(0, 1), min_size=S, max_size=S), min_size=0, max_size=6),
    st.lists(st.lists(st.integers(0, 1), min_size=S, max_size=S), min_size=0, max_size=2), st.just(S)))

def matrix(rows, S):
    return np.array(rows, float).reshape(len(rows), S)

@SEEDED
@given(ranking, ALPHAS)
def test_gains_and_alpha_dcg_match_the_definition(case, alpha):
    "The gains equal the definition's exactly (dyadic alphas: no rounding), and α-DCG@k is their discounted sum."
    rows, _, S = case
    want = gains_by_definition(rows, alpha)
    m = matrix(rows, S)
    assert [Fraction(x) for x in alpha_gains(m, alpha=float(alpha))] == want
    for k in (1, 3, 10):
        ref = sum(float(g) / math.log2(r + 2) for r, g in enumerate(want[:k]))
        assert abs(alpha_dcg(m, k=k, alpha=float(alpha)) - ref) <= 1e-12

@SEEDED
@given(ranking, ALPHAS, st.sampled_from([1, 2, 3]))
def test_exact_ideal_is_the_brute_force_optimum(case, alpha, k):
    "search='exact' divides by the best α-DCG@k over all orders; it bounds α-nDCG by 1 and is never below greedy's."
    rows, extra, S = case
    m, judged = matrix(rows, S), matrix(rows + extra, S)
    best = best_dcg_by_brute_force(rows + extra, alpha, k)
    dcg = alpha_dcg(m, k=k, alpha=float(alpha))
    exact, greedy = alpha_ndcg(m, k, alpha=float(alpha), ideal=judged, search='exact'), alpha_ndcg(m, k, alpha=float(alpha), ideal=judged)
    assert abs(exact - (dcg / best if best else 0.0)) <= 1e-12
    assert 0 <= exact <= 1 + 1e-12 and greedy >= exact - 1e-12

@SEEDED
@given(st.lists(ranking, min_size=1, max_size=5), ALPHAS)
def test_one_call_for_many_queries_equals_one_call_each(cases, alpha):
    "A NaN-padded batch gives each query the value it gets alone, for every measure."
    S = max(c[2] for c in cases)
    pad = lambda rows, s, n: np.array([r + [0] * (S - s) for r in rows] + [[np.nan] * S] * (n - len(rows)), float).reshape(n, S)
    D, C = max(len(c[0]) for c in cases), max(len(c[0]) + len(c[1]) for c in cases)
    runs = np.stack([pad(r, s, D) for r, _, s in cases])
    judged = np.stack([np.nan_to_num(pad(r + e, s, C)) for r, e, s in cases])
    a = float(alpha)
    for f, kw in [(alpha_ndcg, dict(k=3, alpha=a)), (nerr_ia, dict(k=2, alpha=a)), (err_ia, dict(k=4, alpha=a)),
                  (nnrbp, dict(alpha=a, beta=0.7)), (nrbp, dict(alpha=a)), (map_ia, {}), (p_ia, dict(k=3)),
                  (strec, dict(k=2)), (alpha_dcg, dict(k=3, alpha=a, normalise='ideal-ideal'))]:
        together = f(runs, ideal=judged, **kw)
        alone = [f(pad(r, s, len(r)), ideal=np.nan_to_num(pad(r + e, s, C)), **kw) for r, e, s in cases]
        assert np.abs(together - np.array(alone)).max() <= 1e-12, f.__name__

@SEEDED
@given(ranking, ALPHAS)
def test_alpha_zero_and_one(case, alpha):
    "α = 0: α-DCG is DCG with gain = subtopics covered; α = 1: the gains add up to the subtopics covered."
    rows, extra, S = case
    m, judged = matrix(rows, S), matrix(rows + extra, S)
    cover = m.sum(axis=1)
    assert abs(alpha_dcg(m, alpha=0) - float(np.sum(cover / np.log2(np.arange(2, len(rows) + 2))))) <= 1e-12
    covered = m.any(axis=0).sum()
    assert abs(alpha_gains(m, alpha=1).sum() - covered) <= 1e-12
    S_judged = judged.any(axis=0).sum()
    assert abs(strec(m, ideal=judged) - (covered / S_judged if S_judged else 0)) <= 1e-12
