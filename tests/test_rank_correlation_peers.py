"""RC and Kendall's tau against peers: scipy's kendalltau and scikit-learn's ROC AUC per query on the
benchmark's TREC-scale data, and hypothesis property tests (derandomized, so no unseeded randomness)
against scipy and against the definition of RC as a maximum over all ideal rankings, in exact fractions.
No peer tool implements Liu's RC itself: it is checked through its identities with tau-b and AUC."""
import warnings
from fractions import Fraction
from itertools import combinations, permutations, product
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.metrics.rank_correlation import rank_correlation, kendall_tau
from conftest import quiet_join, SEEDED


def scipy_kendalltau():
    return pytest.importorskip('scipy.stats', reason='scipy (a dev dependency) is not installed').kendalltau

def scipy_tau(x, y, variant='b'):
    "scipy's tau (NaN where undefined), without its warnings about constant or short input."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return scipy_kendalltau()(x, y, variant=variant).statistic

def rows_of(m):
    "The non-NaN part of each row of a NaN-padded matrix."
    return [r[~np.isnan(r)] for r in m]

def tied_pairs(values):
    sizes = np.unique(values, return_counts=True)[1]
    return int((sizes * (sizes - 1) // 2).sum())

# ---------------------------------------------------------------- the benchmark's TREC-scale data

@pytest.fixture(scope='module')
def batch(trec_scale):
    return quiet_join(trec_scale['qrels'], trec_scale['run'])

@pytest.mark.parametrize('variant', ['b', 'c'])
def test_kendall_tau_agrees_with_scipy_on_trec_scale(batch, variant):
    "Per query, tau between the run's scores and the grades equals scipy's to 1e-12 (one vectorised call)."
    ours = kendall_tau(batch.scores, batch.grades, variant=variant)
    theirs = [scipy_tau(s, g, variant) for s, g in zip(rows_of(batch.scores), rows_of(batch.grades))]
    assert len(ours) == len(batch) == 50
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert not np.isnan(ours).all()

def test_rank_correlation_agrees_with_scipy_tau_b_on_trec_scale(batch):
    "RC = (1 + tau_b(-rank, grades) * sqrt(1 - T/P) + T/P) / 2, with scipy's tau-b; and the O(n^2) count."
    ours = rank_correlation(batch)
    constant = np.zeros(len(ours), bool)
    for i, (rc, g) in enumerate(zip(ours, rows_of(batch.grades))):
        P, T = len(g) * (len(g) - 1) // 2, tied_pairs(g)
        inverted = int(np.triu(g[:, None] < g[None, :], 1).sum())
        assert rc == (P - inverted) / P
        if T == P:                                             # one grade only (no relevant document): tau-b undefined
            constant[i] = True; assert rc == 1.0; continue
        tb = scipy_tau(-np.arange(len(g)), g)
        assert abs(rc - (1 + tb * np.sqrt(1 - T / P) + T / P) / 2) <= 1e-12
    assert (ours[~constant] < 1).all() and (ours > 0.5).all() and (~constant).sum() >= 40   # a useful run, not an ideal one

@pytest.mark.parametrize('rel', [1, 2, 3])
def test_ignored_ties_is_roc_auc_on_trec_scale(batch, rel):
    "With 0/1 labels and tied_labels='ignored', RC is scikit-learn's ROC AUC of the scores -rank."
    roc_auc_score = pytest.importorskip('sklearn.metrics', reason='scikit-learn is not installed').roc_auc_score
    binary = np.where(np.isnan(batch.grades), np.nan, batch.grades >= rel)
    ours = rank_correlation(binary, tied_labels='ignored')
    checked = 0
    for rc, b in zip(ours, rows_of(binary)):
        if 0 < b.sum() < len(b):
            assert abs(rc - roc_auc_score(b, -np.arange(len(b)))) <= 1e-12
            checked += 1
        else: assert rc == 1.0                                 # one class: no pair with different labels
    assert checked >= 10

def test_weighted_rank_correlation_on_trec_scale(trec_scale):
    "Shared and per-query weight matrices against a per-query reference; unit weights equal the O(n log n) count."
    b = quiet_join(trec_scale['qrels'], trec_scale['run'], depth=200)
    n = b.depth
    shared = np.repeat(1 / np.log2(np.arange(2, n + 2))[:, None], n, axis=1)    # the upper rank's discount
    per_query = np.random.default_rng(5).integers(0, 3, (len(b), n, n)).astype(float)
    for w in (shared, per_query):
        ours = rank_correlation(b, weights=w)
        for i, g in enumerate(rows_of(b.grades)):
            wq = (w if w.ndim == 2 else w[i])[:len(g), :len(g)]
            upper = np.triu(np.ones(wq.shape, bool), 1)
            agree, total = wq[upper & (g[:, None] >= g[None, :])].sum(), wq[upper].sum()
            assert abs(ours[i] - agree / total) <= 1e-12
    for t in ('concordant', 'ignored'):
        assert (rank_correlation(b, weights=np.ones((n, n)), tied_labels=t) == rank_correlation(b, tied_labels=t)).all()

# ---------------------------------------------------------------- small generated lists

def ideal_rankings(labels):
    "Every ideal ranking (documents in rank order, 0-based) of `labels` given in model order."
    groups = [[u for u in range(len(labels)) if labels[u] == g] for g in sorted(set(labels), reverse=True)]
    for parts in product(*(permutations(g) for g in groups)): yield [u for part in parts for u in part]

def rc_by_definition(labels, w):
    "Liu's RC: the largest tau_K(pi, pi_l) over every ideal ranking pi_l, pi the model's order, exact."
    n = len(labels)
    pairs = list(combinations(range(n), 2))
    total = sum(w[u][v] for u, v in pairs)
    if total == 0: return Fraction(int(n > 0))
    best = 0
    for ranking in ideal_rankings(labels):
        pos = {d: i for i, d in enumerate(ranking)}               # pi_l(u): the position of document u
        best = max(best, sum(w[u][v] * (1 + ((u - v) * (pos[u] - pos[v]) > 0) - ((u - v) * (pos[u] - pos[v]) < 0)) for u, v in pairs))
    return Fraction(best, 2 * total)

@st.composite
def weighted_lists(draw):
    "A list of grades in model order (up to 7 documents, grades -1..3) and integer pair weights 0..4."
    labels = draw(st.lists(st.integers(-1, 3), max_size=7))
    n = len(labels)
    w = [[draw(st.integers(0, 4)) if v > u else 0 for v in range(n)] for u in range(n)]
    return labels, w

@settings(SEEDED, max_examples=300)
@given(weighted_lists())
def test_rank_correlation_is_the_maximum_over_ideal_rankings(data):
    labels, w = data
    n = len(labels)
    want = rc_by_definition(labels, w)
    got = rank_correlation(labels, weights=np.array(w, float).reshape(n, n))
    assert abs(got - float(want)) <= 1e-15
    unit = rc_by_definition(labels, [[1] * n for _ in range(n)])
    assert abs(rank_correlation(labels) - float(unit)) <= 1e-15
    assert 0 <= got <= 1

@settings(SEEDED, max_examples=200)
@given(st.lists(st.lists(st.integers(0, 3), max_size=9), min_size=1, max_size=6))
def test_batch_equals_single_lists(lists):
    "A NaN-padded batch gives each row the value of its list alone, under both tie conventions."
    width = max(map(len, lists))
    m = np.array([l + [np.nan] * (width - len(l)) for l in lists], float).reshape(len(lists), width)
    for t in ('concordant', 'ignored'):
        assert list(rank_correlation(m, tied_labels=t)) == [rank_correlation(l, tied_labels=t) for l in lists]

SCORES = st.lists(st.tuples(st.integers(0, 3), st.sampled_from([-1.5, 0.0, 0.25, 2.0, 1e9])), max_size=40)

@settings(SEEDED, max_examples=300)
@given(SCORES)
def test_kendall_tau_agrees_with_scipy_on_tied_lists(pairs):
    "tau-b and tau-c equal scipy's on lists with many ties (NaN where scipy gives NaN); tau is symmetric."
    x, y = np.array([p[0] for p in pairs], float), np.array([p[1] for p in pairs], float)
    for v in ('b', 'c'):
        ours, theirs = kendall_tau(x, y, variant=v), scipy_tau(x, y, v)
        assert (np.isnan(ours) and np.isnan(theirs)) or abs(ours - theirs) <= 1e-12
    for v in ('a', 'b', 'c'):
        assert np.array_equal(kendall_tau(x, y, variant=v), kendall_tau(y, x, variant=v), equal_nan=True)

@settings(SEEDED, max_examples=100)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=30, unique=True))
def test_kendall_tau_of_a_list_with_itself_is_one(x):
    for v in ('a', 'b', 'c'):
        assert kendall_tau(x, x, variant=v) == 1.0
        assert kendall_tau(x, [-s for s in x], variant=v) == -1.0

def test_bad_input_is_refused():
    with pytest.raises(EvalInputError, match='weights must have shape 3 × 3'): rank_correlation([1, 0, 1], weights=np.ones((3, 2)))
    with pytest.raises(EvalInputError, match='weights must be ≥ 0'): rank_correlation([1, 0], weights=-np.ones((2, 2)))
    with pytest.raises(EvalInputError, match='NaN may only pad the end'): rank_correlation([1, np.nan, 0])
    with pytest.raises(EvalInputError, match="unknown variant 'tau'"): kendall_tau([1, 2], [2, 1], variant='tau')
