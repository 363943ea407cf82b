"""Reciprocal rank against pytrec_eval-terrier on the benchmark's TREC-scale data (50 queries x 1,000
documents, graded, tied scores), and against a plain-Python reference on inputs hypothesis generates
(derandomized: no unseeded randomness)."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.metrics.reciprocal_rank import reciprocal_rank, mean_reciprocal_rank
from conftest import quiet_join

# --------------------------------------------------------------------------------------------
# A plain reference, written from the definition, one list at a time
# --------------------------------------------------------------------------------------------

def reference_rr(grades, k=None, rel=1, by='first'):
    "RR@k of one list (NaN-free) the obvious way: scan the top k for the first target document."
    if by == 'first': target = lambda g: g >= rel
    else:
        top = max(grades, default=-math.inf)
        target = lambda g: top >= rel and g == top
    for i, g in enumerate(grades[:k] if k is not None else grades):
        if target(g): return 1 / (i + 1)
    return 0.0

grade_lists = st.lists(st.integers(-1, 3), max_size=12)

@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(grade_lists, min_size=1, max_size=6), st.sampled_from([None, 1, 2, 5, 15]),
       st.sampled_from([1, 2, 3]), st.sampled_from(['first', 'most_relevant']))
def test_rr_matches_reference(lists, k, rel, by):
    width = max(map(len, lists))
    m = np.array([g + [np.nan] * (width - len(g)) for g in lists], float)
    ours = reciprocal_rank(m, k=k, rel=rel, by=by)
    expected = [reference_rr(g, k, rel, by) for g in lists]
    assert ours.tolist() == pytest.approx(expected, abs=0, rel=1e-15)
    assert reciprocal_rank(lists[0], k=k, rel=rel, by=by) == expected[0]      # one list -> a float
    for unanswered in ('zero', 'skip'):
        mrr = mean_reciprocal_rank(m, k=k, rel=rel, by=by, unanswered=unanswered)
        kept = [v for v in expected if v > 0] if unanswered == 'skip' else expected
        assert (mrr.n, mrr.skipped) == (len(kept), len(expected) - len(kept))
        assert float(mrr) == pytest.approx(sum(kept) / len(kept) if kept else 0.0, abs=1e-15)

@settings(max_examples=200, deadline=None, derandomize=True)
@given(grade_lists, st.integers(1, 15))
def test_cutoff_never_raises_rr(grades, k):
    "RR@k <= RR, equal exactly when the first relevant document is within the top k."
    full, cut = reciprocal_rank(grades), reciprocal_rank(grades, k=k)
    first = next((i + 1 for i, g in enumerate(grades) if g >= 1), None)
    assert cut <= full and (cut == full) == (first is None or first <= k)

def test_bad_parameters():
    with pytest.raises(EvalInputError, match="unknown by 'best'; choose one of: first, most_relevant"): reciprocal_rank([1], by='best')
    with pytest.raises(EvalInputError, match="unknown unanswered 'none'; choose one of: zero, skip"): mean_reciprocal_rank([1], unanswered='none')
    with pytest.raises(EvalInputError, match='k must be a positive number of ranks'): reciprocal_rank([1], k=-1)

# --------------------------------------------------------------------------------------------
# pytrec_eval-terrier on the TREC-scale data
# --------------------------------------------------------------------------------------------

pytrec_eval = pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')

@pytest.fixture(scope='module')
def trec(trec_scale):
    "The batch, and pytrec_eval's parsed qrels and run, of the TREC-scale data."
    b = quiet_join(trec_scale['qrels'], trec_scale['run'])
    with open(trec_scale['qrels']) as f: qrels = pytrec_eval.parse_qrel(f)
    with open(trec_scale['run']) as f: run = pytrec_eval.parse_run(f)
    return b, qrels, run

def evaluate(qrels, run, measures, level=1):
    return pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)

@pytest.mark.parametrize('level', [1, 2, 3])
def test_recip_rank_agrees(trec, level):
    b, qrels, run = trec
    theirs = evaluate(qrels, run, {'recip_rank'}, level)
    assert set(theirs) == set(b.qids)
    expected = np.array([theirs[q]['recip_rank'] for q in b.qids])
    ours = reciprocal_rank(b, rel=level)
    assert np.abs(ours - expected).max() <= 1e-12
    assert 0 < (ours < 1).sum() and (ours > 0).sum() > 0               # the data exercises more than rank 1
    assert abs(mean_reciprocal_rank(b, rel=level) - pytrec_eval.compute_aggregated_measure('recip_rank', list(expected))) <= 1e-12

def test_rr_at_k_agrees_with_recip_rank_and_success(trec):
    "trec_eval has no RR@k; it is 1/r when r <= k, so RR@k = recip_rank where recip_rank >= 1/k, and success_k = [RR@k > 0]."
    b, qrels, run = trec
    theirs = evaluate(qrels, run, {'recip_rank', 'success.1,5,10'})
    rr = np.array([theirs[q]['recip_rank'] for q in b.qids])
    for k in (1, 5, 10, 100):
        ours = reciprocal_rank(b, k=k)
        assert np.abs(ours - np.where(rr >= 1 / k, rr, 0.0)).max() <= 1e-12
        if k <= 10:
            assert ((ours > 0) == np.array([theirs[q][f'success_{k}'] for q in b.qids])).all()
    assert (reciprocal_rank(b, k=1) != rr).any()                        # the cutoff bites on this data

def test_most_relevant_agrees_with_recip_rank_at_the_top_grade(trec):
    "by='most_relevant' is recip_rank at the relevance level of each query's highest judged grade."
    b, qrels, run = trec
    per_level = {lv: evaluate(qrels, run, {'recip_rank'}, lv) for lv in (1, 2, 3)}
    top = {q: max(qrels[q].values()) for q in b.qids}
    expected = np.array([per_level[top[q]][q]['recip_rank'] if top[q] >= 1 else 0.0 for q in b.qids])
    ours = reciprocal_rank(b, by='most_relevant')
    assert np.abs(ours - expected).max() <= 1e-12
    assert (ours != reciprocal_rank(b)).any()                           # the two readings differ on graded data

def test_most_relevant_uses_the_judgements_not_the_list(trec):
    "With every top-grade document removed from half of the run's queries, those queries score 0, as pytrec_eval says."
    b, qrels, run = trec
    top = {q: max(qrels[q].values()) for q in b.qids}
    cut = set(sorted(b.qids)[::2])
    run2 = {q: {d: s for d, s in docs.items() if not (q in cut and qrels[q].get(d, 0) == top[q])} for q, docs in run.items()}
    b2 = quiet_join(qrels, run2)
    per_level = {lv: evaluate(qrels, run2, {'recip_rank'}, lv) for lv in (1, 2, 3)}
    expected = np.array([per_level[top[q]][q]['recip_rank'] if top[q] >= 1 else 0.0 for q in b2.qids])
    ours = reciprocal_rank(b2, by='most_relevant')
    assert np.abs(ours - expected).max() <= 1e-12
    assert (ours[np.isin(b2.qids, list(cut))] == 0).all()
    assert (reciprocal_rank(b2.grades, by='most_relevant')[np.isin(b2.qids, list(cut))] > 0).any()   # the list alone would not know

def test_unanswered_policies(trec):
    b, qrels, run = trec
    rr10 = reciprocal_rank(b, k=10)
    zero, skip = (mean_reciprocal_rank(b, k=10, unanswered=u) for u in ('zero', 'skip'))
    assert (zero.n, zero.skipped) == (len(b), 0)
    assert (skip.n, skip.skipped) == ((rr10 > 0).sum(), (rr10 == 0).sum())
    assert float(skip) == pytest.approx(rr10[rr10 > 0].mean(), abs=1e-15) and skip >= zero
