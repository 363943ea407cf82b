"""One registry, two front ends: `evaluate()` reaches every trec_eval measure by the name trec_eval prints, and its
per-query values equal the drop-in's (`rankmetrics trec_eval -q`) exactly — on trec_eval's own test files and on seeded
random collections, with -l and -J — and pytrec_eval's where it has the measure. Also: every measure name in
ir_measures' registry parses here or is listed as not supported, and ir_measures' values agree where it computes one."""
import sys, warnings
from pathlib import Path
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import SHARED
from rankmetrics_nb import evaluate, trec_eval, REGISTRY, parse_measure, EvalInputError
from rankmetrics_nb.registry.measures import trec_forms, registry_table

TREC_DIR = SHARED / 'conformance' / 'trec_eval'

def _printed_names(level=1, judged_only=False, qrels=None, run=None):
    "trec_eval's all_trec result and the evaluate() names of its per-query measures."
    r = trec_eval(qrels, run, measures=['all_trec'], per_query=True, level=level, judged_only=judged_only)
    names = [c.name for c in r.columns if c.per_query and c.kind != 'str']
    return r, names

def _ours(name:str, level:int, judged_only:bool):
    "The measure `name` with trec_eval's -l and -J as parameters."
    m = parse_measure(name)
    extra = {}
    if dict(m.params).get('rel') is not None: extra['rel'] = level      # NumRet's rel means 'count the relevant'
    if 'judged_only' in dict(m.params): extra['judged_only'] = judged_only
    return m(**extra) if extra else m

def _compare(qrels, run, level=1, judged_only=False):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        r, names = _printed_names(level, judged_only, qrels, run)
        measures = [_ours(n, level, judged_only) for n in names]
        ours = evaluate(qrels, run, measures, per_query=True, ties='double')
    keys = [str(m) for m in measures]
    assert set(ours) == set(r.per_query)
    bad = []
    for q, row in r.per_query.items():
        for n, k in zip(names, keys):
            a, b = ours[q][k], row[n]
            if not (a == b or (isinstance(a, float) and np.isnan(a) and np.isnan(b))): bad.append((q, n, k, a, b))
    assert not bad, f"{len(bad)} differences, e.g. {bad[:5]}"
    return len(names)

@pytest.mark.skipif(not TREC_DIR.exists(), reason="trec_eval's test files are not beside the repository (../shared)")
@pytest.mark.parametrize('level,judged_only', [(1, False), (2, False), (1, True)])
def test_trec_eval_test_files(level, judged_only):
    n = _compare(str(TREC_DIR / 'qrels.test'), str(TREC_DIR / 'results.test'), level, judged_only)
    assert n >= 90           # all_trec's per-query names: P_5 … unj_20

def _random_collection(rng):
    qrels, run = {}, {}
    for i in range(int(rng.integers(3, 9))):
        q = f'q{i}'
        docs = [f'd{j}' for j in range(int(rng.integers(1, 40)))]
        judged = rng.choice(docs, size=int(rng.integers(0, len(docs) + 1)), replace=False)
        if len(judged): qrels[q] = {d: int(rng.integers(-1, 4)) for d in judged}
        ranked = rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False)
        run[q] = {d: float(np.round(rng.normal(), int(rng.integers(0, 3)))) for d in ranked}    # ties within a query
    return qrels, run

@pytest.mark.parametrize('seed', range(12))
def test_random_collections(seed):
    rng = np.random.default_rng(7000 + seed)
    qrels, run = _random_collection(rng)
    if not qrels or not set(qrels) & set(run): pytest.skip('no evaluated query in this draw')
    _compare(qrels, run, level=int(rng.integers(1, 3)), judged_only=bool(rng.integers(0, 2)))

def test_pytrec_eval_agrees():
    pytrec_eval = pytest.importorskip('pytrec_eval')
    rng = np.random.default_rng(99)
    qrels, run = _random_collection(rng)
    qrels = {q: {d: max(g, 0) for d, g in v.items()} for q, v in qrels.items()}
    run = {q: {d: s + 1e-3 * j for j, (d, s) in enumerate(v.items())} for q, v in run.items()}   # no ties: orders agree
    names = {'map': 'map', 'bpref': 'bpref', 'infAP': 'infAP', 'P_5': 'P_5', 'recall_10': 'recall_10', 'ndcg': 'ndcg',
             'ndcg_cut_10': 'ndcg_cut_10', 'Rprec': 'Rprec', 'recip_rank': 'recip_rank', 'set_F': 'set_F', 'set_P': 'set_P',
             'iprec_at_recall_0.50': 'iprec_at_recall_0.50', 'success_5': 'success_5', 'num_rel_ret': 'num_rel_ret'}
    requested = {'map', 'bpref', 'infAP', 'P', 'recall', 'ndcg', 'ndcg_cut', 'Rprec', 'recip_rank', 'set_F', 'set_P',
                 'iprec_at_recall', 'success', 'num_rel_ret'}           # pytrec_eval prints P_5, recall_10, … for these
    theirs = pytrec_eval.RelevanceEvaluator(qrels, requested).evaluate(run)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = evaluate(qrels, run, list(names), per_query=True)
    assert set(ours) == set(theirs)
    for q in ours:
        for n in names: assert ours[q][n] == pytest.approx(theirs[q][n], abs=1e-12), (q, n)

