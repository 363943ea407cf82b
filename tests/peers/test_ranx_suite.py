"""ranx's own metric tests, case by case, as tests of rankmetrics_nb.

Source: AmenRa/ranx @ 2cae52f0 (MIT): `tests/unit/ranx/metrics/*_test.py`, `tests/unit/ranx/metrics_test.py`
and `tests/unit/ranx/meta/evaluate_test.py`. The inputs and expected values are restated here; each test
names the source test it ports. Where ranx's convention differs from our default, the test passes the
parameter that matches it and says so:

* ranx ranks the prediction arrays of its metric tests in the order given (every score is 1), so those
  cases go to our metric functions as grades in rank order, or to `evaluate(..., ties='input')`.
* ranx evaluates every query of the qrels; a query missing from the run scores 0 (`queries='qrels'`).
* ranx's `hits@k` is our `NumRelRet@k`; ranx averages it over queries, we sum counts (trec_eval's
  num_rel_ret), so the tests average our per-query values.
* ranx's `dcg`/`ndcg` are linear gain with 1/log2(i+1) (our default); `dcg_burges`/`ndcg_burges` are
  `gain='exp'` (2^g - 1).

Counts: 55 cases ported (pytest items; a parametrised case counts once per parameter set): 55 pass, 0 xfail.
bpref and RBP pass through the trec_eval drop-in and through `evaluate` as Bpref and RBP(p=...).

Source tests skipped as not concrete (no expected value):
* meta/evaluate_test.py::test_with_Qrels_and_Run_control and ::test_python_dict only check that
  `evaluate` runs on their fixture; the fixture is evaluated with an expected value in the port of
  ::test_python_dict_2 below.
"""
import functools
import math
import warnings
import numpy as np
import pytest
from rankmetrics_nb import (evaluate as _evaluate, trec_eval, precision, recall, f_measure, r_precision, success, reciprocal_rank,
                            average_precision, dcg, ndcg, QueryMismatchWarning, EvalInputError)

# Every evaluation names its tie policy: 'input' (ranx's array order) where the ranx case gives equal scores, else
# 'trec' (the fixtures' scores are distinct there, so any order-by-score policy gives the same ranking).
evaluate = functools.partial(_evaluate, ties='trec')

L2 = math.log2

def ranked(ids, score=1.0):
    "A run for one query in ranx's array form: the ids in rank order, every score equal (use ties='input')."
    return {f'd{i}': score for i in ids}

def grades_in_order(relevant:dict, ids)->list:
    "The grades of `ids` in rank order (0 where `relevant` has no entry)."
    return [relevant.get(i, 0) for i in ids]

# ------------------------------------------------------------------ metrics/bpref_test.py
BPREF_QRELS = {
    'q1': {'d2': 1, 'd5': 1, 'd1': 0, 'd4': 0},
    'q2': {'d2': 1, 'd5': 1, 'd1': 0, 'd6': 0},
    'q3': {'d2': 1, 'd5': 1, 'd7': 1, 'd1': 0, 'd6': 0, 'd8': 0},
    'q4': {'d2': 1, 'd4': 1, 'd6': 1, 'd9': 1, 'd1': 0, 'd3': 0, 'd7': 0, 'd8': 0},
}
BPREF_RUN = {
    'q1': {'d1': 10, 'd2': 9, 'd3': 8, 'd4': 7},
    'q2': {'d1': 10, 'd2': 9, 'd3': 8, 'd4': 7, 'd5': 6, 'd6': 5},
    'q3': {'d1': 10, 'd2': 9, 'd3': 8, 'd4': 7, 'd5': 6, 'd6': 5, 'd7': 4, 'd8': 3},
    'q4': {'d1': 10, 'd2': 9, 'd3': 8, 'd4': 7, 'd6': 5, 'd7': 4, 'd8': 3},
}
BPREF_EXPECTED = {  # ranx's hand-written formulas: 1/R * sum over retrieved relevant of 1 - (judged non-relevant above)/R
    'q1': 1 / 2 * (1 - 1 / 2),
    'q2': 1 / 2 * ((1 - 1 / 2) + (1 - 1 / 2)),
    'q3': 1 / 3 * ((1 - 1 / 3) + (1 - 1 / 3) + (1 - 2 / 3)),
    'q4': 1 / 4 * ((1 - 1 / 4) + (1 - 2 / 4) + (1 - 2 / 4)),
}

