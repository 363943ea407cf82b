"""Both shapes users have, many short lists (recommendation, learning to rank) and a few deep ones (TREC), joined by every
input form: run dicts, a `Run` of columns, a TREC run file, prepared or plain qrels, a prepared run (for the join's tie
policy, or for another one). Each must give, bit for bit, the
per-query values of the general join that sorts every query's documents (the counting join switched off). Collections
are drawn from a seed hypothesis picks (no unseeded randomness); scores with few decimals, so ties are common."""
import pickle
import warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from rankmetrics_nb import evaluate, prepare_qrels, prepare_run, Qrels, Run
from rankmetrics_nb.engine import joins
from rankmetrics_nb.engine.checks import QueryMismatchWarning

MEASURES = ['AP', 'RR', 'nDCG', 'P@5', 'R@10', 'nDCG@3', 'map', 'recip_rank']
SHAPES = dict(short=dict(queries=(50, 400), length=(1, 30)), deep=dict(queries=(1, 6), length=(100, 700)))


def collection(shape:str, seed:int, equal:bool, descending:bool, prefix:str='d')->tuple:
    """(qrels, run) dicts of one shape: lists of one length (`equal`) or of many, shuffled or in descending score order;
    document ids begin with `prefix` (a long one: ids of more than 8 bytes, whose hashes a prepared run confirms)."""
    rng = np.random.default_rng(seed)
    lo, hi = SHAPES[shape]['queries']
    run, qrels, L = {}, {}, int(rng.integers(*SHAPES[shape]['length']))
    for q in range(int(rng.integers(lo, hi))):
        n = L if equal else int(rng.integers(*SHAPES[shape]['length']))
        docs = [f'{prefix}{x}' for x in rng.choice(50 * n + 10, n, replace=False)]
        scores = np.round(rng.random(n) * 10, int(rng.integers(0, 3)))           # 0-2 decimals: many ties
        if descending: scores = -np.sort(-scores)
        run[f'q{q}'] = dict(zip(docs, scores.tolist()))
        judged = list(rng.choice(docs, min(n, int(rng.integers(0, 10))), replace=False)) + [f'u{q}']   # one never retrieved
        qrels[f'q{q}'] = {d: int(g) for d, g in zip(judged, rng.integers(0, 5, len(judged)))}
    qrels['only-judged'] = {f'{prefix}1': 1}                                             # a query the run does not have
    return qrels, run


def columns(qrels:dict, run:dict)->tuple:
    "The same data as a `Qrels` and a `Run` of numpy columns."
    rows = lambda d: [(q, k, v) for q, m in d.items() for k, v in m.items()]
    (qq, qd, qv), (rq, rd, rv) = zip(*rows(qrels)), zip(*rows(run))
    return Qrels(np.array(qq, 'S'), np.array(qd, 'S'), np.array(qv)), Run(np.array(rq, 'S'), np.array(rd, 'S'), np.array(rv))


def run_file(run:dict, path)->str:
    "The run written as a TREC run file, each query's documents in the dicts' order."
    with open(path, 'w') as f:
        for q, m in run.items():
            for i, (d, s) in enumerate(m.items()): f.write(f'{q} Q0 {d} {i + 1} {s!r} t\n')
    return str(path)


def values(qrels, run, **how)->dict:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return evaluate(qrels, run, MEASURES, per_query=True, warn_ties=None, **how)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(list(SHAPES)), st.integers(0, 2**32 - 1), st.booleans(), st.booleans(),
       st.sampled_from(['trec', 'double']), st.sampled_from(['run', 'qrels']), st.sampled_from(['d', 'a-document-']),
       st.sampled_from([None, 5]))
def test_every_input_form_equals_the_sorting_join(tmp_path, shape, seed, equal, descending, ties, queries, prefix, depth):
    qrels, run = collection(shape, seed, equal, descending, prefix)
    how = dict(ties=ties, queries=queries, depth=depth)
    joins._COUNT_RANKS = False                                   # the reference: every query's documents sorted
    try: reference = values(qrels, run, **how)
    finally: joins._COUNT_RANKS = True
    q_cols, r_cols = columns(qrels, run)
    forms = dict(dicts=(qrels, run), prepared=(prepare_qrels(qrels), run), columns=(q_cols, r_cols),
                 prepared_columns=(prepare_qrels(q_cols), r_cols), file=(prepare_qrels(qrels), run_file(run, tmp_path / 'run')),
                 prepared_run=(qrels, prepare_run(run, ties=ties)), prepared_both=(prepare_qrels(q_cols), prepare_run(r_cols, ties=ties)),
                 prepared_for_another_policy=(qrels, prepare_run(run, ties='double' if ties == 'trec' else 'trec')))
    for form, (q, r) in forms.items():
        got = values(q, r, **how)
        assert got.keys() == reference.keys(), form
        for qid in reference:                                   # bit for bit: NaN as NaN, -0.0 as -0.0
            a, b = np.array(list(got[qid].values())), np.array(list(reference[qid].values()))
            np.testing.assert_array_equal(a, b, err_msg=f'{form} {qid}')
            assert np.array_equal(np.signbit(a), np.signbit(b)), (form, qid)


