"""The batch front end against `evaluate`: on random batches of score and label matrices (padding, masks, items scored
-inf, tied scores, every tie policy a dict run can take), `evaluate_batch` and `evaluate` on the same data written as
dicts (`batch_as_dicts`) give bit-identical per-query values for every registered measure `evaluate` computes, with
and without a cutoff, and refuse the same measures with the same error. The diversity measures are compared on
subtopic labels, through a qrels DataFrame."""
import warnings
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from rankmetrics_nb.engine.checks import EvalInputError, QueryMismatchWarning
from rankmetrics_nb.evaluator.evaluate import evaluate
from rankmetrics_nb.registry.measures import REGISTRY
from rankmetrics_nb.evaluator.batches import evaluate_batch, batch_as_dicts, batch_ids, ranked_batch

def written(name:str, k=None)->str:
    "A measure name with what it requires (a cutoff, IPrec's recall level, Rprec_mult's x, the C/W/L scale's top), cut at k if it takes one."
    d = REGISTRY[name]
    extra = '(max_rel=3)' if any(p.name == 'max_rel' for p in d.params) else '(x=1)' if name == 'Rprec_mult' else ''
    if d.cutoff == 'required': return f'{name}{extra}@{k or 3}'
    if d.cutoff == 'optional' and k is not None: return f'{name}{extra}@{k}'
    return name + extra + ('@0.5' if name == 'IPrec' else '')

BATCH = [n for n, d in REGISTRY.items() if d.needs == 'batch']
NAMES = sorted({written(n, k) for n in BATCH for k in (None, 2)})
DIVERSITY = sorted({written(n, k) for n, d in REGISTRY.items() if d.needs == 'subtopics' for k in (None, 2)})

@st.composite
def batches(draw, subtopics=False):
    "(scores, labels, mask): a few lists of a few candidates, scores from a few values (ties), NaN padding, a mask, -inf."
    q, n = draw(st.integers(1, 5)), draw(st.integers(1, 7))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scores = rng.choice([0.25, 0.5, 0.5, 1.0, 2.0, -np.inf] if draw(st.booleans()) else [0.25, 0.5, 1.0, 2.0], (q, n))
    shape = (q, n, 2) if subtopics else (q, n)
    labels = rng.choice([0., 0., 1., 2., 3.] if not subtopics else [0., 1.], shape)
    pad = rng.random((q, n)) < 0.2
    labels[pad] = np.nan
    mask = rng.random((q, n)) > 0.15 if draw(st.booleans()) else None
    return scores, labels, mask

def per_query(qrels, run, names, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return evaluate(qrels, run, names, per_query=True, **kw)

def same(a, b)->bool:
    "Bit for bit, NaN equal to NaN."
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))

def compare(scores, labels, mask, names, ties, queries, qrels, run):
    "Each measure alone (so that one refusal does not hide the others): the same values, or the same error."
    ids = batch_ids(len(scores))
    for name in names:
        try: theirs = per_query(qrels, run, [name], ties=ties, queries=queries)
        except EvalInputError as e:
            with pytest.raises(EvalInputError) as got: evaluate_batch(scores, labels, [name], mask=mask, ties=ties, queries=queries)
            assert str(got.value) == str(e), (name, str(got.value), str(e))
            continue
        ours = evaluate_batch(scores, labels, [name], mask=mask, ties=ties, queries=queries)
        rows = np.searchsorted(ids, list(theirs))
        assert same(ours.values[rows, 0], [v[name] for v in theirs.values()]), (name, ties, ours.values[rows, 0], theirs)
        counted = {q for q, w in zip(ids, ours.list_weights[:, 0]) if w > 0}
        assert counted == set(theirs), (name, counted, set(theirs))

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches(), st.sampled_from(['trec', 'double', 'stable', 'input', 'expected']), st.sampled_from(['run', 'qrels']))
def test_every_measure_as_evaluate(batch, ties, queries):
    scores, labels, mask = batch
    qrels, run = batch_as_dicts(scores, labels, mask)
    if not run: return                                         # evaluate refuses an empty run; see the test below
    compare(scores, labels, mask, NAMES, ties, queries, qrels, run)

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches(subtopics=True), st.sampled_from(['trec', 'double', 'stable', 'input']))
def test_every_diversity_measure_as_evaluate(batch, ties):
    scores, labels, mask = batch
    valid = ~np.isnan(labels).all(axis=2) & (True if mask is None else mask)
    q, d = batch_ids(len(scores)), batch_ids(scores.shape[1])
    rows = [(q[i], s, d[j], int(labels[i, j, s])) for i, j in zip(*np.nonzero(valid)) for s in range(labels.shape[2])]
    qrels = pd.DataFrame(rows, columns=['qid', 'subtopic', 'docno', 'rel'])
    run = {q[i]: {d[j]: float(scores[i, j]) for j in np.flatnonzero(valid[i] & (scores[i] > -np.inf))} for i in range(len(scores))}
    run = {k: v for k, v in run.items() if v}
    if not run or qrels.empty: return
    compare(scores, labels, mask, DIVERSITY, ties, 'run', qrels, run)

