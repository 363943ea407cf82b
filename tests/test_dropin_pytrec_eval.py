"""The pytrec_eval drop-in (`rankmetrics_nb.interop.dropin.pytrec_eval`) against pytrec_eval itself: pytrec_eval's own test
cases (the inputs of tests/peers/test_pytrec_eval_suite.py, evaluated by both), and a seeded differential test on
random collections: every supported measure (all_trec, and cut-off and parameter variants), every query, to 1e-12,
with relevance_level 1 and 2 and judged_docs_only_flag on and off.

A query the run lists without documents is where pytrec_eval 0.5.11 is unreliable: it reports NaN for
iprec_at_recall_0.00 and 11pt_avg, and some runs with such a query (a run of only such queries, or one listed first
with several interpolated-precision requests) crash it (segmentation fault). The drop-in evaluates such a query as
retrieving nothing (trec_eval's values for an empty ranking: 0). The unit cases compare the measures pytrec_eval
computes there reliably; the random collections list no query without documents. A query whose every judgement is
negative (trec_eval stops with an error on it) is undefined in pytrec_eval: its relevance table has no level for the
query, every measure of effectiveness comes out 0, its counts (num_ret, utility) are 0 in most calls and the run's
counts in others (by the order of the queries and the measures asked for), and some calls crash (a segmentation
fault). The drop-in scores such a query 0 in every measure (gm_ values ln 1e-5, num_q 1) wherever it stands; the test
runs pytrec_eval in a child process and compares, where it answers, every measure but those counts. The random
collections give every judged query a grade >= 0."""
import json, math, subprocess, sys
import numpy as np
import pytest

pe = pytest.importorskip('pytrec_eval')
from rankmetrics_nb.interop.dropin import pytrec_eval as mine
from rankmetrics_nb import EvalInputError

QREL = {'q1': {'d1': 0, 'd2': 1, 'd3': 0}, 'q2': {'d2': 1, 'd3': 1}}
RANK3, RANK1, RANK2 = {'d1': 1.0, 'd2': 0.0, 'd3': 1.5}, {'d1': 1.0, 'd2': 2.0, 'd3': 1.5}, {'d1': 4.0, 'd2': 2.0, 'd3': 1.5}
QREL10 = dict(QREL, q10={})

def both(qrels, run, measures, **kw):
    return mine.RelevanceEvaluator(qrels, measures, **kw).evaluate(run), pe.RelevanceEvaluator(qrels, measures, **kw).evaluate(run)

def assert_same(ours, theirs, empty=()):
    assert set(ours) == set(theirs)
    for q in theirs:
        assert set(ours[q]) == set(theirs[q]), q
        for m, v in theirs[q].items():
            if q in empty and m in ('iprec_at_recall_0.00', '11pt_avg'): continue       # pytrec_eval: NaN (see above)
            assert ours[q][m] == pytest.approx(v, abs=1e-12, nan_ok=True), (q, m, ours[q][m], v)

# ------------------------------------------------------------------ pytrec_eval's own cases, evaluated by both
@pytest.mark.parametrize('run', [{'q1': RANK3, 'q2': {}}, {'q1': RANK1, 'q2': {}}, {'q1': RANK2, 'q2': {}}, {'q1': RANK1}],
                         ids=['rank3', 'rank1', 'rank2', 'rank1_no_q2'])
@pytest.mark.parametrize('measures', [{'ndcg'}, {'ndcg_cut.3'}, {'ndcg_cut.1'}, {'ndcg_cut.1,2,3,1000'}, {'map', 'P_5'}])
def test_pytrec_eval_unit_cases(run, measures):
    # PyTrecEvalUnitTest::test_ndcg and ::test_ndcg_cut: the same runs and measures through both evaluators
    ours, theirs = both(QREL, run, measures)
    assert_same(ours, theirs, empty={q for q, d in run.items() if not d})

