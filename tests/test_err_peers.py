"""ERR, the cascade stop probabilities and the click simulator against references. No trec_eval measure
computes ERR (and ir_measures runs gdeval.pl for it; see test_gdeval_err.py), so the references are a
slow per-query loop over the benchmark's TREC-scale data (read with pytrec_eval's own parsers and ordered
independently of the core), the definition in exact fractions on hypothesis-generated batches
(derandomized: no unseeded randomness), and seeded simulations checked against the formulas."""
from fractions import Fraction
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.metrics.err import (err, mean_err, cascade_stop_probabilities, cascade_probabilities,
                                        simulate_cascade)
from conftest import pytrec, quiet_join, SEEDED, collections

CUTS = (None, 1, 5, 10, 20, 1000)

def slow_err(grades, k, top):
    "ERR@k of one list of grades, a plain loop down the ranking in floats."
    value, reach = 0.0, 1.0
    for i, g in enumerate(grades[:k], 1):
        R = (2.0 ** max(g, 0) - 1) / 2.0 ** top
        value, reach = value + reach * R / i, reach * (1 - R)
    return value

def exact_err(grades, k, top):
    "ERR@k of one list of whole grades in exact fractions."
    value, reach = Fraction(0), Fraction(1)
    for i, g in enumerate(grades[:k], 1):
        R = Fraction(2 ** max(g, 0) - 1, 2 ** top)
        value, reach = value + reach * R / i, reach * (1 - R)
    return value

# ---------------------------------------------------------------- the benchmark's TREC-scale data

@pytest.fixture(scope='module')
def trec_lists(trec_scale):
    "Per query (in qid order): the grades in trec_eval's order (score as float32 desc, docno desc) and the judged maximum."
    pe = pytrec()
    with open(trec_scale['qrels']) as f: qrels = pe.parse_qrel(f)
    with open(trec_scale['run']) as f: run = pe.parse_run(f)
    lists = {}
    for q in sorted(set(qrels) & set(run)):
        order = sorted(run[q].items(), key=lambda d: (float(np.float32(d[1])), d[0]), reverse=True)
        lists[q] = ([qrels[q].get(doc, 0) for doc, _ in order], max([0] + list(qrels[q].values())))
    return lists

@pytest.fixture(scope='module')
def trec_batch(trec_scale):
    return quiet_join(trec_scale['qrels'], trec_scale['run'])

@pytest.mark.parametrize('max_grade', [3, 4, 'query'])
def test_trec_scale_err_matches_a_slow_loop(trec_lists, trec_batch, max_grade):
    "Per query, ERR@k for k in (all, 1, 5, 10, 20, 1000) equals a plain loop to 1e-12."
    assert list(trec_batch.qids) == list(trec_lists)
    for k in CUTS:
        ours = err(trec_batch, k=k, max_grade=max_grade)
        want = [slow_err(g, k, top if max_grade == 'query' else max_grade) for g, top in trec_lists.values()]
        assert np.abs(ours - np.array(want)).max() <= 1e-12, k

def test_trec_scale_stop_probabilities_and_means(trec_lists, trec_batch):
    "P_r sums (with the chance of never stopping) to 1; the gdeval preset equals max_grade=4; skip leaves out the all-zero query."
    P = cascade_stop_probabilities(trec_batch, max_grade=3)
    assert P.shape == trec_batch.grades.shape and np.nanmin(P) >= 0
    never = np.array([np.prod([1 - (2.0 ** max(g, 0) - 1) / 8 for g in grades]) for grades, _ in trec_lists.values()])
    assert np.abs(np.nansum(P, axis=1) + never - 1).max() <= 1e-12
    assert (err(trec_batch, k=20, preset='gdeval') == err(trec_batch, k=20, max_grade=4)).all()
    empty = trec_batch.n_rel_at(1) == 0
    assert empty.any()                                     # the data has a query judged all 0
    counted, skipped = mean_err(trec_batch, k=20, max_grade=4), mean_err(trec_batch, k=20, max_grade=4, no_relevant='skip')
    assert counted.n == len(trec_batch) and skipped.n == len(trec_batch) - empty.sum()
    values = err(trec_batch, k=20, max_grade=4)
    assert abs(skipped - values[~empty].mean()) <= 1e-15 and abs(counted - values.mean()) <= 1e-15

def test_trec_scale_simulated_users_converge(trec_batch):
    "20,000 seeded users per query, reading the top 20: the mean reciprocal stopping rank is within 5 standard errors of ERR@20."
    n = 20_000
    stops = simulate_cascade(trec_batch, max_grade=3, n_users=n, seed=31, k=20)
    assert stops.shape == (len(trec_batch), n) and stops.max() <= 20
    mean = np.where(stops > 0, 1 / np.maximum(stops, 1), 0.0).mean(axis=1)
    exact = err(trec_batch, k=20, max_grade=3)
    P = np.nan_to_num(cascade_stop_probabilities(trec_batch, max_grade=3)[:, :20])
    sd = np.sqrt(np.maximum((P / np.arange(1, P.shape[1] + 1) ** 2).sum(axis=1) - exact ** 2, 0))
    assert (np.abs(mean - exact) <= 5 * sd / np.sqrt(n) + 1e-12).all()
    assert (simulate_cascade(trec_batch, max_grade=3, n_users=n, seed=31, k=20) == stops).all()

# ---------------------------------------------------------------- generated batches, exact fractions

def padded(lists):
    m = np.full((len(lists), max(map(len, lists), default=0)), np.nan)
    for i, g in enumerate(lists): m[i, :len(g)] = g
    return m

grade_lists = st.lists(st.lists(st.integers(-2, 5), max_size=12), min_size=1, max_size=6)

