"""The single-list metrics on arrays of other libraries: each function with a batch kernel (precision, recall, f_measure,
success, fall_out, reciprocal_rank, average_precision, dcg, ndcg, pwa, err, average_relevance_position,
ordered_pair_accuracy) computes on an `array_api_strict` or JAX (CPU) array in that library, equal to its numpy value to
1e-12 (float64) on seeded rank-ordered matrices with NaN padding, empty lists, weights, scores, cutoffs and the
conventions each function takes; one list gives a 0-d array of the library. JAX also under `jax.jit`, where a row that
fails a check is NaN. Bad input gets numpy's error; every other metric, and the mean functions, refuse such arrays."""
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.metrics.precision import precision, recall, f_measure, success, fall_out, r_precision
from rankmetrics_nb.metrics.reciprocal_rank import reciprocal_rank, average_relevance_position, mean_reciprocal_rank
from rankmetrics_nb.metrics.average_precision import average_precision, mean_average_precision
from rankmetrics_nb.metrics.dcg import dcg, ndcg, pwa, cumulative_gain
from rankmetrics_nb.metrics.err import err, mean_err, cascade_stop_probabilities
from rankmetrics_nb.metrics.rank_correlation import ordered_pair_accuracy, auroc

xs = pytest.importorskip('array_api_strict')
pytest.importorskip('array_api_compat')

Q, N = 9, 8

def lists(seed:int, n:int=N):
    "Seeded rank-ordered grades 0-3, each row NaN after a random length (row 2 empty, row 3 one item), weights and scores."
    rng = np.random.default_rng(seed)
    m = rng.choice([0., 0., 1., 2., 3.], (Q, n))
    for r, length in enumerate(rng.integers(0, n + 1, Q)): m[r, length:] = np.nan
    m[2], m[3, 1:] = np.nan, np.nan
    return m, rng.choice([0.5, 1.0, 2.0, 0.0], (Q, n)), rng.choice([0.1, 0.4, 0.7, 1.0], (Q, n))

def ideal_of(m):
    "Judged grades that hold every listed grade and two more relevant ones per query."
    return np.c_[np.nan_to_num(m, nan=0.0), np.full((Q, 2), 3.0)]

# (function, its arguments); 'W', 'S', 'I' and 'R' name the seeded weights, scores, judged grades and a per-query count
CASES = [
    (precision, dict(k=3)), (precision, dict(k=12, adaptive_k=True)), (precision, {}), (precision, dict(k=2, rel=2)),
    (recall, dict(k=3, n_rel=10)), (recall, dict(n_rel='R', rel=2)), (f_measure, dict(k=4, n_rel='R', beta=2.0)), (f_measure, dict(n_rel=10)),
    (success, dict(k=2)), (success, {}), (fall_out, dict(k=3)), (fall_out, dict(k=3, n_nonrel=20)),
    (reciprocal_rank, {}), (reciprocal_rank, dict(k=2)), (reciprocal_rank, dict(by='most_relevant', rel=2)),
    (average_relevance_position, {}), (average_relevance_position, dict(weights='W')),
    (average_precision, {}), (average_precision, dict(k=3, denominator='retrieved')), (average_precision, dict(k=3, n_rel=10, denominator='min_n_rel_k')),
    (average_precision, dict(n_rel='R', rel=2)), (average_precision, dict(weights='W')), (average_precision, dict(weights='W', k=4, denominator='retrieved')),
    (dcg, dict(k=5)), (dcg, {}), (dcg, dict(gain='exp', discount='jk', base=3)), (dcg, dict(k=4, rel=2, gain={1: 0.5, 2: 3, 3: 7})),
    (dcg, dict(weights='W', k=3)), (dcg, dict(gain='binary', max_grade=3)),
    (ndcg, dict(k=5)), (ndcg, {}), (ndcg, dict(k=[1, 3, 20])), (ndcg, dict(ideal='returned_top_k', k=3)), (ndcg, dict(preset='sklearn', k=4)),
    (ndcg, dict(ideal='I', k=5, gain='exp')), (ndcg, dict(ideal='I', preset='gdeval', k=[2, 4])), (ndcg, dict(weights='W')), (ndcg, dict(weights='W', k=3)),
    (ndcg, dict(rel=2, k=3)), (ndcg, dict(gain={0: 0.0, 1: 1.0, 2: 5.0, 3: 6.0}, discount='jk', base=2.5, k=6)),
    (pwa, dict(k=3)), (pwa, {}), (err, dict(max_grade=3)), (err, dict(max_grade='query', k=3)), (err, dict(preset='gdeval', k=5)),
    (ordered_pair_accuracy, {}), (ordered_pair_accuracy, dict(scores='S')), (ordered_pair_accuracy, dict(scores='S', weights='W', no_pairs=1.0)),
]
IDS = [f"{f.__name__}({','.join(f'{a}={v}' for a, v in kw.items())})" for f, kw in CASES]

def arguments(kw:dict, m, W, S, to, row=None):
    "The case's arguments with its named arrays filled in (as `to` makes them; one row's for `row`)."
    named = dict(W=W, S=S, I=ideal_of(m), R=np.full(Q, 10.0))
    out = {}
    for a, v in kw.items():
        if isinstance(v, str) and v in named:
            x = named[v] if row is None else named[v][row]
            v = to(x)
        out[a] = v
    return out

def close(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12)