def test_bpref_through_trec_eval():
    # metrics/bpref_test.py::test_bpref — ranx's bpref is trec_eval's; our trec_eval drop-in has it today
    t = trec_eval(BPREF_QRELS, BPREF_RUN, ['bpref'], per_query=True)
    got = {str(q): v['bpref'] for q, v in t.per_query.items()}
    assert got == pytest.approx(BPREF_EXPECTED, rel=1e-12)

def test_bpref_through_evaluate():
    # metrics/bpref_test.py::test_bpref, through evaluate with ir_measures' name
    got = evaluate(BPREF_QRELS, BPREF_RUN, ['Bpref'], per_query=True)
    assert {q: v['Bpref'] for q, v in got.items()} == pytest.approx(BPREF_EXPECTED, rel=1e-12)

# ------------------------------------------------------------------ metrics/f1_test.py
F1_RUN = dict(BPREF_RUN, q4={'d1': 10, 'd12': 9, 'd3': 8, 'd14': 7, 'd16': 5, 'd7': 4, 'd8': 3})   # q4 finds no relevant doc

def test_f1_whole_list():
    # metrics/f1_test.py::test_f1 — ranx's f1 without k is F1 over the whole ranked list: our F with no cutoff
    got = evaluate(BPREF_QRELS, F1_RUN, ['P', 'R', 'F'], per_query=True)
    for q in ('q1', 'q2', 'q3'):
        p, r = got[q]['P'], got[q]['R']
        assert math.isclose(got[q]['F'], 2 * p * r / (p + r), rel_tol=1e-12)
    assert got['q4']['F'] == 0.0
    # the values themselves (P, R by hand): q1 1/4 & 1/2, q2 2/6 & 1, q3 3/8 & 1
    assert [got[q]['F'] for q in ('q1', 'q2', 'q3')] == pytest.approx([1 / 3, 1 / 2, 6 / 11], rel=1e-12)

# ------------------------------------------------------------------ metrics/rank_biased_precision_test.py
@pytest.mark.parametrize('p,expected', [(0.5, 0.7661), (0.8, 0.4526), (0.95, 0.1881)])
def test_rank_biased_precision_through_trec_eval(p, expected):
    # metrics/rank_biased_precision_test.py::test_rank_biased_precision — relevant docs at ranks 1, 2, 6, 11, 17 of 20;
    # ranx's RBP = (1-p) * sum_i rel_i p^(i-1), trec_eval 10's rbp with binary grades
    qrels = {'q1': {f'd{i}': 1 for i in (1, 2, 6, 11, 17)}}
    run = {'q1': {f'd{i}': 21 - i for i in range(1, 21)}}
    t = trec_eval(qrels, run, [f'rbp.p={p}'], per_query=True)
    assert round(t.per_query['q1'][f'rbp_p={p}'], 4) == expected
    # and the formula, exactly
    assert math.isclose(t.per_query['q1'][f'rbp_p={p}'], (1 - p) * sum(p ** (i - 1) for i in (1, 2, 6, 11, 17)), rel_tol=1e-12)

def test_rank_biased_precision_through_evaluate():
    # metrics/rank_biased_precision_test.py::test_rank_biased_precision, through evaluate with ir_measures' name RBP(p=...)
    qrels = {'q1': {f'd{i}': 1 for i in (1, 2, 6, 11, 17)}}
    run = {'q1': {f'd{i}': 21 - i for i in range(1, 21)}}
    got = evaluate(qrels, run, ['RBP(p=0.5)', 'RBP(p=0.8)', 'RBP(p=0.95)'], per_query=True)['q1']
    assert [round(got[m], 4) for m in ('RBP(p=0.5)', 'RBP(p=0.8)', 'RBP(p=0.95)')] == [0.7661, 0.4526, 0.1881]