def test_a_prepared_qrels_keeps_its_matcher_and_gives_the_same_values_twice():
    qrels, run = collection('short', 7, True, False)
    p = prepare_qrels(qrels)
    first = values(p, run)
    m = p.matcher()
    assert values(p, run) == first and p.matcher() is m
    copy = pickle.loads(pickle.dumps(p))                         # the matcher (a 64-slots-a-judgement bitmap) stays behind
    assert '_matcher' not in copy.__dict__ and len(pickle.dumps(p)) == len(pickle.dumps(prepare_qrels(qrels)))
    assert values(copy, run) == first


@pytest.mark.parametrize('seed', range(12))
def test_a_document_listed_twice_is_named_whatever_the_shape(seed):
    """Equally long lists (their repeats found by sorting each list's hashes) or lists of many lengths (by slot tables):
    the join names the repeated pair the exact sort finds first, in both shapes and in blocks of either size."""
    from rankmetrics_nb import join, EvalInputError
    from rankmetrics_nb.engine import keys
    from rankmetrics_nb.engine.keys import repeated_pair
    rng = np.random.default_rng(seed)
    n, L = int(rng.integers(50, 400)), int(rng.integers(2, 30))
    lens = np.full(n, L) if seed % 2 else rng.integers(1, 2 * L, n)
    qid = np.repeat(np.array([f'q{i:04d}' for i in range(n)], 'S'), lens)
    docno = np.array([f'd{x}' for x in np.concatenate([rng.choice(10 * L + 10, k, replace=False) for k in lens])], 'S')
    for _ in range(int(rng.integers(1, 4))):                        # a document listed again later in its query
        q = int(rng.choice(np.flatnonzero(lens > 1)))
        start = int(lens[:q].sum())
        i, j = sorted(rng.choice(int(lens[q]), 2, replace=False).tolist())
        docno[start + j] = docno[start + i]
    first, second = repeated_pair(qid, docno)
    expect = f"document {docno[second].decode()!r} appears twice for query {qid[second].decode()!r}"
    qrels = Qrels(qid[:1], docno[:1], np.array([1]))
    for block in (keys.BLOCK, 64):
        saved, keys.BLOCK = keys.BLOCK, block
        try:
            with pytest.raises(EvalInputError, match='appears twice') as e: join(qrels, Run(qid, docno, rng.random(len(qid))))
        finally: keys.BLOCK = saved
        assert expect in str(e.value), (block, str(e.value))


def test_a_prepared_run_is_joined_by_lookups_and_pickles():
    """A run prepared for the join's tie policy is joined by lookups (never sorted again); pickled and read back it gives
    the same values; prepared for another policy, it is joined as any run."""
    qrels, run = collection('short', 11, True, False)
    p = prepare_run(run)
    calls, real = [], joins._join_prepared
    joins._join_prepared = lambda *a: calls.append(1) or real(*a)
    try:
        first = values(qrels, p)
        assert calls == [1]
        assert values(qrels, pickle.loads(pickle.dumps(p))) == first and len(calls) == 2
        assert values(qrels, prepare_run(run, ties='double')) == values(qrels, run) and len(calls) == 2
    finally: joins._join_prepared = real
    assert first == values(qrels, run)


@pytest.mark.parametrize('seed', range(6))
def test_prepare_run_names_a_repeated_document_as_the_join_does(seed):
    from rankmetrics_nb import join, EvalInputError
    rng = np.random.default_rng(seed)
    n, L = int(rng.integers(50, 300)), int(rng.integers(2, 30))
    lens = np.full(n, L) if seed % 2 else rng.integers(1, 2 * L, n)
    qid = np.repeat(np.array([f'q{i:04d}' for i in range(n)], 'S'), lens)
    prefix = 'd' if seed % 3 else 'a-long-document-'
    docno = np.array([f'{prefix}{x}' for x in np.concatenate([rng.choice(10 * L + 10, k, replace=False) for k in lens])], 'S')
    q = int(rng.choice(np.flatnonzero(lens > 1)))
    start = int(lens[:q].sum())
    i, j = sorted(rng.choice(int(lens[q]), 2, replace=False).tolist())
    docno[start + j] = docno[start + i]
    r = Run(qid, docno, rng.random(len(qid)))
    with pytest.raises(EvalInputError) as want: join(Qrels(qid[:1], docno[:1], np.array([1])), r)
    with pytest.raises(EvalInputError) as got: prepare_run(r)
    assert str(got.value) == str(want.value)
