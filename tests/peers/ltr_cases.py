"""Learning-to-rank test cases of TF-Ranking, Rax, torchmetrics, Spark, pytorchltr and allRank, restated as data.

Each record of `CASES` is one concrete case of a peer's own test suite (a parametrised test counts once per parameter
set; one source test that asserts several values at different settings gives one record per setting): the tool,
its repository, the file, the commit, the test's name, the inputs as plain lists (in the tool's own argument names),
the parameters that matter (in the tool's words; a callable such as a gain function is given as text), the values the
source asserts (as it states them: where it writes a formula, the same formula in this module's notation below), the
tolerance it asserts with, and a note of the convention the case tests. Facts carried over, not code: nothing here is
copied from those projects. Nothing imports this module yet; the tests that use it come with the batch front end.

Notation of the expected values: `D(r) = 1 / log2(1 + r)` (the log2 rank discount, rank r from 1) and `G(l) = 2**l - 1`
(the exponential gain).

How each case can be expressed through rankmetrics_nb's public API today is the record's `ours` (None when it cannot);
`gap` names the features still missing (keys of `GAPS`), so that a case with `ours` and a `gap` is reproduced today only
with the caller-side preparation `ours` names. The keys of `ours`:

* `via`: "evaluate" (`evaluate(qrels, run, [measure], per_query=True, **kw)`) or a kernel function of the package
  ("ndcg", "dcg", "rank_correlation", "p_ia", "alpha_dcg", "recall_at_fixed_precision") called on the labels in the
  tool's rank order (the caller sorts by score, stable, descending; NaN pads shorter lists; subtopic cases are
  queries × ranks × subtopics).
* `measure`: the measure name for `evaluate`; `kw`: further keyword arguments (`ties` is "trec" unless given: no
  case has tied scores that decide its value; Rax breaks ties by order of appearance, TF-Ranking, pytorchltr and
  allRank by a shuffle or torch's sort, none of which a tie policy here names; note that ties="input" is not
  "scores, then input order" but the input order alone, the run read as already ranked). For a kernel, `kw` holds
  its keyword arguments; a callable is given as text (`discount`: "1/(r+10)" means `lambda r: 1 / (r + 10)`, r the
  rank from 1).
* `lists`: how the tool's lists become queries (list i is query "q<i>", item j document "d<j>", grade = label as an
  integer, score = prediction):
  "valid"       — padded or masked items (label < 0 for TF-Ranking and allRank, `mask`/`where` False, index >= n for
                  pytorchltr) are left out of both qrels and run;
  "neginf"      — as "valid", and items scored -inf (Rax: not ranked) are left out of the run only, so they stay in
                  the qrels (recall's denominator, the ideal ranking);
  "nonpositive" — items predicted <= 0 (torchmetrics 1.7.4+: not retrieved for P, R, AP, RR) are left out of the run
                  only (the caller's filter: no parameter does it);
  "padded_last" — pytorchltr's DCG: items past n stay, ranked after the valid ones in index order (their labels
                  count, as pytorchltr's `dcg` gathers them);
  "valid_subtopics" — as "valid", for subtopic labels (lists x items x subtopics), laid out for a kernel as
                  queries x ranks x subtopics in score order;
  "groups"      — torchmetrics: one query per `indexes` value;
  "spark"       — Spark: a predicted array becomes scores len, len-1, ... by position; the label set becomes grade 1
                  (or the relevance value for the graded nDCG); a query with an empty label set is written with its
                  predicted items judged 0; a query with no prediction is absent from the run (queries="qrels").
* `read`: "per_list" (compare to the per-list values) or "mean" (the mean of the per-list values); `expect`: which
  entry of `expected` the expression reproduces (the others are the gap).

Counts (records; `counts()`): 404 — TF-Ranking 225 (metrics_impl_test.py 168, metrics_test.py 57), Rax 80 (77 of its
test file, 3 doctests), torchmetrics 16 (4 of its suite, 1 docstring, 11 derived), Spark 50, pytorchltr 15, allRank 18.
Expressible today (`ours` set): 296, of which 18 need a caller-side step or reproduce only part of what the source
asserts (their `gap`); not expressible: 108.

Source tests skipped (no concrete expected value, or not a ranking metric):
* TF-Ranking metrics_test.py::test_eval_metric (compares two APIs of the tool with each other, no value),
  ::test_compute_mean (asserts only "greater than 0"), and the two `assertRaises(ValueError)` checks of a weights
  feature of the wrong rank (NDCG, alpha-DCG: a shape error of TensorFlow's feature dict). metrics_impl_test.py
  ::test_pwa_weights_should_raise_error_if_per_result (PWA refuses per-item weights: a shape check, in the notes).
  TF-Ranking's keras/metrics_test.py is not among the suites the issue names.
* Rax metrics_test.py::test_computes_unreduced_metric (a shape), ::test_computes_metric_with_segments* (four tests x
  six metrics: they assert that the segmented call equals the same metric on the equivalent masked lists, with no
  value), RetrievedItemsTest (three tests of the private helper `_retrieved_items`: the -inf / mask / topn retrieval
  rule, stated in the notes). ::test_ignores_lists_containing_only_invalid_items compares with the metric of the
  first list alone; that list's values are the ones test_computes_metric_value states, so the records carry them
  (marked `derived`).
* torchmetrics: the seeded random-tensor comparisons with its own reference and the docstring examples are ported in
  tests/peers/test_torchmetrics_suite.py; only the cases of the conventions that suite cannot express are here (the
  four all-zero-prediction tests of #3160, the fall-out empty rule, RetrievalRecallAtFixedPrecision). Cases marked
  `derived` are small hand-derived instances of a definition the suite tests only on random tensors.
* pytorchltr tests/evaluation/test_trec.py (three tests of `generate_pytrec_eval`, a conversion to pytrec_eval's dicts:
  no metric value; the padding rule they show, items past n left out, is in the notes). Its doctest's values (computed
  by pytrec_eval) are recorded.
* allRank: only tests/losses/test_ndcg.py and test_mrr.py test `allrank.models.metrics`; its loss tests are not metrics.
"""
from dataclasses import dataclass
from math import log2

__all__ = ['Case', 'CASES', 'GAPS', 'SOURCES', 'D', 'G', 'counts', 'by_tool']


def D(r):
    "The log2 rank discount 1 / log2(1 + r), r the rank from 1."
    return 1 / log2(1 + r)


def G(label):
    "The exponential gain 2**label - 1."
    return 2.0 ** label - 1


@dataclass(frozen=True)
class Case:
    "One concrete case of a peer's test suite."
    tool: str  # 'tf_ranking', 'rax', 'torchmetrics', 'spark', 'pytorchltr', 'allrank'
    repo: str  # owner/name on GitHub
    path: str  # the test file (or the source file of a doctest)
    version: str  # the commit the case was read at (and the release where known)
    test: str  # the test's name, with the parameter set in brackets
    call: str  # the tool's class or function the test calls
    inputs: dict  # plain lists, in the tool's own argument names
    params: dict  # the parameters that matter, in the tool's own words (callables as text)
    expected: dict  # what the source asserts: {name: value}
    tol: dict  # the source's tolerance
    note: str  # the convention the case tests
    ours: dict = None  # its expression through rankmetrics_nb today (see the module docstring), None if none
    gap: tuple = ()  # the missing features (keys of GAPS)
    derived: bool = False  # the value is derived by hand from the tool's definition, not asserted in its suite


GAPS = {
    'item_weights': "per-item weights that scale each item's gain or precision term, in the ideal ranking too",
    'list_weights': 'per-list weights for the batch mean',
    'list_weight_rule': "TF-Ranking's list weight from item weights (the mean weight of the list's relevant items, "
                        "the batch's mean list weight for a list without one, 0 for a list whose weights sum to 0) and "
                        "its output (the second value `compute` returns)",
    'ARP': 'average relevance position, sum(rank x label) / sum(label) (0 without a relevant item)',
    'PWA': 'position-weighted average of labels, sum(l_r / r) / sum(1 / r) over the top n',
    'OPA_counts': "ordered-pair accuracy's pair counts (TF-Ranking's list weight for OPA)",
    'OPA_pooled': "TF-Ranking's batch OPA: pairs right in all lists over pairs in all lists",
    'no_pair_rule': 'OPA / rank correlation of a list without a pair of different labels scores 0 (ours: 1.0)',
    'bpref_original': "bpref in Buckley and Voorhees' form: divide by R, not min(R, N)",
    'bpref_empty': 'bpref of an empty list is 0',
    'alpha_dcg_discount': 'alpha-DCG with another rank discount',
    'p_ia_adaptive_k': 'P-IA dividing by min(k, list length)',
    'nonpositive_rule': "torchmetrics' rule: items predicted <= 0 are not retrieved for P, R, AP, RR (a parameter or "
                        "the torchmetrics preset; today only a caller-side filter of the run, which fails when it "
                        "empties the whole run)",
    'fallout_empty_rule': "torchmetrics' empty_target_action for FallOut, keyed to lists without a non-relevant item "
                          "(default 'pos')",
    'rafp_averaged_curve': "RetrievalRecallAtFixedPrecision's meaning: the best point of the query-averaged P@k/R@k "
                           "curve (ours takes each query's best recall, then averages)",
    'rafp_best_k': "RetrievalRecallAtFixedPrecision's second output, the k of the best point",
    'empty_batch': 'a batch whose every list is masked has mean 0 (evaluate refuses an empty run)',
    'spark_preset': "conventions='spark' keeps only the queries the run holds; Spark averages over every "
                    "(prediction, labels) pair, a query without a prediction scoring 0 (queries='qrels' does it)",
}

_TFR = 'tensorflow/ranking'
_TFR_V = '5b1d1338c1cb76507466d062e2d48bae57b17ac4 (2024-03-18; version 0.5.5.dev)'
_TFR_IMPL = 'tensorflow_ranking/python/metrics_impl_test.py'
_TFR_METRICS = 'tensorflow_ranking/python/metrics_test.py'
_TFR_TOL = {'rtol': 1e-6, 'atol': 1e-6}  # tf.test.TestCase.assertAllClose
_TFR_TOL5 = {'places': 5}  # assertAlmostEqual(..., places=5)

SOURCES = {
    'tf_ranking': (_TFR, _TFR_V, [_TFR_IMPL, _TFR_METRICS]),
}

CASES = []


def _ev(measure, lists='valid', read='per_list', expect='output', **kw):
    "An `ours` expression through evaluate."
    return dict(via='evaluate', measure=measure, lists=lists, read=read, expect=expect, kw=kw)


def _kernel(fn, lists='valid', read='per_list', expect='output', **kw):
    "An `ours` expression through a kernel function on the labels in rank order."
    return dict(via=fn, lists=lists, read=read, expect=expect, kw=kw)


def _tfr(test, call, labels, predictions, expected, note, ours=None, gap=(), weights=None, mask=None, tol=_TFR_TOL,
         derived=False, **params):
    "A TF-Ranking metrics_impl_test.py case: `Metric(name=None, **params).compute(labels, predictions, weights, mask)`."
    inputs = dict(labels=labels, predictions=predictions)
    if weights is not None: inputs['weights'] = weights
    if mask is not None: inputs['mask'] = mask
    CASES.append(Case('tf_ranking', _TFR, _TFR_IMPL, _TFR_V, test, f'metrics_impl.{call}.compute', inputs, params,
                      expected, tol, note, ours, tuple(gap), derived))