def test_names_cover_the_registry():
    assert {n.split('(')[0].split('@')[0] for n in NAMES} == set(BATCH)
    assert len(NAMES) > 75 and len(DIVERSITY) >= 18

def test_empty_and_unranked_rows():
    "A row without a valid item, and a row whose items are all unranked: left out under 'run', the second kept under 'qrels'."
    scores = np.array([[1.0, 0.5], [-np.inf, -np.inf], [3.0, 1.0]])
    labels = np.array([[1., 0], [1, 0], [np.nan, np.nan]])
    e = evaluate_batch(scores, labels, ['RR', 'AP'])
    assert [float(v) for v in e.means().values()] == [1.0, 1.0] and e.means()['RR'].n == 1 and e.means()['RR'].skipped == 2
    assert list(e.missing_from_run) == ['1'] and list(e.missing_from_qrels) == ['2']
    q = evaluate_batch(scores, labels, ['RR'], queries='qrels')
    assert float(q.means()['RR']) == 0.5 and q.means()['RR'].n == 2
    with pytest.raises(EvalInputError, match='the batch holds no lists'): evaluate_batch(scores[:0], labels[:0], ['RR'])

def test_blocks_give_the_values_of_one_block(monkeypatch):
    "Rows evaluated block by block give the values of one block (the blocks are a matter of memory, not of values)."
    import rankmetrics_nb.evaluator.batches as B
    rng = np.random.default_rng(7)
    scores, labels = rng.random((50, 9)), rng.integers(0, 3, (50, 9)).astype(float)
    labels[rng.random(labels.shape) < 0.2] = np.nan
    names = ['nDCG@5', 'AP', 'RR', 'OPA', 'ARP', 'RecallAtFixedPrecision(min_precision=0.4)']
    whole = evaluate_batch(scores, labels, names)
    monkeypatch.setattr(B, '_BLOCK_ITEMS', 20)
    parts = evaluate_batch(scores, labels, names)
    assert same(whole.values, parts.values)
    assert {k: float(v) for k, v in whole.means().items()} == {k: float(v) for k, v in parts.means().items()}

def test_foreign_arrays_without_copy():
    "Arrays known only by DLPack are read without a copy; weights and list weights change only the weighted measures' means."
    class Foreign:
        def __init__(self, a): self.a = a
        def __dlpack__(self, **kw): return self.a.__dlpack__(**kw)
        def __dlpack_device__(self): return self.a.__dlpack_device__()
    scores, labels = np.array([[0.3, 0.9, 0.1]]), np.array([[1., 2, 0]])
    a = evaluate_batch(Foreign(scores), Foreign(labels), ['nDCG', 'AP'])
    b = evaluate_batch(scores, labels, ['nDCG', 'AP'])
    assert same(a.values, b.values)
    w = evaluate_batch(scores, labels, ['nDCG', 'AP'], list_weights=[2.0])
    assert same(w.values, b.values) and w.list_weights.tolist() == [[2.0, 2.0]]

def test_refusals():
    with pytest.raises(EvalInputError, match="negative='pad'"): evaluate_batch([[1., 2]], [[-1., 1]], ['RR'])
    with pytest.raises(EvalInputError, match='reads subtopic labels'): evaluate_batch([[1., 2]], [[0., 1]], ['P_IA'])
    with pytest.raises(EvalInputError, match='one grade per item'): evaluate_batch([[1., 2]], [[[0., 1], [1, 1]]], ['RR'])
    with pytest.raises(EvalInputError, match="list_weights must be 'tf_ranking' or one finite weight"):
        evaluate_batch([[1., 2]], [[0., 1]], ['RR'], list_weights=[1, 2])
    with pytest.raises(EvalInputError, match='scores must have shape'): evaluate_batch([[1., 2, 3]], [[0., 1]], ['RR'])
    with pytest.raises(EvalInputError, match='on a valid item'): evaluate_batch([[np.inf, 2]], [[0., 1]], ['RR'])
    assert float(evaluate_batch([[1., 2]], [[-1., 1]], ['RR'], negative='pad').means()['RR']) == 1.0
    assert ranked_batch([[1., 2]], [[-1., 1]], negative='grade').grades.tolist() == [[1.0, -1.0]]
