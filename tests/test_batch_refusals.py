"""Batches that other paths refuse are refused by `evaluate_batch` too, each with one clear `EvalInputError`: repeated
row ids, weights that are not numbers ≥ 0 under zero_weights='mask', inputs of the wrong shape or kind, no measure,
and a batch without a list."""
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.evaluator.batches import evaluate_batch, ranked_batch

S, L = np.array([[0.3, 0.9, 0.1], [0.5, 0.2, 0.7]]), np.array([[1., 2, 0], [0, 1, 1]])

def test_repeated_qids_refused():
    "Two rows of one id would be averaged as two lists while per_query() keeps one: refused, the ids named."
    with pytest.raises(EvalInputError, match=r"qids must be distinct.*'a'"): evaluate_batch(S, L, ['RR'], qids=['a', 'a'])
    with pytest.raises(EvalInputError, match=r"'x'.*'y'"): evaluate_batch(np.tile(S, (2, 1)), np.tile(L, (2, 1)), ['RR'], qids=['x', 'y', 'x', 'y'])
    e = evaluate_batch(S, L, ['RR'], qids=['a', 'b'])
    assert list(e.per_query()) == ['a', 'b']

@pytest.mark.parametrize('bad', [np.nan, -1.0, -np.inf, np.inf])
def test_mask_mode_refuses_weights_that_are_not_numbers_at_least_0(bad):
    "Under zero_weights='mask' only a weight of exactly 0 masks an item; NaN, a negative weight or ±inf is an error."
    w = np.array([[1., bad, 1], [1, 1, 1]])
    with pytest.raises(EvalInputError, match='weights must be finite numbers ≥ 0'):
        evaluate_batch(S, L, ['nDCG'], weights=w, zero_weights='mask')
    with pytest.raises(EvalInputError, match='weights must be finite numbers ≥ 0'):
        ranked_batch(S, L, weights=w, zero_weights='mask')

def test_mask_mode_masks_exact_zeros():
    w = np.array([[1., 0, 1], [1, 1, 1]])
    b = ranked_batch(S, L, weights=w, zero_weights='mask')
    assert b.n_ret.tolist() == [2, 3]
    assert b.n_ret.tolist() == ranked_batch(S, L, mask=w != 0).n_ret.tolist()

def test_bad_kinds_and_shapes():
    with pytest.raises(EvalInputError, match='scores must have 1 or 2 axes'): evaluate_batch(S[..., None], L, ['RR'])
    with pytest.raises(EvalInputError, match='mask must have 1 or 2 axes'): evaluate_batch(S, L, ['RR'], mask=np.ones(S.shape + (1,), bool))
    with pytest.raises(EvalInputError, match='weights must have 1 or 2 axes'): evaluate_batch(S, L, ['nDCG'], weights=np.ones(S.shape + (1,)))
    with pytest.raises(EvalInputError, match='labels must have 1, 2 or 3 axes'): evaluate_batch(S, L[..., None, None], ['RR'])
    with pytest.raises(EvalInputError, match='scores must be numbers, not booleans'): evaluate_batch(S > 0.4, L, ['RR'])
    for name, args in [('scores', (0.5, L)), ('labels', (S, 1.0))]:
        with pytest.raises(EvalInputError, match=f'{name} must have'): evaluate_batch(*args, ['RR'])
    with pytest.raises(EvalInputError, match='measures must name at least one measure'): evaluate_batch(S, L, [])
    with pytest.raises(EvalInputError, match='measures must name at least one measure'): evaluate_batch(S, L, ())

def test_empty_batch_refused():
    "A batch without a list is refused as `evaluate` refuses an empty run (no mean of 0 lists)."
    with pytest.raises(EvalInputError, match='the batch holds no lists'): evaluate_batch(S[:0], L[:0], ['RR'])
    e = evaluate_batch(S[:, :0], L[:, :0], ['RR'], queries='qrels')       # lists without candidates are lists (TF-Ranking)
    assert e.values.shape == (2, 1)