# ---------------------------------------------------------------- TF-Ranking metrics_impl_test.py: MRRMetric
_W = ('list_weight_rule',)
_tfr('MRRMetricTest.test_mrr_should_be_single_value', 'MRRMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[1 / 2]]}, 'reciprocal rank of the first item with label >= 1', _ev('RR'), topn=None)
_tfr('MRRMetricTest.test_mrr_should_be_0_when_no_rel_item', 'MRRMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'no relevant item: 0', _ev('RR'), topn=None)
_tfr('MRRMetricTest.test_mrr_should_be_0_when_no_rel_item_in_topn', 'MRRMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'relevant item below the cutoff: 0', _ev('RR@1'), topn=1)
for _k, _v in [(1, [[1.], [0.], [0.]]), (2, [[1.], [1 / 2], [0.]]), (6, [[1.], [1 / 2], [1 / 3]])]:
    _tfr(f'MRRMetricTest.test_mrr_should_handle_topn[topn={_k}]', 'MRRMetric',
         [[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]],
         {'output': _v}, 'cutoff topn; a topn beyond the list is the whole list', _ev(f'RR@{_k}'), topn=_k)
_tfr('MRRMetricTest.test_mrr_should_ignore_padded_labels', 'MRRMetric', [[0., 1., -1.]], [[1., 2., 3.]],
     {'output': [[1.]]}, 'label < 0 is padding: not ranked (the top-scored item is padding)', _ev('RR'), topn=None)
_tfr('MRRMetricTest.test_mrr_should_ignore_masked_items', 'MRRMetric', [[0., 1., 0.]], [[1., 2., 3.]],
     {'output': [[1.]]}, 'mask False: not ranked', _ev('RR'), mask=[[True, True, False]], topn=None)
_tfr('MRRMetricTest.test_mrr_should_handle_ragged_inputs', 'MRRMetric', [[0., 1., 0.], [0., 1.]],
     [[1., 2., 3.], [1., 2.]], {'output': [[1 / 2], [1.]]}, 'ragged lists (lists of different lengths)',
     _ev('RR'), topn=None, ragged=True)
_tfr('MRRMetricTest.test_mrr_should_give_a_value_for_each_list_in_batch_inputs', 'MRRMetric',
     [[0., 0., 1.], [0., 1., 1.]], [[1., 3., 2.], [1., 2., 3.]], {'output': [[1 / 2], [1.]]}, 'one value per list',
     _ev('RR'), topn=None)
_tfr('MRRMetricTest.test_mrr_weights_should_be_average_weight_of_rel_items', 'MRRMetric',
     [[1., 0., 0.], [0., 1., 1.]], [[1., 3., 2.], [1., 2., 3.]], {'output_weights': [[2.], [(2. + 3.) / 2]]},
     "list weight = mean weight of the list's relevant items", None, _W, weights=[[2., 5., 1.], [1., 2., 3.]],
     topn=None)
_tfr('MRRMetricTest.test_mrr_weights_should_be_1_without_rel_items', 'MRRMetric', [[0., 0., 0.], [0., 0., 0.]],
     [[1., 3., 2.], [1., 3., 2.]], {'output_weights': [[1.], [1.]]},
     'no list has a relevant item: every list weight is 1', None, _W, weights=[[2., 5., 1.], [1., 1., 0.]], topn=None)
_tfr('MRRMetricTest.test_mrr_weights_should_be_regardless_of_topn', 'MRRMetric', [[1., 0., 1.], [0., 1., 1.]],
     [[3., 2., 1.], [1., 3., 2.]], {'output_weights': [[(5. + 2.) / 2], [(2. + 4.) / 2]]},
     'the list weight reads the whole list, not the top n', None, _W, weights=[[2., 0., 5.], [1., 4., 2.]], topn=2)

# ---------------------------------------------------------------- HitsMetric
_tfr('HitsMetricTest.test_hits_should_be_single_value', 'HitsMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[1.]]}, '1 if an item with label >= 1 is in the top n', _ev('Success'), topn=None)
_tfr('HitsMetricTest.test_hits_should_be_0_when_no_rel_item', 'HitsMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'no relevant item: 0', _ev('Success'), topn=None)
_tfr('HitsMetricTest.test_hits_should_be_0_when_no_rel_item_in_topn', 'HitsMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'relevant item below the cutoff', _ev('Success@1'), topn=1)
for _k, _v in [(1, [[1.], [0.], [0.]]), (2, [[1.], [1.], [0.]]), (6, [[1.], [1.], [1.]])]:
    _tfr(f'HitsMetricTest.test_hits_should_handle_topn[topn={_k}]', 'HitsMetric',
         [[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]],
         {'output': _v}, 'cutoff topn', _ev(f'Success@{_k}'), topn=_k)
_tfr('HitsMetricTest.test_hits_should_ignore_padded_labels', 'HitsMetric', [[0., 1., -1.]], [[1., 2., 3.]],
     {'output': [[1.]]}, 'label < 0 is padding: not ranked', _ev('Success@1'), topn=1)
_tfr('HitsMetricTest.test_hits_should_ignore_masked_items', 'HitsMetric', [[0., 1., 0.]], [[1., 2., 3.]],
     {'output': [[1.]]}, 'mask False: not ranked', _ev('Success@1'), mask=[[True, True, False]], topn=1)
_tfr('HitsMetricTest.test_hits_should_handle_ragged_inputs', 'HitsMetric', [[0., 1., 0.], [0., 1.]],
     [[1., 2., 3.], [1., 2.]], {'output': [[0.], [1.]]}, 'ragged lists', _ev('Success@1'), topn=1, ragged=True)
_tfr('HitsMetricTest.test_hits_should_give_a_value_for_each_list_in_batch_inputs', 'HitsMetric',
     [[0., 0., 1.], [0., 1., 1.]], [[1., 3., 2.], [1., 2., 3.]], {'output': [[0.], [1.]]}, 'one value per list',
     _ev('Success@1'), topn=1)
_tfr('HitsMetricTest.test_hits_weights_should_be_average_weight_of_rel_items', 'HitsMetric',
     [[1., 0., 0.], [0., 1., 1.]], [[1., 3., 2.], [1., 2., 3.]], {'output_weights': [[2.], [(2. + 3.) / 2]]},
     "list weight = mean weight of the list's relevant items", None, _W, weights=[[2., 5., 1.], [1., 2., 3.]],
     topn=None)
_tfr('HitsMetricTest.test_hits_weights_should_be_1_without_rel_items', 'HitsMetric', [[0., 0., 0.], [0., 0., 0.]],
     [[1., 3., 2.], [1., 3., 2.]], {'output_weights': [[1.], [1.]]}, 'no relevant item anywhere: list weights 1',
     None, _W, weights=[[2., 5., 1.], [1., 1., 0.]], topn=None)
_tfr('HitsMetricTest.test_hits_weights_should_be_regardless_of_topn', 'HitsMetric', [[1., 0., 1.], [0., 1., 1.]],
     [[3., 2., 1.], [1., 3., 2.]], {'output_weights': [[(5. + 2.) / 2], [(2. + 3.) / 2]]},
     'the list weight reads the whole list', None, _W, weights=[[2., 0., 5.], [1., 3., 2.]], topn=1)

# ---------------------------------------------------------------- ARPMetric
_A = ('ARP',)
_tfr('ARPMetricTest.test_arp_should_be_single_value', 'ARPMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[2.]]}, 'ARP = sum(rank x label) / sum(label)', None, _A)
_tfr('ARPMetricTest.test_arp_should_be_single_value_per_list', 'ARPMetric', [[0., 0., 1.], [0., 1., 2.]],
     [[1., 3., 2.], [1., 2., 3.]], {'output': [[2.], [((1. * 2.) + (2. * 1.)) / (2. + 1.)]]},
     'graded labels weigh their ranks', None, _A)
_tfr('ARPMetricTest.test_arp_should_be_0_when_no_rel_items', 'ARPMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'no relevant item: 0 (division guarded)', None, _A)
_tfr('ARPMetricTest.test_arp_should_ignore_padded_items', 'ARPMetric', [[1., -1., 1., -1., 0.]],
     [[1., 5., 4., 3., 2.]], {'output': [[2.]]}, 'padded items take no rank', None, _A)
_tfr('ARPMetricTest.test_arp_should_ignore_masked_items', 'ARPMetric', [[1., 0., 1., 1., 0.]],
     [[1., 5., 4., 3., 2.]], {'output': [[2.]]}, 'masked items take no rank', None, _A,
     mask=[[True, False, True, False, True]])
_tfr('ARPMetricTest.test_arp_should_handle_ragged_inputs', 'ARPMetric', [[0., 0., 1., 0.], [0., 1., 2.]],
     [[1., 3., 2., 4.], [1., 2., 3.]], {'output': [[3.], [((1. * 2.) + (2. * 1.)) / (2. + 1.)]]}, 'ragged lists',
     None, _A, ragged=True)
_tfr('ARPMetricTest.test_arp_should_weight_items_with_weights_and_labels', 'ARPMetric', [[0., 0., 1.], [0., 1., 2.]],
     [[1., 3., 2.], [1., 2., 3.]],
     {'output': [[2.], [2. * (5. / (5. + 6. * 2.)) + 1. * (6. * 2. / (5. + 6. * 2.))]]},
     'item weights multiply the labels: sum(rank x w x label) / sum(w x label)', None, ('ARP', 'item_weights'),
     weights=[[1., 2., 3.], [4., 5., 6.]])
_tfr('ARPMetricTest.test_arp_weights_should_be_sum_of_weighted_labels', 'ARPMetric', [[0., 0., 1.], [0., 1., 2.]],
     [[1., 3., 2.], [1., 2., 3.]], {'output_weights': [[3.], [5. + 6. * 2.]]},
     "ARP's list weight is sum(w x label) (so the batch ARP pools ranks over all lists)", None,
     ('ARP', 'list_weight_rule'), weights=[[1., 2., 3.], [4., 5., 6.]])

# ---------------------------------------------------------------- RecallMetric
_tfr('RecallMetricTest.test_recall_should_be_single_value', 'RecallMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[1.]]}, 'relevant (label >= 1) in the top n over relevant in the list', _ev('R'), topn=None)
_tfr('RecallMetricTest.test_recall_should_be_0_when_no_rel_items', 'RecallMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'no relevant item: 0', _ev('R'), topn=None)
_tfr('RecallMetricTest.test_recall_should_ignore_masked_items', 'RecallMetric', [[0., 1., 1., 0., 1.]],
     [[5., 4., 3., 2., 1.]], {'output': [[1 / 2]]},
     'a masked relevant item is neither ranked nor counted in the denominator', _ev('R@3'),
     mask=[[True, False, True, True, True]], topn=3)
_tfr('RecallMetricTest.test_recall_should_handle_ragged_inputs', 'RecallMetric', [[0., 0., 1., 0.], [1., 0., 2.]],
     [[1., 3., 2., 4.], [1., 2., 3.]], {'output': [[0. / 1.], [1. / 2.]]}, 'ragged lists', _ev('R@2'), topn=2,
     ragged=True)
for _k, _v in [(1, [[0.]]), (2, [[1.]]), (6, [[1.]])]:
    _tfr(f'RecallMetricTest.test_recall_should_handle_topn[topn={_k}]', 'RecallMetric', [[0., 0., 1.]],
         [[1., 3., 2.]], {'output': _v}, 'cutoff topn', _ev(f'R@{_k}'), topn=_k)
_tfr('RecallMetricTest.test_recall_should_be_single_value_per_list', 'RecallMetric', [[1., 0., 1.], [0., 1., 1.]],
     [[1., 3., 2.], [1., 3., 4.]], {'output': [[1 / 2], [1.]]}, 'one value per list', _ev('R@2'), topn=2)
_tfr('RecallMetricTest.test_recall_weights_should_be_avg_of_rel_items', 'RecallMetric', [[1., 1., 0.]],
     [[1., 3., 2.]], {'output_weights': [[(3. + 9.) / 2]]}, "list weight = mean weight of the relevant items",
     None, _W, weights=[[3., 9., 2.]], topn=None)
_tfr('RecallMetricTest.test_recall_weights_should_ignore_graded_relevance', 'RecallMetric', [[4., 0., 2.]],
     [[1., 3., 2.]], {'output_weights': [[(3. + 2.) / 2]]},
     'the list weight of recall binarises the labels (label >= 1)', None, _W, weights=[[3., 9., 2.]], topn=None)
_tfr('RecallMetricTest.test_recall_weights_should_ignore_topn', 'RecallMetric', [[1., 1., 0.]], [[1., 3., 2.]],
     {'output_weights': [[(3. + 9.) / 2]]}, 'the list weight reads the whole list', None, _W,
     weights=[[3., 9., 2.]], topn=1)
_tfr('RecallMetricTest.test_recall_weights_should_be_1_when_no_rel_items', 'RecallMetric', [[0., 0., 0.]],
     [[1., 3., 2.]], {'output_weights': [[1.]]}, 'no weights given, no relevant item: list weight 1', None, _W,
     topn=None)

# ---------------------------------------------------------------- PrecisionMetric
_tfr('PrecisionMetricTest.test_precision_should_be_single_value', 'PrecisionMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[1 / 3]]}, 'no topn: relevant over the valid items', _ev('P'), topn=None)
_tfr('PrecisionMetricTest.test_precision_should_be_0_when_no_rel_items', 'PrecisionMetric', [[0., 0., 0.]],
     [[1., 3., 2.]], {'output': [[0.]]}, 'no relevant item: 0', _ev('P'), topn=None)
_tfr('PrecisionMetricTest.test_precision_should_be_single_value_per_list', 'PrecisionMetric',
     [[0., 0., 1., 1.], [0., 0., 1., 0.]], [[1., 3., 2., 4.], [4., 1., 3., 2.]], {'output': [[2 / 4], [1 / 4]]},
     'one value per list', _ev('P'), topn=None)
for _k, _v in [(1, [[1. / 1.], [0. / 1.], [0. / 1.]]), (2, [[1. / 2.], [1. / 2.], [0. / 2.]]),
               (6, [[2. / 3.], [1. / 3.], [1. / 3.]])]:
    _tfr(f'PrecisionMetricTest.test_precision_should_handle_topn[topn={_k}]', 'PrecisionMetric',
         [[1., 0., 1.], [0., 1., 0.], [0., 0., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]], {'output': _v},
         'divides by min(topn, valid items): topn 6 on 3 items divides by 3', _ev(f'P(adaptive_k=true)@{_k}'),
         topn=_k)
_tfr('PrecisionMetricTest.test_precision_should_ignore_padded_items', 'PrecisionMetric',
     [[0., 0., 1., -1.], [0., -1., 1., -1.]], [[1., 3., 2., 4.], [4., 1., 3., 2.]], {'output': [[1 / 3], [1 / 2]]},
     'padding is not counted in the denominator', _ev('P'), topn=None)
_tfr('PrecisionMetricTest.test_precision_should_ignore_masked_items', 'PrecisionMetric',
     [[0., 0., 1., 0.], [0., 1., 1., 0.]], [[1., 3., 2., 4.], [4., 1., 3., 2.]], {'output': [[1 / 3], [1 / 2]]},
     'masked items are not counted', _ev('P'), mask=[[True, True, True, False], [True, False, True, False]],
     topn=None)
_tfr('PrecisionMetricTest.test_precision_should_handle_ragged_inputs', 'PrecisionMetric',
     [[0., 0., 1., 0.], [1., 0., 2.]], [[1., 3., 2., 4.], [1., 2., 3.]], {'output': [[1 / 4], [2 / 3]]},
     'ragged lists; graded labels are binarised (>= 1)', _ev('P'), topn=None, ragged=True)
_tfr('PrecisionMetricTest.test_precision_weights_should_be_avg_of_weights_of_rel_items', 'PrecisionMetric',
     [[1., 0., 2.]], [[1., 3., 2.]], {'output_weights': [[(13. + 29.) / 2]]},
     'list weight = mean weight of the relevant items', None, _W, weights=[[13., 7., 29.]], topn=None)
_tfr('PrecisionMetricTest.test_precision_weights_should_ignore_topn', 'PrecisionMetric', [[1., 1., 0.]],
     [[1., 3., 2.]], {'output_weights': [[(3. + 7.) / 2]]}, 'the list weight reads the whole list', None, _W,
     weights=[[3., 7., 15.]], topn=1)
_tfr('PrecisionMetricTest.test_precision_weights_should_be_1_when_no_rel_items', 'PrecisionMetric', [[0., 0., 0.]],
     [[1., 3., 2.]], {'output_weights': [[1.]]}, 'no relevant item in the batch: list weight 1', None, _W,
     weights=[[3., 7., 15.]], topn=1)

# ---------------------------------------------------------------- MeanAveragePrecisionMetric
_tfr('MeanAveragePrecisionMetricTest.test_map_should_be_single_value', 'MeanAveragePrecisionMetric',
     [[0., 1., 0.]], [[3., 2., 1.]], {'output': [[(1 / 2) / 1]]}, 'AP over the relevant items of the list',
     _ev('AP'), topn=None)
_tfr('MeanAveragePrecisionMetricTest.test_map_should_treat_graded_relevance_as_binary_relevance',
     'MeanAveragePrecisionMetric', [[0., 2., 1., 3.]], [[3., 4., 1., 2.]],
     {'output': [[(1. + 2. / 3. + 3. / 4.) / 3.]]}, 'graded labels binarised (>= 1)', _ev('AP'), topn=None)
_tfr('MeanAveragePrecisionMetricTest.test_map_should_be_0_when_no_rel_items', 'MeanAveragePrecisionMetric',
     [[0., 0., 0.]], [[3., 2., 1.]], {'output': [[0.]]}, 'no relevant item: 0', _ev('AP'), topn=None)
_tfr('MeanAveragePrecisionMetricTest.test_map_should_be_single_value_per_list', 'MeanAveragePrecisionMetric',
     [[0., 0., 1.], [0., 1., 1.]], [[1., 3., 2.], [1., 3., 2.]],
     {'output': [[(1 / 2) / 1], [(1. / 1. + 2. / 2.) / 2.]]}, 'one value per list', _ev('AP'), topn=None)
_tfr('MeanAveragePrecisionMetricTest.test_map_should_handle_ragged_inputs', 'MeanAveragePrecisionMetric',
     [[0., 0., 1., 0.], [1., 1., 0.]], [[1., 4., 3., 2.], [1., 3., 2.]],
     {'output': [[(1 / 2) / 1], [(1. / 1. + 2. / 3.) / 2.]]}, 'ragged lists', _ev('AP'), topn=None, ragged=True)
for _k, _v in [(1, [[1. / 2.], [0. / 1.], [0. / 1.]]), (2, [[1. / 2.], [(1. / 2.) / 1.], [0. / 1.]]),
               (6, [[(1. + 2. / 3.) / 2.], [(1. / 2.) / 1.], [(1. / 3.) / 1.]])]:
    _tfr(f'MeanAveragePrecisionMetricTest.test_map_should_handle_topn[topn={_k}]', 'MeanAveragePrecisionMetric',
         [[1., 0., 2.], [0., 1., 0.], [0., 0., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]], {'output': _v},
         'AP@n divides by every relevant item of the list, not by those in the top n', _ev(f'AP@{_k}'), topn=_k)
_tfr('MeanAveragePrecisionMetricTest.test_map_weights_should_be_avg_of_weights_of_rel_items',
     'MeanAveragePrecisionMetric', [[1., 0., 2.]], [[1., 3., 2.]], {'output_weights': [[(13. + 29.) / 2]]},
     'list weight = mean weight of the relevant items', None, _W, weights=[[13., 7., 29.]], topn=None)
_tfr('MeanAveragePrecisionMetricTest.test_map_weights_should_ignore_topn', 'MeanAveragePrecisionMetric',
     [[1., 1., 0.]], [[1., 3., 2.]], {'output_weights': [[(3. + 7.) / 2]]}, 'the list weight reads the whole list',
     None, _W, weights=[[3., 7., 15.]], topn=1)
_tfr('MeanAveragePrecisionMetricTest.test_map_weights_should_be_1_when_no_rel_items', 'MeanAveragePrecisionMetric',
     [[0., 0., 0.]], [[1., 3., 2.]], {'output_weights': [[1.]]}, 'no relevant item in the batch: list weight 1',
     None, _W, weights=[[3., 7., 15.]], topn=None)

# ---------------------------------------------------------------- NDCGMetric (gain 2^l - 1, discount 1/log2(1+r))
_tfr('NDCGMetricTest.test_ndcg_should_be_single_value', 'NDCGMetric', [[0., 1., 0.]], [[3., 2., 1.]],
     {'output': [[D(2) / D(1)]]}, 'nDCG, ideal from the valid items of the list', _ev('nDCG(gain=exp)'), topn=None)
_tfr('NDCGMetricTest.test_ndcg_should_be_0_when_no_rel_items', 'NDCGMetric', [[0., 0., 0.]], [[3., 2., 1.]],
     {'output': [[0.]]}, 'ideal DCG 0: 0', _ev('nDCG(gain=exp)'), topn=None)
_tfr('NDCGMetricTest.test_ndcg_should_operate_on_graded_relevance', 'NDCGMetric', [[0., 3., 1., 0.]],
     [[4., 3., 2., 1.]], {'output': [[(G(3) * D(2) + G(1) * D(3)) / (G(3) * D(1) + G(1) * D(2))]]},
     'graded gain 2^l - 1', _ev('nDCG(gain=exp)'), topn=None)
_tfr('NDCGMetricTest.test_ndcg_should_operate_on_graded_relevance_with_custom_gain_fn', 'NDCGMetric',
     [[0., 3., 1., 0.]], [[4., 3., 2., 1.]],
     {'output': [[((3 / 2) * D(2) + (1 / 2) * D(3)) / ((3 / 2) * D(1) + (1 / 2) * D(2))]]}, 'gain_fn = label / 2',
     _ev('nDCG(gains={1:0.5,3:1.5})'), topn=None, gain_fn='label / 2')
_tfr('NDCGMetricTest.test_ndcg_should_use_custom_rank_discount_fn', 'NDCGMetric', [[0., 3., 1., 0.]],
     [[4., 3., 2., 1.]], {'output': [[(G(3) / (2 + 10) + 1 / (3 + 10)) / (G(3) / (1 + 10) + 1 / (2 + 10))]]},
     'rank_discount_fn = 1 / (rank + 10), ideal discounted alike', _kernel('ndcg', gain='exp', discount='1/(r+10)',
                                                                          ideal='returned'),
     topn=None, rank_discount_fn='1 / (rank + 10)')
_tfr('NDCGMetricTest.test_ndcg_should_ignore_padded_items', 'NDCGMetric', [[2., -1., 1., 0.]], [[1., 4., 3., 2.]],
     {'output': [[(G(2) * D(3) + 1 * D(1)) / (G(2) * D(1) + 1 * D(2))]]},
     'padding (label < 0) is neither ranked nor in the ideal', _ev('nDCG(gain=exp)'), topn=None)
_tfr('NDCGMetricTest.test_ndcg_should_ignore_masked_items', 'NDCGMetric', [[2., 2., 1., 0.]], [[1., 4., 3., 2.]],
     {'output': [[(G(2) * D(3) + 1 * D(1)) / (G(2) * D(1) + 1 * D(2))]]},
     'a masked item (label 2) is neither ranked nor in the ideal', _ev('nDCG(gain=exp)'),
     mask=[[True, False, True, True]], topn=None)
_tfr('NDCGMetricTest.test_ndcg_should_handle_ragged_inputs', 'NDCGMetric', [[0., 1., 0.], [1., 1., 0., 0.]],
     [[3., 2., 1.], [4., 1., 2., 3.]],
     {'output': [[D(2) / D(1)], [(D(1) + D(4)) / (D(1) + D(2))]]}, 'ragged lists', _ev('nDCG(gain=exp)'), topn=None,
     ragged=True)
_tfr('NDCGMetricTest.test_ndcg_should_be_single_value_per_list', 'NDCGMetric', [[0., 1., 0.], [1., 1., 0.]],
     [[3., 2., 1.], [3., 1., 2.]], {'output': [[D(2) / D(1)], [(D(1) + D(3)) / (D(1) + D(2))]]},
     'one value per list', _ev('nDCG(gain=exp)'), topn=None)
for _k, _v in [(1, [[(1 * D(1)) / (G(2) * D(1))], [0. / D(1)], [0. / D(1)]]),
               (2, [[(1 * D(1)) / (G(2) * D(1) + 1 * D(2))], [D(2) / D(1)], [0. / D(1)]]),
               (6, [[(1 * D(1) + G(2) * D(3)) / (G(2) * D(1) + 1 * D(2))], [D(2) / D(1)], [D(3) / D(1)]])]:
    _tfr(f'NDCGMetricTest.test_ndcg_should_handle_topn[topn={_k}]', 'NDCGMetric',
         [[1., 0., 2.], [0., 1., 0.], [0., 0., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]], {'output': _v},
         'nDCG@n: the ideal is cut at n too', _ev(f'nDCG(gain=exp)@{_k}'), topn=_k)
_tfr('NDCGMetricTest.test_ndcg_weights_should_be_average_of_weighted_gain', 'NDCGMetric', [[1., 0., 2.]],
     [[1., 3., 2.]], {'output_weights': [[(1. * 3. + G(2) * 9.) / (1. + G(2))]]},
     "nDCG's list weight = sum(w x gain) / sum(gain)", None, _W, weights=[[3., 7., 9.]], topn=None)
_tfr('NDCGMetricTest.test_ndcg_weights_should_be_1_when_no_rel_items', 'NDCGMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output_weights': [[1.]]}, 'no gain in the batch: list weight 1', None, _W, weights=[[2., 4., 4.]], topn=None)
_tfr('NDCGMetricTest.test_ndcg_weights_should_use_custom_gain_fn', 'NDCGMetric', [[1., 0., 2.]], [[1., 3., 2.]],
     {'output_weights': [[((1. + 5.) * 3. + (0. + 5.) * 7. + (2. + 5.) * 9.) / ((1. + 5.) + (0. + 5.) + (2. + 5.))]]},
     'the list weight averages the item weights by the custom gains (label + 5)', None, _W, weights=[[3., 7., 9.]],
     topn=None, gain_fn='label + 5')
_tfr('NDCGMetricTest.test_ndcg_with_weights', 'NDCGMetric', [[1., 2., 3.]], [[1., 2., 3.]],
     {'output': [[(G(3) * D(1) + G(2) * D(2) + G(1) * D(3) * 4.) / (G(3) * D(1) + G(2) * D(3) + G(1) * D(2) * 4.)]]},
     'item weights scale the gains; the ideal orders items by weighted gain (the weight-4 label-1 item goes second)',
     None, ('item_weights',), weights=[[4., 1., 1.]], topn=None)
_tfr('NDCGMetricTest.test_ndcg_with_all_zero_weights', 'NDCGMetric', [[1., 2., 3.]], [[1., 2., 3.]],
     {'output': [[0.0]], 'output_weights': [[0.0]]},
     'weights all 0: the items are masked (weight > 0 is part of validity); value 0, list weight 0', None,
     ('item_weights', 'list_weight_rule'), weights=[[0., 0., 0.]], topn=None)

# ---------------------------------------------------------------- DCGMetric
_tfr('DCGMetricTest.test_dcg_should_be_single_value', 'DCGMetric', [[0., 1., 0.]], [[3., 2., 1.]],
     {'output': [[D(2)]]}, 'DCG, gain 2^l - 1', _ev('DCG(gain=exp)'), topn=None)
_tfr('DCGMetricTest.test_dcg_should_be_0_when_no_rel_items', 'DCGMetric', [[0., 0., 0.]], [[3., 2., 1.]],
     {'output': [[0.]]}, 'no gain: 0', _ev('DCG(gain=exp)'), topn=None)
_tfr('DCGMetricTest.test_dcg_should_operate_on_graded_relevance', 'DCGMetric', [[0., 3., 1., 0.]],
     [[4., 3., 2., 1.]], {'output': [[G(3) * D(2) + 1 * D(3)]]}, 'graded gain', _ev('DCG(gain=exp)'), topn=None)
_tfr('DCGMetricTest.test_dcg_should_operate_on_graded_relevance_with_custom_gain_fn', 'DCGMetric',
     [[0., 3., 1., 0.]], [[4., 3., 2., 1.]], {'output': [[(3 / 2) * D(2) + (1 / 2) * D(3)]]}, 'gain_fn = label / 2',
     _ev('DCG(gains={1:0.5,3:1.5})'), topn=None, gain_fn='label / 2')
_tfr('DCGMetricTest.test_dcg_should_use_custom_rank_discount_fn', 'DCGMetric', [[0., 3., 1., 0.]],
     [[4., 3., 2., 1.]], {'output': [[G(3) / (2 + 10) + 1 / (3 + 10)]]}, 'rank_discount_fn = 1 / (rank + 10)',
     _kernel('dcg', gain='exp', discount='1/(r+10)'), topn=None, rank_discount_fn='1 / (rank + 10)')
_tfr('DCGMetricTest.test_dcg_should_ignore_padded_items', 'DCGMetric', [[2., -1., 1., 0.]], [[1., 4., 3., 2.]],
     {'output': [[G(2) * D(3) + 1 * D(1)]]}, 'padding takes no rank', _ev('DCG(gain=exp)'), topn=None)
_tfr('DCGMetricTest.test_dcg_should_ignore_masked_items', 'DCGMetric', [[2., 2., 1., 0.]], [[1., 4., 3., 2.]],
     {'output': [[G(2) * D(3) + 1 * D(1)]]}, 'masked items take no rank', _ev('DCG(gain=exp)'),
     mask=[[True, False, True, True]], topn=None)
_tfr('DCGMetricTest.test_dcg_should_handle_ragged_inputs', 'DCGMetric', [[0., 1., 0.], [1., 1., 0., 0.]],
     [[3., 2., 1.], [4., 1., 2., 3.]], {'output': [[D(2)], [D(1) + D(4)]]}, 'ragged lists', _ev('DCG(gain=exp)'),
     topn=None, ragged=True)
_tfr('DCGMetricTest.test_dcg_should_be_single_value_per_list', 'DCGMetric', [[0., 1., 0.], [1., 1., 0.]],
     [[3., 2., 1.], [3., 1., 2.]], {'output': [[D(2)], [D(1) + D(3)]]}, 'one value per list', _ev('DCG(gain=exp)'),
     topn=None)
for _k, _v in [(1, [[D(1)], [0.], [0.]]), (2, [[D(1)], [D(2)], [0.]]), (6, [[D(1) + G(2) * D(3)], [D(2)], [D(3)]])]:
    _tfr(f'DCGMetricTest.test_dcg_should_handle_topn[topn={_k}]', 'DCGMetric',
         [[1., 0., 2.], [0., 1., 0.], [0., 0., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]], {'output': _v},
         'DCG@n', _ev(f'DCG(gain=exp)@{_k}'), topn=_k)
_tfr('DCGMetricTest.test_dcg_weights_should_be_average_of_weighted_gain', 'DCGMetric', [[1., 0., 2.]],
     [[1., 3., 2.]], {'output_weights': [[(1. * 3. + G(2) * 9.) / (1. + G(2))]]},
     "DCG's list weight = sum(w x gain) / sum(gain)", None, _W, weights=[[3., 7., 9.]], topn=None)
_tfr('DCGMetricTest.test_dcg_with_all_zero_weights', 'DCGMetric', [[1., 0., 2.]], [[1., 3., 2.]],
     {'output': [[0.0]], 'output_weights': [[0.0]]}, 'weights all 0: every item masked; 0 and list weight 0', None,
     ('item_weights', 'list_weight_rule'), weights=[[0., 0., 0.]], topn=None)
_tfr('DCGMetricTest.test_dcg_weights_should_be_1_when_no_rel_items', 'DCGMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output_weights': [[1.]]}, 'no gain in the batch: list weight 1', None, _W, weights=[[2., 4., 4.]], topn=None)
_tfr('DCGMetricTest.test_dcg_weights_should_use_custom_gain_fn', 'DCGMetric', [[1., 0., 2.]], [[1., 3., 2.]],
     {'output_weights': [[((1. + 3.) * 4. + (0. + 3.) * 1. + (2. + 3.) * 9.) / ((1. + 3.) + (0. + 3.) + (2. + 3.))]]},
     'the list weight averages item weights by the custom gains (label + 3)', None, _W, weights=[[4., 1., 9.]],
     topn=None, gain_fn='label + 3')

# ---------------------------------------------------------------- OPAMetric (per-list value and pair count)
_O = ('OPA_counts',)
_RC = _kernel('rank_correlation', tied_labels='ignored')
_tfr('OPAMetricTest.test_opa_should_return_correct_pair_matrix', 'OPAMetric', [[0., 1., 0.]], [[3., 2., 1.]],
     {'output': [[1 / 2]], 'output_weights': [[2.]]},
     'OPA = pairs (label_i > label_j) with score_i > score_j over pairs with label_i > label_j; list weight = pairs',
     _RC, _O)
_tfr('OPAMetricTest.test_opa_should_be_0_when_no_rel_items', 'OPAMetric', [[0., 0., 0.]], [[3., 2., 1.]],
     {'output': [[0.]], 'output_weights': [[0.]]}, 'no pair of different labels: 0, with pair count 0', None,
     ('no_pair_rule', 'OPA_counts'))
_tfr('OPAMetricTest.test_opa_should_operate_on_graded_relevance', 'OPAMetric', [[1., 3., 0., 1.]],
     [[4., 3., 2., 1.]], {'output': [[3 / 5]], 'output_weights': [[5.]]},
     'graded labels: every pair with different labels counts', _RC, _O)
_tfr('OPAMetricTest.test_opa_should_ignore_padded_items', 'OPAMetric', [[2., -1., 1., 0.]], [[4., 1., 2., 3.]],
     {'output': [[2 / 3]], 'output_weights': [[3.]]}, 'padding forms no pair', _RC, _O)
_tfr('OPAMetricTest.test_opa_should_ignore_masked_items', 'OPAMetric', [[2., 1., 1., 0.]], [[4., 1., 2., 3.]],
     {'output': [[2 / 3]], 'output_weights': [[3.]]}, 'masked items form no pair', _RC, _O,
     mask=[[True, False, True, True]])
_tfr('OPAMetricTest.test_opa_should_handle_ragged_inputs', 'OPAMetric', [[0., 1., 0.], [1., 0., 1., 0.]],
     [[3., 2., 1.], [4., 1., 2., 3.]], {'output': [[1 / 2], [3 / 4]], 'output_weights': [[2.], [4.]]},
     'ragged lists', _RC, _O, ragged=True)
_tfr('OPAMetricTest.test_opa_should_return_correct_pair_matrix_per_list', 'OPAMetric', [[0., 1., 0.], [1., 0., 1.]],
     [[3., 2., 1.], [3., 1., 2.]], {'output': [[1 / 2], [2 / 2]], 'output_weights': [[2.], [2.]]},
     'one value and one pair count per list', _RC, _O)
_tfr('OPAMetricTest.test_opa_should_weight_pairs_with_weights', 'OPAMetric', [[1., 0., 2.]], [[1., 3., 2.]],
     {'output': [[9. / (9. + 9. + 3.)]]},
     'a pair weighs the weight of its more relevant item', None, ('item_weights',), weights=[[3., 7., 9.]])
_tfr('OPAMetricTest.test_opa_weights_should_be_sum_of_pair', 'OPAMetric', [[1., 0., 2.]], [[1., 3., 2.]],
     {'output_weights': [[9. + 9. + 3.]]}, "the list weight sums the pairs' weights", None,
     ('item_weights', 'OPA_counts'), weights=[[3., 7., 9.]])
_tfr('OPAMetricTest.test_opa_weights_should_be_0_when_no_rel_items', 'OPAMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output_weights': [[0.]]}, 'no pair: list weight 0 (the list is left out of the batch mean)', None,
     ('item_weights', 'OPA_counts'), weights=[[2., 4., 4.]])

# ---------------------------------------------------------------- PrecisionIAMetric (labels: lists x items x subtopics)
_PIA = _kernel('p_ia', lists='valid_subtopics')
_tfr('PrecisionIAMetricTest.test_precisionia_should_be_single_value', 'PrecisionIAMetric',
     [[[0., 0.], [1., 0.], [0., 1.]]], [[1., 3., 2.]], {'output': [[2. / (2. * 3.)]]},
     'P-IA = relevant (item, subtopic) pairs in the top n / (S x n); S = subtopics with a relevant item', _PIA,
     topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_should_handle_single_subtopic', 'PrecisionIAMetric',
     [[[0.], [1.], [0.]]], [[1., 3., 2.]], {'output': [[1. / (1. * 3.)]]}, 'one subtopic', _PIA, topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_should_handle_multiple_subtopics', 'PrecisionIAMetric',
     [[[0., 0., 1., 0.], [1., 1., 1., 1.], [0., 1., 1., 0.]]], [[1., 3., 2.]], {'output': [[7. / (4. * 3.)]]},
     'four subtopics', _PIA, topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_should_ignore_masked_items', 'PrecisionIAMetric',
     [[[0., 0.], [1., 0.], [1., 1.], [0., 1.]]], [[1., 3., 4., 2.]], {'output': [[2. / (2. * 3.)]]},
     'masked items: not ranked, not counted in n', _PIA, mask=[[True, True, False, True]], topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_should_handle_ragged_inputs', 'PrecisionIAMetric',
     [[[0., 0.], [1., 0.], [1., 1.], [0., 1.]], [[0., 0.], [1., 0.], [0., 1.]]], [[1., 3., 4., 2.], [1., 3., 2.]],
     {'output': [[1. / 2.], [2. / (2. * 3.)]]}, 'ragged lists', _PIA, topn=None, ragged=True)
_tfr('PrecisionIAMetricTest.test_precisionia_should_ignore_subtopics_without_rel', 'PrecisionIAMetric',
     [[[0., 0.], [0., 1.], [0., 1.], [0., 0.]]], [[1., 3., 2., 4.]], {'output': [[2. / (1. * 4.)]]},
     'a subtopic without a relevant item is not counted in S', _PIA, topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_should_be_0_when_no_rel_items', 'PrecisionIAMetric',
     [[[0., 0.], [0., 0.], [0., 0.]]], [[1., 3., 2.]], {'output': [[0.]]}, 'S = 0: 0', _PIA, topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_should_be_single_value_per_list', 'PrecisionIAMetric',
     [[[0., 0.], [0., 0.], [1., 1.], [1., 0.]], [[1., 0.], [1., 1.], [1., 0.], [0., 1.]]],
     [[1., 3., 2., 4.], [4., 1., 3., 2.]], {'output': [[3. / (2. * 4.)], [5. / (2. * 4.)]]}, 'one value per list',
     _PIA, topn=None)
for _k, _v in [(1, [[2. / (2. * 1.)], [0. / (2. * 1.)], [1. / (2. * 1.)], [2. / (2. * 1.)]]),
               (2, [[2. / (2. * 2.)], [1. / (2. * 2.)], [1. / (2. * 2.)], [4. / (2. * 2.)]]),
               (6, [[3. / (2. * 3.)], [2. / (2. * 3.)], [2. / (2. * 3.)], [6. / (2. * 3.)]])]:
    _tfr(f'PrecisionIAMetricTest.test_precisionia_should_handle_topn[topn={_k}]', 'PrecisionIAMetric',
         [[[1., 1.], [0., 0.], [1., 0.]], [[0., 0.], [0., 1.], [1., 0.]], [[0., 1.], [0., 0.], [1., 0.]],
          [[1., 1.], [1., 1.], [1., 1.]]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.], [3., 2., 1.]], {'output': _v},
         'P-IA@n divides by S x min(n, valid items): topn 6 on 3 items divides by S x 3',
         _kernel('p_ia', lists='valid_subtopics', k=_k) if _k <= 3 else None, () if _k <= 3 else ('p_ia_adaptive_k',),
         topn=_k)
_tfr('PrecisionIAMetricTest.test_precisionia_weights_should_be_avg_of_weights_of_rel_items', 'PrecisionIAMetric',
     [[[0., 1.], [0., 0.], [1., 1.]]], [[1., 3., 2.]], {'output_weights': [[(3. + 9.) / 2.]]},
     'list weight = mean weight of the items relevant to some subtopic', None, _W, weights=[[3., 7., 9.]], topn=None)
_tfr('PrecisionIAMetricTest.test_precisionia_weights_should_ignore_topn', 'PrecisionIAMetric',
     [[[1., 1.], [1., 0.], [0., 0.]]], [[1., 3., 2.]], {'output_weights': [[(3. + 4.) / 2.]]},
     'the list weight reads the whole list', None, _W, weights=[[3., 4., 5.]], topn=1)
_tfr('PrecisionIAMetricTest.test_precisionia_weights_should_be_1_when_no_rel_items', 'PrecisionIAMetric',
     [[[0., 0.], [0., 0.], [0., 0.]]], [[1., 3., 2.]], {'output_weights': [[1.]]},
     'no relevant item in the batch: list weight 1', None, _W, weights=[[3., 7., 2.]], topn=None)


# ---------------------------------------------------------------- AlphaDCGMetric (alpha 0.5, discount 1/log2(1+r))
def _ag(alpha, seen):
    "The alpha-DCG gain of one (item, subtopic) hit that the subtopic has seen `seen` times before."
    return (1. - alpha) ** seen


_ADCG = _kernel('alpha_dcg', lists='valid_subtopics')
_tfr('AlphaDCGMetricTest.test_alphadcg_should_be_single_value', 'AlphaDCGMetric', [[[0., 0.], [1., 0.], [0., 1.]]],
     [[1., 3., 2.]], {'output': [[_ag(.5, 0) * D(1) + _ag(.5, 0) * D(2)]]},
     'alpha-DCG = sum over ranks of sum over subtopics label x (1 - alpha)^(hits before) x discount', _ADCG,
     topn=None)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_handle_single_subtopic', 'AlphaDCGMetric', [[[0.], [0.], [1.]]],
     [[1., 3., 2.]], {'output': [[_ag(.5, 0) * D(2)]]}, 'one subtopic', _ADCG, topn=None)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_handle_multiple_subtopics', 'AlphaDCGMetric',
     [[[0., 1., 0., 0.], [1., 1., 0., 1.], [0., 1., 1., 0.]]], [[1., 3., 2.]],
     {'output': [[3 * _ag(.5, 0) * D(1) + _ag(.5, 1) * D(2) + _ag(.5, 0) * D(2) + _ag(.5, 2) * D(3)]]},
     'redundant hits decay by (1 - alpha) per earlier hit of the subtopic', _ADCG, topn=None)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_be_0_when_no_rel_items', 'AlphaDCGMetric',
     [[[0., 0.], [0., 0.], [0., 0.]]], [[1., 3., 2.]], {'output': [[0.]]}, 'no hit: 0', _ADCG, topn=None)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_ignore_masked_items', 'AlphaDCGMetric',
     [[[0., 0.], [1., 1.], [1., 0.], [0., 1.], [1., 0.]]], [[1., 4., 3., 2., 2.]],
     {'output': [[_ag(.5, 0) * D(1) + _ag(.5, 0) * D(2)]]}, 'masked items take no rank', _ADCG,
     mask=[[True, False, True, True, False]], topn=None)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_handle_ragged_inputs', 'AlphaDCGMetric',
     [[[1., 0.], [1., 1.], [0., 1.], [1., 0.]], [[0., 0.], [1., 0.], [0., 1.]]], [[1., 3., 2., 4.], [1., 3., 2.]],
     {'output': [[_ag(.5, 0) * D(1) + _ag(.5, 0) * D(2) + _ag(.5, 1) * D(2) + _ag(.5, 1) * D(3) + _ag(.5, 2) * D(4)],
                 [_ag(.5, 0) * D(1) + _ag(.5, 0) * D(2)]]}, 'ragged lists', _ADCG, topn=None, ragged=True)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_be_single_value_per_list', 'AlphaDCGMetric',
     [[[0., 0.], [0., 0.], [1., 1.], [1., 0.]], [[1., 0.], [1., 1.], [1., 0.], [0., 1.]]],
     [[1., 3., 2., 4.], [4., 1., 3., 2.]],
     {'output': [[1. * D(1) + _ag(.5, 0) * D(3) + _ag(.5, 1) * D(3)],
                 [_ag(.5, 0) * D(1) + _ag(.5, 1) * D(2) + _ag(.5, 0) * D(3) + _ag(.5, 1) * D(4) + _ag(.5, 2) * D(4)]]},
     'one value per list', _ADCG, topn=None)
for _a in (0.2, 0.95):
    _tfr(f'AlphaDCGMetricTest.test_alphadcg_should_handle_custom_alpha[alpha={_a}]', 'AlphaDCGMetric',
         [[[1., 1.], [0., 1.], [0., 1.], [1., 0.]]], [[1., 3., 2., 4.]],
         {'output': [[_ag(_a, 0) * D(1) + _ag(_a, 0) * D(2) + _ag(_a, 1) * D(3) + _ag(_a, 1) * D(4)
                      + _ag(_a, 2) * D(4)]]}, 'alpha', _kernel('alpha_dcg', lists='valid_subtopics', alpha=_a),
         topn=None, alpha=_a)
_tfr('AlphaDCGMetricTest.test_alphadcg_should_handle_custom_rank_discount_fn', 'AlphaDCGMetric',
     [[[1., 0.], [1., 1.], [0., 1.], [1., 0.]]], [[1., 3., 2., 4.]],
     {'output': [[_ag(.5, 0) / (10 + 1) + _ag(.5, 0) / (10 + 2) + _ag(.5, 1) / (10 + 2) + _ag(.5, 1) / (10 + 3)
                  + _ag(.5, 2) / (10 + 4)]]}, 'rank_discount_fn = 1 / (10 + rank)', None, ('alpha_dcg_discount',),
     topn=None, rank_discount_fn='1 / (10 + rank)')
for _k, _v in [(1, [[_ag(.5, 0) * D(1)]]), (2, [[_ag(.5, 0) * D(1) + _ag(.5, 0) * D(2) + _ag(.5, 1) * D(2)]]),
               (6, [[_ag(.5, 0) * D(1) + _ag(.5, 0) * D(2) + _ag(.5, 1) * D(2) + _ag(.5, 1) * D(3)
                     + _ag(.5, 2) * D(5)]])]:
    _tfr(f'AlphaDCGMetricTest.test_alphadcg_should_handle_topn[topn={_k}]', 'AlphaDCGMetric',
         [[[1., 0.], [0., 0.], [1., 0.], [1., 1.], [0., 1.]]], [[3., 2., 1., 4., 5.]], {'output': _v}, 'cutoff topn',
         _kernel('alpha_dcg', lists='valid_subtopics', k=_k), topn=_k)
_tfr('AlphaDCGMetricTest.test_alphadcg_weights_should_be_avg_of_weights_of_rel_items', 'AlphaDCGMetric',
     [[[0., 1.], [0., 0.], [1., 1.]]], [[1., 3., 2.]], {'output_weights': [[(3. + 9.) / 2.]]},
     'list weight = mean weight of the items relevant to some subtopic', None, _W, weights=[[3., 7., 9.]], topn=None)
_tfr('AlphaDCGMetricTest.test_alphadcg_weights_should_ignore_topn', 'AlphaDCGMetric',
     [[[1., 1.], [1., 0.], [0., 0.]]], [[1., 3., 2.]], {'output_weights': [[(3. + 4.) / 2.]]},
     'the list weight reads the whole list', None, _W, weights=[[3., 4., 5.]], topn=1)
_tfr('AlphaDCGMetricTest.test_alphadcg_weights_should_be_1_when_no_rel_items', 'AlphaDCGMetric',
     [[[0., 0.], [0., 0.], [0., 0.]]], [[1., 3., 2.]], {'output_weights': [[1.]]},
     'no relevant item in the batch: list weight 1', None, _W, weights=[[3., 7., 2.]], topn=None)

# ---------------------------------------------------------------- BPrefMetric (use_trec_version=True by default)
_BP = _ev('Bpref')
_tfr('BPrefMetricTest.test_bpref_should_be_a_single_value', 'BPrefMetric', [[0., 1., 0., 1.]], [[4., 3., 2., 1.]],
     {'output': [[1. / 2. * ((1. - 1. / 2.) + (1. - 2. / 2.))]]},
     "trec_eval's bpref: 1/R sum over relevant retrieved of 1 - min(n above, R) / min(R, N)", _BP, topn=None)
_tfr('BPrefMetricTest.test_bpref_should_convert_graded_relevance_to_binary', 'BPrefMetric', [[0., 1., 0., 2.]],
     [[4., 3., 2., 1.]], {'output': [[1. / 2. * ((1. - 1. / 2.) + (1. - 2. / 2.))]]}, 'graded labels binarised',
     _BP, topn=None)
_tfr('BPrefMetricTest.test_bpref_should_be_zero_when_only_irrelevant_items', 'BPrefMetric', [[0., 0., 0.]],
     [[3., 2., 1.]], {'output': [[0.]]}, 'R = 0: 0', _BP, topn=None)
_tfr('BPrefMetricTest.test_trec_bpref_should_be_one_when_only_relevant_items', 'BPrefMetric', [[1., 1., 1.]],
     [[3., 2., 1.]], {'output': [[1.]]}, 'N = 0: every relevant item scores 1', _BP, topn=None)
_tfr('BPrefMetricTest.test_non_trec_bpref_should_be_one_when_only_relevant_items', 'BPrefMetric', [[1., 1., 1.]],
     [[3., 2., 1.]], {'output': [[1.]]}, 'N = 0, the original form: 1', None, ('bpref_original',), topn=None,
     use_trec_version=False)
_tfr('BPrefMetricTest.test_bpref_should_be_zero_without_input_items', 'BPrefMetric', [[]], [[]], {'output': [[0.]]},
     'an empty list: 0', None, ('bpref_empty',), topn=None)
_tfr('BPrefMetricTest.test_trec_bpref_divides_with_min_and_is_0_when_one_irrelevant_first', 'BPrefMetric',
     [[0., 1., 1.]], [[3., 2., 1.]], {'output': [[0.]]}, 'min(R, N) = 1: one non-relevant item above cancels each',
     _BP, topn=None)
_tfr('BPrefMetricTest.test_bpref_divides_with_r_when_use_trec_version_is_false', 'BPrefMetric', [[0., 1., 1.]],
     [[3., 2., 1.]], {'output': [[0.5]]}, 'the original form divides by R = 2', None, ('bpref_original',),
     topn=None, use_trec_version=False)
_tfr('BPrefMetricTest.test_bpref_should_be_0_when_no_rel_item_in_topn_but_relevant_later', 'BPrefMetric',
     [[0., 0., 0., 1.]], [[3., 2., 1., 0.]], {'output': [[0.]]},
     'topn: only relevant items in the top n count (R from the whole list)', _ev('Bpref', depth=3), topn=3)
_tfr('BPrefMetricTest.test_non_trec_bpref_should_handle_topn', 'BPrefMetric',
     [[0., 1., 1., 1., 1., 0., 0., 0., 1., 1.]], [[5., 4., 3., 2., 1., 0., 0., 0., 0., 0.]],
     {'output': [[(4. * (1. - 1. / 6.)) / 6.]]},
     "trec_eval 8's bpref_bug example, original form at topn 5 (R = 6, N = 4)", None, ('bpref_original',), topn=5,
     use_trec_version=False)
_tfr('BPrefMetricTest.test_trec_bpref_should_handle_topn', 'BPrefMetric', [[0., 1., 1., 1., 1., 0., 0., 0., 1., 1.]],
     [[5., 4., 3., 2., 1., 0., 0., 0., 0., 0.]], {'output': [[(4. * (1. - 1. / 4.)) / 6.]]},
     "trec_eval 8's bpref_bug example at topn 5: min(R, N) = 4; = 0.5", _ev('Bpref', depth=5), topn=5)
_tfr('BPrefMetricTest.test_bpref_should_ignore_padded_items', 'BPrefMetric', [[-1., 0., -1., 1., 0., 1.]],
     [[6., 5., 4., 3., 2., 1.]], {'output': [[1. / 2. * ((1. - 1. / 2.) + (1. - 2. / 2.))]]},
     'padding is neither judged relevant nor non-relevant', _BP, topn=None)
_tfr('BPrefMetricTest.test_bpref_should_handle_ragged_inputs', 'BPrefMetric', [[0., 0., 1., 0.], [0., 1., 1.]],
     [[1., 3., 2., 4.], [1., 2., 3.]], {'output': [[0.], [1.]]}, 'ragged lists', _BP, topn=None, ragged=True)
_tfr('BPrefMetricTest.test_bpref_weights_should_be_avg_of_weights_of_rel_items', 'BPrefMetric', [[1., 0., 2.]],
     [[1., 3., 2.]], {'output_weights': [[(13. + 29.) / 2.]]}, 'list weight = mean weight of the relevant items',
     None, _W, weights=[[13., 7., 29.]], topn=None)
_tfr('BPrefMetricTest.test_bpref_weights_should_ignore_topn', 'BPrefMetric', [[1., 1., 0.]], [[1., 3., 2.]],
     {'output_weights': [[(3. + 7.) / 2.]]}, 'the list weight reads the whole list', None, _W,
     weights=[[3., 7., 15.]], topn=1)
_tfr('BPrefMetricTest.test_bpref_weights_should_be_1_when_no_rel_items', 'BPrefMetric', [[0., 0., 0.]],
     [[1., 3., 2.]], {'output_weights': [[1.]]}, 'no relevant item in the batch: list weight 1', None, _W,
     weights=[[3., 7., 15.]], topn=None)
_tfr('BPrefMetricTest.test_bpref_should_give_a_value_for_each_list_in_batch_inputs', 'BPrefMetric',
     [[0., 0., 1.], [0., 1., 1.]], [[1., 3., 2.], [1., 2., 3.]], {'output': [[0.], [1.]]}, 'one value per list',
     _BP, topn=None)

# ---------------------------------------------------------------- PWAMetric
_P = ('PWA',)
_tfr('PWAMetricTest.test_pwa_should_be_single_value', 'PWAMetric', [[0., 1., 2.], [4., 3., 2.], [8., 7., 6.]],
     [[1., 3., 2.], [4., 3., 2.], [8., 7., 6.]],
     {'output': [[2. / (11. / 6.)], [(4. / 1. + 3. / 2. + 2. / 3.) / (1. / 1. + 1. / 2. + 1. / 3.)],
                 [(8. / 1. + 7. / 2. + 6. / 3.) / (1. / 1. + 1. / 2. + 1. / 3.)]]},
     'PWA = sum(label_r / r) / sum(1 / r) over the top n (n = 5 > list length 3: the valid ranks only)', None, _P,
     topn=5)
_tfr('PWAMetricTest.test_pwa_should_be_0_when_no_rel_item', 'PWAMetric', [[0., 0., 0.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'all labels 0: 0', None, _P, topn=None)
_tfr('PWAMetricTest.test_pwa_should_be_0_when_no_rel_item_in_topn', 'PWAMetric', [[0., 0., 1.]], [[1., 3., 2.]],
     {'output': [[0.]]}, 'the top 1 has label 0', None, _P, topn=1)
for _k, _v in [(1, [[1.], [2.], [0.]]), (2, [[2. / (3. / 2.)], [2. / (3. / 2.)], [1. / (3. / 2.)]]),
               (6, [[2. / (11. / 6.)], [7. / 3. / (11. / 6.)], [4. / 3. / (11. / 6.)]])]:
    _tfr(f'PWAMetricTest.test_pwa_should_handle_topn[topn={_k}]', 'PWAMetric',
         [[1., 2., 0.], [2., 0., 1.], [0., 2., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]], {'output': _v},
         'cutoff topn; the denominator sums 1/r over the valid ranks within n', None, _P, topn=_k)
_tfr('PWAMetricTest.test_pwa_should_ignore_masked_items', 'PWAMetric', [[0., 1., 3.]], [[1., 2., 3.]],
     {'output': [[3. / 1. / (3. / 2.)]]}, 'masked items take no rank and no 1/r in the denominator', None, _P,
     mask=[[True, False, True]], topn=None)
_tfr('PWAMetricTest.test_pwa_weights_no_input_weights', 'PWAMetric', [[1., 4., 2.], [0., 3., 1.]],
     [[1., 3., 2.], [1., 2., 3.]], {'output_weights': [[1.], [1.]]}, 'no weights: list weights 1', None,
     ('PWA', 'list_weights'), topn=None)
_tfr('PWAMetricTest.test_pwa_weights_should_be_average_weight_of_rel_items', 'PWAMetric',
     [[1., 2., 0.], [2., 0., 1.], [0., 2., 1.]], [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]],
     {'output_weights': [[2.], [3.], [4.]], 'output': [[2. / (11. / 6.)], [7. / 3. / (11. / 6.)],
                                                       [4. / 3. / (11. / 6.)]]},
     'PWA takes per-list weights only ([batch, 1]) and returns them as the list weights', None,
     ('PWA', 'list_weights'), weights=[[2.], [3.], [4.]], topn=None)


# ---------------------------------------------------------------- TF-Ranking metrics_test.py (batch values)
def _tfm(test, key, labels, predictions, value, note, ours=None, gap=(), features=None, derived=False, **params):
    """A TF-Ranking metrics_test.py case: `make_ranking_metric_fn(key, **params)(labels, predictions, features)`, the
    batch value (tf.compat.v1.metrics.mean of the per-list values weighted by the per-list weights)."""
    inputs = dict(labels=labels, predictions=predictions)
    if features: inputs['features'] = features
    CASES.append(Case('tf_ranking', _TFR, _TFR_METRICS, _TFR_V, test, f'metrics.make_ranking_metric_fn({key})', inputs,
                      params, {'value': value}, _TFR_TOL5, note, ours, tuple(gap), derived))


def _mean(measure, **kw):
    "An `ours` expression: the mean of the per-list values through evaluate."
    return _ev(measure, read='mean', expect='value', **kw)


_S, _L = [[1., 3., 2.], [1., 2., 3.]], [[0., 0., 1.], [0., 1., 2.]]
_WF = {'weights': [[1., 2., 3.], [4., 5., 6.]]}
_IW = ('item_weights', 'list_weight_rule')
_t = 'MetricsTest.test_make_mean_reciprocal_rank_fn'
_tfm(f'{_t}[single list]', 'MRR', [_L[0]], [_S[0]], 0.5, 'RR of one list', _mean('RR'))
_tfm(f'{_t}[batch]', 'MRR', _L, _S, (0.5 + 1.0) / 2, 'batch mean over lists (no weights: every list weighs 1)',
     _mean('RR'))
_tfm(f'{_t}[weights]', 'MRR', _L, _S, (3. * 0.5 + (6. + 5.) / 2. * 1.) / (3. + (6. + 5.) / 2.),
     "item weights give each list the mean weight of its relevant items; the batch mean weighs lists by it", None,
     _IW, _WF, weights_feature_name='weights')
_tfm(f'{_t}[topn=1]', 'MRR', _L, _S, sum([0., 1. / 1, 0.]) / 2, 'RR@1, batch mean over 2 lists', _mean('RR@1'),
     topn=1)
_L3 = [[1., 2., 0.], [2., 0., 1.], [0., 2., 1.]]
_S3 = [[3., 2., 1.], [3., 2., 1.], [3., 2., 1.]]
_t = 'MetricsTest.test_make_pwa_fn'
_tfm(f'{_t}[no weights]', 'PWA', _L3, _S3, ((2. + 7. / 3. + 4. / 3.) / (11. / 6.)) / 3, 'PWA, batch mean', None,
     ('PWA',))
_tfm(f'{_t}[topn=2]', 'PWA', _L3, _S3, ((2. + 2. + 1.) / (3. / 2.)) / 3, 'PWA@2, batch mean', None, ('PWA',), topn=2)
_tfm(f'{_t}[list weights]', 'PWA', _L3, _S3, ((2. * 2. + 3. * 7. / 3. + 4 * 4. / 3.) / (11. / 6.)) / (2. + 3. + 4.),
     'PWA with per-list weights [[2], [3], [4]]: weighted batch mean', None, ('PWA', 'list_weights'),
     {'weights': [[2.], [3.], [4.]]}, weights_feature_name='weights')
_LH = [[0., 0., 1.], [0., 1., 1.]]
_t = 'MetricsTest.test_make_hits_fn'
_tfm(f'{_t}[single list]', 'HITS', [_LH[0]], [_S[0]], 1.0, 'Hits without topn: a relevant item exists',
     _mean('Success'))
_tfm(f'{_t}[topn=1]', 'HITS', _LH, _S, (0. + 1.) / 2, 'Hits@1, batch mean', _mean('Success@1'), topn=1)
_tfm(f'{_t}[topn=1, weights]', 'HITS', _LH, _S, (3. * 0. + (6. + 5.) / 2. * 1.) / (3. + (6. + 5.) / 2.),
     'Hits@1 weighted by the mean weight of each list\'s relevant items', None, _IW, _WF, topn=1,
     weights_feature_name='weights')
_t = 'MetricsTest.test_make_average_relevance_position_fn'
_tfm(f'{_t}[single list]', 'ARP', [_L[0]], [_S[0]], 2., 'ARP of one list', None, ('ARP',))
_tfm(f'{_t}[batch]', 'ARP', _L, _S, (1. * 2. + 2. * 1. + 1. * 2.) / 4.,
     "the batch ARP weighs each list by sum(label): it pools rank x label over all lists", None,
     ('ARP', 'list_weight_rule'))
_tfm(f'{_t}[weights]', 'ARP', _L, _S, (3. * 1. * 2. + 6. * 2. * 1. + 5 * 1. * 2.) / (3. + 12. + 5.),
     'weighted ARP pools rank x w x label over sum(w x label)', None, ('ARP', 'item_weights', 'list_weight_rule'), _WF,
     weights_feature_name='weights')
_t = 'MetricsTest.test_make_precision_fn'
_tfm(f'{_t}[single list]', 'PRECISION', [_L[0]], [_S[0]], 1. / 3., 'P over the list', _mean('P'))
_tfm(f'{_t}[topn=1]', 'PRECISION', [_L[0]], [_S[0]], 0. / 1., 'P@1', _mean('P(adaptive_k=true)@1'), topn=1)
_tfm(f'{_t}[topn=2]', 'PRECISION', [_L[0]], [_S[0]], 1. / 2., 'P@2', _mean('P(adaptive_k=true)@2'), topn=2)
_tfm(f'{_t}[batch]', 'PRECISION', _L, _S, (1. / 3. + 2. / 3.) / 2., 'batch mean', _mean('P'))
_LR = [[1., 0., 1.], [0., 1., 2.]]
_t = 'MetricsTest.test_make_recall_fn'
_tfm(f'{_t}[single list]', 'RECALL', [_LR[0]], [_S[0]], 2. / 2., 'R over the list', _mean('R'))
_tfm(f'{_t}[topn=1]', 'RECALL', [_LR[0]], [_S[0]], 0. / 2., 'R@1', _mean('R@1'), topn=1)
_tfm(f'{_t}[topn=2]', 'RECALL', [_LR[0]], [_S[0]], 1. / 2., 'R@2', _mean('R@2'), topn=2)
_tfm(f'{_t}[topn=2, batch]', 'RECALL', _LR, _S, (1. / 2. + 2. / 2.) / 2., 'R@2, batch mean', _mean('R@2'), topn=2)
_t = 'MetricsTest.test_make_mean_average_precision_fn'
_tfm(f'{_t}[single list]', 'MAP', [_L[0]], [_S[0]], (1 / 2) / 1,
     "the test's reference AP (Liu, Learning to Rank for IR, eq. 1.7): sum of P@k at relevant ranks / relevant items",
     _mean('AP'))
_tfm(f'{_t}[topn=1]', 'MAP', [_L[0]], [_S[0]], 0.0, 'AP@1: the top item is not relevant', _mean('AP@1'), topn=1)
_tfm(f'{_t}[topn=2]', 'MAP', [_L[0]], [_S[0]], (1 / 2) / 1, 'AP@2 divides by all relevant items', _mean('AP@2'),
     topn=2)
_tfm(f'{_t}[batch]', 'MAP', _L, _S, ((1 / 2) / 1 + (1 / 1 + 2 / 2) / 2) / 2., 'batch mean', _mean('AP'))
_LIA = [[[0., 0.], [0., 0.], [1., 0.]], [[0., 0.], [1., 0.], [1., 1.]]]
_t = 'MetricsTest.test_make_precision_ia_fn'
_tfm(f'{_t}[single list]', 'PRECISION_IA', [_LIA[0]], [_S[0]], 1. / 3., 'P-IA, S = 1 subtopic with a relevant item',
     _kernel('p_ia', lists='valid_subtopics', read='mean', expect='value'))
_tfm(f'{_t}[topn=1]', 'PRECISION_IA', [_LIA[0]], [_S[0]], 0. / 1., 'P-IA@1',
     _kernel('p_ia', lists='valid_subtopics', read='mean', expect='value', k=1), topn=1)
_tfm(f'{_t}[topn=2]', 'PRECISION_IA', [_LIA[0]], [_S[0]], 1. / 2., 'P-IA@2',
     _kernel('p_ia', lists='valid_subtopics', read='mean', expect='value', k=2), topn=2)
_tfm(f'{_t}[batch]', 'PRECISION_IA', _LIA, _S, (1. / 3. + 3. / 6.) / 2., 'batch mean',
     _kernel('p_ia', lists='valid_subtopics', read='mean', expect='value'))
_NDF = {'weights': [[1., 2., 3.]], 'weights_3d': [[[1.], [2.], [3.]]], 'list_weights': [1., 0.],
        'list_weights_2d': [[1.], [0.]]}
_NDCG1 = (G(0) * D(1) + G(1) * D(2) + G(0) * D(3)) / (G(1) * D(1) + G(0) * D(2) + G(0) * D(3))
_NDCG1W = (G(0) * D(1) * 2. + G(1) * D(2) * 3. + G(0) * D(3) * 1.) / (G(1) * D(1) * 3. + G(0) * D(2) * 1.
                                                                        + G(0) * D(3) * 2.)
_t = 'MetricsTest.test_make_normalized_discounted_cumulative_gain_fn'
_tfm(f'{_t}[single list]', 'NDCG', [_L[0]], [_S[0]], _NDCG1, 'nDCG, gain 2^l - 1', _mean('nDCG(gain=exp)'))
_tfm(f'{_t}[batch]', 'NDCG', _L, _S, (_NDCG1 + 1.0) / 2.0, 'batch mean (the second list is ideal)',
     _mean('nDCG(gain=exp)'))
_tfm(f'{_t}[item weights, topn=1]', 'NDCG', [_L[0]], [_S[0]], (G(0) * D(1) * 2.) / (G(1) * D(1) * 3.),
     'weighted nDCG@1: the ideal ranks by weighted gain', None, ('item_weights',), _NDF, topn=1,
     weights_feature_name='weights')
_tfm(f'{_t}[item weights]', 'NDCG', [_L[0]], [_S[0]], _NDCG1W, 'item weights scale gains in DCG and ideal', None,
     ('item_weights',), _NDF, weights_feature_name='weights')
_tfm(f'{_t}[item weights 3-D]', 'NDCG', [_L[0]], [_S[0]], _NDCG1W,
     'weights of shape [batch, list, 1] are read as [batch, list]', None, ('item_weights',), _NDF,
     weights_feature_name='weights_3d')
_tfm(f'{_t}[list weights]', 'NDCG', _L, _S, _NDCG1W,
     'per-list weights [1, 0]: the batch value is the first list\'s nDCG (the source writes it with the weighted '
     'terms, which cancel to the same number)', None, ('list_weights',), _NDF, weights_feature_name='list_weights')
_tfm(f'{_t}[list weights 2-D]', 'NDCG', _L, _S, _NDCG1W, 'per-list weights [[1], [0]]', None, ('list_weights',), _NDF,
     weights_feature_name='list_weights_2d')
_tfm(f'{_t}[gain_fn, rank_discount_fn]', 'NDCG', [_L[0]], [_S[0]], 0 * (1 / 3) + 0 * (1 / 1) + 1 * (1 / 2),
     'gain_fn = label, rank_discount_fn = 1 / rank; the source asserts the DCG 0.5, which is the nDCG here (ideal 1)',
     _kernel('ndcg', read='mean', expect='value', gain='linear', discount='1/r', ideal='returned'),
     gain_fn='label', rank_discount_fn='1 / rank')
_t = 'MetricsTest.test_make_discounted_cumulative_gain_fn'
_DCG1, _DCG2 = G(0) * D(1) + G(1) * D(2) + G(0) * D(3), G(2) * D(1) + G(1) * D(2)
_tfm(f'{_t}[single list]', 'DCG', [_L[0]], [_S[0]], _DCG1, 'DCG', _mean('DCG(gain=exp)'))
_tfm(f'{_t}[batch]', 'DCG', _L, _S, (_DCG1 + _DCG2) / 2.0, 'batch mean', _mean('DCG(gain=exp)'))
_tfm(f'{_t}[weights]', 'DCG', _L, _S,
     (_DCG1 + (G(2) * D(1) + G(1) * D(2) * 2.)) / (1. + ((4 - 1) * 1. + (2 - 1) * 2.) / (4 - 1 + 2 - 1)),
     "weighted DCG: each list's DCG is divided by its list weight (sum(w x gain) / sum(gain)) and the batch mean "
     "weighs by it, so the batch value is sum(weighted DCG) / sum(list weight)", None, _IW,
     {'weights': [[1., 1., 1.], [2., 2., 1.]]}, weights_feature_name='weights')
_tfm(f'{_t}[gain_fn, rank_discount_fn]', 'DCG', [_L[0]], [_S[0]], 0 * (1 / 3) + 0 * (1 / 1) + 1 * (1 / 2),
     'gain_fn = label, rank_discount_fn = 1 / rank',
     _kernel('dcg', read='mean', expect='value', gain='linear', discount='1/r'), gain_fn='label',
     rank_discount_fn='1 / rank')
_t = 'MetricsTest.test_make_ordered_pair_accuracy_fn'
_tfm(f'{_t}[list 1]', 'ORDERED_PAIR_ACCURACY', [_L[0]], [_S[0]], 1. / 2., 'OPA of one list',
     _kernel('rank_correlation', read='mean', expect='value', tied_labels='ignored'))
_tfm(f'{_t}[list 2]', 'ORDERED_PAIR_ACCURACY', [_L[1]], [_S[1]], 1., 'OPA of one list',
     _kernel('rank_correlation', read='mean', expect='value', tied_labels='ignored'))
_tfm(f'{_t}[batch]', 'ORDERED_PAIR_ACCURACY', _L, _S, (1. + 3.) / (2. + 3.),
     'the batch OPA pools pairs: right pairs in all lists over pairs in all lists (not the mean 3/4 of the lists)',
     None, ('OPA_pooled',))
_LA = [[[0., 0.], [0., 1.], [0., 1.]], [[0., 0.], [1., 0.], [1., 1.]]]
_ADF = {'weights': [[1., 2., 3.]], 'weights_3d': [[[1.], [2.], [3.]]], 'list_weights': [1., 0.],
        'list_weights_2d': [[1.], [0.]]}
_AD1 = _ag(.5, 0) * D(1) + _ag(.5, 1) * D(2) + 0.
_AD2 = 2 * _ag(.5, 0) * D(1) + _ag(.5, 1) * D(2) + 0.
_AD1W = (2. * _ag(.5, 0) * D(1) + 3. * _ag(.5, 1) * D(2) + 0.) / 2.5
_t = 'MetricsTest.test_make_alpha_discounted_cumulative_gain_fn'
_tfm(f'{_t}[single list]', 'ALPHA_DCG', [_LA[0]], [_S[0]], _AD1, 'alpha-DCG, alpha 0.5',
     _kernel('alpha_dcg', lists='valid_subtopics', read='mean', expect='value'))
_tfm(f'{_t}[batch]', 'ALPHA_DCG', _LA, _S, (_AD1 + _AD2) / 2.0, 'batch mean',
     _kernel('alpha_dcg', lists='valid_subtopics', read='mean', expect='value'))
_tfm(f'{_t}[item weights, topn=1]', 'ALPHA_DCG', [_LA[0]], [_S[0]], 2. * _ag(.5, 0) * D(1) / 2.5,
     'weighted alpha-DCG is divided by the list weight 2.5 (mean weight of items relevant to a subtopic)', None, _IW,
     _ADF, topn=1, weights_feature_name='weights')
_tfm(f'{_t}[item weights]', 'ALPHA_DCG', [_LA[0]], [_S[0]], _AD1W, 'item weights scale the gains; / list weight 2.5',
     None, _IW, _ADF, weights_feature_name='weights')
_tfm(f'{_t}[item weights 3-D]', 'ALPHA_DCG', [_LA[0]], [_S[0]], _AD1W, 'weights [batch, list, 1]', None, _IW, _ADF,
     weights_feature_name='weights_3d')
_tfm(f'{_t}[list weights]', 'ALPHA_DCG', _LA, _S, _AD1, 'per-list weights [1, 0]: the first list\'s value', None,
     ('list_weights',), _ADF, weights_feature_name='list_weights')
_tfm(f'{_t}[list weights 2-D]', 'ALPHA_DCG', _LA, _S, _AD1, 'per-list weights [[1], [0]]', None, ('list_weights',),
     _ADF, weights_feature_name='list_weights_2d')
_tfm(f'{_t}[alpha=0.2, rank_discount_fn]', 'ALPHA_DCG', [_LA[0]], [_S[0]], _ag(.2, 0) * 1 / 1 + _ag(.2, 1) * 1 / 2 + 0.,
     'alpha 0.2 and rank_discount_fn = 1 / rank', None, ('alpha_dcg_discount',), alpha=0.2,
     rank_discount_fn='1 / rank')
_LB = [[0., 0., 1.], [1., 0., 2.]]
_t = 'MetricsTest.test_make_bpref_fn'
_tfm(f'{_t}[single list]', 'BPREF', [_LB[0]], [_S[0]], 1. / 2. * (1. - 1. / 1.),
     "trec_eval's bpref (the source writes a 1/2 factor; the value is 0)", _mean('Bpref'))
_tfm(f'{_t}[batch]', 'BPREF', _LB, _S, (1. / 2. * (1. - 1. / 1.) + (1. / 2. * ((1. - 0. / 1.) + (1. - 1. / 1.)))) / 2,
     'batch mean, = 0.25', _mean('Bpref'))
_tfm(f'{_t}[weights]', 'BPREF', _LB, _S,
     (3. * (1. / 2. * (1. - 1. / 1.)) + 5. * (1. / 2. * ((1. - 0. / 1.) + (1. - 1. / 1.)))) / (3. + 5.),
     'lists weighted by the mean weight of their relevant items (3 and (4 + 6) / 2)', None, _IW, _WF,
     weights_feature_name='weights')
_tfm(f'{_t}[topn=1]', 'BPREF', _LB, _S, (0. + (1. / 2. * (1. - 0. / 1.))) / 2., 'bpref at topn 1',
     _mean('Bpref', depth=1), topn=1)
_tfm(f'{_t}[use_trec_version=False]', 'BPREF', _LB, _S,
     (1. / 2. * (1. - 1. / 1.) + (1. / 2. * ((1. - 0. / 2.) + (1. - 1. / 2.)))) / 2,
     "the original form (divide by R); the source's comment says 0.5, its expression is 0.375", None,
     ('bpref_original',), use_trec_version=False)

# ---------------------------------------------------------------- Rax rax/_src/metrics_test.py
_RAX = 'google/rax'
_RAX_V = 'af92de1f745a27f5041bccded248c4274acc0638 (2025-09-04; version 0.4.0)'
_RAX_TEST = 'rax/_src/metrics_test.py'
_RAX_SRC = 'rax/_src/metrics.py'
SOURCES['rax'] = (_RAX, _RAX_V, [_RAX_TEST, _RAX_SRC])


def _rax(test, call, scores, labels, expected, note, ours=None, gap=(), tol=None, path=_RAX_TEST, derived=False,
         where=None, weights=None, **params):
    "A Rax case: `rax.<call>(scores, labels, **params)`, reduce_fn=jnp.mean unless `params` says otherwise."
    inputs = dict(scores=scores, labels=labels)
    if where is not None: inputs['where'] = where
    if weights is not None: inputs['weights'] = weights
    CASES.append(Case('rax', _RAX, path, _RAX_V, test, call, inputs, params, expected,
                      tol or {'rtol': 1e-7}, note, ours, tuple(gap), derived))


_R5 = {'rtol': 1e-5}
_RS, _RL = [0.0, 3.0, 1.0, 2.0], [0.0, 0.0, 1.0, 1.0]
_RAX_SINGLE = [  # (call, params, expected, ours measure or None) of test_computes_metric_value
    ('mrr_metric', {}, 1 / 2, 'RR'), ('recall_metric', {'topn': None}, 1.0, 'R'),
    ('recall_metric', {'topn': 3}, 1.0, 'R@3'), ('precision_metric', {'topn': None}, 0.5, 'P'),
    ('precision_metric', {'topn': 3}, 2.0 / 3.0, 'P(adaptive_k=true)@3'),
    ('ap_metric', {}, (0.5 + 2.0 / 3.0) / 2.0, 'AP'),
    ('dcg_metric', {}, D(2) + D(3), 'DCG(gain=exp)'),
    ('ndcg_metric', {}, (D(2) + D(3)) / (D(1) + D(2)), 'nDCG(gain=exp)'), ('opa_metric', {}, 2 / 4, None)]


def _pid(call, p):
    "The parameter id of a Rax case: the call and its topn."
    return call + (f", topn={p['topn']}" if p else '')


def _rax_ours(measure, read='mean', expect='value', lists='valid'):
    "Rax's measures through evaluate, or OPA through rank_correlation (ties as given: ties='input')."
    if measure is None:
        return _kernel('rank_correlation', lists=lists, read=read, expect=expect, tied_labels='ignored')
    return _ev(measure, lists=lists, read=read, expect=expect)


for _call, _p, _v, _m in _RAX_SINGLE:
    _rax(f'MetricsTest.test_computes_metric_value[{_pid(_call, _p)}]', _call, _RS, _RL,
         {'value': _v}, 'one list: scores [0, 3, 1, 2], labels [0, 0, 1, 1]; precision divides by the retrieved items '
         '(min(topn, list))', _rax_ours(_m), tol=_R5, **_p)
_RB = [  # test_computes_metric_value_on_batch_with_vmap
    ('mrr_metric', {}, [1 / 2, 1 / 3], 'RR'), ('recall_metric', {'topn': None}, [1.0, 1.0], 'R'),
    ('recall_metric', {'topn': 3}, [1.0, 1.0 / 2.0], 'R@3'), ('precision_metric', {'topn': None}, [0.5, 0.5], 'P'),
    ('precision_metric', {'topn': 3}, [2.0 / 3.0, 1.0 / 3.0], 'P(adaptive_k=true)@3'),
    ('ap_metric', {}, [(0.5 + 2.0 / 3.0) / 2.0, (1.0 / 3.0 + 0.5) / 2.0], 'AP'),
    ('dcg_metric', {}, [D(2) + D(3), D(3) + G(2) * D(4)], 'DCG(gain=exp)'),
    ('ndcg_metric', {}, [(D(2) + D(3)) / (D(1) + D(2)), (D(3) + G(2) * D(4)) / (G(2) * D(1) + D(2))],
     'nDCG(gain=exp)'),
    ('opa_metric', {}, [2 / 4, 0 / 4], None)]
for _call, _p, _v, _m in _RB:
    _rax(f'MetricsTest.test_computes_metric_value_on_batch_with_vmap[{_pid(_call, _p)}]', f'jax.vmap({_call})',
         [[0.0, 3.0, 1.0, 2.0], [1.0, 4.0, 3.0, 2.0]], [[0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 0.0, 1.0]],
         {'per_list': _v}, 'one value per list (vmap); labels >= 1 are relevant; gain 2^l - 1',
         _rax_ours(_m, read='per_list', expect='per_list'), tol=_R5, **_p)
_RR = [  # test_computes_reduced_metric: per-list values, then mean (normalizer 2) and sum
    ('mrr_metric', {}, [1.0 / 2.0, 1.0], 'RR'), ('precision_metric', {'topn': 2}, [1.0 / 2.0, 1.0 / 2.0],
                                                 'P(adaptive_k=true)@2'),
    ('recall_metric', {'topn': 2}, [1.0 / 1.0, 1.0 / 2.0], 'R@2'),
    ('ap_metric', {}, [1.0 / 2.0, (1.0 + 2.0 / 3.0) / 2.0], 'AP'),
    ('dcg_metric', {}, [D(2), 3.0 * D(1) + D(3)], 'DCG(gain=exp)'),
    ('ndcg_metric', {}, [D(2), (3.0 * D(1) + D(3)) / (3.0 + D(2))], 'nDCG(gain=exp)'),
    ('opa_metric', {}, [2 / 4, 2 / 3], None)]
for _call, _p, _v, _m in _RR:
    for _red in ('mean', 'sum'):
        _rax(f'MetricsTest.test_computes_reduced_metric[{_pid(_call, _p)}, reduce_fn=jnp.{_red}]', _call,
             [[2.0, 1.0, 3.0], [1.0, 0.5, 1.5]], [[1.0, 0.0, 0.0], [0.0, 1.0, 2.0]],
             {'value': sum(_v) / 2.0 if _red == 'mean' else sum(_v), 'per_list_stated': _v},
             f'reduce_fn=jnp.{_red} over the lists (the source states the per-list values and asserts the reduction)',
             _rax_ours(_m, read=_red), reduce_fn=f'jnp.{_red}', **_p)
for _call, _v in [('dcg_metric', 2 * D(2) + 1 * D(3)), ('ndcg_metric', (2 * D(2) + 1 * D(3)) / (2 * D(1) + 1 * D(2)))]:
    _rax(f'MetricsTest.test_computes_weighted_metric[{_call}]', _call, _RS, _RL, {'value': _v},
         'item weights multiply the gains; the ideal ranks items by weighted gain and weighs them too', None,
         ('item_weights',), weights=[1.0, 2.0, 1.0, 2.0])
_RS1, _RL1 = [0.0, 3.0, 1.0, 2.0], [1.0, 0.0, 1.0, 1.0]
for _call, _v, _m in [('mrr_metric', 0.0, 'RR@1'), ('recall_metric', 0.0, 'R@1'),
                      ('precision_metric', 0.0, 'P(adaptive_k=true)@1'), ('ap_metric', 0.0, 'AP@1'),
                      ('dcg_metric', 0.0, 'DCG(gain=exp)@1'), ('ndcg_metric', 0.0, 'nDCG(gain=exp)@1')]:
    _rax(f'MetricsTest.test_computes_metric_with_topn_1[{_call}]', _call, _RS1, _RL1, {'value': _v},
         'topn 1: the top item is not relevant', _rax_ours(_m), topn=1)
for _call, _v, _m in [('mrr_metric', 1 / 2, 'RR@3'), ('recall_metric', 2 / 3, 'R@3'),
                      ('precision_metric', 2 / 3, 'P(adaptive_k=true)@3'), ('ap_metric', (1 / 2 + 2 / 3) / 3, 'AP@3'),
                      ('dcg_metric', D(2) + D(3), 'DCG(gain=exp)@3'),
                      ('ndcg_metric', (D(2) + D(3)) / (D(1) + D(2) + D(3)), 'nDCG(gain=exp)@3')]:
    _rax(f'MetricsTest.test_computes_metric_with_topn_3[{_call}]', _call, _RS1, _RL1, {'value': _v},
         'topn 3: AP@3 divides by all 3 relevant items; the ideal DCG@3 holds 3 relevant items', _rax_ours(_m), topn=3)
for _call, _p, _m in [('mrr_metric', {}, 'RR'), ('recall_metric', {'topn': None}, 'R'),
                      ('recall_metric', {'topn': 3}, 'R@3'), ('precision_metric', {'topn': None}, 'P'),
                      ('precision_metric', {'topn': 3}, 'P(adaptive_k=true)@3'), ('ap_metric', {}, 'AP'),
                      ('dcg_metric', {}, 'DCG(gain=exp)'), ('ndcg_metric', {}, 'nDCG(gain=exp)'),
                      ('opa_metric', {}, None)]:
    _id = _pid(_call, _p)
    _rax(f'MetricsTest.test_computes_metric_value_with_all_masked[{_id}]', _call, _RS, _RL, {'value': 0.0},
         'every item masked: the list is left out of the mean, and a mean over no list is 0', None, ('empty_batch',),
         where=[False, False, False, False], **_p)
    _rax(f'MetricsTest.test_computes_metric_value_with_no_relevant_labels[{_id}]', _call, _RS,
         [0.0, 0.0, 0.0, 0.0], {'value': 0.0}, 'no relevant item: 0 (OPA: no pair of different labels, 0)',
         _rax_ours(_m) if _m else None, () if _m else ('no_pair_rule',), **_p)
_RN = [-float('inf'), 5, 2, -float('inf'), 1]
for _call, _v, _m in [('mrr_metric', 1.0 / 2.0, 'RR'), ('precision_metric', 1.0 / 3.0, 'P'),
                      ('recall_metric', 1.0 / 2.0, 'R'), ('ap_metric', (1.0 / 2.0) / 2.0, 'AP'),
                      ('dcg_metric', D(2), 'DCG(gain=exp)'), ('ndcg_metric', D(2) / (D(1) + D(2)), 'nDCG(gain=exp)')]:
    _rax(f'MetricsTest.test_treats_neginf_as_unranked_items[{_call}]', _call, _RN, [1.0, 0, 1, 0, 0], {'value': _v},
         'an item scored -inf is not retrieved (precision divides by the 3 retrieved) but stays relevant: in '
         "recall's and AP's denominators and in nDCG's ideal", _rax_ours(_m, lists='neginf'))
for _call, _p, _v, _m in [('mrr_metric', {}, 1 / 2, 'RR'),
                          ('precision_metric', {'topn': 2}, 1 / 2, 'P(adaptive_k=true)@2'),
                          ('recall_metric', {'topn': 2}, 1 / 2, 'R@2'),
                          ('ap_metric', {}, (0.5 + 2.0 / 3.0) / 2.0, 'AP'),
                          ('dcg_metric', {}, D(2) + D(3), 'DCG(gain=exp)'),
                          ('ndcg_metric', {}, (D(2) + D(3)) / (D(1) + D(2)), 'nDCG(gain=exp)'),
                          ('opa_metric', {}, 2 / 4, None)]:
    _rax(f'MetricsTest.test_ignores_lists_containing_only_invalid_items[{_pid(_call, _p)}]',
         _call, [[0.0, 3.0, 1.0, 2.0], [3.0, 1.0, 4.0, 2.0]], [[0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 1.0, 0.0]],
         {'value': _v}, 'a list whose items are all masked is left out of the mean: the value is the first list\'s '
         '(the source compares with the metric of the first list alone)', _rax_ours(_m), tol=_R5, derived=True,
         where=[[True, True, True, True], [False, False, False, False]], **_p)
_rax('module docstring [standalone]', 'ndcg_metric', [2., 1., 3.], [2., 0., 1.], {'value': 0.79671},
     'nDCG, gain 2^l - 1 (doctest, printed to 5 decimals)', _rax_ours('nDCG(gain=exp)'), tol={'printed_decimals': 5},
     path=_RAX_SRC)
_rax('module docstring [batch, mean]', 'ndcg_metric', [[2., 1., 3.], [1., 0.5, 1.5]], [[2., 0., 1.], [0., 0., 1.]],
     {'value': 0.89835}, 'a batch of lists: the mean (the doctest builds a mask but does not pass it)',
     _rax_ours('nDCG(gain=exp)'), tol={'printed_decimals': 5}, path=_RAX_SRC)
_rax('module docstring [vmap, where]', 'jax.vmap(ndcg_metric)', [[2., 1., 0.], [1., 0.5, 1.5]],
     [[1., 0., 0.], [0., 0., 1.]], {'per_list': [1., 1.]}, 'per-list values with a mask (where)',
     _rax_ours('nDCG(gain=exp)', read='per_list', expect='per_list'), tol={'printed': True}, path=_RAX_SRC,
     where=[[True, True, False], [True, True, True]])

# ---------------------------------------------------------------- torchmetrics (conventions the existing port lacks)
_TM = 'Lightning-AI/torchmetrics'
_TM_V = 'dab033394560ab3ce05e3d14c13f32e4cde6b351 (2026-08-20; version 1.9.0; the rule of #3160 since 1.7.4)'
SOURCES['torchmetrics'] = (_TM, _TM_V, ['tests/unittests/retrieval/test_{precision,recall,map,mrr}.py',
                                        'src/torchmetrics/retrieval/{fall_out,precision_recall_curve}.py'])


def _tm(test, call, path, indexes, preds, target, expected, note, ours=None, gap=(), tol=None, derived=False,
        **params):
    "A torchmetrics case: `<call>(**params)(preds, target, indexes=indexes)`."
    CASES.append(Case('torchmetrics', _TM, path, _TM_V, test, call,
                      dict(indexes=indexes, preds=preds, target=target), params, expected, tol or {'exact': True},
                      note, ours, tuple(gap), derived))


for _cls, _f, _t in [('RetrievalPrecision', 'test_precision', 'test_precision_all_zero_predictions_returns_zero'),
                     ('RetrievalRecall', 'test_recall', 'test_recall_all_zero_predictions_returns_zero'),
                     ('RetrievalMAP', 'test_map', 'test_map_all_zero_predictions_returns_zero'),
                     ('RetrievalMRR', 'test_mrr', 'test_mrr_all_zero_predictions_returns_zero')]:
    _tm(f'{_cls.replace("Retrieval", "Test")}.{_t}', _cls, f'tests/unittests/retrieval/{_f}.py', [0, 0, 0],
        [0.0, 0.0, 0.0], [1, 0, 1], {'value': 0.0},
        'every prediction is 0: nothing is retrieved (predictions <= 0 count as not retrieved), so 0 although two '
        'documents are relevant (ours without the rule: P 2/3, R 1, AP 5/6, RR 1 in input order)', None,
        ('nonpositive_rule',))
_TMF = dict(RetrievalPrecision='precision', RetrievalRecall='recall', RetrievalMAP='average_precision',
            RetrievalMRR='reciprocal_rank')
_NP = dict(indexes=[0, 0, 0, 0], preds=[0.5, -0.2, 0.3, 0.0], target=[1, 1, 0, 1])
for _cls, _v, _m, _n in [('RetrievalPrecision', 1 / 4, 'P@4', 'top_k None divides by all 4 documents given'),
                         ('RetrievalRecall', 1 / 3, 'R', 'the denominator keeps the relevant documents predicted <= 0'),
                         ('RetrievalMAP', 1.0, 'AP(denominator=retrieved)',
                          'AP over the relevant documents retrieved (with a positive prediction)'),
                         ('RetrievalMRR', 1.0, 'RR', 'the first relevant document predicted > 0')]:
    _tm(f'{_cls} [non-positive predictions, derived]', _cls, f'src/torchmetrics/functional/retrieval/{_TMF[_cls]}.py',
        _NP['indexes'], _NP['preds'], _NP['target'], {'value': _v},
        f'predictions -0.2 and 0.0 count as not retrieved (their targets are zeroed, their ranks stay); {_n}',
        _ev(_m, lists='nonpositive', read='mean', expect='value'), ('nonpositive_rule',), derived=True)
_FO = dict(indexes=[0, 0, 0, 1, 1, 1, 2, 2], preds=[0.2, 0.3, 0.5, 0.1, 0.4, 0.35, 0.6, 0.7],
           target=[1, 1, 1, 0, 1, 0, 0, 0])
for _e, _v in [(None, (1. + 1 / 2 + 1.) / 3), ('pos', (1. + 1 / 2 + 1.) / 3), ('neg', (0. + 1 / 2 + 1.) / 3),
               ('skip', (1 / 2 + 1.) / 2), ('error', 'ValueError')]:
    _p = {'top_k': 2} if _e is None else {'top_k': 2, 'empty_target_action': _e}
    _tm(f"RetrievalFallOut [empty_target_action={_e or 'default'}, derived]", 'RetrievalFallOut',
        'src/torchmetrics/retrieval/fall_out.py', _FO['indexes'], _FO['preds'], _FO['target'], {'value': _v},
        "query 0 has no non-relevant document: that is FallOut's empty case (the default action is 'pos' in the "
        "code, though the docstring lists 'neg' as default); query 2 has no relevant document and is scored "
        "normally (FallOut@2 = 2/2); query 1: 1 of 2 non-relevant in the top 2",
        _ev('FallOut@2', lists='groups', read='mean', expect='value') if _e == 'neg' else None,
        () if _e == 'neg' else ('fallout_empty_rule',), derived=True, **_p)
_tm('RetrievalRecallAtFixedPrecision docstring', 'RetrievalRecallAtFixedPrecision',
    'src/torchmetrics/retrieval/precision_recall_curve.py', [0, 0, 0, 0, 1, 1, 1],
    [0.4, 0.01, 0.5, 0.6, 0.2, 0.3, 0.5], [1, 0, 0, 1, 1, 0, 1], {'max_recall': 0.5, 'best_k': 1},
    'the best R@k of the query-averaged curve whose averaged P@k >= min_precision, and its k (max_k: the largest '
    'query)',
    _ev('RecallAtFixedPrecision(min_precision=0.8)@4', lists='groups', read='mean', expect='max_recall'),
    ('rafp_averaged_curve', 'rafp_best_k'), {'printed_decimals': 4}, min_precision=0.8)
_tm('RetrievalRecallAtFixedPrecision [two queries, derived]', 'RetrievalRecallAtFixedPrecision',
    'src/torchmetrics/retrieval/precision_recall_curve.py', [0, 0, 0, 0, 1, 1, 1, 1],
    [0.9, 0.8, 0.7, 0.6, 0.9, 0.8, 0.7, 0.6], [1, 0, 0, 0, 0, 0, 1, 1], {'max_recall': 0.5, 'best_k': 1},
    'mean P@k = [1/2, 1/4, 1/3, 3/8], mean R@k = [1/2, 1/2, 3/4, 1]: only k = 1 reaches 0.5 (each query alone '
    'reaches recall 1 at precision >= 0.5, so the per-query reading gives 1.0)', None,
    ('rafp_averaged_curve', 'rafp_best_k'), derived=True, min_precision=0.5)
_tm('RetrievalRecallAtFixedPrecision [no point qualifies, derived]', 'RetrievalRecallAtFixedPrecision',
    'src/torchmetrics/retrieval/precision_recall_curve.py', [0, 0], [0.9, 0.8], [0, 1],
    {'max_recall': 0.0, 'best_k': 2}, 'no k reaches min_precision 1.0: recall 0 and best_k = max_k (also whenever '
    'the best recall is 0)', _ev('RecallAtFixedPrecision(min_precision=1.0)@2', lists='groups', read='mean',
                                  expect='max_recall'), ('rafp_best_k',), derived=True, min_precision=1.0)

# ---------------------------------------------------------------- Spark mllib RankingMetricsSuite.scala
_SP = 'apache/spark'
_SP_V = '0d3824316688326e2f263ea07cff7012dad04260 (the suite; RankingMetrics.scala read at 075aa42e)'
_SP_TEST = 'mllib/src/test/scala/org/apache/spark/mllib/evaluation/RankingMetricsSuite.scala'
SOURCES['spark'] = (_SP, _SP_V, [_SP_TEST, _SP_TEST.replace('test', 'main').replace('Suite', '')])
_SP_TOL = {'absTol': 1e-5}
_SP_PAIRS = [[[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]], [[4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]],
             [[1, 2, 3, 4, 5], []]]
_SP_REL = [[[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5], [3.0, 2.0, 1.0, 1.0, 1.0]],
           [[4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3], [2.0, 0.0, 0.0]], [[1, 2, 3, 4, 5], [], []]]
_SP_FEW = [[[1, 6, 2], [1, 2, 3, 4, 5]], [[], [1, 2, 3]]]


def _spark(test, pairs, call, value, note, measure, gap=(), read_rel=False):
    "A RankingMetricsSuite assertion on `new RankingMetrics(sc.parallelize(pairs))`."
    ours = _ev(measure, lists='spark_rel' if read_rel else 'spark', read='mean', expect='value', queries='qrels')
    CASES.append(Case('spark', _SP, _SP_TEST, _SP_V, f'{test} [{call}]', f'RankingMetrics.{call}',
                      {'predictionAndLabels': pairs}, {}, {'value': value}, _SP_TOL, note, ours, tuple(gap)))


_SPARK_COMMON = [  # (call, value, our measure, note): identical in the first two tests
    ('precisionAt(1)', 1.0 / 3, 'P@1', 'mean over the 3 pairs; the pair with an empty label set scores 0'),
    ('precisionAt(2)', 1.0 / 3, 'P@2', 'precisionAt(k) divides by k'),
    ('precisionAt(3)', 1.0 / 3, 'P@3', ''), ('precisionAt(4)', 0.75 / 3, 'P@4', ''),
    ('precisionAt(5)', 0.8 / 3, 'P@5', ''), ('precisionAt(10)', 0.8 / 3, 'P@10', ''),
    ('precisionAt(15)', 8.0 / 45, 'P@15', 'k beyond the predictions: still divides by k'),
    ('meanAveragePrecision', 0.355026, 'AP', 'divides by the size of the label set'),
    ('meanAveragePrecisionAt(1)', 0.333334, 'AP(denominator=min_n_rel_k)@1', 'divides by min(label set, k)'),
    ('meanAveragePrecisionAt(2)', 0.25, 'AP(denominator=min_n_rel_k)@2', ''),
    ('meanAveragePrecisionAt(3)', 0.24074, 'AP(denominator=min_n_rel_k)@3', ''),
    ('recallAt(1)', 1.0 / 15, 'R@1', 'divides by the size of the label set'), ('recallAt(2)', 8.0 / 45, 'R@2', ''),
    ('recallAt(3)', 11.0 / 45, 'R@3', ''), ('recallAt(4)', 11.0 / 45, 'R@4', ''), ('recallAt(5)', 16.0 / 45, 'R@5', ''),
    ('recallAt(10)', 2.0 / 3, 'R@10', ''), ('recallAt(15)', 2.0 / 3, 'R@15', '')]
for _c, _v, _m, _n in _SPARK_COMMON:
    _spark('Ranking metrics: MAP, NDCG, Recall', _SP_PAIRS, _c, _v, _n or 'mean over every pair', _m)
for _c, _v, _n in [('ndcgAt(3)', 1.0 / 3, 'binary gain (label-set membership), ideal from the label set'),
                   ('ndcgAt(5)', 0.328788, ''), ('ndcgAt(10)', 0.487913, ''),
                   ('ndcgAt(15)', 0.487913, 'the source asserts ndcgAt(15) == ndcgAt(10) (0.487913)')]:
    _spark('Ranking metrics: MAP, NDCG, Recall', _SP_PAIRS, _c, _v, _n or 'binary nDCG@k', f'nDCG@{_c[7:-1]}')
for _c, _v, _m, _n in _SPARK_COMMON:
    _spark('Ranking metrics: NDCG with relevance', _SP_REL, _c, _v,
           (_n + '; ' if _n else '') + 'the relevance values do not change P, AP, R (membership of the label set)', _m)
for _c, _v, _n in [('ndcgAt(3)', 0.511959, 'graded: gain 2^rel - 1 (rel from the relevance array; a predicted '
                    'item outside the label set gains 0); the ideal reads the labels in the order given'),
                   ('ndcgAt(5)', 0.487806, ''), ('ndcgAt(10)', 0.518700, ''),
                   ('ndcgAt(15)', 0.518700, 'the source asserts ndcgAt(15) == ndcgAt(10) (0.518700)')]:
    _spark('Ranking metrics: NDCG with relevance', _SP_REL, _c, _v, _n or 'graded nDCG@k',
           f'nDCG(gain=exp)@{_c[7:-1]}', read_rel=True)
for _c, _v, _m in [('precisionAt(1)', 0.5, 'P@1'), ('precisionAt(2)', 0.25, 'P@2'), ('ndcgAt(1)', 0.5, 'nDCG@1'),
                   ('ndcgAt(2)', 0.30657, 'nDCG@2'), ('recallAt(1)', 0.1, 'R@1'), ('recallAt(2)', 0.1, 'R@2')]:
    _spark('MAP, NDCG, Recall with few predictions (SPARK-14886)', _SP_FEW, _c, _v,
           'a pair with an empty prediction scores 0 and counts in the mean; 3 predictions against 5 labels',
           _m, ('spark_preset',))

# ---------------------------------------------------------------- pytorchltr tests/evaluation
_PL = 'rjagerman/pytorchltr'
_PL_V = '625416e1e7d21fb2bbc485914704fc2e55274556 (2021-03-20; v0.2.1 + 3 commits)'
SOURCES['pytorchltr'] = (_PL, _PL_V, ['tests/evaluation/test_arp.py', 'tests/evaluation/test_dcg.py',
                                      'pytorchltr/evaluation/trec.py'])
_PL_TOL = {'pytest.approx': 'rel 1e-6'}
_PLS = [[10.0, 5.0, 2.0, 3.0, 4.0], [5.0, 6.0, 4.0, 2.0, 5.5]]
_PLN = [5, 4]


def _ptl(test, call, relevance, expected, note, ours=None, gap=(), path='tests/evaluation/test_dcg.py', **params):
    "A pytorchltr case: `<call>(scores, relevance, n, **params)` on the two padded lists (n = [5, 4])."
    CASES.append(Case('pytorchltr', _PL, path, _PL_V, test, f'pytorchltr.evaluation.{call}',
                      dict(scores=_PLS, relevance=relevance, n=_PLN), params, expected, _PL_TOL, note, ours,
                      tuple(gap)))


_ptl('test_arp', 'arp', [[0, 1, 1, 0, 1], [1, 1, 0, 0, 0]], {'per_list': [3.333333333, 1.5]},
     'ARP = sum(rank x relevance) / sum(relevance); the padded item (index >= n) is masked', None, ('ARP',),
     path='tests/evaluation/test_arp.py')
_ptl('test_arp_all_relevant', 'arp', [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1]], {'per_list': [3.0, 2.5]},
     "the padded item's relevance 1 is masked: (1+2+3+4)/4", None, ('ARP',), path='tests/evaluation/test_arp.py')
_ptl('test_arp_no_relevant', 'arp', [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], {'per_list': [0.0, 0.0]},
     'no relevant item: 0', None, ('ARP',), path='tests/evaluation/test_arp.py')
_PLY = [[0, 1, 1, 0, 1], [3, 1, 0, 1, 0]]
for _t, _call, _k, _exp, _v, _m in [
        ('test_dcg3', 'dcg', 3, True, [1.1309297535714575, 5.4165082750002025], 'DCG(gain=exp)@3'),
        ('test_ndcg3', 'ndcg', 3, True, [1.1309297535714575 / 2.1309297535714578,
                                         5.4165082750002025 / 8.130929753571458], 'nDCG(gain=exp)@3'),
        ('test_dcg5_exp', 'dcg', 5, True, [1.5177825608059992, 5.847184833073595], 'DCG(gain=exp)@5'),
        ('test_ndcg5_exp', 'ndcg', 5, True, [1.5177825608059992 / 2.1309297535714578,
                                             5.847184833073595 / 8.130929753571458], 'nDCG(gain=exp)@5'),
        ('test_dcg5_nonexp', 'dcg', 5, False, [1.5177825608059992, 3.3234658187877653], 'DCG@5'),
        ('test_ndcg5_nonexp', 'ndcg', 5, False, [1.5177825608059992 / 2.1309297535714578,
                                                 3.3234658187877653 / 4.130929753571458], 'nDCG@5')]:
    _ptl(_t, _call, _PLY, {'per_list': _v}, 'the item past n (score 5.5) is ranked last; exp=True: gain 2^y - 1, '
         'else y; the ideal sorts the relevance', _ev(_m, lists='padded_last', expect='per_list'), k=_k, exp=_exp)
_ptl('test_dcg_all_relevant', 'dcg', [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1]],
     {'per_list': [sum(D(r) for r in range(1, 6))] * 2},
     "dcg does not mask the padding's relevance: the second list (n = 4) also sums 5 ranks, the padded item "
     'counting at rank 5', _ev('DCG@5', lists='padded_last', expect='per_list'), k=5, exp=False)