@pytest.mark.parametrize('seed', [0, 1, 2])
@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_array_api_strict_equals_numpy(case, seed):
    f, kw = case
    m, W, S = lists(seed)
    got = f(xs.asarray(m), **arguments(kw, m, W, S, xs.asarray))
    assert type(got) is type(xs.asarray(1.0))                             # the values stay in the input's library
    close(f(m, **arguments(kw, m, W, S, np.asarray)), got)
    one = f(xs.asarray(m[1]), **arguments(kw, m, W, S, xs.asarray, row=1))   # one list: a 0-d array
    assert one.ndim == (1 if isinstance(kw.get('k'), list) else 0)
    close(f(m[1], **arguments(kw, m, W, S, np.asarray, row=1)), one)

def test_short_and_empty_matrices():
    for m in (np.full((3, 0), np.nan), np.full((2, 1), 2.0), np.full((2, 3), np.nan)):
        for f, kw in [(precision, dict(k=2)), (ndcg, dict(k=3)), (reciprocal_rank, {}), (average_precision, {}), (err, dict(max_grade=3)),
                      (pwa, {}), (ordered_pair_accuracy, {}), (fall_out, {})]:
            close(f(m, **kw), f(xs.asarray(m), **kw))

@pytest.mark.parametrize('bad, call, message', [
    ([1., np.nan, 0], lambda x: precision(x, 2), 'NaN at rank 2 is followed by a grade'),
    ([1., np.inf, 0], lambda x: ndcg(x, 2), 'finite grades'),
    ([1., 2., 0], lambda x: recall(x, 2, n_rel=1), 'smaller than the 2 relevant documents'),
    ([1., 2., 0], lambda x: recall(x, 2, n_rel=2.5), 'whole numbers'),
    ([1., 2., 0], lambda x: recall(x, 2), 'n_rel is required'),
    ([1., 2., 0], lambda x: fall_out(x, 2, n_nonrel=0), 'smaller than the 1 non-relevant'),
    ([1., 5., 0], lambda x: dcg(x, max_grade=4), 'above max_grade=4'),
    ([1., 5., 0], lambda x: err(x, max_grade=4), 'above max_grade=4'),
    ([1., 2., 0], lambda x: err(x), 'max_grade'),
    ([1., 2., 0], lambda x: ndcg(x, ideal=[1., 0.]), 'above its ideal'),
    ([1., 2., 0], lambda x: ndcg(x, ideal='judged'), "ideal='judged' needs"),
    ([1., 2., 0], lambda x: average_precision(x, weights=[1., 1., 1.], n_rel=3), 'weighted AP divides by their weight'),
    ([1., 2., 0], lambda x: average_precision(x, weights=[1., 1., 1.], denominator='min_n_rel_k'), 'weighted AP divides'),
    ([1., 2., 0], lambda x: average_relevance_position(x, weights=[1., -1., 1.]), 'finite numbers ≥ 0'),
    ([1., 2., 0], lambda x: precision(x, 0), 'k'),
])
def test_bad_input_gets_numpys_error(bad, call, message):
    with pytest.raises(EvalInputError, match=message): call(np.array(bad))
    with pytest.raises(EvalInputError, match=message): call(xs.asarray(bad))

@pytest.mark.parametrize('call, message', [
    (lambda x: dcg(x, gain=lambda g: g), 'callable gain or discount runs on numpy arrays only'),
    (lambda x: ndcg(x, discount=lambda r: 1 / r), 'callable gain or discount'),
    (lambda x: err(x, max_grade=[3, 3]), 'one positive number'),
    (lambda x: mean_reciprocal_rank(x), 'mean_reciprocal_rank returns a Mean'),
    (lambda x: mean_average_precision(x), 'mean_average_precision returns a Mean'),
    (lambda x: mean_err(x, max_grade=3), 'mean_err returns a Mean'),
    (lambda x: r_precision(x, n_rel=2), 'computes on numpy arrays only'),
    (lambda x: cumulative_gain(x, 2), 'computes on numpy arrays only'),
    (lambda x: cascade_stop_probabilities(x, max_grade=3), 'computes on numpy arrays only'),
    (lambda x: auroc(x), 'computes on numpy arrays only'),
])
def test_what_has_no_kernel_refuses(call, message):
    "Never a silent copy to the host: one error that says how to copy on purpose (or where the kernel is)."
    with pytest.raises(EvalInputError, match=message): call(xs.asarray([[1., 0., 2.], [0., 1., 1.]]))

def test_arrays_of_two_libraries_are_refused(jnp):
    with pytest.raises(EvalInputError, match='one library'):
        average_precision(xs.asarray([1., 0., 2.]), weights=jnp.asarray([1., 1., 1.]))

@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_jax_equals_numpy_and_under_jit(jnp, case):
    import jax
    f, kw = case
    m, W, S = lists(3)
    want = f(m, **arguments(kw, m, W, S, np.asarray))
    close(want, f(jnp.asarray(m), **arguments(kw, m, W, S, jnp.asarray)))
    traced = {a: v for a, v in arguments(kw, m, W, S, jnp.asarray).items() if hasattr(v, 'shape')}
    fixed = {a: v for a, v in kw.items() if a not in traced}
    close(want, jax.jit(lambda x, t: f(x, **fixed, **t))(jnp.asarray(m), traced))

def test_under_jit_a_failed_check_is_nan(jnp):
    import jax
    m = np.array([[1., np.nan, 0.], [0., 1., 2.], [1., 2., 0.]])
    got = np.asarray(jax.jit(lambda x: recall(x, 2, n_rel=jnp.asarray([3., 3., 1.])))(jnp.asarray(m)))
    assert np.isnan(got[0]) and np.isnan(got[2])                      # a NaN before a grade; n_rel below the listed relevant
    close(recall(m[1:2], 2, n_rel=3), got[1:2])
