"""The join against a naive pure-Python reference, on inputs hypothesis generates (seeded through
the hypothesis database: no unseeded randomness), the tie order against pytrec_eval, and the measures on a batch of
judged cells against the same batch laid out."""
import warnings
from dataclasses import replace
import numpy as np
import pytest
from hypothesis import given, settings, assume, strategies as st, HealthCheck
from rankmetrics_nb import join, QueryMismatchWarning, read_qrels, read_run, prepare_qrels
from rankmetrics_nb import REGISTRY, parse_measure, EvalInputError, ndcg, dcg, cumulative_gain
from rankmetrics_nb.engine import joins
from joined_three_ways import joined_three_ways
from rankmetrics_nb.engine.keys import _match, _match_exact, _pair_hash, id_words

QIDS = ['q1', 'q2', 'q10', 'é9']
DOCS = ['a', 'ab', 'b', 'z', 'aaaaaaaa', 'aaaaaaaab', 'doc-with-a-long-name-17', 'doc-with-a-long-name-2', 'x#y', 'ü']
SCORES = [0.1, 0.3, 0.30000001, -0.0, 0.0, 2.5, -3.0, 1e30, 1e-45]   # float32 ties, signed zeros, huge and tiny

REL = st.integers(1, 3)   # `rel`: a positive grade, checked by the join as by every metric (0 is refused: see below)

@st.composite
def collections(draw):
    def per_query(values):
        q = draw(st.lists(st.sampled_from(QIDS), unique=True, max_size=4))
        return {qid: dict(draw(st.lists(st.tuples(st.sampled_from(DOCS), values), unique_by=lambda t: t[0], max_size=8)))
                for qid in q}
    qrels = {q: d for q, d in per_query(st.integers(-1, 4)).items() if d}
    run = {q: d for q, d in per_query(st.sampled_from(SCORES)).items() if d}
    return qrels, run

def reference(qrels, run, ties, rel, depth, queries):
    "The batch's content computed the slow, obvious way."
    key = lambda s: s.encode('utf-8')
    both = set(qrels) & set(run)
    qids = sorted(both if queries == 'run' else set(qrels), key=key)
    rows = []
    for q in qids:
        docs = list(run.get(q, {}).items())
        if ties == 'trec':
            docs.sort(key=lambda t: key(t[0]), reverse=True)            # docno descending ...
            docs.sort(key=lambda t: -float(np.float32(t[1])))           # ... within score (as float32) descending
        docs = docs[:depth]
        rows.append(([qrels[q].get(d, 0) for d, _ in docs], [d in qrels[q] for d, _ in docs],
                     sorted(qrels[q].values(), reverse=True), sum(g >= rel for g in qrels[q].values())))
    return qids, rows

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.sampled_from(['trec', 'input']), REL, st.sampled_from([None, 1, 3]), st.sampled_from(['run', 'qrels']))
def test_join_matches_reference(data, ties, rel, depth, queries):
    qrels, run = data
    if not qrels or not run: return
    qids, rows = reference(qrels, run, ties, rel, depth, queries)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(qrels, run, ties=ties, rel=rel, depth=depth, queries=queries)
    assert list(b.qids) == qids
    for i, (grades, judged, ideal, n_rel) in enumerate(rows):
        n = len(grades)
        assert b.n_ret[i] == n and list(b.grades[i, :n]) == grades and list(b.judged[i, :n]) == judged
        assert np.isnan(b.grades[i, n:]).all() and not b.judged[i, n:].any()
        assert list(b.ideal[i, :len(ideal)]) == ideal and np.isnan(b.ideal[i, len(ideal):]).all()
        assert b.n_rel[i] == n_rel
    assert set(b.missing_from_run) == set(qrels) - set(run) and set(b.missing_from_qrels) == set(run) - set(qrels)

BATCH_FIELDS = ('qids', 'grades', 'judged', 'n_ret', 'ideal', 'n_rel', 'in_run', 'missing_from_run', 'missing_from_qrels')

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.sampled_from(['trec', 'double']), REL, st.sampled_from([None, 1, 3]),
       st.sampled_from(['run', 'qrels']), st.booleans(), st.booleans())
