"""`evaluate_batch` on arrays of other libraries, computed in their own namespace (the array API standard): on
`array_api_strict` and JAX (CPU) arrays every batch kernel's measure, with masks, NaN padding, items scored -inf, tied
scores, item weights, cutoffs, every tie policy a batch takes and the score-matrix presets, equals the numpy path to 1e-12
(float64), and comes back as arrays of the input's library; JAX also under `jax.jit`. What the kernels do not compute
is refused with one `EvalInputError`, never copied to the host."""
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.evaluator.batches import evaluate_batch
from rankmetrics_nb.evaluator.batches import ArrayBatchEvaluation

xs = pytest.importorskip('array_api_strict')
pytest.importorskip('array_api_compat')

MEASURES = ['nDCG', 'nDCG@5', 'DCG@3', 'nDCG(gain=exp)@4', 'nDCG(gain=binary)', 'nDCG(discount=jk,base=3)@5', 'nDCG(ideal=returned)@4',
            'DCG(gains={0:0,1:1,2:5,3:-1})@4', 'AP', 'AP@3', 'AP(denominator=retrieved)', 'AP(denominator=min_n_rel_k)@3',
            'AP(rel=2)', 'AP(nonpositive=not_retrieved)', 'RR', 'RR@3', 'RR(by=most_relevant)', 'RR(nonpositive=not_retrieved)',
            'P', 'P@3', 'P(adaptive_k=true)@3', 'R', 'R@3', 'R(n_rel=listed)@4', 'F@3', 'F(beta=2)', 'nDCG(ideal=returned_top_k)@3']
WEIGHTED = ['nDCG', 'nDCG@4', 'DCG@3', 'nDCG(gain=exp)@5', 'AP', 'AP@3', 'AP(denominator=retrieved)@4']

def batch(seed:int, q:int=12, n:int=9, ties:bool=True):
    "Seeded scores (a few levels: ties; some -inf), grades 0-3 with NaN padding, a mask and item weights."
    rng = np.random.default_rng(seed)
    scores = rng.choice([0.1, 0.4, 0.4, 0.7, 1.0, 2.5, -np.inf] if ties else [-np.inf], (q, n)) if ties else rng.random((q, n))
    if not ties: scores[rng.random((q, n)) < 0.1] = -np.inf
    labels = rng.choice([0., 0., 1., 2., 3.], (q, n))
    labels[rng.random((q, n)) < 0.2] = np.nan
    labels[0] = np.nan                                        # a row without a valid item
    mask = rng.random((q, n)) > 0.15
    weights = rng.choice([0.5, 1.0, 2.0, 3.0], (q, n))
    return scores, labels, mask, weights

def close(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)

def host(x): return np.asarray(x)

def check_same(xp_mod, to, seed, names, ties, **kw):
    s, l, m, w = batch(seed)
    if not kw.pop('weighted', False): w = None
    ours = evaluate_batch(to(s), to(l), names, mask=to(m), weights=None if w is None else to(w), ties=ties, **kw)
    ref = evaluate_batch(s, l, names, mask=m, weights=w, ties=ties, **kw)
    assert isinstance(ours, ArrayBatchEvaluation) and type(ours.values).__module__.startswith(xp_mod)
    close(host(ours.values), ref.values)
    close(host(ours.list_weights), ref.list_weights)
    assert {k: float(v) for k, v in ours.means().items()} == pytest.approx({k: float(v) for k, v in ref.means().items()}, abs=1e-12)
    assert list(ours.missing_from_qrels) == list(ref.missing_from_qrels) and list(ours.missing_from_run) == list(ref.missing_from_run)
    close(host(ours.mean_values()), [float(v) for v in ref.means().values()])
    return ours

TIES = ['trec', 'double', 'stable', 'input', 'expected']

@pytest.mark.parametrize('seed', range(4))
@pytest.mark.parametrize('ties', TIES)
def test_strict_equals_numpy(seed, ties):
    names = [n for n in MEASURES if not (ties == 'expected' and 'returned_top_k' in n)]
    check_same('array_api_strict', xs.asarray, seed, names, ties)
    check_same('array_api_strict', xs.asarray, seed, names, ties, queries='qrels', depth=5 if ties != 'expected' else None)

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('ties', ['trec', 'stable', 'input'])
def test_strict_weights_and_list_weights(seed, ties):
    check_same('array_api_strict', xs.asarray, seed, WEIGHTED, ties, weighted=True)
    check_same('array_api_strict', xs.asarray, seed, WEIGHTED, ties, weighted=True, zero_weights='mask')
    lw = np.linspace(0.5, 2.0, 12)
    check_same('array_api_strict', xs.asarray, seed, ['nDCG@3', 'RR'], ties, list_weights=lw)

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('empty', ['neg', 'pos', 'skip'])
def test_strict_empty_policies(seed, empty):
    check_same('array_api_strict', xs.asarray, seed, ['nDCG@3', 'AP', 'RR', 'P@2'], 'trec', empty=empty)

