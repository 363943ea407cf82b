"""pytrec_eval's own tests, case by case, as tests of rankmetrics_nb.

Sources: cvangysel/pytrec_eval @ 0d8571ef (MIT), `tests/pytrec_eval_tests.py`, and the pytrec_eval-terrier fork's
version of the same file (terrierteam/pytrec_eval @ 2d4d506e, read from the search index: it adds a query with
empty judgements, an unjudged document, `judged_docs_only_flag`, and a repeated `ndcg_cut` evaluation). Inputs
and expected values are restated; each test names the source test it ports.

pytrec_eval embeds trec_eval 9.0.x: the ports use our trec_eval drop-in with `version=9` where the version matters
(measure sets), and `evaluate(..., ties='trec')` (pytrec_eval's order: score as float32 descending, then docno
descending). A query the run leaves empty is not evaluated (pytrec_eval has no `-c`): our default `queries='run'`.

Counts: 31 cases ported (pytest items; a parametrised case counts once per parameter set): 30 pass, 1 xfail (strict).
Deliberate differences, ported as tests of our behaviour (the peer's value is in the comment): pytrec_eval returns
`{}` (or `{qid: {}}`) for an empty run, empty qrels or an empty measure set; we raise an EvalInputError that says
what is empty. Source tests skipped as not concrete: `PyTrecEvalIntegrationTest` is empty apart from the two
generated trec_eval comparisons, which are ported (they read trec_eval's test files from the shared conformance
folder and skip where it is absent).
"""
import functools
import os
import re
import warnings
from pathlib import Path
import pytest
from rankmetrics_nb import evaluate as _evaluate, trec_eval, EvalInputError, QueryMismatchWarning

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get('RANKMETRICS_SHARED', ROOT.parent / 'shared'))
TREC_EVAL = SHARED / 'conformance' / 'trec_eval'

# Every evaluation names its tie policy: 'trec', pytrec_eval's order (score as float32 descending, then docno descending)
evaluate = functools.partial(_evaluate, ties='trec')

QREL = {'q1': {'d1': 0, 'd2': 1, 'd3': 0}, 'q2': {'d2': 1, 'd3': 1}}
RANK3 = {'d1': 1.0, 'd2': 0.0, 'd3': 1.5}      # the relevant d2 at rank 3
RANK1 = {'d1': 1.0, 'd2': 2.0, 'd3': 1.5}      # at rank 1
RANK2 = {'d1': 4.0, 'd2': 2.0, 'd3': 1.5}      # at rank 2

def quiet(f, *a, **kw):
    "Call f with the query-mismatch warning silenced (q2 has no results in most of these runs)."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return f(*a, **kw)

def ndcg_q1(run, measure='nDCG'):
    return quiet(evaluate, QREL, run, [measure], per_query=True, ties='trec')['q1'][measure]

def trec_q(qrels, run, measures, qid, **kw):
    t = quiet(trec_eval, qrels, run, measures, per_query=True, version=9, **kw)
    return {str(q): v for q, v in t.per_query.items()}[qid]

# ------------------------------------------------------------------ PyTrecEvalUnitTest::test_ndcg
@pytest.mark.parametrize('run,expected', [
    ({'q1': RANK3, 'q2': {}}, 0.5), ({'q1': RANK1, 'q2': {}}, 1.0), ({'q1': RANK1, 'q2': {}}, 1.0),
    ({'q1': RANK2, 'q2': {}}, 0.6309297535714575), ({'q1': RANK1}, 1.0), ({'q1': RANK2, 'q2': {}}, 0.6309297535714575)],
    ids=['rank3', 'rank1', 'rank1_again', 'rank2', 'rank1_no_q2', 'rank2_again'])
def test_ndcg(run, expected):
    # PyTrecEvalUnitTest::test_ndcg — q1's nDCG with the relevant document at rank 3, 1, 2 (1/log2(4), 1, 1/log2(3));
    # q2 given no documents (or left out) is not evaluated
    assert ndcg_q1(run) == pytest.approx(expected, abs=1e-12)
    assert trec_q(QREL, run, ['ndcg'], 'q1')['ndcg'] == pytest.approx(expected, abs=1e-12)