def test_ndcg_unjudged_document_and_empty_judgements():
    # PyTrecEvalUnitTest::test_ndcg (terrier): q10 has empty judgements (left out), q2 ranks an unjudged document
    for flag in (False, True):
        ours, theirs = both(QREL10, {'q1': RANK3, 'q2': RANK3, 'q10': {'d1': 1.0}}, {'ndcg'}, judged_docs_only_flag=flag)
        assert_same(ours, theirs)
    assert ours['q2']['ndcg'] == 1.0 and 'q10' not in ours

@pytest.mark.parametrize('nickname', ['official', 'set', 'all_trec'])
def test_nicknames(nickname):
    # PyTrecEvalUnitTest::test_nicknames: every measure a nickname gives, with the same values
    ours, theirs = both(QREL, {'q1': RANK3, 'q2': RANK2}, {nickname})
    assert_same(ours, theirs)

def test_measure_params_as_written():
    # PyTrecEvalUnitTest::test_measure_params: repeated requests merged as pytrec_eval merges them
    requests = ['ndcg_cut', 'ndcg_cut.1,4', 'ndcg_cut_20,4', 'ndcg_cut_15', 'recall.1000', 'P']
    ours, theirs = both(QREL, {'q1': RANK3, 'q2': RANK2}, requests)
    assert set(ours['q1']) == {'ndcg_cut_1', 'ndcg_cut_4', 'ndcg_cut_15', 'ndcg_cut_20', 'recall_1000', 'P_5', 'P_10', 'P_15',
                               'P_20', 'P_30', 'P_100', 'P_200', 'P_500', 'P_1000'}
    assert_same(ours, theirs)

@pytest.mark.parametrize('qrels,run,measures', [(QREL, {}, ['map']), ({}, {'q1': RANK3}, ['map']), (QREL, {'q1': RANK3}, [])],
                         ids=['empty_run', 'empty_qrels', 'empty_measures'])
def test_empty(qrels, run, measures):
    # PyTrecEvalUnitTest::test_empty: {} for an empty run or qrels; {qid: {}} for no measures
    ours, theirs = both(qrels, run, measures)
    assert ours == theirs

def test_unsupported_measure():
    with pytest.raises(ValueError, match='unsupported measure'): pe.RelevanceEvaluator(QREL, ['nDCG@10'])
    with pytest.raises(EvalInputError, match="unsupported measure 'nDCG@10'"): mine.RelevanceEvaluator(QREL, ['nDCG@10'])

def test_aggregates():
    ours, _ = both(QREL, {'q1': RANK3, 'q2': RANK2}, {'gm_map', 'map', 'num_ret', 'P_5'})
    for m in ('gm_map', 'map', 'num_ret', 'P_5'):
        vals = [v[m] for v in ours.values()]
        assert mine.compute_aggregated_measure(m, vals) == pytest.approx(pe.compute_aggregated_measure(m, vals), abs=1e-15)

def test_parse(tmp_path):
    q, r = tmp_path / 'q', tmp_path / 'r'
    q.write_text('q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n')
    r.write_text('q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.25 t\nq2 Q0 d3 1 -1e-3 t\n')
    with open(q) as a, open(q) as b: assert mine.parse_qrel(a) == pe.parse_qrel(b)
    with open(r) as a, open(r) as b: assert mine.parse_run(a) == pe.parse_run(b)

# ------------------------------------------------------------------ queries whose every judgement is negative
def pytrec_eval_in_child(qrels, run, measures):
    "pytrec_eval's evaluate in a child process (it can crash on such queries): the result, or None where it crashed."
    code = (f"import json, pytrec_eval\nprint(json.dumps(pytrec_eval.RelevanceEvaluator({qrels!r}, {set(measures)!r})"
            f".evaluate({run!r})))")
    p = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    return json.loads(p.stdout) if p.returncode == 0 else None