_ptl('test_ndcg_all_relevant', 'ndcg', [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1]], {'per_list': [1.0, 1.0]},
     'all relevant: 1 (the padded item counts in DCG and ideal alike)', _ev('nDCG@5', lists='padded_last',
                                                                           expect='per_list'), k=5, exp=False)
_ptl('test_dcg_no_relevant', 'dcg', [[0] * 5, [0] * 5], {'per_list': [0.0, 0.0]}, 'no relevant item: 0',
     _ev('DCG@5', lists='padded_last', expect='per_list'), k=5, exp=False)
_ptl('test_ndcg_no_relevant', 'ndcg', [[0] * 5, [0] * 5], {'per_list': [0.0, 0.0]},
     'ideal DCG 0: 0 (the ideal is set to 1 before dividing)', _ev('nDCG@5', lists='padded_last', expect='per_list'),
     k=5, exp=False)
for _m, _v in [('map', {'q0': 0.3333333333333333, 'q1': 0.5833333333333333}),
               ('ndcg', {'q0': 0.5, 'q1': 0.6934264036172708})]:
    CASES.append(Case('pytorchltr', _PL, 'pytorchltr/evaluation/trec.py', _PL_V,
                      f'generate_pytrec_eval docstring [{_m}]', 'generate_pytrec_eval + pytrec_eval.RelevanceEvaluator',
                      dict(scores=[[1.0, 0.0, 1.5], [1.5, 0.2, 0.5]], relevance=[[0, 1, 0], [0, 1, 1]], n=[3, 3]),
                      {'measures': ['map', 'ndcg']}, {'per_query': _v}, {'printed': True},
                      "the batch written as pytrec_eval dicts (items past n left out); trec_eval's map and ndcg",
                      _ev({'map': 'AP', 'ndcg': 'nDCG'}[_m], expect='per_query', ties='trec')))