# ------------------------------------------------------------------ metrics/zero_division_error_test.py
ZD_QRELS = {'q_1': {'doc_a': 1}, 'q_2': {'doc_b': 1}, 'q_3': {'doc_c': 1}, 'q_4': {'doc_d': 1}}
ZD_RUN = {'q_1': {'doc_a': 1.0}, 'q_2': {'doc_b': 1.0}, 'q_3': {}, 'q_4': {'doc_d': 1.0}}

@pytest.mark.parametrize('name', ['P', 'R', 'F'])
def test_zero_division(name):
    # metrics/zero_division_error_test.py::test_precision, ::test_recall, ::test_f1 — q_3 retrieves nothing:
    # ranx scores it 0 and keeps it in the mean, which is our queries='qrels'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        got = evaluate(ZD_QRELS, ZD_RUN, [name], queries='qrels', per_query=True)
    assert len(got) == 4 and got['q_3'][name] == 0.0
    assert np.mean([v[name] for v in got.values()]) == 0.75

# ------------------------------------------------------------------ metrics_test.py (the metric functions on arrays)
# the three queries ranx's precision/AP tests share: relevant ids, and one ranked list for all three
Q3_REL = [{1, 2, 3}, {4, 5, 6, 7}, {8, 9}]
Q3_LIST = [4, 5, 6, 2, 1, 7, 3]
Q3_LABELS = [[int(i in rel) for i in Q3_LIST] for rel in Q3_REL]

def test_hits_metric():
    # metrics_test.py::test_hits — hits@5 = relevant documents in the top 5, averaged over two queries
    lists = [([1, 4, 5, 6], [1, 2, 3, 4, 5, 7]), ([1, 4, 6], [1, 2, 4, 3, 5, 7])]
    hits = [sum(i in set(rel) for i in lst[:5]) for rel, lst in lists]          # 3 and 2, by hand
    qrels = {f'q{j}': {f'd{i}': 1 for i in rel} for j, (rel, _) in enumerate(lists)}
    run = {f'q{j}': ranked(lst) for j, (_, lst) in enumerate(lists)}
    got = evaluate(qrels, run, ['NumRelRet@5'], per_query=True, ties='input')
    assert [got[f'q{j}']['NumRelRet@5'] for j in range(2)] == hits == [3, 2]
    assert np.mean([v['NumRelRet@5'] for v in got.values()]) == 2.5

def test_hit_rate_metric():
    # metrics_test.py::test_hit_rate — first query's relevant ids {9, 6, 8} are not retrieved: 0; second: 1
    assert success([0, 0, 0, 0, 0, 0], 5) == 0.0
    assert success(grades_in_order({1: 1, 2: 1, 4: 1}, [1, 2, 4, 3, 5, 7]), 5) == 1.0
    assert np.mean(success(np.array([[0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0]]), 5)) == 0.5

def test_precision_metric():
    # metrics_test.py::test_precision — the mean over three queries equals the mean of the single-query values;
    # by hand: P@5 = 2/5, 3/5, 0
    singles = [precision(l, 5) for l in Q3_LABELS]
    assert singles == pytest.approx([2 / 5, 3 / 5, 0.0], rel=1e-12)
    assert np.mean(precision(np.array(Q3_LABELS), 5)) == pytest.approx(sum(singles) / 3, rel=1e-12)

def test_average_precision_metric():
    # metrics_test.py::test_average_precision — AP@7 per query and their mean; by hand:
    # q1 relevant at ranks 4, 5, 7: (1/4 + 2/5 + 3/7)/3; q2 at 1, 2, 3, 6: (3 + 4/6)/4; q3 none: 0
    n_rel = [len(r) for r in Q3_REL]
    singles = [average_precision(l, 7, n_rel=n) for l, n in zip(Q3_LABELS, n_rel)]
    assert singles == pytest.approx([(1 / 4 + 2 / 5 + 3 / 7) / 3, (3 + 4 / 6) / 4, 0.0], rel=1e-12)
    assert np.mean(average_precision(np.array(Q3_LABELS), 7, n_rel=n_rel)) == pytest.approx(np.mean(singles), rel=1e-12)