def test_dict_run_join_equals_general_join(data, ties, rel, depth, queries, prepared, descending):
    "Ranks found for the judged documents only (counted, or by bisection in descending runs; a run held as dicts, or as arrays) give the sorting path's batch, cell for cell."
    qrels, run = data
    assume(qrels and run)
    if descending: run = {q: dict(sorted(d.items(), key=lambda t: -t[1])) for q, d in run.items()}   # ranked by bisection
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        fast = join(prepare_qrels(qrels) if prepared else qrels, run, ties=ties, rel=rel, depth=depth, queries=queries)
        arrays = join(read_qrels(qrels), read_run(run), ties=ties, rel=rel, depth=depth, queries=queries)
        joins._COUNT_RANKS = False                           # the sorting path: every document ranked
        try: general = join(qrels, run, ties=ties, rel=rel, depth=depth, queries=queries)
        finally: joins._COUNT_RANKS = True
    assert type(fast.ranking).__name__ == type(arrays.ranking).__name__ == '_DeferredRanking'
    assert type(general.ranking).__name__ == 'Ranking'
    for f in BATCH_FIELDS: np.testing.assert_array_equal(getattr(arrays, f), getattr(general, f), err_msg=f)
    for f in BATCH_FIELDS: np.testing.assert_array_equal(getattr(fast, f), getattr(general, f), err_msg=f)
    np.testing.assert_array_equal(fast.scores, general.scores)
    np.testing.assert_array_equal(fast.tied, general.tied)
    np.testing.assert_array_equal(fast.docnos(), general.docnos())

def test_match_fast_path_equals_exact_path():
    "The hash-and-verify match and the exact sort-based match agree, also under a degenerate hash."
    rng = np.random.default_rng(11)
    qd = np.unique(rng.integers(0, 3000, 2000).astype(str).astype('S')); qq = rng.integers(0, 40, len(qd))
    rd = rng.integers(0, 3000, 20000).astype(str).astype('S'); rq = rng.integers(0, 40, len(rd))
    w = id_words(rd, qd)
    fast = _match(rq, rd, _pair_hash(rq, rd, w), qq, qd, _pair_hash(qq, qd, w))
    exact = _match_exact(rq, rd, qq, qd)
    assert (fast == exact).all() and (fast >= 0).sum() > 100
    degenerate = lambda q: (q % 2).astype(np.uint64)                      # collisions everywhere
    assert (_match(rq, rd, degenerate(rq), qq, qd, degenerate(qq)) == exact).all()

pytrec_eval = pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')

def test_trec_tie_order_agrees_with_pytrec_eval():
    "Reciprocal rank and P@5 computed from our batch equal pytrec_eval's: the same order, ties included."
    rng = np.random.default_rng(2026)
    qrels, run = {}, {}
    for q in range(40):
        docs = [f'd{j}' for j in rng.permutation(300)[:60]]
        scores = np.round(rng.normal(0, 1, 60), 1)                          # many exact ties
        scores[:10] = 0.3 + rng.integers(0, 2, 10) * 1e-9                     # ties only at float32 precision
        run[f'q{q}'] = dict(zip(docs, map(float, scores)))
        qrels[f'q{q}'] = {d: int(g) for d, g in zip(rng.choice(docs, 15, replace=False), rng.integers(0, 3, 15))}
    b = join(qrels, run)
    rel = b.grades >= 1
    first = np.where(rel.any(1), rel.argmax(1) + 1, np.inf)
    ours = {q: dict(recip_rank=1 / f, P_5=rel[i, :5].sum() / 5) for i, (q, f) in enumerate(zip(b.qids, first))}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {'recip_rank', 'P.5'}).evaluate(run)
    for q in ours:
        assert ours[q]['recip_rank'] == pytest.approx(theirs[q]['recip_rank'], abs=1e-12), q
        assert ours[q]['P_5'] == pytest.approx(theirs[q]['P_5'], abs=1e-12), q

