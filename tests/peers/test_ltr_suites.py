"""The learning-to-rank suites of TF-Ranking, Rax, torchmetrics, Spark, pytorchltr and allRank, case by case, as tests of
rankmetrics_nb (none of those tools is installed here). The cases themselves — inputs, parameters, the values the
source asserts and its tolerance, with provenance — are data in `ltr_cases.py`; this module only says how each tool's
call is written through the public API: the tool's metric as a registry name, its parameters as the name's
parameters, and its conventions as the preset named after it (`evaluate_batch(..., conventions='tf_ranking')`), or
as explicit parameters where the tool has no preset here. Every one of the 404 records is reproduced.

How each tool's inputs are given:
* TF-Ranking: `labels`/`predictions` as the matrices (ragged lists padded with NaN), `mask`, item `weights` (a weight
  per list, `[batch, 1]`, is `list_weights`); `topn` is the cutoff (BPref's is `depth=`, the ranks it reads); a
  `gain_fn` becomes the `gains` map of the labels present; a custom `rank_discount_fn` is a callable given to the
  metric function on the same `ranked_batch` (a name cannot hold a callable; 1/rank is α-DCG's discount='reciprocal').
  `output` is the per-list values, `output_weights` the list weights, `value` (metrics_test.py) the batch mean.
* Rax: `scores`/`labels`/`where` (the mask)/`weights`; `reduce_fn=jnp.sum` is the sum of the per-list values.
* torchmetrics: `indexes` group the documents into lists (rows padded with NaN); `empty_target_action` is `empty=`;
  RetrievalRecallAtFixedPrecision's two outputs are `RecallAtFixedPrecision` and `RecallAtFixedPrecision(value=k)`.
* Spark: each (predicted array, label set) pair is a query of `evaluate`'s dicts: the prediction scored by its
  position, the label set judged 1 (or its relevance values, for the graded ndcgAt), an empty label set written as
  the predicted items judged 0, an empty prediction absent from the run.
* pytorchltr: `n` masks the items past each list's length; its `dcg` and `ndcg` count those items' relevance at the
  end of the ranking (`rank_by_score` puts them last, `dcg` does not mask them): the adapter keeps them, scored below
  every valid item, which is that rule.
* allRank: `y_true == -1` is padding (`negative='pad'`), gain 2^y - 1, `ats` the cutoffs.
"""
import math, sys, warnings
from collections import defaultdict
from pathlib import Path
import numpy as np
import pytest
sys.path.insert(0, str(Path(__file__).parent))
import ltr_cases as L
from rankmetrics_nb import evaluate, EvalInputError, QueryMismatchWarning
from rankmetrics_nb.evaluator.batches import evaluate_batch, ranked_batch
from rankmetrics_nb.metrics.dcg import ndcg, dcg
from rankmetrics_nb.metrics.diversity import alpha_dcg

CALLABLES = {'1 / (rank + 10)': lambda r: 1 / (r + 10), '1 / (10 + rank)': lambda r: 1 / (10 + r), '1 / rank': lambda r: 1 / r}
GAIN_FNS = {'label / 2': lambda x: x / 2, 'label + 5': lambda x: x + 5, 'label + 3': lambda x: x + 3}

def flat(x):
    if isinstance(x, dict): return [v for k in sorted(x) for v in flat(x[k])]
    if isinstance(x, (list, tuple, np.ndarray)): return [v for e in x for v in flat(e)]
    return [float(x)]

def close(got, want, tol:dict)->bool:
    "The source's own tolerance: assertAllClose, assertAlmostEqual(places), absTol, printed decimals, pytest.approx, exact."
    got, want = flat(got), flat(want)
    if len(got) != len(want): return False
    for g, w in zip(got, want):
        if 'rtol' in tol: ok = abs(g - w) <= tol.get('atol', 0) + tol['rtol'] * abs(w)
        elif 'places' in tol: ok = round(abs(g - w), tol['places']) == 0
        elif 'absTol' in tol: ok = abs(g - w) <= tol['absTol']
        elif 'printed_decimals' in tol: ok = round(g, tol['printed_decimals']) == round(w, tol['printed_decimals'])
        elif 'pytest.approx' in tol: ok = abs(g - w) <= max(1e-6 * abs(w), 1e-12)
        else: ok = abs(g - w) <= 1e-12
        if not ok: return False
    return True