def test_reciprocal_rank_single_metric():
    # metrics_test.py::test_reciprocal_rank_single — relevant id 3 at rank 2 of [2, 3, 1, 4, 5]
    assert reciprocal_rank(grades_in_order({3: 1}, [2, 3, 1, 4, 5]), 5) == 0.5

def test_reciprocal_rank_single_no_match_metric():
    # metrics_test.py::test_reciprocal_rank_single_no_match
    assert reciprocal_rank(grades_in_order({3: 1}, [2, 1, 4, 5]), 5) == 0.0

def test_reciprocal_rank_metric():
    # metrics_test.py::test_reciprocal_rank — RR 1/2, 1, 0 (the third list repeats id 1 and misses 3): mean 0.5.
    # Grades in rank order carry the repeated id as it is (our Run would reject a repeated docno).
    labels = [grades_in_order({3: 1}, [2, 3, 1, 4, 5]), grades_in_order({1: 1}, [1, 2, 3, 4, 5]),
              grades_in_order({3: 1}, [1, 1, 1, 4, 5])]
    assert list(reciprocal_rank(np.array(labels), 5)) == [0.5, 1.0, 0.0]
    assert np.mean(reciprocal_rank(np.array(labels), 5)) == 0.5

R_LIST = [2, 4, 3, 1, 5, 6, 7]

def test_r_precision_single_metric():
    # metrics_test.py::test_r_precision_single — R = 3, top 3 = [2, 4, 3]: 2/3
    assert r_precision(grades_in_order({1: 1, 2: 1, 3: 1}, R_LIST), n_rel=3) == pytest.approx(2 / 3, rel=1e-12)

def test_r_precision_metric():
    # metrics_test.py::test_r_precision — also R = 2 ({1, 2}), top 2 = [2, 4]: 1/2
    labels = np.array([grades_in_order({1: 1, 2: 1, 3: 1}, R_LIST), grades_in_order({1: 1, 2: 1}, R_LIST)])
    assert np.mean(r_precision(labels, n_rel=[3, 2])) == pytest.approx((2 / 3 + 1 / 2) / 2, rel=1e-12)

def test_recall_single_metric():
    # metrics_test.py::test_recall_single — recall@2 with R = 3: 1/3
    assert recall(grades_in_order({1: 1, 2: 1, 3: 1}, R_LIST), 2, n_rel=3) == pytest.approx(1 / 3, rel=1e-12)

def test_recall_metric():
    # metrics_test.py::test_recall
    labels = np.array([grades_in_order({1: 1, 2: 1, 3: 1}, R_LIST), grades_in_order({1: 1, 2: 1}, R_LIST)])
    assert np.mean(recall(labels, 2, n_rel=[3, 2])) == pytest.approx((1 / 3 + 1 / 2) / 2, rel=1e-12)

# graded cases: grades {2: 5, 4: 4, 5: 3, 10: 2}; three ranked lists
G_REL = {2: 5, 4: 4, 5: 3, 10: 2}
G_LISTS = [[1, 2, 3, 4, 5], [10, 5, 2, 4, 3], [1, 3, 6, 7, 8]]
DCG_LIN = [5 / L2(3) + 4 / L2(5) + 3 / L2(6), 2 / L2(2) + 3 / L2(3) + 5 / L2(4) + 4 / L2(5), 0.0]
IDCG_LIN = 5 / L2(2) + 4 / L2(3) + 3 / L2(4) + 2 / L2(5)
DCG_EXP = [(2**5 - 1) / L2(3) + (2**4 - 1) / L2(5) + (2**3 - 1) / L2(6),
           (2**2 - 1) / L2(2) + (2**3 - 1) / L2(3) + (2**5 - 1) / L2(4) + (2**4 - 1) / L2(5), 0.0]
