"""Accuracy and Compat against ir_measures 0.4.3, AUROC against scikit-learn's roc_auc_score (the computation
torchmetrics' retrieval AUROC follows, partial area included), and fall-out, recall at fixed precision and hit rate
against a plain per-query re-statement of torchmetrics' retrieval rules (torch is not installed here), on seeded
random collections: unjudged documents, negative grades, queries without relevant documents, short runs."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb import join, QueryMismatchWarning
from rankmetrics_nb.metrics.rank_correlation import accuracy, auroc, compat
from rankmetrics_nb.metrics.precision import fall_out, recall_at_fixed_precision, success
from rankmetrics_nb.registry.measures import parse_measure

def collection(rng, n_queries=12, distinct=True):
    "qrels and a run ({q: {doc: score}}); distinct positive scores unless `distinct` is False (then one decimal: ties)."
    qrels, run = {}, {}
    for q in range(n_queries):
        nd = int(rng.integers(1, 50))
        grades = rng.choice([-1, 0, 0, 1, 2, 3], nd) * (q != 3)                      # q3: nothing relevant
        qrels[f'q{q}'] = {f'd{j}': int(g) for j, g in enumerate(grades) if rng.random() < 0.7} | {'zz': 0}
        n = int(rng.integers(1, nd + 1))
        scores = rng.permutation(10_000)[:n] / 100 + 0.5 if distinct else np.round(rng.random(n), 1)
        run[f'q{q}'] = {f'd{j}': float(s) for j, s in zip(rng.permutation(nd)[:n], scores)}
    return qrels, run

def batch(qrels, run):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return join(qrels, run)

@pytest.mark.parametrize('seed', range(25))
def test_compat_and_accuracy_against_ir_measures(seed):
    ir_measures = pytest.importorskip('ir_measures')
    rng = np.random.default_rng(seed)
    qrels, run = collection(rng)
    b = batch(qrels, run)
    p, k, level = float(rng.choice([0.5, 0.8, 0.9, 0.95])), [None, 1, 3, 10, 20][seed % 5], 1 + seed % 3
    compat_names = [f'Compat(p={p})', f'Compat(p={p},normalize=False)']
    theirs = {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in compat_names], qrels, run)}
    for n in compat_names:
        irm = str(ir_measures.parse_measure(n))
        np.testing.assert_allclose(parse_measure(n).compute(b), [theirs[(irm, q)] for q in b.qids], rtol=0, atol=1e-12, err_msg=n)
    np.testing.assert_allclose(compat(b, p=p), parse_measure(compat_names[0]).compute(b), rtol=0, atol=0)
    acc_name = f'Accuracy(rel={level})' + ('' if k is None else f'@{k}')
    acc = ir_measures.parse_measure(acc_name)
    ours = accuracy(b, k, rel=level)
    np.testing.assert_array_equal(parse_measure(acc_name).compute(b), ours)
    for i, q in enumerate(b.qids):
        try: values = [m.value for m in ir_measures.iter_calc([acc], {q: qrels[q]}, {q: run[q]})]
        except ZeroDivisionError: values = [1.0]               # only relevant documents in the top k: ours is 1
        if values: assert abs(values[0] - ours[i]) <= 1e-12, (q, values[0], ours[i])
        else: assert ours[i] == 0                               # ir_measures leaves out a top k without a relevant document

@pytest.mark.parametrize('seed', range(25))
def test_auroc_against_scikit_learn(seed):
    roc_auc_score = pytest.importorskip('sklearn.metrics').roc_auc_score
    rng = np.random.default_rng(1000 + seed)
    qrels, run = collection(rng, distinct=seed % 2 == 0)         # odd seeds: tied scores (one decimal)
    b = batch(qrels, run)
    k, level = [None, 2, 5, 10, 30][seed % 5], 1 + seed % 2
    s, y = b.scores[:, :k], b.grades[:, :k] >= level
    for max_fpr in (None, 0.1, 0.5, 1.0):
        ours = auroc(b, k, rel=level, max_fpr=max_fpr)
        for i in range(len(b)):
            keep = ~np.isnan(s[i])
            both = 0 < y[i][keep].sum() < keep.sum()
            expected = roc_auc_score(y[i][keep], s[i][keep], max_fpr=max_fpr) if both else 0.0
            assert abs(ours[i] - expected) <= 1e-12, (seed, max_fpr, b.qids[i], ours[i], expected)
    np.testing.assert_array_equal(parse_measure(f'AUROC(rel={level},max_fpr=0.5)' + ('' if k is None else f'@{k}')).compute(b),
                                  auroc(b, k, rel=level, max_fpr=0.5))

# ---------------------------------------------------------------- torchmetrics' rules, restated per query
def tm_order(preds, target):
    "torchmetrics sorts a query's documents by prediction, highest first."
    o = np.argsort(-np.asarray(preds), kind='stable')
    return np.asarray(target)[o]

def tm_fall_out(preds, target, top_k=None):
    t = 1 - tm_order(preds, target)
    top_k = len(t) if top_k is None else top_k
    return 0.0 if not t.sum() else t[:top_k].sum() / t.sum()

def tm_hit_rate(preds, target, top_k=None):
    t = tm_order(preds, target)
    return float(t[:len(t) if top_k is None else top_k].sum() > 0)

def tm_recall_at_fixed_precision(preds, target, min_precision, max_k=None):
    "torchmetrics' curve for one query (precision and recall at k = 1..max_k, the list padded with misses), then the best recall."
    t = tm_order(preds, target).astype(float)
    max_k = len(t) if max_k is None else max_k
    if not t.sum(): return 0.0
    found = np.cumsum(np.pad(t[:max_k], (0, max(0, max_k - len(t)))))
    precision, recall = found / np.arange(1, max_k + 1), found / t.sum()
    return max((r for p, r in zip(precision, recall) if p >= min_precision), default=0.0)

@pytest.mark.parametrize('seed', range(40))
def test_torchmetrics_rules(seed):
    rng = np.random.default_rng(2000 + seed)
    Q, n = 8, int(rng.integers(1, 30))
    preds = rng.permutation(Q * n).reshape(Q, n) / (Q * n)       # distinct predictions
    target = (rng.random((Q, n)) < rng.choice([0.1, 0.3, 0.6])).astype(int)
    target[0] = 0                                                 # a query without relevant documents
    if Q > 1: target[1] = 1                                       # ... and one without non-relevant documents
    labels = np.array([tm_order(p, t) for p, t in zip(preds, target)], float)
    k, floor = int(rng.integers(1, n + 5)), float(rng.choice([0.0, 0.3, 0.5, 0.8, 1.0]))
    for top_k in (None, k):
        np.testing.assert_array_equal(fall_out(labels, top_k), [tm_fall_out(p, t, top_k) for p, t in zip(preds, target)])
        np.testing.assert_array_equal(success(labels, top_k), [tm_hit_rate(p, t, top_k) for p, t in zip(preds, target)])
        np.testing.assert_allclose(recall_at_fixed_precision(labels, top_k, min_precision=floor, n_rel='listed'),
                                   [tm_recall_at_fixed_precision(p, t, floor, top_k) for p, t in zip(preds, target)], rtol=0, atol=1e-15)

def test_registry_hit_rate_fall_out_and_recall_at_fixed_precision():
    "The registry's torchmetrics names on a small join: HitRate is Success; n_rel=listed counts the list's relevant documents."
    b = join({'q': {'a': 1, 'b': 0, 'c': 1, 'z': 1}}, {'q': {'a': 3.0, 'b': 2.0, 'c': 1.0, 'u': 0.5}})
    assert parse_measure('HitRate@1').compute(b)[0] == 1 and str(parse_measure('HitRate@2')) == 'Success@2'
    assert parse_measure('FallOut@2').compute(b)[0] == 1/2                          # b of b, u
    # P@1 = 1, P@2 = 1/2, P@3 = 2/3: k = 3 is the deepest cutoff with precision >= 0.6; it holds a and c
    assert parse_measure('RecallAtFixedPrecision(min_precision=0.6)').compute(b)[0] == 2/3                 # of a, c, z (judged)
    assert parse_measure('RecallAtFixedPrecision(min_precision=0.6,n_rel=listed)').compute(b)[0] == 1      # of a, c (listed)
    assert parse_measure('RecallAtFixedPrecision(min_precision=0.7)@3').compute(b)[0] == 1/3               # only k = 1