def padded(rows, fill=np.nan)->np.ndarray:
    "Ragged lists (of numbers, or of subtopic rows) as one array padded with `fill`."
    n = max((len(r) for r in rows), default=0)
    inner = np.shape(rows[0][0])[0] if rows and rows[0] and isinstance(rows[0][0], list) else None
    out = np.full((len(rows), n) + ((inner,) if inner else ()), fill, dtype=float)
    for i, r in enumerate(rows):
        if len(r): out[i, :len(r)] = r
    return out

# ------------------------------------------------------------------ TF-Ranking
TFR = dict(MRRMetric='RR', HitsMetric='Success', ARPMetric='ARP', RecallMetric='R', PrecisionMetric='P',
           MeanAveragePrecisionMetric='AP', NDCGMetric='nDCG', DCGMetric='DCG', OPAMetric='OPA', PrecisionIAMetric='P_IA',
           AlphaDCGMetric='alpha_DCG', BPrefMetric='Bpref', PWAMetric='PWA', MRR='RR', HITS='Success', ARP='ARP',
           PRECISION='P', RECALL='R', MAP='AP', NDCG='nDCG', DCG='DCG', ORDERED_PAIR_ACCURACY='OPA', PRECISION_IA='P_IA',
           ALPHA_DCG='alpha_DCG', BPREF='Bpref', PWA='PWA')

def tfr_name(metric:str, p:dict, labels:np.ndarray)->str:
    "The registry name of a TF-Ranking metric with its parameters (topn as the cutoff)."
    args = []
    if p.get('gain_fn') in GAIN_FNS:                                   # the gain of every label present, as a map
        f = GAIN_FNS[p['gain_fn']]
        args.append('gains={' + ','.join(f'{int(g)}:{f(g):g}' for g in np.unique(labels[~np.isnan(labels)])) + '}')
    if p.get('gain_fn') == 'label': args.append('gain=linear')
    if 'alpha' in p: args.append(f"alpha={p['alpha']}")
    if p.get('rank_discount_fn') == '1 / rank' and metric == 'alpha_DCG': args.append('discount=reciprocal')
    if p.get('use_trec_version') is False: args.append('form=original')
    k = p.get('topn') if metric not in ('ARP', 'OPA', 'Bpref') else None
    return metric + (f"({','.join(args)})" if args else '') + (f'@{k}' if k else '')

def tfr_inputs(c)->dict:
    "evaluate_batch's keyword arguments for a TF-Ranking case."
    i, p = c.inputs, c.params
    kw = dict(scores=padded(i['predictions'], 0.0), labels=padded(i['labels']))
    if 'mask' in i: kw['mask'] = np.array(i['mask'], bool)
    w = i.get('weights')
    if w is None and p.get('weights_feature_name'): w = i['features'][p['weights_feature_name']]
    if w is not None:
        w = np.array(w, float)
        if w.ndim == 3: w = w[:, :, 0]                                 # [batch, list, 1] is read as [batch, list]
        if w.ndim == 1 or w.shape[1] == 1: kw['list_weights'] = w.reshape(-1)    # [batch] or [batch, 1]: per list
        else: kw['weights'] = w
    if c.call.split('.')[-2 if 'impl' in c.call else -1].startswith('BPref') or 'BPREF' in c.call:
        kw['depth'] = p.get('topn')
    return kw