def test_set_f_is_f_with_beta_squared():
    "ir_measures' and trec_eval's SetF(beta=b) weighs recall b times: our F without a cutoff, with beta = sqrt(b)."
    rng = np.random.default_rng(3)
    qrels, run = _random_collection(rng)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = evaluate(qrels, run, ['SetF(beta=0.25)', 'F(beta=0.5)', 'SetF(beta=4)', 'F(beta=2)'], per_query=True)
    for v in got.values():
        assert v['SetF(beta=0.25)'] == pytest.approx(v['F(beta=0.5)'], abs=1e-15)
        assert v['SetF(beta=4)'] == pytest.approx(v['F(beta=2)'], abs=1e-15)

# ---------------------------------------------------------------------------------------------------------------
# ir_measures' names

NOT_SUPPORTED = {}     # ir_measures names with no measure here, and why (also on the measures page)

def test_every_ir_measures_name_parses():
    ir_measures = pytest.importorskip('ir_measures')
    missing = []
    for name in ir_measures.measures.registry:
        try: parse_measure(name if name not in ('IPrec',) else 'IPrec@0.5')
        except EvalInputError as e:
            if 'needs a cutoff' in str(e): parse_measure(name + '@10')      # BPM, NERR8, NERR9, SDCG: a cutoff is required here
            else: missing.append(name)
    from rankmetrics_nb.registry.measures import IR_MEASURES_NOT_HERE
    assert set(missing) == set(IR_MEASURES_NOT_HERE), missing
    assert all(f'`{n}`' in registry_table() or n in IR_MEASURES_NOT_HERE for n in ir_measures.measures.registry)

def test_ir_measures_values_agree():
    ir_measures = pytest.importorskip('ir_measures')
    rng = np.random.default_rng(5)
    qrels, run = _random_collection(rng)
    qrels = {q: {d: max(g, 0) for d, g in v.items()} for q, v in qrels.items()}
    run = {q: {d: s + 1e-3 * j for j, (d, s) in enumerate(v.items())} for q, v in run.items()}
    names = ['AP', 'AP@10', 'nDCG@10', 'nDCG', 'P@5', 'R@10', 'RR', 'Rprec', 'Bpref', 'infAP', 'IPrec@0.5', 'SetP', 'SetR',
             'SetF(beta=0.25)', 'SetAP', 'Success@5', 'NumRet', 'NumRel', 'NumRet(rel=2)', 'Judged@10', 'Judged@3',
             'nDCG(gains={0:0,1:1,2:5,3:9})@10', 'AP(judged_only=True)', 'P(rel=2)@5', 'SetP(relative=True)']
    theirs = {}
    for n in names:     # one measure a call: ir_measures may hand several to one pytrec_eval evaluator, and its judged-only
        for m in ir_measures.iter_calc([ir_measures.parse_measure(n)], qrels, run):   # flag then filters them all (NumRet too),
            theirs[(m.query_id, str(m.measure))] = m.value                           # depending on the hash seed
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = evaluate(qrels, run, names, per_query=True)
    checked = 0
    for n in names:
        key = str(ir_measures.parse_measure(n))
        for q in ours:
            if (q, key) in theirs:
                assert ours[q][n] == pytest.approx(theirs[(q, key)], abs=1e-9), (q, n, ours[q][n], theirs[(q, key)]); checked += 1
    assert checked >= len(names) * 2

def test_one_table():
    "trec_eval's forms hang on registry entries: no other table of measures."
    import rankmetrics_nb.registry.measures as tm, rankmetrics_nb.registry.trec_view as tr
    assert not hasattr(tr, 'TREC_REGISTRY')
    assert list(tm.TREC_MEASURES) == list(trec_forms('qrels'))
    for f in trec_forms('qrels').values(): assert f in REGISTRY[f.measure].trec

def test_front_end_only_measures_compute_nothing():
    "A measure only trec_eval's front end computes (relstring, runid, the prefs and qrels_jg measures) has no function that "
    "pretends to compute it, and evaluate() says where to compute it; every other entry has one."
    front = [n for n, d in REGISTRY.items() if d.needs not in ('batch', 'subtopics')]
    assert {'relstring', 'runid', 'prefs_simp', 'map_avgjg'} <= set(front)
    assert [n for n in front if REGISTRY[n].compute is not None] == []
    assert [n for n, d in REGISTRY.items() if n not in front and not callable(d.compute)] == []
    with pytest.raises(EvalInputError, match="relstring is printed by trec_eval"):
        evaluate({'q': {'a': 1}}, {'q': {'a': 1.0}}, ['relstring'])

def test_parameter_ranges_are_declared():
    "rel and ERR's max_grade are checked by their declared Param, for every measure that has them, not by name in the parser."
    for name, d in REGISTRY.items():
        for p in d.params:
            if p.name == 'rel': assert (p.low, p.open_low) == (0, True), name
    with pytest.raises(EvalInputError, match="max_grade must be a positive number"): parse_measure('ERR(max_grade=-2)@10')
    with pytest.raises(EvalInputError, match="rel must be a positive number"): parse_measure('NumRet(rel=0)')
