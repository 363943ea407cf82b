"""Presets against the tools they name, on real data: a preset's values equal the tool's, or it says why not.

1. `conventions='ir_measures'` on the TREC Web 2012 diversity qrels (TREC Web Track 2012 qrels, NIST) and the
   track's four Indri baseline runs: every diversity measure ir_measures 0.4.3 computes (through pyndeval) agrees
   per query with ir_measures itself. pyndeval orders tied documents by id ascending, not as trec_eval does, and
   its alpha-DCG is ndeval's column (scaled by the ideal-ideal gains); reconcile's ir_measures column agrees too.
2. `conventions='ranx'` warns (`PresetWarning`) where ranx's own sort does not keep tied documents in a fixed order
   (lists of more than 15 tied documents of different grades), naming how many queries, as reconcile refuses them.

The tests skip, saying why, where the shared conformance folder or a peer tool is absent."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.evaluator.memory import evaluation
from rankmetrics_nb.registry.conventions import PresetWarning
from rankmetrics_nb.results.reconcile import reconcile

from conftest import DIVERSITY
QRELS_2012 = DIVERSITY / 'qrels' / 'wt2012.qrels-for-ndeval.txt'
ADHOC_2012 = DIVERSITY / 'qrels' / 'wt2012.qrels.adhoc.txt'
RUNS_2012 = sorted((DIVERSITY / 'runs').glob('wt2012.baseline.*.txt')) if (DIVERSITY / 'runs').is_dir() else []
PYNDEVAL_MEASURES = ['alpha_nDCG@20', 'alpha_nDCG@5', 'alpha_nDCG(alpha=0.3)@10', 'alpha_DCG@20', 'alpha_DCG@10', 'ERR_IA@20',
                     'ERR_IA@5', 'nERR_IA@20', 'nERR_IA@10', 'NRBP', 'nNRBP', 'NRBP(alpha=0.3,beta=0.8)', 'P_IA@20',
                     'P_IA@5', 'AP_IA', 'StRecall@10', 'StRecall@20']

@pytest.fixture(scope='module')
def web2012():
    "The TREC Web 2012 qrels and baseline runs; skip (saying why) where absent."
    if not QRELS_2012.is_file() or len(RUNS_2012) != 4:
        pytest.skip(f"TREC Web 2012 data not found under {DIVERSITY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return QRELS_2012, RUNS_2012

@pytest.fixture(scope='module')
def irm():
    "ir_measures with its pyndeval backend; skip (saying why) where either is absent."
    ir_measures = pytest.importorskip('ir_measures', reason='ir_measures (a dev dependency) is not installed')
    pytest.importorskip('pyndeval', reason="pyndeval (a dev dependency: ir_measures' diversity backend) is not installed")
    return ir_measures

def _quiet(f, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return f(*a, **kw)

def _theirs(irm, qrels, run, measure:str)->dict:
    "{qid: value} of ir_measures' `measure` (its own spelling: the same as ours for these)."
    qr, rn = list(irm.read_trec_qrels(str(qrels))), list(irm.read_trec_run(str(run)))
    return {m.query_id: m.value for m in irm.iter_calc([irm.parse_measure(measure)], qr, rn)}

@pytest.mark.parametrize('measure', PYNDEVAL_MEASURES)
def test_ir_measures_preset_diversity_per_query(web2012, irm, measure):
    "Every wt2012 baseline run, every query: the preset's value is ir_measures' (through pyndeval) to 1e-12."
    qrels, runs = web2012
    for run in runs:
        e = _quiet(evaluation, qrels, run, [measure], conventions='ir_measures')
        ours = dict(zip(map(str, e.qids), e.values[:, 0].tolist()))
        theirs = _theirs(irm, qrels, run, measure)
        assert set(theirs) <= set(ours), (run.name, sorted(set(theirs) - set(ours)))
        worst = max(theirs, key=lambda q: abs(ours[q] - theirs[q]))
        assert abs(ours[worst] - theirs[worst]) < 1e-12, (run.name, measure, worst, ours[worst], theirs[worst])

def test_ir_measures_preset_alpha_ndcg_means(web2012, irm):
    "alpha-nDCG@20's mean on each run equals ir_measures' aggregate (rm.catb: 0.3933316, not trec's tie order's 0.3931063)."
    qrels, runs = web2012
    means = {}
    for run in runs:
        qr, rn = list(irm.read_trec_qrels(str(qrels))), list(irm.read_trec_run(str(run)))
        theirs = irm.calc_aggregate([irm.alpha_nDCG@20], qr, rn)[irm.alpha_nDCG@20]
        ours = _quiet(evaluation, qrels, run, ['alpha_nDCG@20'], conventions='ir_measures').means()['alpha_nDCG@20']
        assert abs(float(ours) - theirs) < 1e-12, (run.name, float(ours), theirs)
        means[run.name] = float(ours)
    assert round(means['wt2012.baseline.rm.catb-filtered.txt'], 7) == 0.3933316

def test_ir_measures_preset_query_152(web2012):
    "Query 152 of rm.catb, where the two tie orders part: pyndeval's (id ascending) 0.6288, trec's 0.6175."
    qrels, runs = web2012
    run = next(r for r in runs if 'rm.catb' in r.name)
    v = lambda **kw: _quiet(evaluation, qrels, run, ['alpha_nDCG@20'], **kw).per_query()['152']['alpha_nDCG@20']
    assert round(v(conventions='ir_measures'), 4) == 0.6288
    assert round(v(ties='trec'), 4) == 0.6175
    assert v(conventions='ir_measures') == v(ties='id_ascending')

def test_reconcile_ir_measures_column(web2012, irm):
    "reconcile's ir_measures column is the preset's: ir_measures' own mean."
    qrels, runs = web2012
    run = next(r for r in runs if 'rm.catb' in r.name)
    r = _quiet(reconcile, qrels, run, 'alpha_nDCG@20', tools=['ours', 'ir_measures', 'ndeval'])
    qr, rn = list(irm.read_trec_qrels(str(qrels))), list(irm.read_trec_run(str(run)))
    assert abs(float(r.means['ir_measures']) - irm.calc_aggregate([irm.alpha_nDCG@20], qr, rn)[irm.alpha_nDCG@20]) < 1e-12

def test_ranx_preset_warns_where_ranx_sort_is_unstable(tmp_path):
    "A query of 20 tied documents of different grades: evaluate(conventions='ranx') warns, naming 1 query; 15 do not warn."
    qrels = {'q': {f'd{i:02d}': int(i % 3 == 0) for i in range(20)}, 's': {'a': 1, 'b': 0}}
    run = {'q': {f'd{i:02d}': 1.0 for i in range(20)}, 's': {'a': 1.0, 'b': 1.0}}
    with pytest.warns(PresetWarning, match=r"conventions='ranx': AP may differ from ranx's own values: ranx's sort keeps tied "
                                           r"documents in the order given only in lists of at most 15: 1 query has"):
        evaluation(qrels, run, ['AP'], conventions='ranx', warn_ties=None)
    short = {'q': {f'd{i:02d}': 1.0 for i in range(15)}}
    with warnings.catch_warnings():
        warnings.simplefilter('error', PresetWarning)
        _quiet(evaluation, qrels, short, ['AP'], conventions='ranx', warn_ties=None)     # 15 tied: ranx keeps them in order
        evaluation(qrels, run, ['AP'], conventions='ir_measures', warn_ties=None)         # pytrec_eval's order is fixed

def test_ranx_preset_warns_on_rm_catb_as_reconcile_refuses(web2012):
    "rm.catb (ad hoc qrels): ranx's AP is not reproducible; evaluate says how many queries, the same count reconcile gives."
    _, runs = web2012
    if not ADHOC_2012.is_file(): pytest.skip(f"TREC Web 2012 ad hoc qrels not found at {ADHOC_2012}")
    run = next(r for r in runs if 'rm.catb' in r.name)
    with pytest.warns(PresetWarning) as got:
        _quiet(evaluation, ADHOC_2012, run, ['AP'], conventions='ranx', warn_ties=None)
    text = str(next(w.message for w in got if issubclass(w.category, PresetWarning)))
    refused = _quiet(reconcile, ADHOC_2012, run, 'AP', tools=['ours', 'ranx']).refused['ranx']
    assert refused in text, (refused, text)