def tfr_run(c):
    "The case through the API: (per-list values, list weights, batch mean)."
    metric = TFR[c.call.split('(')[1][:-1] if 'make_ranking_metric_fn' in c.call else c.call.split('.')[1]]
    kw = tfr_inputs(c)
    name = tfr_name(metric, c.params, kw['labels'])
    rd = c.params.get('rank_discount_fn')
    if rd is not None and 'discount=reciprocal' not in name:          # a callable: the metric function on the same batch
        b = ranked_batch(kw['scores'], kw['labels'], kw.get('mask'), kw.get('weights'), ties='stable', negative='pad')
        f = dict(nDCG=ndcg, DCG=dcg, alpha_DCG=alpha_dcg)[metric]
        extra = dict(gain='linear' if c.params.get('gain_fn') == 'label' else 'exp') if metric != 'alpha_DCG' else dict(alpha=c.params.get('alpha', 0.5))
        v = np.atleast_1d(f(b, c.params.get('topn'), discount=CALLABLES[rd], **extra))
        return v, None, float(np.mean(v))
    e = evaluate_batch(conventions='tf_ranking', measures=[name], **kw)
    return e.values[:, 0], e.list_weights[:, 0], float(e.means()[name])

@pytest.mark.parametrize('case', L.by_tool('tf_ranking'), ids=lambda c: c.test)
def test_tf_ranking(case):
    values, weights, mean = tfr_run(case)
    for key, want in case.expected.items():
        got = {'output': values, 'output_weights': weights, 'value': mean}[key]
        assert got is not None and close(got, want, case.tol), (key, got, want)

# ------------------------------------------------------------------ Rax
RAX = dict(mrr_metric='RR', recall_metric='R', precision_metric='P', ap_metric='AP', dcg_metric='DCG', ndcg_metric='nDCG',
           opa_metric='OPA')

@pytest.mark.parametrize('case', L.by_tool('rax'), ids=lambda c: c.test)
def test_rax(case):
    i, p = case.inputs, case.params
    call = case.call.replace('jax.vmap(', '').rstrip(')')
    name = RAX[call] + (f"@{p['topn']}" if p.get('topn') else '')
    kw = dict(mask=i.get('where'), weights=i.get('weights'))
    e = evaluate_batch(i['scores'], i['labels'], [name], conventions='rax', **kw)
    for key, want in case.expected.items():
        if key == 'per_list': got = e.values[:, 0]
        elif key == 'per_list_stated': got = e.values[:, 0]
        elif p.get('reduce_fn') == 'jnp.sum': got = float(np.nansum(e.values[:, 0] * (e.list_weights[:, 0] > 0)))
        else: got = float(e.means()[name])
        assert close(got, want, case.tol), (key, got, want)

# ------------------------------------------------------------------ torchmetrics
TM = dict(RetrievalPrecision='P', RetrievalRecall='R', RetrievalMAP='AP', RetrievalMRR='RR', RetrievalFallOut='FallOut',
          RetrievalRecallAtFixedPrecision='RecallAtFixedPrecision')

def grouped(i:dict)->tuple:
    "torchmetrics' flat preds and targets as one padded row per index."
    g = defaultdict(lambda: ([], []))
    for q, pr, t in zip(i['indexes'], i['preds'], i['target']): g[q][0].append(pr); g[q][1].append(t)
    keys = sorted(g)
    return padded([g[q][0] for q in keys], 0.0), padded([g[q][1] for q in keys])

@pytest.mark.parametrize('case', L.by_tool('torchmetrics'), ids=lambda c: c.test)
def test_torchmetrics(case):
    scores, labels = grouped(case.inputs)
    p = case.params
    name = TM[case.call]
    if name == 'RecallAtFixedPrecision': name += f"(min_precision={p['min_precision']})"
    if p.get('top_k'): name += f"@{p['top_k']}"
    run = lambda n: evaluate_batch(scores, labels, [n], conventions='torchmetrics', empty=p.get('empty_target_action'))
    if case.expected.get('value') == 'ValueError':
        with pytest.raises(EvalInputError, match="empty='error'"): run(name)
        return
    for key, want in case.expected.items():
        n = name.replace(')', ',value=k)') if key == 'best_k' else name
        assert close(float(run(n).means()[n]), want, case.tol), (key, want)