IDCG_EXP = (2**5 - 1) / L2(2) + (2**4 - 1) / L2(3) + (2**3 - 1) / L2(4) + (2**2 - 1) / L2(5)
IDEAL = sorted(G_REL.values(), reverse=True)

@pytest.mark.parametrize('j', range(3))
def test_dcg_jarvelin_metric(j):
    # metrics_test.py::test_dcg_jarvelin — linear gain, 1/log2(i+1)
    assert dcg(grades_in_order(G_REL, G_LISTS[j]), 10) == pytest.approx(DCG_LIN[j], rel=1e-12, abs=0)

@pytest.mark.parametrize('j', range(3))
def test_ndcg_jarvelin_metric(j):
    # metrics_test.py::test_ndcg_jarvelin — the ideal is built from every judged grade (ideal=<the judged grades>)
    assert ndcg(grades_in_order(G_REL, G_LISTS[j]), 10, ideal=IDEAL) == pytest.approx(DCG_LIN[j] / IDCG_LIN, rel=1e-12, abs=0)

@pytest.mark.parametrize('j', range(3))
def test_dcg_burges_metric(j):
    # metrics_test.py::test_dcg_burges — gain 2^g - 1 (ranx's _burges variants): gain='exp'
    assert dcg(grades_in_order(G_REL, G_LISTS[j]), 10, gain='exp') == pytest.approx(DCG_EXP[j], rel=1e-12, abs=0)

@pytest.mark.parametrize('j', range(3))
def test_ndcg_burges_metric(j):
    # metrics_test.py::test_ndcg_burges
    got = ndcg(grades_in_order(G_REL, G_LISTS[j]), 10, ideal=IDEAL, gain='exp')
    assert got == pytest.approx(DCG_EXP[j] / IDCG_EXP, rel=1e-12, abs=0)

# ------------------------------------------------------------------ meta/evaluate_test.py (evaluate on the same inputs)
def one(rel_ids, ids, measure, **kw):
    "evaluate() on one query whose relevant ids and ranked list are given as ranx's arrays are."
    got = evaluate({'q': {f'd{i}': 1 for i in rel_ids}}, {'q': ranked(ids)}, [measure], per_query=True, ties='input', **kw)
    return got['q'][measure]

def many(rels, lists, measure, **kw):
    "The per-query values of `measure` over queries given as ranx's arrays (queries='qrels': ranx evaluates every one)."
    qrels = {f'q{j}': {f'd{i}': 1 for i in rel} for j, rel in enumerate(rels)}
    run = {f'q{j}': ranked(lst) for j, lst in enumerate(lists)}
    got = evaluate(qrels, run, [measure], per_query=True, ties='input', queries='qrels', **kw)
    return [got[f'q{j}'][measure] for j in range(len(rels))]

def test_hits_single():
    # meta/evaluate_test.py::test_hits_single
    assert one([1, 4, 5, 6], [1, 2, 3, 4, 5, 7], 'NumRelRet@5') == 3

def test_hits_parallel():
    # meta/evaluate_test.py::test_hits_parallel
    assert np.mean(many([[1, 4, 5, 6], [1, 4, 6]], [[1, 2, 3, 4, 5, 7], [1, 2, 4, 3, 5, 7]], 'NumRelRet@5')) == 2.5

def test_hit_rate_single():
    # meta/evaluate_test.py::test_hit_rate_single — ranx's hit_rate@k is Success@k (alias HitRate)
    assert one([1, 2, 4], [1, 2, 4, 3, 5, 7], 'HitRate@5') == 1.0

def test_hit_rate_parallel():
    # meta/evaluate_test.py::test_hit_rate_parallel — ids {9, 6, 8, 6}: the repeated 6 is one judgement
    assert np.mean(many([[9, 6, 8], [1, 2, 4]], [[1, 2, 3, 4, 5, 7], [1, 2, 4, 3, 5, 7]], 'Success@5')) == 0.5

def test_precision_single():
    # meta/evaluate_test.py::test_precision_single
    assert one([1, 4, 5, 6], [1, 2, 3, 4, 5, 7], 'P@5') == 3 / 5

