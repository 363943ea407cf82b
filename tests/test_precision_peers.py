"""Precision, recall, F, R-precision and success against trec_eval: per query to 1e-12 against
pytrec_eval-terrier on the benchmark's TREC-scale data and on collections hypothesis generates
(derandomised: no unseeded randomness), and to the printed 4 decimals against trec_eval's own test
outputs. Plus properties of F that hold for every beta."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from rankmetrics_nb import join
from rankmetrics_nb.engine.kit import query_mean
from rankmetrics_nb.metrics.precision import precision, recall, f_measure, r_precision, success
from conftest import quiet_join, collections

CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]

def ours(b, rel, cuts=CUTS, success_cuts=(1, 5, 10)):
    "Our values under trec_eval's measure names, one array per measure (rows as b.qids)."
    out = dict(Rprec=r_precision(b, rel=rel), set_P=precision(b, rel=rel),
               set_recall=recall(b, rel=rel), set_F=f_measure(b, rel=rel))
    for k in cuts: out.update({f'P_{k}': precision(b, k, rel=rel), f'recall_{k}': recall(b, k=k, rel=rel)})
    for k in success_cuts: out[f'success_{k}'] = success(b, k, rel=rel)
    return out

def measure_set(cuts=CUTS, success_cuts=(1, 5, 10)):
    c, s = ','.join(map(str, cuts)), ','.join(map(str, success_cuts))
    return {f'P.{c}', f'recall.{c}', f'success.{s}', 'Rprec', 'set_P', 'set_recall', 'set_F'}

def assert_agree(b, theirs, mine):
    assert sorted(theirs) == sorted(b.qids)
    for name, values in mine.items():
        expected = np.array([theirs[q][name] for q in b.qids])
        np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12, err_msg=name)

# ---------------------------------------------------------------- trec_eval's own test outputs
from conftest import trec_eval_printed
def printed(path, measure):
    "{qid: value} of `measure` in a trec_eval output file (values printed with 4 decimals)."
    return {qid: float(v) for qid, v in trec_eval_printed(path, measure).items()}

@pytest.mark.parametrize('qrels,run,out,kw,rel', [
    ('qrels.test', 'results.test', 'out.test.aq', {}, 1),
    ('qrels.rel_level', 'results.test', 'out.test.aql', {}, 2),
    ('qrels.test', 'results.trunc', 'out.test.aqc', dict(queries='qrels'), 1),
    ('qrels.test', 'results.trunc', 'out.test.aqcM', dict(queries='qrels', depth=100), 1),
])
def test_trec_eval_outputs(trec_eval_dir, qrels, run, out, kw, rel):
    "Per query and for 'all' (the mean), every measure of this module that trec_eval printed."
    b = quiet_join(trec_eval_dir/qrels, trec_eval_dir/run, **kw)
    checked = 0
    for name, values in ours(b, rel).items():
        expected = printed(trec_eval_dir/out, name)
        assert expected, name
        for q, v in zip(b.qids, values):
            assert abs(v - expected[q]) <= 5e-5 + 1e-12, (out, name, q, v, expected[q]); checked += 1
        assert abs(query_mean(values) - expected['all']) <= 5e-5 + 1e-12, (out, name)
    assert checked >= 3 * 22

# ---------------------------------------------------------------- pytrec_eval
pytrec_eval = pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')

@pytest.fixture(scope='module')
def trec_data(trec_scale):
    with open(trec_scale['qrels']) as f: qrels = pytrec_eval.parse_qrel(f)
    with open(trec_scale['run']) as f: run = pytrec_eval.parse_run(f)
    b = quiet_join(trec_scale['qrels'], trec_scale['run'])
    return qrels, run, b

@pytest.mark.parametrize('rel', [1, 2, 3])
def test_trec_scale_agrees_with_pytrec_eval(trec_data, rel):
    qrels, run, b = trec_data
    assert len(b) == 50 and b.n_ret.min() == 1000
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measure_set(), relevance_level=rel).evaluate(run)
    mine = ours(b, rel)
    assert_agree(b, theirs, mine)
    assert mine['P_10'].max() > 0 and mine['recall_1000'].max() > 0    # the data exercises the measures

QIDS = ['q1', 'q2', 'q3', 'q10']
DOCS = [f'd{i}' for i in range(12)]

@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(collections(DOCS, [0.5, 1.0, 1.5, 2.0, -1.0], ranked=12, judged=10, qids=QIDS), st.sampled_from([1, 2, 3]))
def test_small_collections_agree_with_pytrec_eval(data, rel):
    qrels, run = data
    b = join(qrels, run)
    cuts = [1, 2, 3, 5, 10, 20]
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measure_set(cuts, cuts), relevance_level=rel).evaluate(run)
    assert_agree(b, theirs, ours(b, rel, cuts, cuts))

# ---------------------------------------------------------------- properties of F
labels_2d = st.integers(1, 12).flatmap(lambda n: st.lists(st.lists(st.integers(-1, 3), min_size=0, max_size=n), min_size=1, max_size=6))

def padded(rows):
    width = max(len(r) for r in rows)
    return np.array([r + [np.nan] * (width - len(r)) for r in rows], dtype=float)

@settings(max_examples=300, deadline=None, derandomize=True)
@given(labels_2d, st.lists(st.integers(0, 4), min_size=6, max_size=6), st.sampled_from([None, 1, 2, 5, 20]),
       st.floats(1e-3, 1e3), st.sampled_from([1, 2]))
def test_f_is_a_weighted_harmonic_mean(rows, extra, k, beta, rel):
    "F_beta equals (1+b²)PR/(b²P+R), lies between min(P, R) and max(P, R) for every beta, and 1/F = a/P + (1-a)/R."
    m = padded(rows)
    n_rel = np.nansum(m >= rel, axis=1) + np.array(extra[:len(m)])
    p, r, f = precision(m, k, rel=rel), recall(m, n_rel=n_rel, k=k, rel=rel), f_measure(m, n_rel=n_rel, k=k, beta=beta, rel=rel)
    b2 = beta ** 2
    both = (p > 0) & (r > 0)
    with np.errstate(divide='ignore', invalid='ignore'):
        formula = np.where(both, (1 + b2) * p * r / (b2 * p + r), 0.0)
        harmonic = np.where(both, 1 / ((1 / (1 + b2)) / p + (b2 / (1 + b2)) / r), 0.0)
    np.testing.assert_allclose(f, formula, rtol=1e-12, atol=0)
    np.testing.assert_allclose(f, harmonic, rtol=1e-12, atol=0)
    assert (f[~both] == 0).all()
    assert (np.minimum(p, r) * (1 - 1e-12) <= f).all() and (f <= np.maximum(p, r) * (1 + 1e-12)).all()

@settings(max_examples=200, deadline=None, derandomize=True)
@given(labels_2d, st.sampled_from([1, 2]))
def test_single_list_is_the_row_of_the_matrix(rows, rel):
    "One list gives a float equal to its row in a padded matrix: the same code on one row."
    m = padded(rows)
    n_rel = np.nansum(m >= rel, axis=1) + 1
    for i, row in enumerate(rows):
        for f, args, needs_n_rel in [(precision, (5,), False), (recall, (5,), True), (f_measure, (), True), (r_precision, (), True), (success, (3,), False)]:
            one = f(row, *args, rel=rel, **(dict(n_rel=n_rel[i]) if needs_n_rel else {}))
            many = f(m, *args, rel=rel, **(dict(n_rel=n_rel) if needs_n_rel else {}))
            assert isinstance(one, float) and one == many[i], (f.__name__, row)