# ---------------------------------------------------------------- allRank tests/losses/test_{ndcg,mrr}.py
_AR = 'allegro/allRank'
_AR_V = 'c88475661cb72db292d13283fdbc4f2ae6498ee4 (2023-09-29; version 1.4.3)'
SOURCES['allrank'] = (_AR, _AR_V, ['tests/losses/test_ndcg.py', 'tests/losses/test_mrr.py'])
_PAD = -1  # allrank.data.dataset_loading.PADDED_Y_VALUE


def _ar(test, call, y_pred, y_true, expected, note, ours, path, tol=None, **params):
    "An allRank case: `allrank.models.metrics.<call>(tensor(y_pred), tensor(y_true), **params)`."
    CASES.append(Case('allrank', _AR, path, _AR_V, test, f'allrank.models.metrics.{call}',
                      dict(y_pred=y_pred, y_true=y_true), params, expected, tol or {'exact': True}, note, ours, ()))


_ND, _MR = 'tests/losses/test_ndcg.py', 'tests/losses/test_mrr.py'
_ar('test_ndcg_simple_1', 'ndcg', [[0.5, 0.2]], [[1.0, 0.0]], {'per_list': [1.0]}, 'nDCG, gain 2^y - 1',
    _ev('nDCG(gain=exp)', expect='per_list'), _ND, ats=None)