NEGATIVE_CASES = {
    'alone': {'q1': {'d1': -1, 'd3': -1}},
    'alone_top_-2': {'q1': {'d1': -2}},
    'first': {'q1': {'d1': -1, 'd2': -1}, 'q2': {'d1': 1, 'd2': 0}},
    'after_a_positive_query': {'q2': {'d1': 1, 'd2': 0}, 'q1': {'d1': -1, 'd3': -3}},
    'after_a_zero_query': {'q2': {'d1': 0}, 'q1': {'d1': -1}},
    'two_of_them': {'q2': {'d1': 2}, 'q3': {'d1': -1}, 'q1': {'d2': -1}},
}

@pytest.mark.parametrize('case', list(NEGATIVE_CASES))
@pytest.mark.parametrize('measures', [['map'], ['ndcg', 'P.5', 'num_ret', 'num_nonrel_judged_ret', 'utility', 'bpref'], ['all_trec']])
def test_every_judgement_negative(case, measures):
    "pytrec_eval scores such a query 0 in every measure (num_q 1); the drop-in gives what it gives."
    qrels = NEGATIVE_CASES[case]
    run = {q: {'d1': 1.0, 'd2': 0.5, 'd3': 0.5, 'x': 0.2} for q in reversed(list(qrels))}
    theirs = pytrec_eval_in_child(qrels, run, measures)
    if theirs is None: pytest.skip(f"pytrec_eval crashed on {case} with {measures} (as it can on such queries)")
    ours = mine.RelevanceEvaluator(qrels, measures).evaluate(run)
    negative = [q for q, d in qrels.items() if max(d.values()) < 0]
    unstable = {'num_ret', 'utility', 'runid'}                  # pytrec_eval's counts there: 0, or the run's, by the call
    assert_same({q: {m: v for m, v in d.items() if q not in negative or m not in unstable} for q, d in ours.items()},
                {q: {m: v for m, v in d.items() if (q not in negative or m not in unstable) and m != 'runid'}
                    | ({'runid': 0.0} if 'runid' in d and q not in negative else {}) for q, d in theirs.items()})
    floor = math.log(1e-5)
    assert all(v == (1.0 if m == 'num_q' else floor if m.startswith('gm_') else 0.0) for q in negative for m, v in ours[q].items())

# ------------------------------------------------------------------ the differential test
MEASURES = ['all_trec', 'P.1,3,7', 'recall.2,50', 'ndcg_cut.1,4,12', 'map_cut.3,9', 'success.2', 'relative_P.4',
            'Rprec_mult.0.5,1.5', 'iprec_at_recall.0.15,0.5']

def random_collection(rng):
    "Qrels and a run with ties (exact, and equal only as float32), unjudged and negative-graded documents."
    qrels, run = {}, {}
    for i in range(int(rng.integers(2, 10))):
        q, docs = f'q{i}', [f'd{j}' for j in range(int(rng.integers(1, 30)))]
        judged = rng.choice(docs, size=int(rng.integers(0, len(docs) + 1)), replace=False)
        if len(judged) or rng.random() < 0.3: qrels[q] = {d: int(rng.integers(-1, 4)) for d in judged}
        if len(judged): qrels[q][judged[0]] = max(qrels[q][judged[0]], 0)   # not every grade negative (see above)
        if rng.random() < 0.1: continue                                     # a judged query the run leaves out
        ranked = rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False)
        base = rng.integers(0, 6, len(ranked)).astype(float) / 2
        near = rng.random(len(ranked)) < 0.2                              # equal as float32, not as float64
        run[q] = {d: float(s + (1e-9 if n else 0.0)) for d, s, n in zip(ranked, base, near)}
    return qrels, run

@pytest.mark.parametrize('seed', range(100))
def test_differential(seed):
    rng = np.random.default_rng(seed)
    qrels, run = random_collection(rng)
    kw = dict(relevance_level=int(rng.integers(1, 3)), judged_docs_only_flag=bool(rng.random() < 0.3))
    ours, theirs = both(qrels, run, ['all_trec'] if seed % 2 else MEASURES, **kw)   # all_trec's default cutoffs, or others
    assert_same(ours, theirs)