@settings(SEEDED, max_examples=300)
@given(grade_lists, st.sampled_from([None, 1, 2, 5, 15]), st.sampled_from([5, 6, 9, 'query', 'per-query']))
def test_graded_batches_match_the_definition(lists, k, max_grade):
    "NaN-padded batches: ERR@k equals the definition in exact fractions to 1e-15, for a scale, per-query scales and 'query'."
    tops = [max([0] + g) for g in lists]
    if max_grade == 'per-query': given = [t + 1 for t in tops]
    else: given = max_grade
    want_tops = tops if max_grade == 'query' else given if max_grade == 'per-query' else [max_grade] * len(lists)
    got = err(padded(lists), k=k, max_grade=given)
    want = [float(exact_err(g, k, t)) for g, t in zip(lists, want_tops)]
    assert np.abs(got - np.array(want)).max() <= 1e-15
    assert mean_err(padded(lists), k=k, max_grade=given) == pytest.approx(np.mean(want), abs=1e-15)

@settings(SEEDED, max_examples=200)
@given(st.lists(st.integers(-1, 4), max_size=15), st.integers(4, 70))
def test_err_bounds_monotone_in_k_and_in_the_scale(grades, top):
    "0 ≤ ERR@k < 1, ERR@k non-decreasing in k, and a larger scale never raises ERR."
    by_k = [err(grades, k=k, max_grade=top) for k in range(1, 17)]
    assert all(0 <= v < 1 for v in by_k)
    assert all(a <= b for a, b in zip(by_k, by_k[1:]))
    assert err(grades, max_grade=top + 1) <= err(grades, max_grade=top)
    assert err(grades, max_grade='query') >= err(grades, max_grade=4)

@settings(SEEDED, max_examples=100)
@given(st.lists(st.integers(0, 200), min_size=1, max_size=8), st.integers(0, 900))
def test_huge_scales_stay_finite_and_exact(grades, extra):
    "Scales far beyond 2^1023 in value: ERR is finite and equals the exact fraction to 1e-15."
    top = max(max(grades), 1) + extra
    got = err(grades, max_grade=top)
    assert np.isfinite(got) and abs(got - float(exact_err(grades, None, top))) <= 1e-15

@settings(SEEDED, max_examples=200)
@given(st.lists(st.fractions(0, 1, max_denominator=64), min_size=1, max_size=10))
def test_cascade_probabilities_match_the_click_model(r):
    "Seed 001's model: P(C_i) = r_i Π_{j<i}(1 - r_j), in exact fractions."
    want, reach = [], Fraction(1)
    for x in r: want.append(x * reach); reach *= 1 - x
    got = cascade_probabilities([float(x) for x in r])
    assert np.abs(got - np.array([float(w) for w in want])).max() <= 1e-15

@settings(SEEDED, max_examples=50)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=6), st.integers(0, 2**32))
def test_simulation_is_repeatable_and_matches_the_stop_probabilities(grades, seed):
    "The same seed gives the same users; 40,000 users' stopping shares are within 5 standard errors of P_r."
    n = 40_000
    stops = simulate_cascade(grades, max_grade=3, n_users=n, seed=seed)
    assert (stops == simulate_cascade(grades, max_grade=3, n_users=n, seed=np.random.default_rng(seed))).all()
    P = cascade_stop_probabilities(grades, max_grade=3)
    want = np.r_[1 - P.sum(), P]
    shares = np.bincount(stops, minlength=len(grades) + 1) / n
    assert (np.abs(shares - want) <= 5 * np.sqrt(want * (1 - want) / n) + 1e-12).all()

SCORES = [0.5, 1.0, 1.25, 2.0, 3.0, -1.0]             # ties, but no two that only float32 would merge
DOCS = [f'd{i}' for i in range(10)]
COLLECTIONS = collections(DOCS, SCORES, grades=(-2, 4), ranked=8, judged=10, positive=False)

@settings(SEEDED, max_examples=200)
@given(COLLECTIONS, st.sampled_from([1, 3, 20]))
def test_gdeval_preset_on_joined_collections(data, k):
    "join + preset='gdeval' equals gdeval's rules restated on the dicts: score desc, docno desc, grades > 0, mean over topics that exist."
    qrels, run = data
    b = join(qrels, run)
    values = dict(zip(b.qids, err(b, k=k, preset='gdeval')))
    exists = {q for q, j in qrels.items() if any(g > 0 for g in j.values())}
    want = {}
    for q in run:
        order = sorted(run[q].items(), key=lambda d: (d[1], d[0]), reverse=True)
        want[q] = slow_err([max(qrels[q].get(doc, 0), 0) for doc, _ in order], k, 4)
    assert all(abs(values[q] - want[q]) <= 1e-15 for q in run)
    if exists: assert abs(mean_err(b, k=k, preset='gdeval') - np.mean([want[q] for q in exists])) <= 1e-15
    assert mean_err(b, k=k, preset='gdeval').n == len(exists)

@settings(SEEDED, max_examples=200)
@given(COLLECTIONS, st.sampled_from([None, 2]))
def test_query_max_grade_comes_from_the_judgements(data, k):
    "With a Batch, max_grade='query' is the query's highest judged grade, retrieved or not (RankEval's y.max())."
    qrels, run = data
    b = join(qrels, run)
    values = dict(zip(b.qids, err(b, k=k, max_grade='query')))
    for q in run:
        order = sorted(run[q].items(), key=lambda d: (d[1], d[0]), reverse=True)
        top = max([0] + list(qrels[q].values()))
        assert abs(values[q] - float(exact_err([qrels[q].get(doc, 0) for doc, _ in order], k, top))) <= 1e-15
