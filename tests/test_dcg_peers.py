"""CG, DCG and nDCG against peers: trec_eval's own test outputs (ndcg, ndcg_cut_k and a gain map, to
the printed precision), per-query agreement with pytrec_eval-terrier (trec_eval's C code) on the
benchmark's TREC-scale data and on hypothesis-generated collections, scikit-learn's ndcg_score and
dcg_score on seeded random data, and hypothesis property tests against the definition. Hypothesis
runs derandomized, so there is no unseeded randomness."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb.engine.kit import query_mean
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.metrics.dcg import cumulative_gain, dcg, ndcg, GAINS, DISCOUNTS, DCG_PRESETS as PRESETS
from conftest import pytrec, quiet_join, SEEDED, collections

CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)          # trec_eval's default ndcg_cut levels

def ours(b, cuts=CUTS, **kw):
    "Our per-query nDCGs under trec_eval's measure names."
    return dict(ndcg=ndcg(b, **kw), **{f'ndcg_cut_{k}': ndcg(b, k=k, **kw) for k in cuts})

# ---------------------------------------------------------------- trec_eval's own test outputs

from conftest import trec_eval_printed as printed

@pytest.mark.parametrize('qrels,run,out,kw', [
    ('qrels.test', 'results.test', 'out.test.aq', {}),
    ('qrels.rel_level', 'results.test', 'out.test.aql', dict(rel=2)),      # -l2, grades -1..4: ignored by nDCG
    ('qrels.test', 'results.trunc', 'out.test.aqc', dict(queries='qrels')),  # -c: the missing topic 302 scores 0
    ('qrels.test', 'results.trunc', 'out.test.aqcM', dict(queries='qrels', depth=100)),   # -c -M100
])
def test_trec_eval_outputs(trec_eval_dir, qrels, run, out, kw):
    "ndcg and every ndcg_cut_k, per topic and averaged, as trec_eval 10.0 prints them (%.4f)."
    b = quiet_join(trec_eval_dir/qrels, trec_eval_dir/run, **kw)
    for name, values in ours(b).items():
        want = printed(trec_eval_dir/out, name)
        got = {q: f'{v:.4f}' for q, v in zip(b.qids, values)} | {'all': f'{query_mean(values):.4f}'}
        assert got == want, (out, name)

def test_trec_eval_gain_map_and_odd_cutoff(trec_eval_dir):
    "out.test.meas_params: -mndcg.1=3,2=9,4=4.5 (a gain map) and -mndcg_cut.10,20,23.4 (23.4 is read as 23)."
    b = join(trec_eval_dir/'qrels.test', trec_eval_dir/'results.test')
    out = trec_eval_dir/'out.test.meas_params'
    mapped = ndcg(b, gain={1: 3, 2: 9, 4: 4.5})
    assert {q: f'{v:.4f}' for q, v in zip(b.qids, mapped)} | {'all': f'{mapped.mean():.4f}'} == printed(out, 'ndcg_1=3,2=9,4=4.5')
    for k in (10, 20, 23):
        v = ndcg(b, k=k)
        assert {q: f'{x:.4f}' for q, x in zip(b.qids, v)} | {'all': f'{v.mean():.4f}'} == printed(out, f'ndcg_cut_{k}')

def test_trec_eval_ignores_the_relevance_level(trec_eval_dir):
    "With -l2 trec_eval's nDCG is unchanged; our rel=2 (ranx's convention) changes it, as it should."
    b = join(trec_eval_dir/'qrels.rel_level', trec_eval_dir/'results.test', rel=2)
    want = np.array([float(v) for q, v in sorted(printed(trec_eval_dir/'out.test.aql', 'ndcg').items()) if q != 'all'])
    assert np.abs(ndcg(b) - want).max() < 5e-5
    assert np.abs(ndcg(b, rel=2) - want).max() > 1e-3
    assert ((b.grades == -1) & b.judged).any()                          # grade -1 documents are ranked: they gain 0

# ---------------------------------------------------------------- the benchmark's TREC-scale data

@pytest.mark.parametrize('level', [1, 2, 3])
def test_ndcg_and_ndcg_cut_agree_with_pytrec_eval(trec_scale, trec_dicts, level):
    "Per query, ndcg and ndcg_cut_5..1000 equal pytrec_eval's to 1e-12, at every relevance level (which nDCG ignores)."
    measures = {'ndcg', 'ndcg_cut.' + ','.join(map(str, CUTS))}
    theirs = pytrec().RelevanceEvaluator(*trec_dicts[:1], measures, relevance_level=level).evaluate(trec_dicts[1])
    b = quiet_join(trec_scale['qrels'], trec_scale['run'], rel=level)
    assert sorted(b.qids) == sorted(theirs)
    for kw in (dict(preset='trec_eval'), {}):
        for name, values in ours(b, **kw).items():
            want = np.array([theirs[q][name] for q in b.qids])
            assert np.abs(values - want).max() <= 1e-12, (name, kw)
    assert abs(query_mean(ndcg(b, k=10)) - np.mean([theirs[q]['ndcg_cut_10'] for q in b.qids])) <= 1e-12

def test_trec_scale_data_exercises_the_ideal(trec_scale):
    "The data has relevant documents the run never retrieved (so the judged ideal matters) and a query without any."
    b = quiet_join(trec_scale['qrels'], trec_scale['run'])
    found = ((b.grades >= 1) & b.judged).sum(axis=1)
    assert (b.n_rel > found).any() and (b.n_rel == 0).any()
    assert (ndcg(b)[b.n_rel == 0] == 0).all()
    assert (ndcg(b, k=10) < ndcg(b, k=10, ideal='returned')).any()

# ---------------------------------------------------------------- small generated collections

DOCS = [f'd{i}' for i in range(12)]
SCORES = [0.1, 0.5, 0.50000001, 1.0, 2.0, -1.0]       # ties, also at float32 precision

@settings(SEEDED, max_examples=200)
@given(collections(DOCS, SCORES, grades=(-2, 4)), st.integers(1, 3))
def test_small_collections_agree_with_pytrec_eval(data, level):
    qrels, run = data
    cuts = (1, 2, 3, 5, 10, 20)
    theirs = pytrec().RelevanceEvaluator(qrels, {'ndcg', 'ndcg_cut.1,2,3,5,10,20'}, relevance_level=level).evaluate(run)
    b = join(qrels, run, rel=level)
    for name, values in ours(b, cuts, preset='trec_eval').items():
        assert np.abs(values - np.array([theirs[q][name] for q in b.qids])).max() <= 1e-12, name

# ---------------------------------------------------------------- scikit-learn

def by_score(y_true, y_score):
    "The grades in descending order of the scores (ties: later column first, as scikit-learn's ignore_ties)."
    order = np.argsort(y_score, axis=1, kind='stable')[:, ::-1]
    return np.take_along_axis(np.asarray(y_true, np.float64), order, axis=1)

@pytest.mark.parametrize('k', [None, 1, 2, 5, 10, 30])
def test_seeded_random_data_agrees_with_scikit_learn(k):
    "preset='sklearn' equals ndcg_score(ignore_ties=True) per row, and dcg equals dcg_score, to 1e-12."
    skm = pytest.importorskip('sklearn.metrics')
    rng = np.random.default_rng(2030)
    y_true = rng.integers(0, 6, (150, 30)) * (rng.random((150, 1)) < 0.9)     # some rows without any gain
    y_score = rng.normal(size=(150, 30))
    ranked = by_score(y_true, y_score)
    theirs = np.array([skm.ndcg_score(y_true[i:i + 1], y_score[i:i + 1], k=k, ignore_ties=True) for i in range(len(y_true))])
    assert np.abs(ndcg(ranked, k=k, preset='sklearn') - theirs).max() <= 1e-12
    assert np.abs(ndcg(ranked, k=k) - theirs).max() <= 1e-12                 # a plain list's default ideal is scikit-learn's
    assert abs(dcg(ranked, k=k).mean() - skm.dcg_score(y_true, y_score, k=k, ignore_ties=True)) <= 1e-12
    assert (y_true.sum(axis=1) == 0).any()

@settings(SEEDED, max_examples=150)
@given(st.lists(st.lists(st.integers(0, 4), min_size=2, max_size=15), min_size=1, max_size=5),
       st.sampled_from([None, 1, 3, 8, 20]), st.randoms(use_true_random=False))
def test_generated_lists_agree_with_scikit_learn(rows, k, rnd):
    "Hypothesis-drawn grade lists (ties in the grades, distinct scores), one query at a time."
    skm = pytest.importorskip('sklearn.metrics')
    for row in rows:
        scores = np.array(rnd.sample(range(1000), len(row)), np.float64)
        want = skm.ndcg_score([row], [scores], k=k, ignore_ties=True)
        assert abs(ndcg(by_score([row], [scores])[0], k=k, preset='sklearn') - want) <= 1e-12

# ---------------------------------------------------------------- the definition, in plain Python

def reference(grades, judged, k, gain, discount, base, rel):
    "nDCG@k of one list from the definition; the ideal is the judged grades (positive gains only)."
    G = {'linear': lambda g: max(g, 0), 'exp': lambda g: 2**max(g, 0) - 1, 'binary': lambda g: int(g > 0)}[gain]
    W = {'log2': lambda i: 1 / math.log2(i + 1), 'jk': lambda i: 1 / max(1.0, math.log(i) / math.log(base))}[discount]
    gain_of = lambda g: G(g) if rel is None or g >= rel else 0
    run = [gain_of(g) for g in grades][:k]
    best = sorted((x for x in map(gain_of, judged) if x > 0), reverse=True)[:k]
    d = sum(x * W(i) for i, x in enumerate(run, 1))
    i = sum(x * W(i) for i, x in enumerate(best, 1))
    return d / i if i > 0 else 0.0, d

def padded(rows):
    m = np.full((len(rows), max(map(len, rows), default=0)), np.nan)
    for i, r in enumerate(rows): m[i, :len(r)] = r
    return m

@settings(SEEDED, max_examples=300)
@given(st.lists(st.lists(st.integers(-2, 5), max_size=10), min_size=1, max_size=5),
       st.lists(st.lists(st.integers(-2, 5), max_size=4), min_size=5, max_size=5),
       st.sampled_from([None, 1, 2, 4, 12]), st.sampled_from(list(GAINS)), st.sampled_from(list(DISCOUNTS)),
       st.sampled_from([2, 3, 10]), st.sampled_from([None, 1, 2, 3]))
def test_batches_match_the_definition(rows, missed, k, gain, discount, base, rel):
    "NaN-padded batches with per-query judged grades (the list's own plus some never retrieved)."
    judged = [r + m for r, m in zip(rows, missed)]
    kw = dict(k=k, gain=gain, discount=discount, base=base if discount == 'jk' else None, rel=rel)
    got_n, got_d = ndcg(padded(rows), ideal=padded(judged), **kw), dcg(padded(rows), **kw)
    want = [reference(r, j, k, gain, discount, base, rel) for r, j in zip(rows, judged)]
    assert np.abs(got_n - np.array([w[0] for w in want])).max() <= 1e-12
    assert np.abs(got_d - np.array([w[1] for w in want])).max() <= 1e-9 * max(1, np.abs(got_d).max())
    assert ((got_n >= 0) & (got_n <= 1)).all()
    one = ndcg(rows[0], ideal=judged[0], **kw)
    assert isinstance(one, float) and one == got_n[0]          # one list is the same code on one row

@settings(SEEDED, max_examples=200)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=12), st.data())
def test_swapping_an_inverted_adjacent_pair_never_lowers_dcg(grades, data):
    i = data.draw(st.integers(0, len(grades) - 2))
    if grades[i] >= grades[i + 1]: return
    swapped = grades.copy(); swapped[i], swapped[i + 1] = grades[i + 1], grades[i]
    for gain in GAINS:
        for discount in DISCOUNTS:
            assert dcg(swapped, gain=gain, discount=discount) >= dcg(grades, gain=gain, discount=discount)
    assert cumulative_gain(swapped) == cumulative_gain(grades)

def test_presets_are_what_they_say():
    "Each preset equals spelling its conventions out."
    rows = np.array([[3, 0, 2, 1, np.nan], [0, 4, 4, 1, 2]])
    for name, conv in PRESETS.items():
        explicit = {k: v for k, v in conv.items() if k != 'ideal'}
        ideal = None if conv['ideal'] == 'judged' else conv['ideal']
        kw = dict(ideal=[[4, 3, 2, 1, 0], [4, 4, 2, 1, 0]]) if ideal is None else dict(ideal=ideal)
        assert np.array_equal(ndcg(rows, k=3, preset=name, **kw), ndcg(rows, k=3, **explicit, **kw))