_ar('test_ndcg_simple_2', 'ndcg', [[0.5, 0.2]], [[0.0, 1.0]], {'per_list': [1 / log2(3)]}, 'relevant item second',
    _ev('nDCG(gain=exp)', expect='per_list'), _ND, ats=None)
_ar('test_ndcg_zero_when_no_relevant', 'ndcg', [[0.5, 0.2]], [[0.0, 0.0]], {'per_list': [0.0]},
    'no relevant item: the test expects 0; at this commit ndcg() fills such lists with filler_value=1.0 (its default '
    'since 79b5d32, 2021-03-30), so the test states the older rule', _ev('nDCG(gain=exp)', expect='per_list'), _ND,
    ats=None)
for _a, _v in [(1, 1.0), (2, 1.0 / (1.0 + 1 / log2(3)))]:
    _ar(f'test_ndcg_for_multiple_ats[at={_a}]', 'ndcg', [[0.5, 0.2, 0.1]], [[1.0, 0.0, 1.0]], {'per_list': [_v]},
        'ats = [1, 2]: one value per cutoff', _ev(f'nDCG(gain=exp)@{_a}', expect='per_list'), _ND,
        {'pytest.approx': 'rel 1e-6'}, ats=[1, 2])
_ar('test_ndcg_with_padded_input', 'ndcg', [[0.5, 0.2, 1.0]], [[1.0, 0.0, _PAD]], {'per_list': [1.0]},
    'y_true == -1 is padding: scored -inf, label 0 (not ranked above, not in the ideal)',
    _ev('nDCG(gain=exp)', expect='per_list'), _ND, ats=None)
