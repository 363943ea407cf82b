"""trec_eval's measures (rankmetrics_nb.metrics.trec.measures) against trec_eval's own test suite: every per-query
value and every `all` value of `-m all_trec` that trec_eval 10.0-rc3 and 9.0.8 print for the test
collection, compared as printed (`%.4f`, integers, quoted strings); then against pytrec_eval-terrier
(trec_eval 9.0.8's C code) on a seeded graded collection, to 1e-9 per query."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.metrics.trec.measures import trec_queries
from rankmetrics_nb.registry.measures import TREC_MEASURES, nickname

from conftest import trec_eval_printed

MEAS_PARAMS = {'iprec_at_recall': '.10,.20,.25,.75,.50', 'P': '5,7,3', 'recall': '20,2000', 'Rprec_mult': '5.0,0.2,0.35',
               'utility': '2,-1,0,0', '11pt_avg': '.25,.5,.75', 'ndcg': '1=3,2=9,4=4.5', 'ndcg_cut': '10,20,23.4', 'success': '2,5,20'}

# (qrels, run, expected output, trec_eval flags as keyword arguments) -- the Makefile's quicktest commands
CASES = [
    ('qrels.test', 'results.test', 'out.test.aq', {}),                                        # -m all_trec -q
    ('qrels.rel_level', 'results.test', 'out.test.aql', dict(level=2, params={'relstring': '20'})),  # -mrelstring.20 -l2
    ('qrels.test', 'results.trunc', 'out.test.aqc', dict(queries='qrels')),                   # -c
    ('qrels.test', 'results.trunc', 'out.test.aqcM', dict(queries='qrels', depth=100)),       # -c -M100
    ('qrels.test', 'results.test', 'out.test.meas_params', dict(params=MEAS_PARAMS)),
]
V9_CASES = [(a, b, 'v9.0.8/' + c, dict(kw, version=9)) for a, b, c, kw in CASES]

def summary(m, v):
    "The `all` value trec_eval prints for measure `m` from per-query values `v`."
    if m.summary == 'sum': return int(np.sum(v))
    if m.summary == 'mean': return float(np.mean(v))
    if m.summary == 'gm': return float(np.exp(np.mean(np.log(np.maximum(v, 1e-5)))))

def as_printed(kind, v):
    return str(int(v)) if kind == 'int' else f"'{v}'" if kind == 'str' else f'{v:.4f}'

def queries(folder, qrels, run, level=1, version=10, queries='run', depth=None):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(folder/qrels, folder/run, rel=level, queries=queries, depth=depth)
    return trec_queries(b, level=level, version=version)

def ours_printed(q, params):
    "{(printed name, qid): text} of every measure, per query (where trec_eval prints it) and for 'all'."
    out = {}
    for m in TREC_MEASURES.values():
        for name, v in m.values(q, params.get(m.name)):
            if m.per_query: out.update({(name, qid): as_printed(m.kind, x) for qid, x in zip(q.qids, v)})
            if m.summary in ('mean', 'sum', 'gm'): out[(name, 'all')] = as_printed(m.kind, summary(m, v))
    return out

@pytest.mark.parametrize('qrels,run,out,kw', CASES + V9_CASES, ids=[c[2] for c in CASES + V9_CASES])
def test_every_printed_value(trec_eval_dir, qrels, run, out, kw):
    kw = dict(kw); params = kw.pop('params', {})
    ours = ours_printed(queries(trec_eval_dir, qrels, run, **kw), params)
    names = {line.split('\t')[0].strip() for line in (trec_eval_dir/out).read_text().splitlines()} - {'runid', 'num_q'}
    checked = 0
    for name in names:
        for qid, want in trec_eval_printed(trec_eval_dir/out, name).items():
            assert ours.get((name, qid)) == want, (out, name, qid, ours.get((name, qid)), want)
            checked += 1
    assert checked > 80

def test_interpolation_rule_changed_in_v10(trec_eval_dir):
    "iprec_at_recall_0.25 of topic 302 (R = 77): round(19.25) = 19 relevant in v10, floor(20.15) = 20 in v9."
    for version, out in ((10, 'out.test.meas_params'), (9, 'v9.0.8/out.test.meas_params')):
        q = queries(trec_eval_dir, 'qrels.test', 'results.test', version=version)
        v = dict(TREC_MEASURES['iprec_at_recall'].values(q, '.25'))['iprec_at_recall_0.25']
        assert f'{v[list(q.qids).index("302")]:.4f}' == trec_eval_printed(trec_eval_dir/out, 'iprec_at_recall_0.25')['302']

def test_missing_query_scores_zero(trec_eval_dir):
    "With -c, topic 302 (no results) scores 0 on every measure but num_rel, ideal_dcg and yaap; relstring is empty."
    q = queries(trec_eval_dir, 'qrels.test', 'results.trunc', queries='qrels')
    row = list(q.qids).index('302')
    assert not q.in_run[row] and q.n_ret[row] == 0
    for m in TREC_MEASURES.values():
        for name, v in m.values(q):
            expected = {'num_q': 1, 'num_rel': 77, 'relstring': '', 'runid': '', 'yaap': np.log(1 / 78),
                        'ideal_dcg': (1 / np.log2(np.arange(2, 79))).sum()}.get(m.name, 0)
            if m.name in ('yaap', 'ideal_dcg'): assert abs(v[row] - expected) < 1e-12, name; continue
            assert v[row] == expected, name

def test_nicknames():
    assert nickname('all_trec') == [m for m in TREC_MEASURES if m not in ('dcg', 'ideal_dcg', 'yaap')]
    assert nickname('all_trec', 9) == [m for m in TREC_MEASURES if m not in ('rbp', 'rbp_resid', 'unj', 'dcg', 'ideal_dcg', 'yaap')]

@pytest.fixture(scope='module')
def graded():
    "A seeded graded collection: 60 queries, tied scores, grades -1..4 (never all negative), relevant documents not retrieved."
    rng = np.random.default_rng(2024)
    qrels, run = {}, {}
    for i in range(60):
        judged = rng.choice(80, int(rng.integers(1, 50)), replace=False)
        grades = rng.choice([-1, 0, 0, 1, 2, 3, 4], len(judged))
        if grades.max() < 0: grades[0] = 0          # pytrec_eval-terrier corrupts memory on an all-negative query
        qrels[f'q{i}'] = {f'd{j}': int(g) for j, g in zip(judged, grades)}
        run[f'q{i}'] = {f'd{j}': float(rng.integers(0, 10)) for j in rng.choice(80, int(rng.integers(1, 70)), replace=False)}
    return qrels, run

@pytest.mark.parametrize('level,judged_only', [(1, False), (2, False), (3, False), (1, True), (2, True)])
def test_against_pytrec_eval(graded, level, judged_only):
    "Every trec_eval 9 measure per query, to 1e-9 (gm_* after the 1e-5 floor: pytrec_eval returns their logarithm)."
    pytrec_eval = pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')
    qrels, run = graded
    v9 = [m for m in nickname('all_trec', 9) if m not in ('runid', 'relstring')]
    theirs = pytrec_eval.RelevanceEvaluator(qrels, set(v9), relevance_level=level, judged_docs_only_flag=judged_only).evaluate(run)
    q = trec_queries(join(qrels, run, rel=level), level=level, judged_only=judged_only, version=9)
    keep = q.n_ret > 0     # -J can leave a query with nothing ranked: trec_eval's iprec_at_recall divides 0 by 0 there
    for m in v9:
        for name, v in TREC_MEASURES[m].values(q):
            want = np.array([theirs[qid][name] for qid in q.qids])
            if TREC_MEASURES[m].summary == 'gm': want, v = np.exp(want), np.maximum(v, 1e-5)
            np.testing.assert_allclose(np.asarray(v, np.float64)[keep], want[keep], rtol=0, atol=1e-9, err_msg=name)
