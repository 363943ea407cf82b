"""Every preset, measure by measure, against the tool it names: pytrec_eval for `pytrec_eval` and `trec_eval9` (every
measure pytrec_eval computes, per query), this package's trec_eval drop-in for `trec_eval` (every measure of its
`all_trec`, per query; the drop-in is checked against trec_eval's own outputs elsewhere), ir_measures, ranx and
scikit-learn where installed, and the values torchmetrics' documentation states (torchmetrics is not installed: it pulls
a GPU stack). Seeded collections with tied scores, negative and graded judgements, and queries missing on either side.
A measure a preset cannot reproduce must be refused by name, with a reason."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.evaluator.evaluate import evaluate
from rankmetrics_nb.registry.measures import parse_measure, REGISTRY
from rankmetrics_nb.registry.conventions import CONVENTIONS, apply_conventions

warnings.simplefilter('ignore')

def collection(seed:int, decimals:int=1, numeric:bool=False, negative:bool=True):
    "Ten judged queries (q0, q1 not in the run), ten run queries (q10, q11 not judged), scores with `decimals` decimals."
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    name = (lambda q: str(q + 1)) if numeric else (lambda q: f'q{q}')
    for q in range(12):
        docs = [f'd{i}' for i in rng.choice(40, 25, replace=False)]
        if q < 10: qrels[name(q)] = {d: int(rng.integers(-1 if negative else 0, 4)) for d in docs[:rng.integers(1, 15)]}
        if q > 1: run[name(q)] = {d: float(np.round(rng.normal(), decimals)) for d in docs[rng.integers(0, 5):]}
    return qrels, run

def close(ours, theirs, what, atol=1e-12):
    assert ours is not None, what
    assert np.isclose(ours, theirs, rtol=0, atol=atol, equal_nan=True), (what, ours, theirs)

# ----------------------------------------------------------------------------------------------- pytrec_eval, trec_eval9
@pytest.mark.parametrize('preset', ['pytrec_eval', 'trec_eval9'])
@pytest.mark.parametrize('seed', [0, 1, 2])
def test_every_pytrec_eval_measure(preset, seed):
    pytrec_eval = pytest.importorskip('pytrec_eval')
    qrels, run = collection(seed)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    names = sorted(next(iter(theirs.values())))
    checked = 0
    for n in names:
        if n in ('runid', 'relstring'): continue                              # printed, not per-query numbers
        try: ours = evaluate(qrels, run, [n], per_query=True, conventions=preset)
        except EvalInputError as e:
            assert n.startswith('iprec_at_recall') or n == '11pt_avg', (n, str(e))   # refused by name, with the reason
            assert 'truncating x·R + 0.9' in str(e)
            continue
        if n.startswith('gm_'):                                                # pytrec_eval's per-query gm values are logs
            mean = evaluate(qrels, run, [n], conventions=preset)[n]
            close(np.log(float(mean)), np.mean([v[n] for v in theirs.values()]), n)
        else:
            assert set(ours) == set(theirs), n
            for q, v in theirs.items(): close(ours[q][n], v[n], f'{n} {q}')
        checked += 1
    assert checked > 80                                                        # P_5 ... ndcg_cut_1000, bpref, infAP, ...

# ------------------------------------------------------------------------------------------------------------ trec_eval
@pytest.mark.parametrize('seed', [0, 3])
def test_trec_eval_preset_against_the_drop_in(seed):
    from rankmetrics_nb.interop.trec_eval import trec_eval
    qrels, run = collection(seed)
    r = trec_eval(qrels, run, ['all_trec'], version=10)
    skip = ('runid', 'relstring', 'num_q')
    names = [n for n in r.names if n not in skip and not n.startswith('gm_') and n in r.per_query[next(iter(r.per_query))]]
    checked = 0
    for n in names:
        try: ours = evaluate(qrels, run, [n], per_query=True, conventions='trec_eval')
        except EvalInputError as e: pytest.fail(f'{n} refused: {e}')
        for q, v in r.per_query.items(): close(ours[q][n], v[n], f'{n} {q}')
        checked += 1
    assert checked > 80

def test_trec_presets_refuse_cutoffs_trec_eval_has_not():
    for preset in ('trec_eval', 'trec_eval9', 'pytrec_eval'):
        for m in ('RR@10', 'DCG@10', 'NumRelRet@10'):
            with pytest.raises(EvalInputError, match='has no cutoff form'): apply_conventions([parse_measure(m)], preset)
        assert apply_conventions([parse_measure('P@10'), parse_measure('nDCG@10'), parse_measure('AP@10')], preset)

# ---------------------------------------------------------------------------------------------------------- ir_measures
IR_MEASURES = ['P@5', 'P(rel=2)@5', 'P(rel=3)@3', 'R@10', 'Rprec', 'Success@5', 'RR', 'AP', 'AP@10', 'AP(rel=2)', 'nDCG',
               'nDCG@10', 'nDCG(judged_only=True)@5', 'Judged', 'NumRet', 'NumRelRet', 'NumRet(rel=1)', 'SetP', 'SetR',
               'SetAP', 'SetF', 'SetRelP', 'Bpref', 'infAP']
IR_MEASURES_REFUSED = ['RR@5', 'Judged@10', 'Compat(p=0.8)', 'Accuracy@10', 'NumQ', 'NumRel', 'IPrec@0.5', 'RBP(p=0.8)',
                       'BPM(T=1.0,min_rel=0,max_rel=3)@10', 'INSQ(T=2.0,min_rel=0,max_rel=3)', 'INST(T=2.0,min_rel=0,max_rel=3)',
                       'SDCG(min_rel=0,max_rel=3)@10', 'NERR8(min_rel=0,max_rel=3)@10', 'NERR9(min_rel=0,max_rel=3)@10',
                       'NERR10(p=0.9,min_rel=0,max_rel=3)', 'NERR11(T=2.0,min_rel=0,max_rel=3)']

@pytest.mark.parametrize('seed', [0, 4])
def test_ir_measures_preset_measure_by_measure(seed):
    ir_measures = pytest.importorskip('ir_measures')
    qrels, run = collection(seed, negative=False)
    for name in IR_MEASURES:
        im = ir_measures.parse_measure(name)
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc([im], qrels, run)}
        ours = evaluate(qrels, run, [name], per_query=True, conventions='ir_measures')
        assert set(ours) == set(theirs), name                                 # every qrels query (queries='qrels')
        for q, v in theirs.items(): close(ours[q][name], v, f'{name} {q}')
        close(float(evaluate(qrels, run, [name], conventions='ir_measures')[name]),
              ir_measures.calc_aggregate([im], qrels, run)[im], f'{name} mean')

@pytest.mark.parametrize('seed', [5])
def test_ir_measures_preset_gdeval_backend(seed):
    "ERR and nDCG(dcg='exp-log2') go to gdeval (numeric topics), which prints 5 decimals."
    ir_measures = pytest.importorskip('ir_measures')
    qrels, run = collection(seed, numeric=True, negative=False)
    for name in ('ERR@10', 'ERR@20', 'nDCG(dcg="exp-log2")@10'):
        im = ir_measures.parse_measure(name)
        try: theirs = {m.query_id: m.value for m in ir_measures.iter_calc([im], qrels, run)}
        except Exception as e: pytest.skip(f'gdeval backend unavailable: {e}')
        ours = evaluate(qrels, run, [name], per_query=True, conventions='ir_measures')
        for q, v in theirs.items(): close(ours[q][name], v, f'{name} {q}', atol=5.1e-6)

def test_ir_measures_preset_refuses_by_name():
    for name in IR_MEASURES_REFUSED:
        with pytest.raises(EvalInputError, match="conventions='ir_measures' cannot reproduce"):
            evaluate(*collection(0), [name], conventions='ir_measures')

@pytest.mark.parametrize('seed', [6, 7])
def test_refused_ir_measures_agree_without_ties(seed):
    "What the refusals rest on: with untied scores (and every query answered) ours and ir_measures agree on them."
    ir_measures = pytest.importorskip('ir_measures')
    qrels, run = collection(seed, decimals=9, negative=False)
    for name in ['Judged@10', 'Compat(p=0.8)', 'RR@5', 'BPM(T=1.0,min_rel=0,max_rel=3)@10', 'SDCG(min_rel=0,max_rel=3)@10',
                 'NERR10(p=0.9,min_rel=0,max_rel=3)', 'INST(T=2.0,min_rel=0,max_rel=3)']:
        im = ir_measures.parse_measure(name)
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc([im], qrels, run)}
        ours = evaluate(qrels, run, [name], per_query=True, queries='qrels')
        for q, v in theirs.items(): close(ours[q][name], v, f'{name} {q}')

# ----------------------------------------------------------------------------------------------------------------- ranx
RANX = {'P@5': 'precision@5', 'R@10': 'recall@10', 'F@5': 'f1@5', 'Rprec': 'r-precision', 'Success@5': 'hit_rate@5',
        'RR': 'mrr', 'AP': 'map', 'AP@10': 'map@10', 'DCG@10': 'dcg@10', 'nDCG@10': 'ndcg@10', 'nDCG': 'ndcg',
        'nDCG(gain=exp)@10': 'ndcg_burges@10', 'Bpref': 'bpref'}

@pytest.mark.parametrize('seed', [0, 8])
def test_ranx_preset_measure_by_measure(seed):
    "Untied scores (ranx's sort of tied scores is not stable: the preset's documented limit); every registry name it covers."
    ranx = pytest.importorskip('ranx')
    qrels, run = collection(seed, decimals=9, negative=False)
    covered = {parse_measure(m).name for m in RANX}
    assert covered >= set(CONVENTIONS['ranx'].measures()) - {'NumRet'}
    q, r = ranx.Qrels(qrels), ranx.Run(run)
    theirs = ranx.evaluate(q, r, list(RANX.values()), make_comparable=True, return_mean=False)
    qids = sorted(qrels)
    for m, name in RANX.items():
        ours = evaluate(qrels, run, [m], per_query=True, conventions='ranx')
        assert sorted(ours) == qids, m
        np.testing.assert_allclose([ours[x][m] for x in qids], np.asarray(theirs[name]), rtol=0, atol=1e-9, err_msg=m)
    ours = evaluate(qrels, run, ['NumRet'], per_query=True, conventions='ranx')      # ranx's num_ret: documents retrieved
    assert all(ours[x]['NumRet'] == len(run.get(x, {})) for x in qids)

# ------------------------------------------------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize('seed', [0, 9])
def test_sklearn_preset_measure_by_measure(seed):
    "dcg_score and ndcg_score (ignore_ties=False) per query, on the run's documents (unjudged: grade 0), ties included."
    metrics = pytest.importorskip('sklearn.metrics')
    qrels, run = collection(seed, decimals=1, negative=False)
    for k in (3, 10, None):
        ms = [f'DCG@{k}' if k else 'DCG', f'nDCG@{k}' if k else 'nDCG']
        ours = evaluate(qrels, run, ms, per_query=True, conventions='sklearn')
        for qid, docs in run.items():
            if qid not in qrels: continue
            y = np.array([[qrels[qid].get(d, 0) for d in docs]]); s = np.array([list(docs.values())])
            close(ours[qid][ms[0]], metrics.dcg_score(y, s, k=k), f'{ms[0]} {qid}', atol=1e-9)
            close(ours[qid][ms[1]], metrics.ndcg_score(y, s, k=k) if y.sum() else 0.0, f'{ms[1]} {qid}', atol=1e-9)

# -------------------------------------------------------------------------------------------------------- torchmetrics
# torchmetrics' docstring examples (functional/ and retrieval/ in torchmetrics 1.x), two queries:
# indexes [0,0,0,1,1,1,1], preds [.2,.3,.5,.1,.3,.5,.2], target [F,F,T,F,T,F,T]
GROUPED = ({'0': {'a': 0, 'b': 0, 'c': 1}, '1': {'d': 0, 'e': 1, 'f': 0, 'g': 1}},
           {'0': {'a': 0.2, 'b': 0.3, 'c': 0.5}, '1': {'d': 0.1, 'e': 0.3, 'f': 0.5, 'g': 0.2}})
CURVE = ({'0': {'a': 1, 'b': 0, 'c': 0, 'd': 1}, '1': {'e': 1, 'f': 0, 'g': 1}},
         {'0': {'a': 0.4, 'b': 0.01, 'c': 0.5, 'd': 0.6}, '1': {'e': 0.2, 'f': 0.3, 'g': 0.5}})

@pytest.mark.parametrize('data,measure,expected', [
    (GROUPED, 'AP', 0.7917), (GROUPED, 'RR', 0.75), (GROUPED, 'P@2', 0.5), (GROUPED, 'nDCG', 0.8467),
    (GROUPED, 'FallOut@2', 0.5), (GROUPED, 'AUROC', 0.75), (CURVE, 'RecallAtFixedPrecision(min_precision=0.8)@4', 0.5),
    (({'0': {'a': 1, 'b': 0, 'c': 0}, '1': GROUPED[0]['1']}, GROUPED[1]), 'Success@2', 0.5)])
def test_torchmetrics_preset_restated(data, measure, expected):
    "RetrievalMAP 0.7917, RetrievalMRR 0.75, RetrievalPrecision(top_k=2) 0.5, RetrievalNormalizedDCG 0.8467, RetrievalFallOut(top_k=2) 0.5, RetrievalAUROC 0.75, RetrievalRecallAtFixedPrecision 0.5, RetrievalHitRate(top_k=2) 0.5."
    ties = 'double' if measure.split('@')[0].split('(')[0] in ('FallOut', 'AUROC', 'RecallAtFixedPrecision') else None
    # (those three have no expected value over tied orders: the preset's ties='expected' refuses them by name; untied here)
    assert float(evaluate(*data, [measure], conventions='torchmetrics', ties=ties)[measure]) == pytest.approx(expected, abs=5e-5)

def test_every_preset_measure_is_checked_or_refused():
    "The lists above and the conventions page cover every measure each preset accepts (a new one needs a check)."
    for name in CONVENTIONS['ranx'].measures(): assert any(parse_measure(m).name == name for m in RANX) or name == 'NumRet'
    seen = {parse_measure(m).name for m in IR_MEASURES + IR_MEASURES_REFUSED}
    diversity = {'alpha_DCG', 'alpha_nDCG', 'ERR_IA', 'nERR_IA', 'NRBP', 'nNRBP', 'P_IA', 'MAP_IA', 'StRecall'}   # pyndeval: absent
    assert set(CONVENTIONS['ir_measures'].measures()) - seen - diversity == {'ERR', 'IPrec'} - seen
