"""`evaluate(..., conventions=...)` against the tools themselves, beyond the conventions page's small collection:
gdeval.pl's printed means (the shared conformance outputs) and pytrec_eval, ir_measures and ranx on the bundled
example collection (graded qrels, two runs, queries missing on either side)."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.data import example_paths
from rankmetrics_nb.evaluator.evaluate import evaluate

from conftest import DIVERSITY
TINY = DIVERSITY / 'tiny'
COMMON = ['P@5', 'R@10', 'AP', 'AP@10', 'RR', 'nDCG@10', 'nDCG', 'Success@5']

def quiet(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return evaluate(*args, **kw)

@pytest.fixture
def tiny():
    if not TINY.is_dir():
        pytest.skip(f"gdeval conformance data not found at {TINY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return TINY

@pytest.mark.parametrize('qrels, run, out, c', [
    ('irmeasures_gdeval.qrels', 'irmeasures_gdeval.run', 'irmeasures_gdeval.gdeval.k20.csv', False),
    ('irmeasures_gdeval.qrels', 'irmeasures_gdeval.run', 'irmeasures_gdeval.gdeval.k2.csv', False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.k20.csv', False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.k3.csv', False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.c.k20.csv', True),
    ('edge.adhoc.qrels', 'edge.div.run2', 'edge.adhoc.run2.gdeval.k20.csv', False)])
def test_gdeval_preset_means(tiny, qrels, run, out, c):
    "gdeval's amean row of nDCG@k and ERR@k, to its printed precision; -c is queries='qrels' on top of the preset."
    header, *rows = (tiny/out).read_text().split()
    k = int(header.split(',')[2].split('@')[1])
    amean = next(r.split(',') for r in rows if r.split(',')[1] == 'amean')
    got = quiet(tiny/qrels, tiny/run, [f'nDCG@{k}', f'ERR@{k}'], conventions='gdeval', **({'queries': 'qrels'} if c else {}))
    assert [f'{got[f"nDCG@{k}"]:.5f}', f'{got[f"ERR@{k}"]:.5f}'] == amean[2:]

@pytest.fixture(scope='module')
def example():
    p = example_paths()
    return {k: str(p[k]) for k in ('qrels', 'bm25', 'rerank')}

@pytest.mark.parametrize('name', ['bm25', 'rerank'])
def test_pytrec_eval_preset(example, name):
    pytrec_eval = pytest.importorskip('pytrec_eval')
    with open(example['qrels']) as f: qrels = pytrec_eval.parse_qrel(f)
    with open(example[name]) as f: run = pytrec_eval.parse_run(f)
    names = dict(zip(COMMON, ['P_5', 'recall_10', 'map', 'map_cut_10', 'recip_rank', 'ndcg_cut_10', 'ndcg', 'success_5']))
    per_q = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(run)
    ours = quiet(example['qrels'], example[name], COMMON, conventions='pytrec_eval')
    for m in COMMON:
        assert ours[m] == pytest.approx(np.mean([v[names[m]] for v in per_q.values()]), abs=1e-12), m

@pytest.mark.parametrize('name', ['bm25', 'rerank'])
def test_ir_measures_preset(example, name):
    ir_measures = pytest.importorskip('ir_measures')
    qrels, run = list(ir_measures.read_trec_qrels(example['qrels'])), list(ir_measures.read_trec_run(example[name]))
    ms = [ir_measures.parse_measure(m) for m in COMMON]
    theirs = ir_measures.calc_aggregate(ms, qrels, run)
    ours = quiet(example['qrels'], example[name], COMMON, conventions='ir_measures')
    for m, im in zip(COMMON, ms): assert ours[m] == pytest.approx(theirs[im], abs=1e-12), m

@pytest.mark.parametrize('name', ['rerank'])
def test_ranx_preset(example, name):
    """ranx per query and its query set (every qrels query). On long lists with ties ranx's sort is not stable, so no tie
    policy reproduces it there (the preset's documented limit): every query of the bm25 run has such ties, so only the
    rerank run (one query with ties) is compared."""
    ranx = pytest.importorskip('ranx')
    names = dict(zip(COMMON, ['precision@5', 'recall@10', 'map', 'map@10', 'mrr', 'ndcg@10', 'ndcg', 'hit_rate@5']))
    q, r = ranx.Qrels.from_file(example['qrels'], kind='trec'), ranx.Run.from_file(example[name], kind='trec')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        theirs = ranx.evaluate(q, r, list(names.values()), make_comparable=True, return_mean=False)
    qids = sorted(q.keys())                          # make_comparable: ranx's rows are the qrels queries, sorted
    ours = quiet(example['qrels'], example[name], COMMON, conventions='ranx', per_query=True)
    assert sorted(ours) == qids
    runs = r.to_dict()
    untied = [i for i, qid in enumerate(qids) if len(set(runs.get(qid, {}).values())) == len(runs.get(qid, {}))]
    assert len(untied) == len(qids) - 1
    untied = range(len(qids))                        # ranx's order agrees on the tied query too
    for m in COMMON:
        np.testing.assert_allclose([ours[qids[i]][m] for i in untied], np.asarray(theirs[names[m]])[untied], rtol=0, atol=1e-12, err_msg=m)

def test_written_parameters_and_settings_win(example):
    "A parameter written in the name, and a setting passed, win over the preset's."
    a = quiet(example['qrels'], example['bm25'], ['AP(denominator=n_rel)@10', 'AP@10'], conventions='spark', ties='trec')
    b = quiet(example['qrels'], example['bm25'], ['AP@10', 'AP(denominator=min_n_rel_k)@10'])
    assert list(a.values()) == list(b.values())

NDEVAL = {'ERR-IA': 'ERR_IA', 'nERR-IA': 'nERR_IA', 'alpha-nDCG': 'alpha_nDCG', 'NRBP': 'NRBP', 'nNRBP': 'nNRBP', 'MAP-IA': 'MAP_IA',
          'P-IA': 'P_IA', 'strec': 'StRecall'}

@pytest.mark.parametrize('qrels, run, out', [('edge.div.qrels', 'edge.div.run', 'edge.div.ndeval.byrank.csv'),
                                             ('edge.div.qrels', 'edge.div.run2', 'edge.div.run2.ndeval.byrank.csv')])
def test_ndeval_preset_means(tiny, qrels, run, out):
    "ndeval's amean row (its default order: the rank column), to its printed precision, for every column the preset covers."
    header, *rows = (tiny/out).read_text().split()
    amean = dict(zip(header.split(','), next(r.split(',') for r in rows if r.split(',')[1] == 'amean')))
    names = {col: NDEVAL[col.split('@')[0]] + ('@' + col.split('@')[1] if '@' in col else '')
             for col in header.split(',')[2:] if col.split('@')[0] in NDEVAL}
    got = quiet(tiny/qrels, tiny/run, list(names.values()), conventions='ndeval')
    assert {col: f'{got[m]:.6f}' for col, m in names.items()} == {col: amean[col] for col in names}