_ar('test_ndcg_with_padded_input_2', 'ndcg', [[0.5, 0.2, 1.0]], [[0.0, 1.0, _PAD]], {'per_list': [1 / log2(3)]},
    'padding with the top score is not ranked first', _ev('nDCG(gain=exp)', expect='per_list'), _ND, ats=None)
_ar('test_mrr_simple_1', 'mrr', [[0.5, 0.2]], [[1.0, 0.0]], {'per_list': [1.0]}, 'RR at ats [10]',
    _ev('RR@10', expect='per_list'), _MR, ats=[10])
_ar('test_mrr_simple_no_ats', 'mrr', [[0.5, 0.2]], [[1.0, 0.0]], {'per_list': [1.0]}, 'ats None: the slate length',
    _ev('RR', expect='per_list'), _MR, ats=None)
_ar('test_mrr_simple_2', 'mrr', [[0.5, 0.2]], [[0.0, 1.0]], {'per_list': [0.5]}, 'relevant item second',
    _ev('RR@10', expect='per_list'), _MR, ats=[10])
_ar('test_mrr_multiple_slates', 'mrr', [[0.2, 0.5], [0.5, 0.2]], [[0.0, 1.0], [0.0, 1.0]], {'per_list': [1.0, 0.5]},
    'one value per slate', _ev('RR@10', expect='per_list'), _MR, ats=[10])