@pytest.mark.parametrize('preset,names', [('sklearn', ['nDCG@5', 'nDCG', 'DCG@3']),
                                          ('torchmetrics', ['nDCG@5', 'P@3', 'R', 'RR', 'AP']),
                                          ('rax', ['nDCG@5', 'DCG', 'P@3', 'R', 'RR', 'AP'])])
@pytest.mark.parametrize('seed', range(3))
def test_strict_presets(preset, names, seed):
    s, l, m, _ = batch(seed)
    l = np.where(np.random.default_rng(seed).random(l.shape) < 0.1, -1.0, l) if preset in ('rax', 'torchmetrics') else l
    ours = evaluate_batch(xs.asarray(s), xs.asarray(l), names, mask=xs.asarray(m), conventions=preset)
    ref = evaluate_batch(s, l, names, mask=m, conventions=preset)
    close(host(ours.values), ref.values)
    close(host(ours.list_weights), ref.list_weights)

def test_untied_batches_take_one_sort():
    "Untied scores: the same values on both paths, under every tie policy (one sort serves them all)."
    for ties in TIES:
        s, l, m, _ = batch(5, 40, 20, ties=False)
        a = evaluate_batch(xs.asarray(s), xs.asarray(l), MEASURES[:-1], mask=xs.asarray(m), ties=ties)
        b = evaluate_batch(s, l, MEASURES[:-1], mask=m, ties=ties)
        close(host(a.values), b.values)

def test_refused_not_copied():
    s, l, m, w = batch(1)
    S, L = xs.asarray(s), xs.asarray(l)
    with pytest.raises(EvalInputError, match='OPA cannot be evaluated on array_api_strict arrays: OPA has no batch kernel'):
        evaluate_batch(S, L, ['nDCG', 'OPA'])
    with pytest.raises(EvalInputError, match="TF-Ranking's list-weight rule"): evaluate_batch(S, L, ['nDCG'], conventions='tf_ranking')
    with pytest.raises(EvalInputError, match='judged_only'): evaluate_batch(S, L, ['AP(judged_only=true)'])
    with pytest.raises(EvalInputError, match='rank column'): evaluate_batch(S, L, ['AP'], ties='rank')
    with pytest.raises(EvalInputError, match='on a valid item'): evaluate_batch(xs.asarray(np.where(np.isnan(l), 1.0, np.nan)), L, ['RR'])
    with pytest.raises(EvalInputError, match='weights must be finite numbers ≥ 0'): evaluate_batch(S, L, ['nDCG'], weights=xs.asarray(-w))
    with pytest.raises(EvalInputError, match="negative='pad'"): evaluate_batch(S, xs.asarray(np.where(np.isnan(l), -1.0, l)), ['RR'])
    with pytest.raises(EvalInputError, match='scores must be numbers, not booleans'): evaluate_batch(S > 0.5, L, ['RR'])
    with pytest.raises(EvalInputError, match='the batch holds no lists'): evaluate_batch(S[:0, ...], L[:0, ...], ['RR'])
    with pytest.raises(EvalInputError, match='qids must be distinct'): evaluate_batch(S[:2, ...], L[:2, ...], ['RR'], qids=['a', 'a'])
    with pytest.raises(EvalInputError, match="empty='error'"): evaluate_batch(S, L, ['RR'], empty='error')

# ------------------------------------------------------------------------------------------------------------- JAX (CPU)
@pytest.fixture(scope='module')
def jnp():
    jax = pytest.importorskip('jax')
    jax.config.update('jax_enable_x64', True)
    jax.config.update('jax_platforms', 'cpu')
    import jax.numpy as jnp
    return jnp

@pytest.mark.parametrize('seed', range(2))
@pytest.mark.parametrize('ties', TIES)
def test_jax_equals_numpy(jnp, seed, ties):
    names = [n for n in MEASURES if not (ties == 'expected' and 'returned_top_k' in n)]
    check_same('jax', jnp.asarray, seed, names, ties)
    if ties != 'expected': check_same('jax', jnp.asarray, seed, WEIGHTED, ties, weighted=True)

def test_jax_under_jit(jnp):
    import jax
    names = ['nDCG@5', 'DCG@3', 'AP', 'RR', 'P@3', 'R', 'F@3']
    for ties in TIES:
        f = jax.jit(lambda s, l, m: evaluate_batch(s, l, names, mask=m, ties=ties).mean_values())
        for seed in range(2):
            s, l, m, _ = batch(seed)
            ref = evaluate_batch(s, l, names, mask=m, ties=ties)
            close(np.asarray(f(jnp.asarray(s), jnp.asarray(l), jnp.asarray(m))), [float(v) for v in ref.means().values()])

def test_jax_jit_poisons_what_it_cannot_refuse(jnp):
    "Inside jax.jit a value check cannot raise: the rows it would refuse come back NaN, never a number."
    import jax
    s, l, m, _ = batch(2)
    s[3, :] = np.nan
    f = jax.jit(lambda s, l: evaluate_batch(s, l, ['nDCG@5']).values)
    v = np.asarray(f(jnp.asarray(s), jnp.asarray(l)))
    assert np.isnan(v[3, 0]) and not np.isnan(v[1:3, 0]).any()