# ------------------------------------------------------------------ Spark
def spark_dicts(pairs, relevance:bool)->tuple:
    "Spark's (prediction, label set[, relevance]) pairs as evaluate's dicts."
    qrels, run = {}, {}
    for q, t in enumerate(pairs):
        pred, lab, rel = t[0], t[1], (t[2] if len(t) > 2 and relevance else None)
        if pred: run[f'q{q}'] = {str(d): float(len(pred) - k) for k, d in enumerate(pred)}
        qrels[f'q{q}'] = {str(d): (rel[j] if rel else 1) for j, d in enumerate(lab)} if lab else {str(d): 0 for d in pred}
    return qrels, run

def spark_name(call:str, graded:bool)->str:
    name, _, k = call.rstrip(')').partition('(')
    base = dict(precisionAt='P', recallAt='R', meanAveragePrecision='AP', meanAveragePrecisionAt='AP', ndcgAt='nDCG')[name]
    return base + ('(gain=exp)' if graded and base == 'nDCG' else '') + (f'@{k}' if k else '')

@pytest.mark.parametrize('case', L.by_tool('spark'), ids=lambda c: c.test)
def test_spark(case):
    call = case.test.split('[')[1].rstrip(']')
    graded = 'relevance' in case.test and call.startswith('ndcgAt')
    qrels, run = spark_dicts(case.inputs['predictionAndLabels'], graded)
    name = spark_name(call, graded)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        got = float(evaluate(qrels, run, [name], conventions='spark')[name])
    assert close(got, case.expected['value'], case.tol), (name, got, case.expected)

# ------------------------------------------------------------------ pytorchltr
@pytest.mark.parametrize('case', L.by_tool('pytorchltr'), ids=lambda c: c.test)
def test_pytorchltr(case):
    i, p = case.inputs, case.params
    scores, rel = np.array(i['scores'], float), np.array(i['relevance'], float)
    inside = np.arange(scores.shape[1]) < np.array(i['n'])[:, None]
    if case.call.endswith(('dcg', 'ndcg')):
        # pytorchltr's dcg gathers the relevance of the items past n too, ranked after the valid ones
        scores = np.where(inside, scores, scores.min(axis=1, keepdims=True) - 1 - np.arange(scores.shape[1]))
        name = ('DCG' if case.call.endswith('.dcg') else 'nDCG') + ('(gain=exp)' if p['exp'] else '') + f"@{p['k']}"
        got = evaluate_batch(scores, rel, [name]).values[:, 0]
        assert close(got, case.expected['per_list'], case.tol)
    elif case.call.endswith('arp'):
        got = evaluate_batch(scores, rel, ['ARP'], mask=inside).values[:, 0]
        assert close(got, case.expected['per_list'], case.tol)
    else:                                                              # generate_pytrec_eval + pytrec_eval: map, ndcg
        name = dict(map='AP', ndcg='nDCG')[case.test.split('[')[1][:-1]]
        got = evaluate_batch(scores, rel, [name], mask=inside, qids=['q0', 'q1'])
        assert close(dict(zip(got.qids, got.values[:, 0])), case.expected['per_query'], {'rtol': 1e-12})

# ------------------------------------------------------------------ allRank
@pytest.mark.parametrize('case', L.by_tool('allrank'), ids=lambda c: c.test)
def test_allrank(case):
    at = case.test.split('at=')[1].rstrip(']') if 'at=' in case.test else (case.params['ats'] or [None])[0]
    base = 'nDCG(gain=exp)' if case.call.endswith('ndcg') else 'RR'
    name = base + (f'@{at}' if at else '')
    got = evaluate_batch(case.inputs['y_pred'], case.inputs['y_true'], [name], negative='pad').values[:, 0]
    assert close(got, case.expected['per_list'], case.tol), (got, case.expected)

def test_every_record_is_a_test():
    "404 records, each tool's test above runs all of its own (none skipped, none expected to fail)."
    assert len(L.CASES) == 404 and sum(L.counts().values()) == 404
    assert set(L.counts()) == {'tf_ranking', 'rax', 'torchmetrics', 'spark', 'pytorchltr', 'allrank'}
