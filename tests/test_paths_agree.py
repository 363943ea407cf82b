"""Every registry measure gives the same per-query values whichever path evaluates it: in memory, streamed in blocks of
several sizes (queries='run' and 'qrels'), on Dask partitions, and, on a complete batch, through `evaluate_batch`.

The collections are seeded: graded judgements (some queries all 0, some judged documents not retrieved, queries on one
side only), scores with ties, several partitions per query order. Values are compared exactly (NaN equal to NaN)."""
import math, warnings
import numpy as np
import pytest
from rankmetrics_nb import REGISTRY, evaluate, evaluate_batch, EvalInputError, QueryMismatchWarning
from rankmetrics_nb.evaluator.tie_range import TieWarning

CUTOFF = {'required': '@10', 'recall': '@0.5'}      # a measure whose name needs a cutoff gets one
BATCH_CORE = ('nDCG@5', 'DCG@5', 'AP', 'RR', 'P@5', 'R@5', 'F@5', 'ERR@5', 'ARP', 'PWA@5', 'OPA')


def _names() -> list:
    "every measure of the registry that reads a ranked list against plain qrels, by its own name (and a cutoff variant)"
    out = []
    for name, d in REGISTRY.items():
        if d.needs != 'batch' or d.cutoff == 'x': continue
        given = '(max_rel=3)' if any(p.name == 'max_rel' for p in d.params) else ''     # the top of the judging scale
        out.append(name + given + CUTOFF.get(d.cutoff, ''))
        if d.cutoff == 'optional': out.append(f'{name}{given}@5')
    return out


NAMES = _names()


def _collection(seed: int) -> tuple:
    "({qid: {docno: grade}}, {qid: {docno: score}}) with the hard cases: ties, unretrieved judgements, one-sided queries"
    g = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(int(g.integers(3, 12))):
        qid = f'q{q:02d}'
        docs = [f'd{d:03d}' for d in g.choice(200, size=int(g.integers(3, 30)), replace=False)]
        if q % 5 != 4:                                                  # every fifth query is only in the run
            judged = docs[: int(g.integers(1, len(docs) + 1))] + [f'u{q}{j}' for j in range(int(g.integers(0, 3)))]
            top = 0 if q % 4 == 3 else 3                                  # some queries have no relevant document
            qrels[qid] = {d: int(g.integers(0, top + 1)) for d in judged}
        if q % 7 != 6:                                                  # every seventh query is only in the qrels
            run[qid] = {d: float(g.integers(0, 8)) / 4 for d in docs}     # few values: many ties
    return qrels, run


def _files(tmp_path, qrels: dict, run: dict) -> tuple:
    q, r = tmp_path / 'qrels.txt', tmp_path / 'run.txt'
    q.write_text(''.join(f'{qid} 0 {d} {g}\n' for qid, ds in qrels.items() for d, g in ds.items()))
    lines = []
    for qid, ds in run.items():
        for rank, (d, s) in enumerate(sorted(ds.items(), key=lambda x: -x[1]), 1): lines.append(f'{qid} Q0 {d} {rank} {s} run\n')
    r.write_text(''.join(lines))
    return q, r


def _same(a: dict, b: dict) -> list:
    "the (query, measure) pairs whose values differ (NaN equals NaN), and the queries one side lacks"
    bad = sorted(set(a) ^ set(b))
    for qid in set(a) & set(b):
        for m, v in a[qid].items():
            w = b[qid][m]
            if not (v == w or (isinstance(v, float) and isinstance(w, float) and math.isnan(v) and math.isnan(w))):
                bad.append((qid, m, v, w))
    return bad


def _quiet():
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.simplefilter('ignore', QueryMismatchWarning)
    warnings.simplefilter('ignore', TieWarning)
    return w


def test_the_measures_cover_the_registry():
    assert len(NAMES) > 60 and {'nDCG@5', 'AP', 'Bpref', 'infAP', 'IPrec@0.5', 'BPM(max_rel=3)@10', 'RBP', 'Judged@5'} <= set(NAMES)


@pytest.mark.parametrize('seed', range(4))
@pytest.mark.parametrize('queries', ['run', 'qrels'])
def test_streamed_equals_in_memory(seed, queries, tmp_path):
    qrels, run = _collection(seed)
    q, r = _files(tmp_path, qrels, run)
    w = _quiet()
    try:
        want = evaluate(q, r, NAMES, per_query=True, queries=queries, warn_ties=None)
        for block in (64, 700, 1 << 20):                              # a query per block, a few, the whole run
            got = evaluate(q, r, NAMES, per_query=True, queries=queries, block_bytes=block)
            assert _same(want, got) == [], (block, _same(want, got)[:5])
    finally: w.__exit__(None, None, None)


