"""torchmetrics' retrieval tests, case by case, as tests of rankmetrics_nb (torch is not installed here).

Source: Lightning-AI/torchmetrics @ dab03339 (Apache-2.0), `tests/unittests/retrieval/*.py`, and the doctest
examples of `src/torchmetrics/{functional/,}retrieval/*.py` (torchmetrics runs its docstrings as tests). The
inputs and expected values are restated; each test names the source it ports.

torchmetrics' conventions and the parameters that match them here:
* One query = the documents sharing an `indexes` value; every document is both retrieved (score = pred) and
  judged (grade = target). So qrels and run hold the same pairs; the ideal of nDCG comes from those documents
  (`ideal='returned'`, equal to the judged ones here).
* AP with `top_k` divides by the relevant documents found in the top k: `AP(denominator=retrieved)@k`.
* A query without a relevant document scores 0 by default (`empty_target_action='neg'`): our default too;
  'skip', 'pos' and 'error' are `evaluate(..., empty=...)`.
* Since 1.7.4, a document with a score <= 0 counts as not retrieved for precision, recall, AP and RR: the ports
  drop those documents from the run, and `conventions='torchmetrics'` reads them so (`nonpositive='not_retrieved'`).
* Tied scores: nDCG averages the gain over tied documents (scikit-learn's rule): `ties='expected'`.
* `ignore_index` removes the documents whose target equals it: the ports build the inputs without them.
* `aggregation` ('mean', 'median', 'min', 'max', a callable) summarises the per-query values: the ports apply it
  to the values `evaluate(..., per_query=True)` returns.

The class/functional tests compare torchmetrics with a reference implementation on random tensors. Here a
seeded numpy equivalent (the same shapes: 4 x 32 documents over 10 query ids; 64 ids for the adaptive-k
inputs; 4 x 64 for the graded targets) is evaluated by us and by a small independent numpy reference of the
same definitions, for every top_k, input kind and aggregation of the source's parameter grids (no DDP, no
GPU, no dtype runs: those test torch itself).

Counts: 276 cases ported (pytest items; a parametrised case counts once per parameter set): 276 pass.
Source tests skipped as not concrete, or testing torch rather than a metric:
* test_precision_recall_curve.py with adaptive_k=True: its precision is the adaptive P@k of test_precision.py
  (`P(adaptive_k=true)@k`, `test_precision_adaptive_k`).
* the `_irs_extra` input kind (a third tensor dimension that torchmetrics flattens): a shape test; flattened it
  is the default kind with more documents.
* test_*.py::test_precision_cpu / ::test_precision_gpu (half-precision dtype support of the torch code) and the
  `ddp=True` parametrisations (distributed synchronisation).
* test_*.py::test_arguments_* cases about tensor dtypes and shapes (`preds` must be floats, `indexes` must be
  long integers, `indexes` cannot be None, same shapes, `ignore_index` must be an integer, an unknown
  `empty_target_action`): dicts of ids have no such states. The argument cases that carry over (a bad top_k,
  empty inputs, no positive/negative target with 'error') are ported.
* test_*.py::test_arguments_* "`target` must contain `binary` values": we take graded judgements on purpose
  (P/R/AP/RR count grades >= rel), a deliberate difference.
* test_auroc.py `max_fpr=0.25` (McClish-standardised partial AUC): its reference is torchmetrics' own code on
  random tensors; `AUROC(max_fpr=...)` is checked against scikit-learn's `roc_auc_score` in tests/test_pairs_overlap_peers.py.
"""
import functools
import math
import warnings
import numpy as np
import pytest
from rankmetrics_nb import (evaluate as _evaluate, precision, recall, average_precision, reciprocal_rank, ndcg, EvalInputError,
                            QueryMismatchWarning)

# Every evaluation names its tie policy: 'trec'. The seeded scores are distinct within each query (float32, as
# torch.rand), so every order-by-score policy agrees; torchmetrics' own tie handling is the preset's ties='expected'.
evaluate = functools.partial(_evaluate, ties='trec')

# ------------------------------------------------------------------ the seeded inputs (as unittests/retrieval/_inputs.py)
NUM_BATCHES, BATCH_SIZE = 4, 32