def test_precision_parallel():
    # meta/evaluate_test.py::test_precision_parallel — the mean equals the mean of single-query evaluations
    singles = [one(rel, Q3_LIST, 'P@5') for rel in Q3_REL]
    assert singles == pytest.approx([2 / 5, 3 / 5, 0.0], rel=1e-12)
    assert np.mean(many(Q3_REL, [Q3_LIST] * 3, 'P@5')) == pytest.approx(np.mean(singles), rel=1e-12)

def test_average_precision():
    # meta/evaluate_test.py::test_average_precision — map@6: (1 + 2/4 + 3/5)/4 = 0.525
    assert one([1, 4, 5, 6], [1, 2, 3, 4, 5, 7], 'AP@6') == pytest.approx(0.525, rel=1e-12)

def test_average_precision_parallel():
    # meta/evaluate_test.py::test_average_precision_parallel
    singles = [one(rel, Q3_LIST, 'AP@7') for rel in Q3_REL]
    assert singles == pytest.approx([(1 / 4 + 2 / 5 + 3 / 7) / 3, (3 + 4 / 6) / 4, 0.0], rel=1e-12)
    assert np.mean(many(Q3_REL, [Q3_LIST] * 3, 'AP@7')) == pytest.approx(np.mean(singles), rel=1e-12)

def test_reciprocal_rank_single():
    # meta/evaluate_test.py::test_reciprocal_rank_single — mrr@5 is RR@5 (alias MRR)
    assert one([3], [2, 3, 1, 4, 5], 'MRR@5') == 0.5

def test_reciprocal_rank_single_no_match():
    # meta/evaluate_test.py::test_reciprocal_rank_single_no_match
    assert one([3], [2, 1, 4, 5], 'RR@5') == 0.0

def test_reciprocal_rank_parallel():
    # meta/evaluate_test.py::test_reciprocal_rank_parallel — the third list [1, 1, 1, 4, 5] repeats id 1; a dict holds
    # it once ({1, 4, 5}), which leaves the value (no id 3: RR 0) unchanged
    got = many([[3], [1], [3]], [[2, 3, 1, 4, 5], [1, 2, 3, 4, 5], [1, 4, 5]], 'RR@5')
    assert got == [0.5, 1.0, 0.0] and np.mean(got) == 0.5

def test_r_precision_single():
    # meta/evaluate_test.py::test_r_precision_single
    assert one([1, 2, 3], R_LIST, 'Rprec') == pytest.approx(2 / 3, rel=1e-12)

def test_r_precision_parallel():
    # meta/evaluate_test.py::test_r_precision_parallel
    assert np.mean(many([[1, 2, 3], [1, 2]], [R_LIST] * 2, 'Rprec')) == pytest.approx((2 / 3 + 1 / 2) / 2, rel=1e-12)

def test_recall_single():
    # meta/evaluate_test.py::test_recall_single
    assert one([1, 2, 3], R_LIST, 'R@2') == pytest.approx(1 / 3, rel=1e-12)

def test_recall_parallel():
    # meta/evaluate_test.py::test_recall_parallel
    assert np.mean(many([[1, 2, 3], [1, 2]], [R_LIST] * 2, 'R@2')) == pytest.approx((1 / 3 + 1 / 2) / 2, rel=1e-12)

def graded(ids, measure):
    "evaluate() on the graded query {2: 5, 4: 4, 5: 3, 10: 2} with the ranked list `ids`."
    qrels = {'q': {f'd{i}': g for i, g in G_REL.items()}}
    return evaluate(qrels, {'q': ranked(ids)}, [measure], per_query=True, ties='input')['q'][measure]

@pytest.mark.parametrize('measure,expected', [
    ('DCG@10', DCG_LIN), ('nDCG@10', [d / IDCG_LIN for d in DCG_LIN]),
    ('DCG(gain=exp)@10', DCG_EXP), ('nDCG(gain=exp)@10', [d / IDCG_EXP for d in DCG_EXP])],
    ids=['dcg_jarvelin', 'ndcg_jarvelin', 'dcg_burges', 'ndcg_burges'])