def test_ndcg_conventions():
    # PyTrecEvalUnitTest::test_ndcg (relevant at rank 2), with the trec_eval preset
    got = quiet(evaluate, QREL, {'q1': RANK2, 'q2': {}}, ['nDCG'], per_query=True, conventions='trec_eval')
    assert got == {'q1': {'nDCG': pytest.approx(0.6309297535714575, abs=1e-12)}}

QREL10 = dict(QREL, q10={})

def test_ndcg_unjudged_document():
    # PyTrecEvalUnitTest::test_ndcg (pytrec_eval-terrier) — q2 ranks d3 (relevant), d1 (unjudged), d2 (relevant):
    # (1 + 1/log2(4)) / (1 + 1/log2(3)) = 0.9197207891481876. q10 has no judgements
    run = {'q1': {}, 'q2': RANK3}
    got = quiet(evaluate, QREL10, run, ['nDCG'], per_query=True, ties='trec')
    assert got['q2']['nDCG'] == pytest.approx(0.9197207891481876, abs=1e-12)
    assert trec_q(QREL10, run, ['ndcg'], 'q2')['ndcg'] == pytest.approx(0.9197207891481876, abs=1e-12)

def test_ndcg_judged_docs_only():
    # PyTrecEvalUnitTest::test_ndcg (pytrec_eval-terrier, judged_docs_only_flag=True): without the unjudged d1, q2's
    # two relevant documents lead: 1.0 (trec_eval's -J: judged_only=True)
    assert trec_q(QREL10, {'q1': {}, 'q2': RANK3}, ['ndcg'], 'q2', judged_only=True)['ndcg'] == 1.0

def test_ndcg_judged_docs_only_by_name():
    # PyTrecEvalUnitTest::test_ndcg (pytrec_eval-terrier, judged_docs_only_flag=True), through evaluate
    got = quiet(evaluate, QREL10, {'q2': RANK3}, ['nDCG(judged_only=True)'], per_query=True)
    assert got['q2']['nDCG(judged_only=True)'] == 1.0

def test_query_without_judgements_left_out():
    # PyTrecEvalUnitTest::test_ndcg (pytrec_eval-terrier) — q10 (empty judgements) retrieves d1: q10 is not in the result
    run = {'q1': {}, 'q2': RANK3, 'q10': {'d1': 1.0}}
    with pytest.warns(QueryMismatchWarning):
        got = evaluate(QREL10, run, ['nDCG'], per_query=True)
    assert 'q10' not in got
    t = quiet(trec_eval, QREL10, run, ['ndcg'], per_query=True, version=9)
    assert 'q10' not in {str(q) for q in t.per_query}

# ------------------------------------------------------------------ PyTrecEvalUnitTest::test_nicknames
ALL_TREC_9 = {'11pt_avg', 'binG', 'bpref', 'G', 'gm_bpref', 'gm_map', 'infAP', 'map', 'ndcg', 'ndcg_rel',
              'num_nonrel_judged_ret', 'num_q', 'num_rel', 'num_rel_ret', 'num_ret', 'recip_rank', 'relstring', 'Rndcg',
              'Rprec', 'runid', 'set_F', 'set_map', 'set_P', 'set_recall', 'set_relative_P', 'success_1', 'success_10',
              'success_5', 'utility'} \
    | {f'iprec_at_recall_{x / 10:.2f}' for x in range(11)} \
    | {f'{m}_{k}' for m in ('map_cut', 'ndcg_cut', 'P', 'recall', 'relative_P') for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)} \
    | {f'Rprec_mult_{x / 10:.2f}' for x in range(2, 21, 2)}