def make_inputs(kind:str, seed:int=42):
    "(indexes, preds, target) flat numpy arrays, like the source's input kinds, seeded."
    rng = np.random.default_rng([seed, sum(map(ord, kind))])
    n = NUM_BATCHES * BATCH_SIZE
    if kind in ('int_target', 'float_target'): n *= 2
    idx = rng.integers(0, NUM_BATCHES * BATCH_SIZE // 2 if kind == 'adaptive_k' else 10, n)
    preds = rng.random(n, dtype=np.float32)
    if kind == 'no_target': target = np.zeros(n, np.int64)
    elif kind == 'all_target': target = np.ones(n, np.int64)
    elif kind == 'int_target': target = rng.integers(-1, 4, n)
    elif kind == 'float_target': target = rng.random(n)
    else: target = rng.integers(0, 2, n)
    if kind == 'ignore_index': target = np.where(rng.standard_normal(n) > 0.5, -100, target)
    return idx, preds, target

def drop(idx, preds, target, ignore_index):
    "torchmetrics' ignore_index: the documents whose target equals it are removed."
    if ignore_index is None: return idx, preds, target
    keep = target != ignore_index
    return idx[keep], preds[keep], target[keep]

def inputs(kind:str):
    "make_inputs, with ignore_index=-100 applied to the kind that carries it (the source's ignore-index test)."
    return drop(*make_inputs(kind), -100 if kind == 'ignore_index' else None)

def as_dicts(idx, preds, target):
    "qrels and run dicts: query q<index>, document d<position>; grade = target, score = pred."
    qrels, run = {}, {}
    for pos, (i, p, t) in enumerate(zip(idx.tolist(), preds.tolist(), target.tolist())):
        qrels.setdefault(f'q{i}', {})[f'd{pos}'] = int(t)
        run.setdefault(f'q{i}', {})[f'd{pos}'] = float(p)
    return qrels, run

def groups(idx, preds, target):
    "{query: (target, preds)} in first-seen order (the reference's view)."
    out = {}
    for i in dict.fromkeys(idx.tolist()):
        m = idx == i
        out[f'q{i}'] = (target[m], preds[m])
    return out

# ------------------------------------------------------------------ an independent numpy reference of the definitions
def ranked_targets(t, p, k=None):
    "Targets in descending score order, cut at k."
    o = np.argsort(-p, kind='stable')
    return t[o][:k] if k is not None else t[o]

def ref_precision(t, p, k=None, adaptive_k=False):
    if k is None or (adaptive_k and k > len(p)): k = len(p)
    return ranked_targets(t, p, k).sum() / k

def ref_recall(t, p, k=None):
    return ranked_targets(t, p, k).sum() / t.sum()

def ref_ap(t, p, k=None):
    r = ranked_targets(t, p, k)
    hits = np.flatnonzero(r > 0)
    return float(np.mean(np.arange(1, len(hits) + 1) / (hits + 1))) if len(hits) else 0.0

def ref_rr(t, p, k=None):
    hits = np.flatnonzero(ranked_targets(t, p, k) > 0)
    return 1.0 / (hits[0] + 1) if len(hits) else 0.0

def ref_ndcg(t, p, k=None):
    if len(t) < 2: return 1.0
    disc = 1 / np.log2(np.arange(len(t)) + 2)
    dcg = (ranked_targets(t, p, k) * disc[:len(ranked_targets(t, p, k))]).sum()
    ideal = np.sort(t)[::-1][:k]
    idcg = (ideal * disc[:len(ideal)]).sum()
    return dcg / idcg if idcg > 0 else 0.0

def ref_hit_rate(t, p, k=None):
    return float(ranked_targets(t, p, k).sum() > 0)

def ref_r_precision(t, p, k=None):
    return ranked_targets(t, p, int(t.sum())).sum() / t.sum()

def ref_fall_out(t, p, k=None):
    n = 1 - t
    return ranked_targets(n, p, k).sum() / n.sum()

def ref_auroc(t, p, k=None):
    r, s = ranked_targets(t, p, k), np.sort(p)[::-1][:k]
    if 0 not in r or 1 not in r: return 0.0
    pos, neg = s[r == 1], s[r == 0]
    return float(((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()) / (len(pos) * len(neg)))

AGGREGATIONS = {'mean': np.mean, 'median': lambda v: float(np.sort(v)[(len(v) - 1) // 2]),   # torch's median: the lower one
                'max': np.max, 'min': np.min, 'custom': lambda v: np.mean(np.square(v))}

def reference(fn, g, k, empty='neg', reverse=False, **kw):
    "Per-query reference values as the source's _compute_sklearn_metric gives them (empty_target_action='neg')."
    out = {}
    for q, (t, p) in g.items():
        t = t.astype(np.float64)
        if ((1 - t) if reverse else t).sum() == 0:
            if empty == 'neg': out[q] = 0.0
            elif empty == 'pos': out[q] = 1.0
            continue
        out[q] = fn(t, p, k, **kw)
    return out

def ours(idx, preds, target, measure, **kw):
    "Our per-query values of `measure` on the inputs."
    qrels, run = as_dicts(idx, preds, target)
    got = evaluate(qrels, run, [measure], per_query=True, **kw)
    return {q: v[measure] for q, v in got.items()}

def assert_aggregations(mine:dict, ref:dict):
    assert sorted(mine) == sorted(ref)
    qs = sorted(ref)
    m, r = np.array([mine[q] for q in qs]), np.array([ref[q] for q in qs])
    np.testing.assert_allclose(m, r, rtol=0, atol=1e-6)
    for name, agg in AGGREGATIONS.items():
        assert agg(m) == pytest.approx(agg(r), abs=1e-6), name

# ------------------------------------------------------------------ class/functional metric tests (seeded equivalents)
KINDS = ['default', 'no_target', 'adaptive_k', 'ignore_index']       # _irs, _irs_no_tgt, _irs_adpt_k, _irs_ii
BINARY = [  # (source test file, our measure for top_k=k, reference)
    ('test_precision', lambda k: 'P' if k is None else f'P@{k}', ref_precision),
    ('test_recall', lambda k: 'R' if k is None else f'R@{k}', ref_recall),
    ('test_map', lambda k: 'AP(denominator=retrieved)' + ('' if k is None else f'@{k}'), ref_ap),
    ('test_mrr', lambda k: 'RR' if k is None else f'RR@{k}', ref_rr),
    ('test_hit_rate', lambda k: 'HitRate' if k is None else f'HitRate@{k}', ref_hit_rate),
]

def _binary_cases():
    out = []
    for src, name, fn in BINARY:
        for kind in KINDS:
            for k in (None, 1, 4, 10):
                for ignore in ((None, 1) if kind != 'ignore_index' else (-100,)):
                    out.append(pytest.param(src, name, fn, kind, k, ignore, id=f'{src}-{kind}-k{k}-ignore{ignore}'))
    return out

@pytest.mark.parametrize('src,name,fn,kind,k,ignore_index', _binary_cases())
def test_class_metric(src, name, fn, kind, k, ignore_index):
    # test_precision.py, test_recall.py, test_map.py, test_mrr.py, test_hit_rate.py ::test_class_metric,
    # ::test_class_metric_ignore_index and ::test_functional_metric (k = top_k; every aggregation;
    # empty_target_action='neg', our default). ignore_index=1 leaves every query without a relevant document.
    idx, preds, target = drop(*make_inputs(kind), ignore_index)
    assert_aggregations(ours(idx, preds, target, name(k)), reference(fn, groups(idx, preds, target), k))

@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('ignore_index', [None, 1])
def test_r_precision_class_metric(kind, ignore_index):
    # test_r_precision.py::test_class_metric, ::test_class_metric_ignore_index, ::test_functional_metric
    if kind == 'ignore_index': ignore_index = -100
    idx, preds, target = drop(*make_inputs(kind), ignore_index)
    assert_aggregations(ours(idx, preds, target, 'Rprec'), reference(ref_r_precision, groups(idx, preds, target), None))

NDCG_KINDS = ['default', 'no_target', 'int_target', 'ignore_index']

@pytest.mark.parametrize('kind,ignore_index', [(k, i) for k in NDCG_KINDS for i in ((None, 3) if k != 'ignore_index' else (-100,))])
@pytest.mark.parametrize('k', [None, 1, 4, 10])
def test_ndcg_class_metric(kind, ignore_index, k):
    # test_ndcg.py::test_class_metric (ignore_index None or 3), ::test_class_metric_ignore_index (-100),
    # ::test_functional_metric — graded targets (-1..3 shifted to 0..4 as the source does, after ignore_index);
    # linear gain, the ideal from the query's documents
    idx, preds, target = drop(*make_inputs(kind), ignore_index)
    if target.min() < 0: target = target - target.min()
    name = 'nDCG(ideal=returned)' + ('' if k is None else f'@{k}')
    assert_aggregations(ours(idx, preds, target, name), reference(ref_ndcg, groups(idx, preds, target), k))

@pytest.mark.parametrize('k', [None, 1, 4, 10])
def test_ndcg_float_target(k):
    # test_ndcg.py::test_class_metric with _irs_float_tgt (real-valued targets). Our qrels take integer grades, so
    # these go to the ndcg function as a label matrix in score order (one row per query, NaN padded)
    idx, preds, target = make_inputs('float_target')
    g = groups(idx, preds, target)
    rows = [ranked_targets(t, p) for t, p in g.values()]
    m = np.full((len(rows), max(map(len, rows))), np.nan)
    for i, r in enumerate(rows): m[i, :len(r)] = r
    mine = dict(zip(g, ndcg(m, k, ideal='returned')))
    assert_aggregations(mine, reference(ref_ndcg, g, k))

@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('k', [None, 1, 4, 10])
def test_precision_adaptive_k(kind, k):
    # test_precision.py::test_class_metric / ::test_functional_metric with adaptive_k=True: P(adaptive_k=true)@k
    idx, preds, target = inputs(kind)
    name = 'P(adaptive_k=true)' + ('' if k is None else f'@{k}')
    assert_aggregations(ours(idx, preds, target, name), reference(ref_precision, groups(idx, preds, target), k, adaptive_k=True))

@pytest.mark.parametrize('max_k', [None, 1, 2, 5, 10])
@pytest.mark.parametrize('ignore_index', [None, 1])
@pytest.mark.parametrize('kind', ['default', 'no_target', 'adaptive_k'])
def test_precision_recall_curve(kind, ignore_index, max_k):
    # test_precision_recall_curve.py::TestRetrievalPrecisionRecallCurve::test_class_metric (adaptive_k=False; every
    # aggregation): P@k and R@k for k = 1..max_k over the queries (0 for a query without a relevant document)
    idx, preds, target = drop(*make_inputs(kind), ignore_index)
    g = groups(idx, preds, target)
    ks = range(1, (max_k or max(len(t) for t, _ in g.values())) + 1)
    names = [f'P@{k}' for k in ks] + [f'R@{k}' for k in ks]
    qrels, run = as_dicts(idx, preds, target)
    got = evaluate(qrels, run, names, per_query=True)
    for k in ks:
        assert_aggregations({q: v[f'P@{k}'] for q, v in got.items()}, reference(ref_precision, g, k))
        assert_aggregations({q: v[f'R@{k}'] for q, v in got.items()}, reference(ref_recall, g, k))

# ------------------------------------------------------------------ fall-out, AUROC and the empty rules
@pytest.mark.parametrize('k', [None, 1, 10])
@pytest.mark.parametrize('kind', ['default', 'no_target'])
def test_fallout_class_metric(kind, k):
    # test_fallout.py::test_class_metric / ::test_functional_metric — non-relevant retrieved in the top k over all
    # non-relevant; a query without a non-relevant document is the empty case here
    idx, preds, target = make_inputs(kind)
    name = 'FallOut' if k is None else f'FallOut@{k}'
    assert_aggregations(ours(idx, preds, target, name), reference(ref_fall_out, groups(idx, preds, target), k, reverse=True))

@pytest.mark.parametrize('k', [None, 1, 4, 10])
def test_auroc_class_metric(k):
    # test_auroc.py::test_class_metric / ::test_functional_metric (max_fpr=None)
    idx, preds, target = make_inputs('default')
    name = 'AUROC' if k is None else f'AUROC@{k}'
    assert_aggregations(ours(idx, preds, target, name), reference(ref_auroc, groups(idx, preds, target), k))

@pytest.mark.parametrize('empty', ['skip', 'pos', 'neg'])
def test_empty_target_action(empty):
    # test_*.py::test_class_metric with empty_target_action='skip' / 'pos' / 'neg' (named explicitly); the
    # adaptive-k inputs (about 2 documents per query) leave many queries without a relevant document
    idx, preds, target = make_inputs('adaptive_k')
    qrels, run = as_dicts(idx, preds, target)
    got = evaluate(qrels, run, ['P@4'], per_query=True, empty=empty)
    ref = reference(ref_precision, groups(idx, preds, target), 4, empty=empty)
    got = {q: v['P@4'] for q, v in got.items() if v['P@4'] == v['P@4']}     # 'skip': NaN here, left out of the means
    assert got == pytest.approx(ref, abs=1e-6)

def test_empty_target_action_error():
    # helpers.py::_errors_test_class_metric_parameters_no_pos_target: "a query with no positive target" raises
    idx, preds, target = make_inputs('no_target')
    qrels, run = as_dicts(idx, preds, target)
    with pytest.raises(EvalInputError):
        evaluate(qrels, run, ['P@4'], empty='error')

def test_empty_target_action_error_no_negative():
    # helpers.py::_errors_test_class_metric_parameters_no_neg_target (test_fallout.py): "a query with no negative
    # target" raises with empty_target_action='error': FallOut's empty case is a query without a non-relevant document
    idx, preds, target = make_inputs('all_target')
    qrels, run = as_dicts(idx, preds, target)
    with pytest.raises(EvalInputError):
        evaluate(qrels, run, ['FallOut@4'], empty='error')

# ------------------------------------------------------------------ argument errors that carry over
@pytest.mark.parametrize('k', [-10, 0])
def test_arguments_top_k(k):
    # helpers.py::_errors_test_functional_metric_parameters_k ("`top_k` has to be a positive integer or None")
    with pytest.raises(EvalInputError, match='positive'):
        precision([1, 0, 1], k)
    with pytest.raises(EvalInputError, match='positive'):
        evaluate({'q': {'a': 1}}, {'q': {'a': 1.0}}, [f'P@{k}'])

def test_arguments_top_k_float():
    # helpers.py::_errors_test_functional_metric_parameters_k (top_k=4.0 is refused by torchmetrics). We read a
    # whole number given as a float as that cutoff (a deliberate leniency) and refuse a fraction
    assert precision([1, 0, 1], 4.0) == precision([1, 0, 1], 4) == 0.5
    with pytest.raises(EvalInputError):
        precision([1, 0, 1], 4.5)

def test_arguments_empty():
    # helpers.py::_errors_test_*_metric_parameters_default ("must be non-empty ... tensors")
    with pytest.raises(EvalInputError, match='holds no'):
        evaluate({'q': {'a': 1}}, {}, ['P@4'])

# ------------------------------------------------------------------ the hand-written cases
def test_precision_all_zero_predictions_returns_zero():
    # test_precision.py::test_precision_all_zero_predictions_returns_zero — preds [0, 0, 0], target [1, 0, 1]: 0.
    # Scores <= 0 count as not retrieved, so the ranking is empty (an all-NaN row); P over the 3 given documents
    assert precision(np.full((1, 3), np.nan), 3)[0] == 0.0

def test_map_all_zero_predictions_returns_zero():
    # test_map.py::test_map_all_zero_predictions_returns_zero
    assert average_precision(np.full((1, 3), np.nan), n_rel=2, denominator='retrieved')[0] == 0.0

def test_mrr_all_zero_predictions_returns_zero():
    # test_mrr.py::test_mrr_all_zero_predictions_returns_zero
    assert reciprocal_rank(np.full((1, 3), np.nan))[0] == 0.0

def test_recall_all_zero_predictions_returns_zero():
    # test_recall.py::test_recall_all_zero_predictions_returns_zero
    assert recall(np.full((1, 3), np.nan), n_rel=2)[0] == 0.0

def test_all_zero_predictions_with_another_query():
    # the four tests above through evaluate(): the documents scored 0 are dropped from the run (torchmetrics' rule);
    # a second query keeps the run non-empty, and queries='qrels' keeps the emptied query in with 0
    qrels = {'q0': {'a': 1, 'b': 0, 'c': 1}, 'q1': {'x': 1}}
    run = {'q0': {d: s for d, s in {'a': 0.0, 'b': 0.0, 'c': 0.0}.items() if s > 0}, 'q1': {'x': 0.5}}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        got = evaluate(qrels, run, ['P@3', 'R', 'AP(denominator=retrieved)', 'RR'], per_query=True, queries='qrels')
    assert got['q0'] == {'P@3': 0.0, 'R': 0.0, 'AP(denominator=retrieved)': 0.0, 'RR': 0.0}

def test_all_zero_predictions_conventions():
    # test_{precision,map,mrr,recall}.py::test_*_all_zero_predictions_returns_zero with the preset instead of dropping
    qrels, run = {'q0': {'a': 1, 'b': 0, 'c': 1}}, {'q0': {'a': 0.0, 'b': 0.0, 'c': 0.0}}
    got = evaluate(qrels, run, ['P', 'R', 'AP', 'RR'], per_query=True, conventions='torchmetrics')
    assert got['q0'] == {'P': 0.0, 'R': 0.0, 'AP': 0.0, 'RR': 0.0}

@pytest.mark.parametrize('k,expected', [(1, 0.75), (3, None), (5, None)])
def test_corner_case_with_tied_scores(k, expected):
    # test_ndcg.py::test_corner_case_with_tied_scores — target [10, 0, 0, 1, 5], preds [.1, 0, 0, 0, .1]: equal to
    # scikit-learn's tie-averaged ndcg_score at k = 1, 3, 5 (at k=1: the tied top pair's gains averaged, 7.5/10)
    sk = pytest.importorskip('sklearn.metrics')
    target, preds = [10, 0, 0, 1, 5], [0.1, 0, 0, 0, 0.1]
    want = sk.ndcg_score([target], [preds], k=k)
    if expected is not None: assert want == pytest.approx(expected, abs=1e-12)
    qrels = {'q': {f'd{i}': g for i, g in enumerate(target)}}
    run = {'q': {f'd{i}': s for i, s in enumerate(preds)}}
    got = evaluate(qrels, run, [f'nDCG(ideal=returned)@{k}'], per_query=True, ties='expected')
    assert got['q'][f'nDCG(ideal=returned)@{k}'] == pytest.approx(want, abs=1e-6)

# ------------------------------------------------------------------ the docstring examples (doctests)
SINGLE = ({'q': {'d0': 1, 'd1': 0, 'd2': 1}}, {'q': {'d0': 0.2, 'd1': 0.3, 'd2': 0.5}})   # preds [.2,.3,.5], target [T,F,T]
GROUPED = ({'0': {'a': 0, 'b': 0, 'c': 1}, '1': {'d': 0, 'e': 1, 'f': 0, 'g': 1}},
           {'0': {'a': 0.2, 'b': 0.3, 'c': 0.5}, '1': {'d': 0.1, 'e': 0.3, 'f': 0.5, 'g': 0.2}})

@pytest.mark.parametrize('measure,expected', [
    ('AP', 0.8333), ('P@2', 0.5), ('R@2', 0.5), ('Rprec', 0.5), ('HitRate@2', 1.0)])
def test_functional_docstrings(measure, expected):
    # functional/retrieval/{average_precision,precision,recall,r_precision,hit_rate}.py examples
    assert evaluate(*SINGLE, [measure], per_query=True)['q'][measure] == pytest.approx(expected, abs=5e-5)

def test_functional_reciprocal_rank_docstring():
    # functional/retrieval/reciprocal_rank.py example: preds [.2, .3, .5], target [F, T, F]
    assert evaluate({'q': {'d0': 0, 'd1': 1, 'd2': 0}}, SINGLE[1], ['RR'], per_query=True)['q']['RR'] == 0.5

def test_functional_ndcg_docstring():
    # functional/retrieval/ndcg.py example: preds [.1, .2, .3, 4, 70], target [10, 0, 0, 1, 5]: 0.6957
    qrels = {'q': dict(zip('abcde', [10, 0, 0, 1, 5]))}
    run = {'q': dict(zip('abcde', [.1, .2, .3, 4, 70]))}
    assert evaluate(qrels, run, ['nDCG(ideal=returned)'], per_query=True)['q']['nDCG(ideal=returned)'] == pytest.approx(0.6957, abs=5e-5)

def test_functional_precision_recall_curve_docstring():
    # functional/retrieval/precision_recall_curve.py example (max_k=2): precisions [1, .5], recalls [.5, .5]
    got = evaluate(*SINGLE, ['P@1', 'P@2', 'R@1', 'R@2'], per_query=True)['q']
    assert [got['P@1'], got['P@2']] == [1.0, 0.5] and [got['R@1'], got['R@2']] == [0.5, 0.5]

@pytest.mark.parametrize('measure,expected', [('FallOut@2', 1.0), ('AUROC', 0.5)])
def test_functional_docstrings_missing(measure, expected):
    # functional/retrieval/{fall_out,auroc}.py examples
    assert evaluate(*SINGLE, [measure], per_query=True)['q'][measure] == pytest.approx(expected, abs=5e-5)

@pytest.mark.parametrize('measure,expected', [
    ('AP', 0.7917), ('RR', 0.75), ('R@2', 0.75), ('Rprec', 0.75), ('P@2', 0.5), ('nDCG(ideal=returned)', 0.8467)])
def test_class_docstrings(measure, expected):
    # retrieval/{average_precision,reciprocal_rank,recall,r_precision,precision,ndcg}.py examples (two queries)
    assert evaluate(*GROUPED, [measure])[measure] == pytest.approx(expected, abs=5e-5)

def test_class_hit_rate_docstring():
    # retrieval/hit_rate.py example: target [T, F, F, F, T, F, T], top_k=2: 0.5
    qrels = {'0': {'a': 1, 'b': 0, 'c': 0}, '1': GROUPED[0]['1']}
    assert evaluate(qrels, GROUPED[1], ['HitRate@2'])['HitRate@2'] == 0.5

@pytest.mark.parametrize('measure,expected', [('FallOut@2', 0.5), ('AUROC', 0.75)])
def test_class_docstrings_missing(measure, expected):
    # retrieval/{fall_out,auroc}.py examples
    assert evaluate(*GROUPED, [measure])[measure] == pytest.approx(expected, abs=5e-5)

CURVE = ({'0': {'a': 1, 'b': 0, 'c': 0, 'd': 1}, '1': {'e': 1, 'f': 0, 'g': 1}},
         {'0': {'a': 0.4, 'b': 0.01, 'c': 0.5, 'd': 0.6}, '1': {'e': 0.2, 'f': 0.3, 'g': 0.5}})

def test_class_precision_recall_curve_docstring():
    # retrieval/precision_recall_curve.py example (max_k=4): precisions [1, .5, .6667, .5], recalls [.5, .5, 1, 1]
    got = evaluate(*CURVE, [f'P@{k}' for k in range(1, 5)] + [f'R@{k}' for k in range(1, 5)])
    assert [got[f'P@{k}'] for k in range(1, 5)] == pytest.approx([1.0, 0.5, 0.6667, 0.5], abs=5e-5)
    assert [got[f'R@{k}'] for k in range(1, 5)] == pytest.approx([0.5, 0.5, 1.0, 1.0], abs=5e-5)

def test_class_recall_at_fixed_precision_docstring():
    # retrieval/precision_recall_curve.py (RetrievalRecallAtFixedPrecision example, min_precision=0.8): (0.5, k=1) —
    # the largest mean R@k among the k whose mean P@k reaches 0.8, from our means
    got = evaluate(*CURVE, [f'P@{k}' for k in range(1, 5)] + [f'R@{k}' for k in range(1, 5)])
    best = max((got[f'R@{k}'], k) for k in range(1, 5) if got[f'P@{k}'] >= 0.8)
    assert best == (0.5, 1)

def test_class_recall_at_fixed_precision_by_name():
    # retrieval/precision_recall_curve.py (RetrievalRecallAtFixedPrecision example), by name
    m = 'RecallAtFixedPrecision(min_precision=0.8)@4'
    assert evaluate(*CURVE, [m])[m] == 0.5