def test_dcg_family_evaluate(measure, expected):
    # meta/evaluate_test.py::test_dcg_jarvelin, ::test_ndcg_jarvelin, ::test_dcg_burges, ::test_ndcg_burges
    # (ranx's dcg@k / ndcg@k / dcg_burges@k / ndcg_burges@k; the ideal comes from the qrels, our default)
    assert [graded(ids, measure) for ids in G_LISTS] == pytest.approx(expected, rel=1e-12, abs=0)

DICT_QRELS = {'q_1': {'doc_12': 5, 'doc_25': 3}, 'q_2': {'doc_11': 6, 'doc_2': 1}}
DICT_RUN = {
    'q_1': {'doc_12': 0.9, 'doc_23': 0.8, 'doc_25': 0.7, 'doc_36': 0.6, 'doc_32': 0.5, 'doc_35': 0.4},
    'q_2': {'doc_12': 0.9, 'doc_11': 0.8, 'doc_25': 0.7, 'doc_36': 0.6, 'doc_2': 0.5, 'doc_35': 0.4},
}

def test_python_dict_2():
    # meta/evaluate_test.py::test_python_dict_2 — the same run given in another insertion order evaluates the same
    # (the fixture of ::test_with_Qrels_and_Run_control and ::test_python_dict; the expected nDCG@5 by hand:
    # q_1 gains 5 at rank 1, 3 at rank 3; q_2 gains 6 at rank 2, 1 at rank 5)
    shuffled = {'q_2': dict(reversed(list(DICT_RUN['q_2'].items()))), 'q_1': dict(sorted(DICT_RUN['q_1'].items()))}
    x = evaluate(DICT_QRELS, DICT_RUN, 'nDCG@5', per_query=True)
    y = evaluate(DICT_QRELS, shuffled, 'nDCG@5', per_query=True)
    assert x == y
    expected = {'q_1': (5 + 3 / L2(4)) / (5 + 3 / L2(3)), 'q_2': (6 / L2(3) + 1 / L2(6)) / (6 + 1 / L2(3))}
    assert {q: v['nDCG@5'] for q, v in x.items()} == pytest.approx(expected, rel=1e-12)

def test_keys_control():
    # meta/evaluate_test.py::test_keys_control — the run's queries (q_1, q_3) differ from the qrels' (q_1, q_2).
    # ranx raises; we evaluate the common query and say what was left out with a QueryMismatchWarning
    run = {'q_1': DICT_RUN['q_1'], 'q_3': DICT_RUN['q_2']}
    with pytest.warns(QueryMismatchWarning):
        got = evaluate(DICT_QRELS, run, 'nDCG@5', per_query=True)
    assert list(got) == ['q_1']

def test_std():
    # meta/evaluate_test.py::test_std — ranx's return_std is numpy's (population) std of the per-query values;
    # by hand: map@5 is (1 + 2/3)/2 and (1/2 + 2/5)/2, mrr is 1 and 1/2
    qrels = {'q_1': {'d_12': 5, 'd_25': 3}, 'q_2': {'d_11': 6, 'd_22': 1}}
    run = {'q_1': {'d_12': 0.9, 'd_23': 0.8, 'd_25': 0.7, 'd_36': 0.6, 'd_32': 0.5, 'd_35': 0.4},
           'q_2': {'d_12': 0.9, 'd_11': 0.8, 'd_25': 0.7, 'd_36': 0.6, 'd_22': 0.5, 'd_35': 0.4}}
    got = evaluate(qrels, run, ['AP@5', 'RR'], per_query=True)
    ap, rr = [v['AP@5'] for v in got.values()], [v['RR'] for v in got.values()]
    assert ap == pytest.approx([(1 + 2 / 3) / 2, (1 / 2 + 2 / 5) / 2], rel=1e-12) and rr == [1.0, 0.5]
    assert np.std(ap) == pytest.approx(abs((1 + 2 / 3) / 2 - (1 / 2 + 2 / 5) / 2) / 2, rel=1e-12)
    assert np.std(rr) == 0.25
