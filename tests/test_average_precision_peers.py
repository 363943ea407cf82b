"""AP, AP@k and MAP against peers: per-query agreement with pytrec_eval-terrier (trec_eval's C code)
on the benchmark's TREC-scale data, and hypothesis property tests (derandomized, so no unseeded
randomness) against pytrec_eval on small collections, against scikit-learn, and against the
definition in exact fractions."""
from fractions import Fraction
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.metrics.average_precision import average_precision, mean_average_precision, DENOMINATORS
from conftest import pytrec, quiet_join, SEEDED, collections

CUTS = (5, 10, 100, 1000)

def trec_eval_values(qrels, run, rel):
    "pytrec_eval's map and map_cut_k per query, at relevance level `rel`."
    return pytrec().RelevanceEvaluator(qrels, {'map', 'map_cut.' + ','.join(map(str, CUTS))}, relevance_level=rel).evaluate(run)

def ours(b, rel):
    "Our per-query values under trec_eval's measure names."
    return dict(map=average_precision(b, rel=rel), **{f'map_cut_{k}': average_precision(b, k=k, rel=rel) for k in CUTS})

# ---------------------------------------------------------------- the benchmark's TREC-scale data

@pytest.mark.parametrize('rel', [1, 2, 3])
def test_map_and_map_cut_agree_with_pytrec_eval(trec_scale, trec_dicts, rel):
    "Per query, map and map_cut_5/10/100/1000 equal pytrec_eval's to 1e-12; so does MAP."
    theirs = trec_eval_values(*trec_dicts, rel)
    b = quiet_join(trec_scale['qrels'], trec_scale['run'], rel=rel)
    assert sorted(b.qids) == sorted(theirs)
    for name, values in ours(b, rel).items():
        want = np.array([theirs[q][name] for q in b.qids])
        assert np.abs(values - want).max() <= 1e-12, name
    assert abs(mean_average_precision(b, rel=rel) - np.mean([theirs[q]['map'] for q in b.qids])) <= 1e-12

def test_trec_scale_data_exercises_the_denominator(trec_scale):
    "The data has relevant documents the run never retrieved (so D = R matters) and a query without any."
    b = quiet_join(trec_scale['qrels'], trec_scale['run'])
    found = ((b.grades >= 1) & b.judged).sum(axis=1)
    assert (b.n_rel > found).any() and (b.n_rel == 0).any()
    zero = b.n_rel == 0
    assert (average_precision(b)[zero] == 0).all()
    assert (average_precision(b, k=10) < average_precision(b, k=10, denominator='retrieved')).any()

# ---------------------------------------------------------------- small generated collections

DOCS = [f'd{i}' for i in range(12)]
SCORES = [0.1, 0.5, 0.50000001, 1.0, 2.0, -1.0]       # ties, also at float32 precision

@settings(SEEDED, max_examples=200)
@given(collections(DOCS, SCORES), st.integers(1, 3))
def test_small_collections_agree_with_pytrec_eval(data, rel):
    qrels, run = data
    theirs = trec_eval_values(qrels, run, rel)
    b = join(qrels, run, rel=rel)
    for name, values in ours(b, rel).items():
        assert np.abs(values - np.array([theirs[q][name] for q in b.qids])).max() <= 1e-12, name

def reference(grades, R, k, rel, denominator):
    "AP@k of one list from the definition, in exact fractions."
    hits, total = 0, Fraction(0)
    for i, g in enumerate(grades[:k], 1):
        if g >= rel: hits += 1; total += Fraction(hits, i)
    D = dict(n_rel=R, retrieved=hits, min_n_rel_k=R if k is None else min(R, k))[denominator]
    return total / D if D else Fraction(0)

@settings(SEEDED, max_examples=300)
@given(st.lists(st.lists(st.integers(-2, 3), max_size=12), min_size=1, max_size=6),
       st.lists(st.integers(0, 5), min_size=6, max_size=6),
       st.sampled_from([None, 1, 2, 5, 15]), st.integers(1, 3), st.sampled_from(list(DENOMINATORS)))
def test_graded_batches_match_the_definition(lists, missing, k, rel, denominator):
    "NaN-padded batches of graded lists, per-query n_rel (with relevant documents never retrieved)."
    width = max(map(len, lists))
    m = np.full((len(lists), width), np.nan)
    for i, g in enumerate(lists): m[i, :len(g)] = g
    n_rel = np.array([sum(x >= rel for x in g) for g in lists]) + np.array(missing[:len(lists)])
    got = average_precision(m, n_rel=n_rel, k=k, rel=rel, denominator=denominator)
    want = [float(reference(g, int(R), k, rel, denominator)) for g, R in zip(lists, n_rel)]
    assert np.abs(got - np.array(want)).max() <= 1e-15
    assert mean_average_precision(m, n_rel=n_rel, k=k, rel=rel, denominator=denominator) == pytest.approx(np.mean(want), abs=1e-15)

@settings(SEEDED, max_examples=200)
@given(st.lists(st.booleans(), min_size=1, max_size=30).filter(any))
def test_plain_list_ap_equals_scikit_learn(labels):
    "With n_rel=None (the relevant documents in the list), AP is scikit-learn's average_precision_score."
    skm = pytest.importorskip('sklearn.metrics')
    scores = np.arange(len(labels), 0, -1)            # distinct scores, rank 1 first
    assert average_precision(labels) == pytest.approx(skm.average_precision_score(labels, scores), abs=1e-12)