def test_judged_ranks_on_mid_sized_runs_equal_the_sorting_path():
    """Seeded runs of up to 300 documents per query (shuffled or descending, scores with 0-2 decimals, so many ties), judged
    lightly or in depth (then counting would cost more than sorting, and the run is sorted), with blocks of 64 rows (every
    blockwise pass, and the scan on two threads) or the default: the same batch as the sorting path, from dicts and arrays."""
    rng = np.random.default_rng(99)
    for trial in range(48):
        run, qrels = {}, {}
        for q in range(int(rng.integers(1, 30))):
            L = int(rng.integers(0, 300))
            docs = [f'd{x}' for x in rng.choice(5000, L, replace=False)]
            sc = np.round(rng.normal(0, 1, L), int(rng.integers(0, 3)))
            if trial % 3 == 0:
                o = np.argsort(-sc, kind='stable'); docs = [docs[i] for i in o]; sc = sc[o]
            if L: run[f'q{q}'] = dict(zip(docs, map(float, sc)))
            judged = (list(rng.choice(docs, min(int(rng.integers(0, 200)), L), replace=False)) if L else []) + \
                     [f'x{i}' for i in range(int(rng.integers(0, 5)))]
            if judged: qrels[f'q{q}'] = {d: int(g) for d, g in zip(judged, rng.integers(-1, 4, len(judged)))}
        if not run or not qrels: continue
        how = dict(ties=['trec', 'double'][trial % 2], depth=[None, 50][trial // 2 % 2], queries=['run', 'qrels'][trial // 4 % 2])
        fast, arrays, general = joined_three_ways(qrels, run, small_blocks=bool(trial % 2), **how)
        for b in (fast, arrays):
            for f in BATCH_FIELDS: np.testing.assert_array_equal(getattr(b, f), getattr(general, f), err_msg=f)
            np.testing.assert_array_equal(b.scores, general.scores)
            np.testing.assert_array_equal(b.docnos(), general.docnos())

# The metrics that read a batch's judged cells (P, R, AP, RR, CG, DCG, nDCG) must give, bit for bit, what they give on the
# same batch with its matrices laid out; every other registered measure lays the matrices out and must agree too.
CELL_MEASURES = ['P@1', 'P@3', 'P', 'P(adaptive_k=true)@5', 'P(rel=2)@2', 'R@2', 'R', 'R(rel=3)', 'AP', 'AP@2', 'AP(rel=2)',
                 'AP(denominator=retrieved)@3', 'AP(denominator=min_n_rel_k)@2', 'RR', 'RR@2', 'RR(by=most_relevant)',
                 'RR(rel=2)@3', 'nDCG', 'nDCG@3', 'nDCG(gain=exp)@2', 'nDCG(gains={0:1,2:5})', 'nDCG(discount=jk,base=3)',
                 'DCG@4', 'DCG(gain=exp)', 'map_cut_5', 'P_5', 'recall_10', 'ndcg_cut_3', 'recip_rank']
LAID_OUT = ['nDCG(ideal=returned)@3', 'nDCG(ideal=returned_top_k)@2', 'F@3', 'Rprec', 'Success@2', 'Judged@3']   # read the matrices
def _every_batch_measure():
    for name, d in REGISTRY.items():
        if d.needs != 'batch': continue
        try: yield parse_measure(name)
        except EvalInputError: yield parse_measure(f'{name}@5')       # a cutoff it requires

def _outcome(f, *args, **kw):
    "A function's value, or the message of the EvalInputError it raises."
    try: return f(*args, **kw)
    except EvalInputError as e: return str(e)

def _same(a, b, what):
    "The same values (NaN equal to NaN, -0.0 to -0.0 only), or the same error."
    if isinstance(a, str) or isinstance(b, str): assert a == b, what; return
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=what)
    assert np.array_equal(np.signbit(a), np.signbit(b)), what

@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.sampled_from(['trec', 'double']), REL, st.sampled_from([None, 1, 3]), st.sampled_from(['run', 'qrels']))
def test_measures_read_judged_cells_as_the_laid_out_matrices(data, ties, rel, depth, queries):
    qrels, run = data
    assume(qrels and run)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        lean = join(qrels, run, ties=ties, rel=rel, depth=depth, queries=queries)
    assert lean.cells is not None and lean.__dict__['grades'] is None           # the join built it from its judged cells
    values = {m: parse_measure(m).compute(lean) for m in CELL_MEASURES}
    assert lean.__dict__['grades'] is None and lean.__dict__['judged'] is None, "a cell measure laid the matrices out"
    dense = replace(lean)                                                        # the same batch, matrices laid out
    assert dense.cells is None and dense.grades.shape == (len(lean), lean.depth)
    for m, v in values.items(): _same(v, parse_measure(m).compute(dense), m)
    for m in [*map(parse_measure, LAID_OUT), *_every_batch_measure()]: _same(_outcome(m.compute, lean), _outcome(m.compute, dense), str(m))
    for f in (ndcg, dcg, cumulative_gain):                                       # a max_grade every unjudged 0 is above, too
        for max_grade in (None, 2, -1):
            _same(_outcome(f, lean, max_grade=max_grade), _outcome(f, dense, max_grade=max_grade), f'{f.__name__} max_grade={max_grade}')

@pytest.mark.parametrize('rel', [0, -1, float('nan'), 'x', None])
def test_join_checks_rel(rel):
    "The join checks `rel` as every metric does (it once took 0 and NaN, and 'x' failed deep in numpy)."
    with pytest.raises(EvalInputError, match='rel must be a positive number'): join({'q': {'a': 1}}, {'q': {'a': 1.0}}, rel=rel)