@pytest.mark.parametrize('seed', range(3))
def test_dask_equals_in_memory(seed):
    dd = pytest.importorskip('dask.dataframe', reason='dask (an optional extra) is not installed')
    import dask, pandas as pd
    qrels, run = _collection(seed)
    frame = pd.DataFrame([(qid, d, s) for qid, ds in run.items() for d, s in ds.items()], columns=['qid', 'docno', 'score'])
    w = _quiet()
    try:
        want = evaluate(qrels, frame, NAMES, per_query=True, warn_ties=None)
        with dask.config.set(scheduler='sync'):
            for parts in (1, 3):
                got = evaluate(qrels, dd.from_pandas(frame, npartitions=parts), NAMES, per_query=True)
                assert _same(want, got) == [], (parts, _same(want, got)[:5])
    finally: w.__exit__(None, None, None)


def _complete_batch(seed: int) -> tuple:
    "(scores, labels, qrels, run): every candidate judged and ranked, no tied scores, so both paths see the same lists"
    g = np.random.default_rng(100 + seed)
    n_q, n_c = int(g.integers(2, 9)), int(g.integers(2, 25))
    labels = g.integers(0, 4, size=(n_q, n_c)).astype(float)
    labels[0] = 0                                                       # a list without a relevant item
    scores = g.permutation(n_q * n_c).reshape(n_q, n_c).astype(float)
    ids = [str(j) for j in range(n_c)]
    qrels = {str(i): {ids[j]: int(labels[i, j]) for j in range(n_c)} for i in range(n_q)}
    run = {str(i): {ids[j]: float(scores[i, j]) for j in range(n_c)} for i in range(n_q)}
    return scores, labels, qrels, run


@pytest.mark.parametrize('seed', range(4))
def test_evaluate_batch_equals_evaluate_on_a_complete_batch(seed):
    scores, labels, qrels, run = _complete_batch(seed)
    w = _quiet()
    try:
        want = evaluate(qrels, run, NAMES, per_query=True, warn_ties=None)
        taken = []
        for m in NAMES:
            try: got = evaluate_batch(scores, labels, [m]).per_query()
            except EvalInputError: continue                             # a measure the batch path does not take
            taken.append(m)
            assert _same({q: {m: v[m]} for q, v in want.items()}, got) == [], (m, _same({q: {m: v[m]} for q, v in want.items()}, got)[:3])
    finally: w.__exit__(None, None, None)
    assert set(BATCH_CORE) <= set(taken), set(BATCH_CORE) - set(taken)


@pytest.mark.parametrize('ties', ['trec', 'double', 'input', 'stable', 'expected'])
def test_an_empty_run_scores_each_judged_query_as_a_missing_one(ties):
    "A (queries × 0) batch (the streamed path evaluates the judged queries no block holds on one): every measure takes it"
    from rankmetrics_nb.engine.inputs import Run
    qrels, _ = _collection(1)
    names = [m for m in NAMES if ties != 'expected' or REGISTRY[m.split('(')[0].split('@')[0]].ties != 'refuse']
    empty = Run(np.zeros(0, 'S1'), np.zeros(0, 'S1'), np.zeros(0), '<no lines>')
    w = _quiet()
    try:
        got = evaluate(qrels, empty, names, per_query=True, queries='qrels', ties=ties)
        want = evaluate(qrels, {'elsewhere': {'d': 1.0}}, names, per_query=True, queries='qrels', ties=ties)
    finally: w.__exit__(None, None, None)
    assert set(got) == set(qrels) and _same(want, got) == []


def _long_collection(seed: int) -> tuple:
    "({qid: {docno: grade}}, {qid: {docno: score}}): lists of 3 to 70 documents, most judged, many relevant, many ties"
    g = np.random.default_rng(200 + seed)
    qrels, run = {}, {}
    for q in range(30):
        docs = [f'd{j}' for j in range(int(g.integers(3, 70)))]
        qrels[f'q{q}'] = {d: int(g.integers(0, 4)) for d in docs if g.random() < 0.8}
        run[f'q{q}'] = {d: float(g.integers(0, 12)) / 4 for d in docs}
    return qrels, run


@pytest.mark.parametrize('ties', ['trec', 'expected'])
def test_a_query_alone_equals_it_among_longer_lists(ties):
    "The batch's width (its longest list, its most judged query) changes no query's value, under either tie policy"
    qrels, run = _long_collection(0)
    names = [m for m in NAMES if ties != 'expected' or REGISTRY[m.split('(')[0].split('@')[0]].ties != 'refuse']
    w = _quiet()
    try:
        taken = []
        for m in names:
            try: evaluate(qrels, run, [m], ties=ties)
            except EvalInputError: continue                              # (AUROC@k refuses a cut through a tie group)
            taken.append(m)
        whole = evaluate(qrels, run, taken, per_query=True, ties=ties)
        bad = [x for q in run for x in _same({q: whole[q]}, evaluate({q: qrels[q]}, {q: run[q]}, taken, per_query=True, ties=ties))]
    finally: w.__exit__(None, None, None)
    assert len(taken) > 30 and bad == [], bad[:5]