SET = {'num_q', 'num_rel', 'num_rel_ret', 'num_ret', 'runid', 'set_F', 'set_map', 'set_P', 'set_recall', 'set_relative_P', 'utility'}
OFFICIAL = {'P_5', 'P_10', 'P_15', 'P_20', 'P_30', 'P_100', 'P_200', 'P_500', 'P_1000', 'num_q', 'num_rel', 'num_rel_ret',
            'num_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'runid'} | {f'iprec_at_recall_{x / 10:.2f}' for x in range(11)}
SOME_RUN = {'q1': {'d1': 1.0}, 'q2': {'d2': 1.0}}

@pytest.mark.parametrize('nicknames,expected', [(['all_trec'], ALL_TREC_9), (['set'], SET), (['official'], OFFICIAL),
                                                (['official', 'set', 'ndcg'], OFFICIAL | SET | {'ndcg'})],
                         ids=['all_trec', 'set', 'official', 'official_set_ndcg'])
def test_nicknames(nicknames, expected):
    # PyTrecEvalUnitTest::test_nicknames — the measure names each nickname gives in trec_eval 9 (pytrec_eval's).
    # The source evaluates an empty run ({'q1': {}, 'q2': {}}); ours refuses an empty run, so a one-document run is used
    assert set(trec_eval(QREL, SOME_RUN, nicknames, version=9).names) == expected

def test_nicknames_all_trec_10():
    # PyTrecEvalUnitTest::test_nicknames — trec_eval 10's all_trec adds rbp, rbp_resid and unj_5/10/20 to 9's
    names = set(trec_eval(QREL, SOME_RUN, ['all_trec'], version=10).names)
    assert names == ALL_TREC_9 | {'rbp', 'rbp_resid', 'unj_5', 'unj_10', 'unj_20'}

# ------------------------------------------------------------------ PyTrecEvalUnitTest::test_ndcg_cut
def test_ndcg_cut_3():
    # PyTrecEvalUnitTest::test_ndcg_cut (ndcg_cut.3, relevant at rank 3): 0.5
    assert trec_q(QREL, {'q1': RANK3, 'q2': {}}, ['ndcg_cut.3'], 'q1')['ndcg_cut_3'] == pytest.approx(0.5, abs=1e-12)
    assert ndcg_q1({'q1': RANK3, 'q2': {}}, 'nDCG@3') == pytest.approx(0.5, abs=1e-12)

def test_ndcg_cut_1():
    # PyTrecEvalUnitTest::test_ndcg_cut (ndcg_cut.1, relevant at rank 1): 1.0
    assert trec_q(QREL, {'q1': RANK1, 'q2': {}}, ['ndcg_cut.1'], 'q1')['ndcg_cut_1'] == 1.0
    assert ndcg_q1({'q1': RANK1, 'q2': {}}, 'nDCG@1') == 1.0

@pytest.mark.parametrize('repeat', [1, 2])
def test_ndcg_cut_several(repeat):
    # PyTrecEvalUnitTest::test_ndcg_cut (ndcg_cut.1,2,3,1000, relevant at rank 3): 0, 0, 0.5, 0.5; the terrier fork
    # evaluates twice and expects the same values
    got = trec_q(QREL, {'q1': RANK3, 'q2': {}}, ['ndcg_cut.1,2,3,1000'], 'q1')
    assert [got[f'ndcg_cut_{k}'] for k in (3, 2, 1, 1000)] == pytest.approx([0.5, 0.0, 0.0, 0.5], abs=1e-12)
    mine = quiet(evaluate, QREL, {'q1': RANK3, 'q2': {}}, ['nDCG@1', 'nDCG@2', 'nDCG@3', 'nDCG@1000'], per_query=True)['q1']
    assert list(mine.values()) == pytest.approx([0.0, 0.0, 0.5, 0.5], abs=1e-12)

# ------------------------------------------------------------------ PyTrecEvalUnitTest::test_empty
RUN = {'q1': RANK3, 'q2': {}}

@pytest.mark.parametrize('qrels,run,measures', [
    (QREL, {}, ['map', 'ndcg']), (QREL, RUN, []), ({}, RUN, ['map', 'ndcg']), ({}, {}, ['map', 'ndcg']),
    (QREL, {}, []), ({}, RUN, []), ({}, {}, [])],
    ids=['empty_run', 'empty_measures', 'empty_qrels', 'empty_qrels_and_run', 'empty_measures_and_run',
         'empty_qrels_and_measures', 'empty_everything'])
def test_empty(qrels, run, measures):
    # PyTrecEvalUnitTest::test_empty — pytrec_eval returns {} in every case except "empty measures", where it gives
    # {'q1': {}, 'q2': {}}. We refuse each of these inputs with an EvalInputError naming what is empty
    # (a deliberate difference: nothing to evaluate is an input error here)
    with pytest.raises(EvalInputError):
        evaluate(qrels, run, measures, per_query=True)
    if qrels and run:      # the trec_eval drop-in with no measure: the evaluated queries, no columns. pytrec_eval also
        t = quiet(trec_eval, qrels, run, measures, per_query=True, version=9)   # lists q2, whose run is empty
        assert t.names == [] and {str(q): v for q, v in t.per_query.items()} == {'q1': {}}
    else:
        with pytest.raises(EvalInputError):
            quiet(trec_eval, qrels, run, measures, version=9)

# ------------------------------------------------------------------ PyTrecEvalUnitTest::test_measure_params
MEASURE_PARAMS = {'ndcg_cut_1', 'ndcg_cut_4', 'ndcg_cut_15', 'ndcg_cut_20', 'recall_1000',
                  'P_200', 'P_15', 'P_10', 'P_5', 'P_30', 'P_100', 'P_20', 'P_500', 'P_1000'}

def test_measure_params():
    # PyTrecEvalUnitTest::test_measure_params — the printed names; pytrec_eval joins the parameters of repeated
    # ndcg_cut requests (1,4 and 20,4 and 15), so they are asked for at once here
    assert set(quiet(trec_eval, QREL, RUN, ['ndcg_cut.1,4,15,20', 'recall.1000', 'P']).names) == MEASURE_PARAMS

@pytest.mark.xfail(strict=True, reason="the drop-in reads trec_eval's syntax: parameters follow a '.' ('ndcg_cut_20,4' is refused, "
                                       "with that suggestion), and a repeated measure keeps its first parameters "
                                       "instead of pytrec_eval's union")
def test_measure_params_as_written():
    # PyTrecEvalUnitTest::test_measure_params, the request list as the source writes it
    requests = ['ndcg_cut', 'ndcg_cut.1,4', 'ndcg_cut_20,4', 'ndcg_cut_15', 'recall.1000', 'P']
    assert set(quiet(trec_eval, QREL, RUN, requests).names) == MEASURE_PARAMS

# ------------------------------------------------------------------ PyTrecEvalIntegrationTest (generated cases)
def printed_all(path):
    "{measure: value} of the 'all' lines of a trec_eval output (numeric values only)."
    out = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r'^([A-Za-z0-9_\-.]+)\s+all\s+([0-9.e\-]+)$', line)
        if m: out[m.group(1)] = float(m.group(2))
    return out

@pytest.mark.parametrize('qrels,out,measures,level', [
    ('qrels.test', 'out.test', ['official'], 1), ('qrels.rel_level', 'out.test.aql', ['all_trec', 'relstring.20'], 2)],
    ids=['out.test', 'out.test.aql-relevance_level=2'])
def test_traditional(qrels, out, measures, level):
    # PyTrecEvalIntegrationTest::test_results.test-qrels.test-out.test and
    # ::test_results.test-qrels.rel_level-out.test.aql-relevance_level=2 — every 'all' value of trec_eval's own
    # output, to 3 places as the source (ours: the printed 4 decimals). The outputs come from trec_eval 10.0, so the
    # drop-in runs with its default version=10 here
    if not TREC_EVAL.is_dir():
        pytest.skip(f"trec_eval conformance data not found at {TREC_EVAL} (set RANKMETRICS_SHARED to the shared/ folder)")
    expected = printed_all(TREC_EVAL / out)
    got = trec_eval(TREC_EVAL / qrels, TREC_EVAL / 'results.test', measures, level=level).summary
    assert set(expected) <= set(got)
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=5e-5), name
