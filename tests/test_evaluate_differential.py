"""Differential tests: `evaluate` against pytrec_eval-terrier (trec_eval 9.0.8) on seeded random collections.

Every collection is drawn from a seeded generator: varied numbers of queries and documents, graded judgements
(0-3), scores from a small set of values so that ties are common (exactly representable, so float32 and float64
order them alike), qrels queries with no results, run queries with no judgements, and queries whose judgements
are all 0. pytrec_eval is given only queries with a non-negative judgement: it corrupts memory on a query whose
judgements are all negative (see the README's notes), so grades here are never negative.
"""
import math, warnings
import numpy as np
import pytest
from rankmetrics_nb import evaluate, canonical, QueryMismatchWarning

pytrec_eval = pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')

# our name -> trec_eval's name, for every measure both support with the same meaning
SHARED = {'P@5': 'P_5', 'P@10': 'P_10', 'P@30': 'P_30', 'R@5': 'recall_5', 'R@100': 'recall_100', 'AP': 'map',
          'AP@10': 'map_cut_10', 'AP@100': 'map_cut_100', 'RR': 'recip_rank', 'nDCG': 'ndcg', 'nDCG@5': 'ndcg_cut_5',
          'nDCG@10': 'ndcg_cut_10', 'Rprec': 'Rprec', 'Success@1': 'success_1', 'Success@5': 'success_5',
          'Success@10': 'success_10', 'P': 'set_P', 'R': 'set_recall', 'F': 'set_F', 'NumRet': 'num_ret',
          'NumRel': 'num_rel', 'NumRelRet': 'num_rel_ret'}
# measures with a relevance threshold: evaluated at rel=2 too, against trec_eval's relevance_level=2 (-l2)
THRESHOLDED = [m for m in SHARED if not m.startswith('nDCG') and m != 'NumRet']


def collection(seed:int):
    "A seeded random qrels and run as {qid: {docno: value}} dicts."
    g = np.random.default_rng(seed)
    n_q = int(g.integers(1, 25))
    qrels, run = {}, {}
    for q in range(n_q):
        qid = f'q{q}'
        pool = [f'd{d}' for d in g.permutation(int(g.integers(1, 80)))]
        kind = g.random()
        if kind > 0.1:                                   # judged (10% of queries are in the run only)
            judged = pool[:int(g.integers(1, len(pool) + 1))]
            zeros_only = g.random() < 0.15
            grades = np.zeros(len(judged), int) if zeros_only else g.choice(4, len(judged), p=[0.6, 0.2, 0.12, 0.08])
            qrels[qid] = {d: int(r) for d, r in zip(judged, grades)}
        if kind < 0.1 or g.random() > 0.1:               # retrieved (10% of judged queries have no results)
            ret = [*pool[:int(g.integers(1, len(pool) + 1))], *(f'u{q}_{i}' for i in range(int(g.integers(0, 5))))]
            scores = g.choice(np.arange(0, 8) / 4, len(ret))   # few distinct values: many ties
            run[qid] = {d: float(s) for d, s in zip(g.permutation(ret), scores)}
    if not qrels: qrels['q0'] = {'d0': 1}
    if not run: run['q0'] = {'d0': 1.0}
    return qrels, run


def theirs(qrels, run, measures, rel=1):
    ev = pytrec_eval.RelevanceEvaluator(qrels, {SHARED[m] for m in measures}, relevance_level=rel)
    return ev.evaluate(run)


def ours(qrels, run, measures):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return evaluate(qrels, run, measures, per_query=True)


def assert_same(mine:dict, peer:dict, names:dict):
    assert set(mine) == set(peer), f"queries differ: ours only {set(mine) - set(peer)}, theirs only {set(peer) - set(mine)}"
    for qid, row in mine.items():
        for m, v in row.items():
            assert math.isclose(v, peer[qid][names[m]], rel_tol=0, abs_tol=1e-12), (qid, m, v, peer[qid][names[m]])


@pytest.mark.parametrize('seed', range(40))
def test_every_shared_measure_equals_pytrec_eval(seed):
    qrels, run = collection(seed)
    assert_same(ours(qrels, run, list(SHARED)), theirs(qrels, run, SHARED), SHARED)


@pytest.mark.parametrize('seed', range(20))
def test_relevance_threshold_equals_relevance_level(seed):
    qrels, run = collection(1000 + seed)
    mine = ours(qrels, run, [f'{m}(rel=2)' if '@' not in m else m.replace('@', '(rel=2)@') for m in THRESHOLDED])
    names = {(f'{m}(rel=2)' if '@' not in m else m.replace('@', '(rel=2)@')): SHARED[m] for m in THRESHOLDED}
    assert_same(mine, theirs(qrels, run, THRESHOLDED, rel=2), names)


def test_trec_eval_names_give_the_same_values():
    qrels, run = collection(7)
    trec = [t for t in SHARED.values() if canonical(t) in SHARED]
    mine = ours(qrels, run, trec)
    assert_same(mine, theirs(qrels, run, [canonical(t) for t in trec]), {t: t for t in trec})


def test_the_generator_covers_the_hard_cases():
    "The collections above do contain ties, missing queries both ways and all-zero queries (else the tests prove little)."
    seen = dict(ties=0, qrels_only=0, run_only=0, zeros_only=0)
    for seed in range(40):
        qrels, run = collection(seed)
        seen['qrels_only'] += len(set(qrels) - set(run)); seen['run_only'] += len(set(run) - set(qrels))
        seen['zeros_only'] += sum(max(j.values()) == 0 for j in qrels.values())
        seen['ties'] += sum(len(s) - len(set(s.values())) for s in run.values())
    assert min(seen.values()) >= 5, seen


def test_means_average_the_queries_pytrec_eval_reports():
    qrels, run = collection(3)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        means = evaluate(qrels, run, ['AP', 'nDCG@10'])
    peer = theirs(qrels, run, ['AP', 'nDCG@10'])
    for m in ('AP', 'nDCG@10'):
        assert math.isclose(means[m], np.mean([v[SHARED[m]] for v in peer.values()]), abs_tol=1e-12)
        assert means[m].n == len(peer)


def test_trec_scale_files_equal_pytrec_eval(trec_scale, trec_dicts):
    "50 queries × 1,000 documents read from TREC files (long docnos, negative scores with ties, graded)."
    qrels, run = trec_dicts
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        mine = evaluate(trec_scale['qrels'], trec_scale['run'], list(SHARED), per_query=True)
    assert_same(mine, theirs(qrels, run, SHARED), SHARED)


def test_cli_eval_equals_evaluate(trec_scale):
    "`rankmetrics eval --format json` (the installed console script) prints exactly what `evaluate` returns (and the conventions)."
    import json, shutil, subprocess, sys
    from pathlib import Path
    exe = Path(sys.executable).with_name('rankmetrics')
    cmd = [str(exe)] if exe.exists() else [sys.executable, '-m', 'rankmetrics_nb']
    ms = ['nDCG@10', 'nDCG', 'AP', 'RR', 'RR@10', 'P@10', 'R@100', 'P(rel=2)@5', 'NumRelRet']
    for per_query in (False, True):
        r = subprocess.run(cmd + ['eval', str(trec_scale['qrels']), str(trec_scale['run']), '--format', 'json', '-m', *ms]
                           + (['--per-query'] if per_query else []), capture_output=True, text=True, check=True)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', QueryMismatchWarning)
            assert json.loads(r.stdout)['per_query' if per_query else 'means'] == evaluate(trec_scale['qrels'], trec_scale['run'], ms,
                                                                                          per_query=per_query)