for _a, _v in [(1, 0.0), (2, 0.5)]:
    _ar(f'test_mrr_multiple_ats[at={_a}]', 'mrr', [[0.5, 0.2]], [[0.0, 1.0]], {'per_list': [_v]},
        'ats = [1, 2]: one value per cutoff', _ev(f'RR@{_a}', expect='per_list'), _MR, ats=[1, 2])
for _a, _v in [(1, [1.0, 0.0]), (2, [1.0, 0.5])]:
    _ar(f'test_mrr_multiple_slates_multiple_ats[at={_a}]', 'mrr', [[0.2, 0.5], [0.5, 0.2]], [[0.0, 1.0], [0.0, 1.0]],
        {'per_list': _v}, 'slates x cutoffs', _ev(f'RR@{_a}', expect='per_list'), _MR, ats=[1, 2])
_ar('test_mrr_zero_when_no_relevant', 'mrr', [[0.5, 0.2]], [[0.0, 0.0]], {'per_list': [0.0]},
    'no relevant item in the batch: 0 (allRank zeroes only when the whole batch has no relevant item)',
    _ev('RR@10', expect='per_list'), _MR, ats=[10])
_ar('test_mrr_with_padded_input', 'mrr', [[0.5, 0.2, 1.0]], [[1.0, 0.0, _PAD]], {'per_list': [1.0]},
    'padding (-1) is not ranked', _ev('RR@10', expect='per_list'), _MR, ats=[10])
_ar('test_mrr_with_padded_input_2', 'mrr', [[0.5, 0.2, 1.0]], [[0.0, 1.0, _PAD]], {'per_list': [0.5]},
    'padding with the top score is not ranked', _ev('RR@10', expect='per_list'), _MR, ats=[10])


def counts() -> dict:
    "{tool: number of records}."
    out = {}
    for c in CASES: out[c.tool] = out.get(c.tool, 0) + 1
    return out


def by_tool(tool: str) -> list:
    "The records of one tool."
    return [c for c in CASES if c.tool == tool]


assert len({(c.tool, c.path, c.test) for c in CASES}) == len(CASES), 'a (tool, path, test) appears twice'
assert all(set(c.gap) <= set(GAPS) for c in CASES), 'an unknown gap'
assert len(CASES) == 404 and sum(c.ours is not None for c in CASES) == 296, 'update the counts in the docstring'
