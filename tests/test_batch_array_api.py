"""`evaluate_batch` on arrays of other libraries, computed in their own namespace (the array API standard): on
`array_api_strict` and JAX (CPU) arrays every batch kernel's measure (ERR, ARP, PWA, OPA and Bpref and torchmetrics' recall at a fixed precision, a measure of the whole batch, too, against the join), with masks, NaN padding, items scored -inf, tied
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
            'P', 'P@3', 'P(adaptive_k=true)@3', 'R', 'R@3', 'R(n_rel=listed)@4', 'F@3', 'F(beta=2)', 'RecallAtFixedPrecision(min_precision=0.3)',
            'RecallAtFixedPrecision(min_precision=0.4,value=k)@6', 'RecallAtFixedPrecision(n_rel=listed,min_precision=0.5)', 'Bpref',
            'Bpref(form=original)', 'Bpref(no_nonrel=nan,rel=2)', 'nDCG(ideal=returned_top_k)@3']
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
    names = [n for n in MEASURES if not (ties == 'expected' and ('returned_top_k' in n or n.startswith('Bpref')))]   # (both refuse it)
    check_same('array_api_strict', xs.asarray, seed, names, ties)
    check_same('array_api_strict', xs.asarray, seed, names, ties, queries='qrels', depth=5 if ties != 'expected' else None)

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('ties', ['trec', 'stable', 'input'])
def test_strict_weights_and_list_weights(seed, ties):
    check_same('array_api_strict', xs.asarray, seed, WEIGHTED, ties, weighted=True)
    check_same('array_api_strict', xs.asarray, seed, WEIGHTED, ties, weighted=True, zero_weights='mask')
    lw = np.linspace(0.5, 2.0, 12)
    check_same('array_api_strict', xs.asarray, seed, ['nDCG@3', 'RR'], ties, list_weights=lw)

TF_RULE = ['nDCG@3', 'nDCG(gain=linear)', 'DCG@4', 'AP', 'RR@3', 'P@2', 'R@5', 'ARP', 'PWA@3', 'OPA']

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('ties', ['trec', 'stable', 'expected'])
def test_strict_tf_ranking_list_weights(seed, ties):
    "TF-Ranking's list-weight rule in the namespace: the same weights and values (DCG divided by its list's weight) as on numpy."
    names = [n for n in TF_RULE if not (ties == 'expected' and n == 'AP')]     # weighted AP refuses ties='expected'
    for zero in ('keep', 'mask'):
        e = check_same('array_api_strict', xs.asarray, seed, names, ties, weighted=True, conventions='tf_ranking',
                       list_weights='tf_ranking', zero_weights=zero)
        assert len(set(np.round(np.asarray(e.list_weights)[:, 0], 12))) > 2        # the rule, not a constant
    check_same('array_api_strict', xs.asarray, seed, names, ties, conventions='tf_ranking', list_weights='tf_ranking')

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('empty', ['neg', 'pos', 'skip'])
def test_strict_empty_policies(seed, empty):
    check_same('array_api_strict', xs.asarray, seed, ['nDCG@3', 'AP', 'RR', 'P@2', 'FallOut@3', 'FallOut'], 'trec', empty=empty)

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
        names = [n for n in MEASURES[:-1] if not (ties == 'expected' and n.startswith('Bpref'))]
        a = evaluate_batch(xs.asarray(s), xs.asarray(l), names, mask=xs.asarray(m), ties=ties)
        b = evaluate_batch(s, l, names, mask=m, ties=ties)
        close(host(a.values), b.values)

def test_some_rows_tied():
    "Untied rows beside tied ones: only the tied rows are sorted again (merged back by where), the same values as on numpy."
    rng = np.random.default_rng(11)
    s, l, m, _ = batch(6, 40, 20, ties=False)
    tied = rng.random(40) < 0.3
    s[tied, 2] = s[tied, 5] = s[tied, 9]                       # three items tie in those rows (one may be -inf: unranked)
    s[3, :] = 0.5                                              # a row tied throughout
    for ties in TIES:
        names = [n for n in MEASURES[:-1] if not (ties == 'expected' and n.startswith('Bpref'))]
        a = evaluate_batch(xs.asarray(s), xs.asarray(l), names, mask=xs.asarray(m), ties=ties)
        b = evaluate_batch(s, l, names, mask=m, ties=ties)
        close(host(a.values), b.values)

def test_refused_not_copied():
    s, l, m, w = batch(1)
    S, L = xs.asarray(s), xs.asarray(l)
    with pytest.raises(EvalInputError, match='Compat cannot be evaluated on array_api_strict arrays: Compat has no batch kernel'):
        evaluate_batch(S, L, ['nDCG', 'Compat'])
    with pytest.raises(EvalInputError, match="Success with ties='expected' on tied scores"): evaluate_batch(S, L, ['Success@3'], ties='expected')
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
@pytest.mark.parametrize('seed', range(2))
@pytest.mark.parametrize('ties', TIES)
def test_jax_equals_numpy(jnp, seed, ties):
    names = [n for n in MEASURES if not (ties == 'expected' and ('returned_top_k' in n or n.startswith('Bpref')))]
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

def test_jax_tf_ranking_list_weights_under_jit(jnp):
    import jax
    s, l, m, w = batch(4)
    kw = dict(conventions='tf_ranking', list_weights='tf_ranking')
    check_same('jax', jnp.asarray, 4, TF_RULE, 'trec', weighted=True, **kw)
    f = jax.jit(lambda s, l, m, w: evaluate_batch(s, l, TF_RULE, mask=m, weights=w, **kw).mean_values())
    ref = evaluate_batch(s, l, TF_RULE, mask=m, weights=w, **kw)
    close(np.asarray(f(*map(jnp.asarray, (s, l, m, w)))), [float(v) for v in ref.means().values()])

def test_jax_jit_poisons_what_it_cannot_refuse(jnp):
    "Inside jax.jit a value check cannot raise: the rows it would refuse come back NaN, never a number."
    import jax
    s, l, m, _ = batch(2)
    f = jax.jit(lambda s, l: evaluate_batch(s, l, ['ERR(max_grade=2)']).values)
    v, above = np.asarray(f(jnp.asarray(s), jnp.asarray(l)))[:, 0], np.nan_to_num(l).max(axis=1) > 2
    assert above.any() and np.isnan(v[above]).all() and not np.isnan(v[~above]).any()
    s[3, :] = np.nan
    f = jax.jit(lambda s, l: evaluate_batch(s, l, ['nDCG@5']).values)
    v = np.asarray(f(jnp.asarray(s), jnp.asarray(l)))
    assert np.isnan(v[3, 0]) and not np.isnan(v[1:3, 0]).any()

# ------------------------------------------------------------------------------------------ ERR, ARP, PWA and OPA kernels
CASCADE = ['ERR', 'ERR@3', 'ERR(max_grade=query)@5', 'ERR(max_grade=5)', 'ARP', 'PWA', 'PWA@3', 'OPA', 'OPA(no_pairs=1)',
           'Success', 'Success@2', 'Success(rel=2)@3', 'Success@20', 'FallOut', 'FallOut@3', 'FallOut(rel=2)@2']
CASCADE_WEIGHTED = ['ARP', 'OPA']

def joined(monkeypatch, s, l, names, **kw):
    "`evaluate_batch` of numpy arrays through the join (the engine's metric functions), the batch kernels switched off."
    import rankmetrics_nb.evaluator.batches as B
    with monkeypatch.context() as mp:
        mp.setattr(B, '_host_kernels', lambda *a: False)
        return evaluate_batch(s, l, names, **kw)

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('empty', ['neg', 'pos', 'skip'])
def test_empty_policies_of_the_kernels_are_the_joins(monkeypatch, seed, empty):
    "The kernels' empty-query rule (FallOut's case too) gives the join's values (registry.conventions.apply_empty) bit for bit."
    s, l, m, _ = batch(seed)
    names = ['nDCG@3', 'AP', 'RR', 'P@2', 'FallOut@3', 'FallOut', 'Success@2']
    ours = evaluate_batch(s, l, names, mask=m, empty=empty)
    ref = joined(monkeypatch, s, l, names, mask=m, empty=empty)
    assert np.array_equal(ours.values, ref.values, equal_nan=True) and np.array_equal(ours.list_weights, ref.list_weights)

def cascade_names(ties, tied=True):
    "ERR and Success under ties='expected' average over tie orders on the host only."
    return [n for n in CASCADE if not (ties == 'expected' and tied and n.startswith(('ERR', 'Success')))]

@pytest.mark.parametrize('seed', range(4))
@pytest.mark.parametrize('ties', TIES)
def test_cascade_kernels_on_numpy_are_the_join_bit_for_bit(monkeypatch, seed, ties):
    s, l, m, _ = batch(seed)
    for labels in (l, np.where(np.isnan(l), 0, l).astype(np.int8)):          # float labels with NaN, and integer ones
        for kw in (dict(mask=m), dict(mask=m, depth=4) if ties != 'expected' else dict(), dict(queries='qrels')):
            ours = evaluate_batch(s, labels, CASCADE, ties=ties, **kw)
            ref = joined(monkeypatch, s, labels, CASCADE, ties=ties, **kw)
            assert np.array_equal(ours.values, ref.values, equal_nan=True) and np.array_equal(ours.list_weights, ref.list_weights)

@pytest.mark.parametrize('seed', range(3))
@pytest.mark.parametrize('ties', TIES)
def test_cascade_kernels_strict_equal_the_join(monkeypatch, seed, ties):
    s, l, m, w = batch(seed)
    names = cascade_names(ties)
    ours = evaluate_batch(xs.asarray(s), xs.asarray(l), names, mask=xs.asarray(m), ties=ties)
    close(host(ours.values), joined(monkeypatch, s, l, names, mask=m, ties=ties).values)
    if ties != 'expected':
        ours = evaluate_batch(xs.asarray(s), xs.asarray(l), CASCADE_WEIGHTED, mask=xs.asarray(m), weights=xs.asarray(w), ties=ties)
        close(host(ours.values), evaluate_batch(s, l, CASCADE_WEIGHTED, mask=m, weights=w, ties=ties).values)   # weighted numpy: the join

def test_cascade_kernels_untied_expected(monkeypatch):
    "Untied scores under ties='expected': ERR too runs in the namespace."
    s, l, m, _ = batch(5, 40, 20, ties=False)
    ours = evaluate_batch(xs.asarray(s), xs.asarray(l), CASCADE, mask=xs.asarray(m), ties='expected')
    close(host(ours.values), joined(monkeypatch, s, l, CASCADE, mask=m, ties='expected').values)

def test_cascade_refusals():
    s, l, m, _ = batch(1)
    with pytest.raises(EvalInputError, match="ERR with ties='expected' on tied scores"):
        evaluate_batch(xs.asarray(s), xs.asarray(l), ['ERR'], ties='expected')
    with pytest.raises(EvalInputError, match='above max_grade=2'):
        evaluate_batch(xs.asarray(s), xs.asarray(l), ['ERR(max_grade=2)'])
    with pytest.raises(EvalInputError, match='above max_grade=2'): evaluate_batch(s, l, ['ERR(max_grade=2)'])

@pytest.mark.parametrize('seed', range(2))
@pytest.mark.parametrize('ties', TIES)
def test_cascade_kernels_jax(jnp, monkeypatch, seed, ties):
    import jax
    s, l, m, w = batch(seed)
    names = cascade_names(ties)
    ref = joined(monkeypatch, s, l, names, mask=m, ties=ties)
    ours = evaluate_batch(jnp.asarray(s), jnp.asarray(l), names, mask=jnp.asarray(m), ties=ties)
    close(host(ours.values), ref.values)
    if ties == 'expected': return
    f = jax.jit(lambda s, l, m: evaluate_batch(s, l, names, mask=m, ties=ties).mean_values())
    close(np.asarray(f(jnp.asarray(s), jnp.asarray(l), jnp.asarray(m))), [float(v) for v in ref.means().values()])

DIVERSITY = ['alpha_DCG', 'alpha_DCG@3', 'alpha_DCG(alpha=0.2,discount=reciprocal)@4', 'alpha_DCG(normalise=ideal-ideal)',
             'alpha_DCG(normalise=ideal-ideal)@12', 'P_IA', 'P_IA@2', 'P_IA(adaptive_k=true)@5', 'P_IA@20']

def subtopic_batch(seed:int, q:int=10, n:int=8, s:int=3):
    "Seeded scores (ties, -inf) and subtopic labels (queries × candidates × subtopics; NaN, negative, 0-2), a mask and weights."
    rng = np.random.default_rng(seed)
    return (rng.choice([0.1, 0.4, 0.4, 0.7, 1.0, -np.inf], (q, n)), rng.choice([0., 0., 1., 2., np.nan, -1.], (q, n, s)),
            rng.random((q, n)) > 0.2, rng.choice([0.5, 1.0, 2.0], (q, n)))

@pytest.mark.parametrize('seed', range(4))
@pytest.mark.parametrize('ties', ['trec', 'stable', 'input'])
def test_strict_subtopic_kernels(seed, ties):
    "α-DCG and P-IA on subtopic labels in the namespace: the join's values on numpy, with masks, depth, item and list weights."
    s, l, m, w = subtopic_batch(seed)
    for kw in (dict(), dict(queries='qrels', depth=4), dict(negative='grade')):
        kw.setdefault('negative', 'pad')
        ours = evaluate_batch(xs.asarray(s), xs.asarray(l), DIVERSITY, mask=xs.asarray(m), ties=ties, **kw)
        close(host(ours.values), evaluate_batch(s, l, DIVERSITY, mask=m, ties=ties, **kw).values)
    alpha = [n for n in DIVERSITY if n.startswith('alpha')]
    for lw in (None, 'tf_ranking'):
        ours = evaluate_batch(xs.asarray(s), xs.asarray(l), alpha, mask=xs.asarray(m), weights=xs.asarray(w), ties=ties, negative='pad', list_weights=lw)
        ref = evaluate_batch(s, l, alpha, mask=m, weights=w, ties=ties, negative='pad', list_weights=lw)
        close(host(ours.values), ref.values)
        close(host(ours.list_weights), ref.list_weights)

def test_jax_subtopic_kernels_under_jit(jnp):
    import jax
    s, l, m, _ = subtopic_batch(7)
    f = jax.jit(lambda a, b, c: evaluate_batch(a, b, DIVERSITY, mask=c, negative='pad').mean_values())
    ref = evaluate_batch(s, l, DIVERSITY, mask=m, negative='pad')
    close(host(f(jnp.asarray(s), jnp.asarray(l), jnp.asarray(m))), [float(v) for v in ref.means().values()])
