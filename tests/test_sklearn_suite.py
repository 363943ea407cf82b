"""scikit-learn's own tests of its ranking scores, as cases of this package's measures.

The concrete cases of `sklearn/metrics/tests/test_ranking.py` (scikit-learn 1.9.1) for `ndcg_score`,
`dcg_score`, `label_ranking_average_precision_score` and `top_k_accuracy_score`, each restated on
our measures; each test names the scikit-learn test function it comes from. Rows of `y_true` /
`y_score` are queries, columns documents; a batch is built from them with the documents in score
order and the tie groups of equal scores:

- `ignore_ties=False` (scikit-learn's default) is our `ties="expected"` (the gains averaged over
  each tie group); `ignore_ties=True` is one fixed order, and scikit-learn's (a reversed argsort)
  puts the higher column first among equal scores, our `"double"` order with ids that sort like the
  columns. `ndcg_score`'s ideal is the row's own grades sorted: `ideal="returned"`.
- `label_ranking_average_precision_score` (LRAP) is AP with R = the row's relevant labels, when
  the scores have no ties. With ties it counts every tied label as ranked above (the worst rank of
  the group), which is no tie policy of ours: those cases are expected failures, as are its
  rows without any relevant label (LRAP 1, AP 0).
- `top_k_accuracy_score` is Success@k with the true class as the one relevant document; its tie
  rule (higher column first) is `"double"` again; a binary `y_score` is the positive class's score
  against its complement (1 - s for probabilities, -s for decision values).

Expected failures (`xfail(strict=True)`): scikit-learn's input errors and warnings that we do not
raise (negative grades gain 0 here; a single document is a valid list; a cutoff beyond the list
is not a warning), LRAP's tie and no-relevant conventions.

Not applicable (no measure here to map them to):
- `coverage_error` (test_coverage_error, test_coverage_tie_handling, test_coverage_1d_error_message):
  the rank of the last relevant label, a measure this package does not have.
- `label_ranking_loss` and the ROC/PR/DET curve tests: classification scores, not ranking measures.
- test_lrap_error_raised and test_top_k_accuracy_score_error: input-format checks of scikit-learn's
  own API (the shapes of `y_true` and `y_score`, its `labels=` argument)."""
import numpy as np
import pytest
from rankmetrics_nb.engine.kit import Batch
from rankmetrics_nb.metrics.dcg import dcg, ndcg
from rankmetrics_nb.metrics.average_precision import average_precision
from rankmetrics_nb.metrics.precision import success

sk = pytest.importorskip('sklearn.metrics', reason='scikit-learn (a dev dependency) is not installed')
from sklearn.datasets import make_multilabel_classification
from sklearn.utils import check_random_state

def batch(y_true, y_score, ties='expected')->Batch:
    "A batch of the rows (queries) with columns (documents) in score order; ties='expected' carries the groups, 'double' puts the higher column first."
    y_true, y_score = np.atleast_2d(np.asarray(y_true, np.float64)), np.atleast_2d(np.asarray(y_score, np.float64))
    q, n = y_true.shape
    col = np.broadcast_to(np.arange(n), (q, n))
    order = np.lexsort((-col, -y_score), axis=1)                  # score descending, then the higher column first
    grades, scores = np.take_along_axis(y_true, order, 1), np.take_along_axis(y_score, order, 1)
    new = np.ones((q, n), bool); new[:, 1:] = scores[:, 1:] != scores[:, :-1]
    groups = (np.cumsum(new.ravel()) - 1).reshape(q, n) if ties == 'expected' else None
    ideal = -np.sort(-y_true, axis=1)
    return Batch(qids=np.array([f'q{i}' for i in range(q)]), grades=grades, judged=np.ones((q, n), bool), n_ret=np.full(q, n),
                 ideal=ideal, n_rel=(ideal >= 1).sum(axis=1), in_run=np.ones(q, bool), ties=ties, tie_groups=groups)

def ties_of(ignore_ties:bool)->str: return 'double' if ignore_ties else 'expected'

# ------------------------------------------------------------------ ndcg_score, dcg_score

def _dcg_score_for(y_true, y_score):
    "scikit-learn's _test_dcg_score_for, on our DCG."
    discount = np.log2(np.arange(y_true.shape[1]) + 2)
    ideal, score = dcg(batch(y_true, y_true)), dcg(batch(y_true, y_score))
    assert (score <= ideal + 1e-12).all()
    assert (dcg(batch(y_true, y_true), 5) <= ideal).all()
    assert ideal.shape == score.shape == (y_true.shape[0],)
    assert ideal == pytest.approx((np.sort(y_true)[:, ::-1] / discount).sum(axis=1))
    assert score == pytest.approx([sk.dcg_score(y_true[i:i + 1], y_score[i:i + 1]) for i in range(len(y_true))], abs=1e-12)

def test_dcg_score():
    # sklearn test_ranking.py::test_dcg_score (multilabel grades with tied scores, then continuous)
    _, y_true = make_multilabel_classification(random_state=0, n_classes=10)
    _dcg_score_for(y_true, -y_true + 1)
    y_true, y_score = np.random.RandomState(0).random_sample((2, 100, 10))
    _dcg_score_for(y_true, y_score)

def test_dcg_ties():
    # sklearn test_ranking.py::test_dcg_ties
    y_true = np.asarray([np.arange(5)])
    y_score = np.zeros(y_true.shape)
    discounts = 1 / np.log2(np.arange(2, 7))
    assert dcg(batch(y_true, y_score)) == pytest.approx([discounts.sum() * y_true.mean()])
    assert dcg(batch(y_true, y_score, 'double')) == pytest.approx([(discounts * y_true[:, ::-1]).sum()])
    y_score[0, 3:] = 1
    assert dcg(batch(y_true, y_score, 'double')) == pytest.approx([(discounts * y_true[:, ::-1]).sum()])
    assert dcg(batch(y_true, y_score)) == pytest.approx([discounts[:2].sum() * y_true[0, 3:].mean() + discounts[2:].sum() * y_true[0, :3].mean()])

def test_ndcg_ignore_ties_with_k():
    # sklearn test_ranking.py::test_ndcg_ignore_ties_with_k (the same call twice: here, and a perfect ranking scores 1)
    a = np.arange(12).reshape((2, 6))
    assert ndcg(batch(a, a, 'double'), 3, ideal='returned') == pytest.approx(ndcg(batch(a, a, 'double'), 3, ideal='returned'))
    assert ndcg(batch(a, a, 'double'), 3, ideal='returned').mean() == pytest.approx(sk.ndcg_score(a, a, k=3, ignore_ties=True))

@pytest.mark.xfail(strict=True, reason="negative grades are valid here (they gain 0, as in trec_eval); scikit-learn rejects them")
def test_ndcg_negative_ndarray_error():
    # sklearn test_ranking.py::test_ndcg_negative_ndarray_error
    y_true = np.array([[-0.89, -0.53, -0.47, 0.39, 0.56]])
    y_score = np.array([[0.07, 0.31, 0.75, 0.33, 0.27]])
    with pytest.raises(ValueError, match="negative"): ndcg(batch(y_true, y_score), ideal='returned')

def test_ndcg_invariant():
    # sklearn test_ranking.py::test_ndcg_invariant
    y_true = np.arange(70).reshape(7, 10)
    y_score = y_true + np.random.RandomState(0).uniform(-0.2, 0.2, size=y_true.shape)
    with_ties, no_ties = ndcg(batch(y_true, y_score), ideal='returned').mean(), ndcg(batch(y_true, y_score, 'double'), ideal='returned').mean()
    assert with_ties == pytest.approx(no_ties) and with_ties == pytest.approx(1.0)
    assert ndcg(batch(y_true, y_score + 1000), ideal='returned').mean() == pytest.approx(1.0)

@pytest.mark.parametrize('ignore_ties', [True, False])
def test_ndcg_toy_examples(ignore_ties):
    # sklearn test_ranking.py::test_ndcg_toy_examples
    t = ties_of(ignore_ties)
    y_true = 3 * np.eye(7)[:5]
    y_score = np.tile(np.arange(6, -1, -1), (5, 1))
    y_score_noisy = y_score + np.random.RandomState(0).uniform(-0.2, 0.2, size=y_score.shape)
    assert dcg(batch(y_true, y_score, t)) == pytest.approx(3 / np.log2(np.arange(2, 7)))
    assert dcg(batch(y_true, y_score_noisy, t)) == pytest.approx(3 / np.log2(np.arange(2, 7)))
    assert ndcg(batch(y_true, y_score, t), ideal='returned') == pytest.approx(1 / np.log2(np.arange(2, 7)))
    assert dcg(batch(y_true, y_score, t), discount=lambda r: 1 / np.log10(r + 1)) == pytest.approx(3 / np.log10(np.arange(2, 7)))
    assert ndcg(batch(y_true, y_score, t), ideal='returned').mean() == pytest.approx((1 / np.log2(np.arange(2, 7))).mean())
    assert dcg(batch(y_true, y_score, t)).mean() == pytest.approx((3 / np.log2(np.arange(2, 7))).mean())
    y_true = 3 * np.ones((5, 7))
    expected_dcg_score = (3 / np.log2(np.arange(2, 9))).sum()
    assert dcg(batch(y_true, y_score, t)) == pytest.approx(expected_dcg_score * np.ones(5))
    assert ndcg(batch(y_true, y_score, t), ideal='returned') == pytest.approx(np.ones(5))
    assert dcg(batch(y_true, y_score, t)).mean() == pytest.approx(expected_dcg_score)
    assert ndcg(batch(y_true, y_score, t), ideal='returned').mean() == pytest.approx(1.0)

@pytest.mark.xfail(strict=True, reason="a list of one document is a valid ranking here (nDCG 1 if it gains, else 0); scikit-learn rejects it")
def test_ndcg_error_single_document():
    # sklearn test_ranking.py::test_ndcg_error_single_document
    with pytest.raises(ValueError, match="more than 1 document"): ndcg(batch([[1]], [[1]]), ideal='returned')

def _ndcg_score_for(y_true, y_score):
    "scikit-learn's _test_ndcg_score_for, on our nDCG (ideal='returned', ties='expected')."
    ideal, score = ndcg(batch(y_true, y_true), ideal='returned'), ndcg(batch(y_true, y_score), ideal='returned')
    assert (score <= ideal + 1e-12).all()
    all_zero = (y_true == 0).all(axis=1)
    assert ideal[~all_zero] == pytest.approx(np.ones((~all_zero).sum()))
    assert ideal[all_zero] == pytest.approx(np.zeros(all_zero.sum()))
    assert score[~all_zero] == pytest.approx(dcg(batch(y_true, y_score))[~all_zero] / dcg(batch(y_true, y_true))[~all_zero])
    assert score[all_zero] == pytest.approx(np.zeros(all_zero.sum()))
    assert ideal.shape == score.shape == (y_true.shape[0],)
    assert score.mean() == pytest.approx(sk.ndcg_score(y_true, y_score), abs=1e-12)

def test_ndcg_score():
    # sklearn test_ranking.py::test_ndcg_score
    _, y_true = make_multilabel_classification(random_state=0, n_classes=10)
    _ndcg_score_for(y_true, -y_true + 1)
    y_true, y_score = np.random.RandomState(0).random_sample((2, 100, 10))
    _ndcg_score_for(y_true, y_score)

# ------------------------------------------------------------------ label_ranking_average_precision_score as AP

def lrap(y_true, y_score)->float:
    "LRAP as AP (R = the row's relevant labels) under ties='expected', averaged over rows."
    return float(average_precision(batch(y_true, y_score)).mean())

LRAP_WORST_RANK = "with tied scores LRAP ranks every tied label at the group's worst rank; ties='expected' averages over the orders"
WORST = pytest.mark.xfail(strict=True, reason=LRAP_WORST_RANK)

TOY = [  # sklearn test_ranking.py::check_lrap_toy, every assertion in order: (y_true, y_score, LRAP)
    ([[0, 1]], [[0.25, 0.75]], 1), ([[0, 1]], [[0.75, 0.25]], 1 / 2), ([[1, 1]], [[0.75, 0.25]], 1),
    ([[0, 0, 1]], [[0.25, 0.5, 0.75]], 1), ([[0, 1, 0]], [[0.25, 0.5, 0.75]], 1 / 2), ([[0, 1, 1]], [[0.25, 0.5, 0.75]], 1),
    ([[1, 0, 0]], [[0.25, 0.5, 0.75]], 1 / 3), ([[1, 0, 1]], [[0.25, 0.5, 0.75]], (2 / 3 + 1 / 1) / 2),
    ([[1, 1, 0]], [[0.25, 0.5, 0.75]], (2 / 3 + 1 / 2) / 2),
    ([[0, 0, 1]], [[0.75, 0.5, 0.25]], 1 / 3), ([[0, 1, 0]], [[0.75, 0.5, 0.25]], 1 / 2), ([[0, 1, 1]], [[0.75, 0.5, 0.25]], (1 / 2 + 2 / 3) / 2),
    ([[1, 0, 0]], [[0.75, 0.5, 0.25]], 1), ([[1, 0, 1]], [[0.75, 0.5, 0.25]], (1 + 2 / 3) / 2), ([[1, 1, 0]], [[0.75, 0.5, 0.25]], 1),
    ([[1, 1, 1]], [[0.75, 0.5, 0.25]], 1),
    ([[0, 0, 1]], [[0.5, 0.75, 0.25]], 1 / 3), ([[0, 1, 0]], [[0.5, 0.75, 0.25]], 1), ([[0, 1, 1]], [[0.5, 0.75, 0.25]], (1 + 2 / 3) / 2),
    ([[1, 0, 0]], [[0.5, 0.75, 0.25]], 1 / 2), ([[1, 0, 1]], [[0.5, 0.75, 0.25]], (1 / 2 + 2 / 3) / 2), ([[1, 1, 0]], [[0.5, 0.75, 0.25]], 1),
    ([[1, 1, 1]], [[0.5, 0.75, 0.25]], 1),
    # tie handling: where the worst rank and the expected value differ, an expected failure
    pytest.param([[1, 0]], [[0.5, 0.5]], 0.5, marks=WORST), pytest.param([[0, 1]], [[0.5, 0.5]], 0.5, marks=WORST),
    ([[1, 1]], [[0.5, 0.5]], 1),
    pytest.param([[0, 0, 1]], [[0.25, 0.5, 0.5]], 0.5, marks=WORST), pytest.param([[0, 1, 0]], [[0.25, 0.5, 0.5]], 0.5, marks=WORST),
    ([[0, 1, 1]], [[0.25, 0.5, 0.5]], 1), ([[1, 0, 0]], [[0.25, 0.5, 0.5]], 1 / 3),
    pytest.param([[1, 0, 1]], [[0.25, 0.5, 0.5]], (2 / 3 + 1 / 2) / 2, marks=WORST),
    pytest.param([[1, 1, 0]], [[0.25, 0.5, 0.5]], (2 / 3 + 1 / 2) / 2, marks=WORST),
    ([[1, 1, 1]], [[0.25, 0.5, 0.5]], 1),
    pytest.param([[1, 1, 0]], [[0.5, 0.5, 0.5]], 2 / 3, marks=WORST), pytest.param([[1, 1, 1, 0]], [[0.5, 0.5, 0.5, 0.5]], 3 / 4, marks=WORST),
]

@pytest.mark.parametrize('y_true,y_score,value', TOY)
def test_lrap_toy(y_true, y_score, value):
    # sklearn test_ranking.py::check_lrap_toy (via test_label_ranking_avp)
    assert lrap(y_true, y_score) == pytest.approx(value)

def test_lrap_toy_expected_values():
    # sklearn test_ranking.py::check_lrap_toy, its tied cases under ties='expected' (the mean AP over the tied orders)
    cases = [([[1, 0]], [[0.5, 0.5]], 3 / 4), ([[0, 0, 1]], [[0.25, 0.5, 0.5]], 3 / 4),
             ([[1, 0, 1]], [[0.25, 0.5, 0.5]], ((1 + 2 / 3) / 2 + (1 / 2 + 2 / 3) / 2) / 2),
             ([[1, 1, 0]], [[0.5, 0.5, 0.5]], (1 + (1 + 2 / 3) / 2 + (1 / 2 + 2 / 3) / 2) / 3)]
    for y_true, y_score, value in cases: assert lrap(y_true, y_score) == pytest.approx(value, rel=1e-12)

def test_lrap_without_tie_and_increasing_score():
    # sklearn test_ranking.py::check_lrap_without_tie_and_increasing_score (via test_label_ranking_avp)
    for n_labels in range(2, 10):
        y_score = n_labels - (np.arange(n_labels).reshape((1, n_labels)) + 1)
        y_true = np.zeros((1, n_labels)); y_true[0, 0] = y_true[0, -1] = 1
        assert lrap(y_true, y_score) == pytest.approx((2 / n_labels + 1) / 2)
        for n_relevant in range(1, n_labels):
            for pos in range(n_labels - n_relevant):
                y_true = np.zeros((1, n_labels)); y_true[0, pos:pos + n_relevant] = 1
                assert lrap(y_true, y_score) == pytest.approx(sum((r + 1) / ((pos + r + 1) * n_relevant) for r in range(n_relevant)))

@pytest.mark.xfail(strict=True, reason=LRAP_WORST_RANK)
def test_lrap_only_ties():
    # sklearn test_ranking.py::check_lrap_only_ties (via test_label_ranking_avp)
    for n_labels in range(2, 10):
        for n_relevant in range(1, n_labels):
            for pos in range(n_labels - n_relevant):
                y_true = np.zeros((1, n_labels)); y_true[0, pos:pos + n_relevant] = 1
                assert lrap(y_true, np.ones((1, n_labels))) == pytest.approx(n_relevant / n_labels)

def test_lrap_only_ties_expected_value():
    # sklearn test_ranking.py::check_lrap_only_ties, its lists under ties='expected': E[AP] of r relevant among n tied,
    # Σ_j (r/n)(1 + (j-1)(r-1)/(n-1))/j / r, whatever their positions
    for n_labels in range(2, 10):
        for n_relevant in range(1, n_labels):
            y_true = np.zeros((1, n_labels)); y_true[0, :n_relevant] = 1
            want = sum((1 + (j - 1) * (n_relevant - 1) / (n_labels - 1)) / j for j in range(1, n_labels + 1)) / n_labels
            assert lrap(y_true, np.ones((1, n_labels))) == pytest.approx(want, rel=1e-12)

def test_lrap_all_relevant_labels():
    # sklearn test_ranking.py::check_zero_or_all_relevant_labels, its rows where every label is relevant (LRAP = AP = 1)
    random_state = check_random_state(0)
    for n_labels in range(2, 5):
        y_score = random_state.uniform(size=(1, n_labels))
        assert lrap(np.ones((1, n_labels)), y_score) == 1.0
        assert lrap(np.ones((1, n_labels)), np.zeros_like(y_score)) == pytest.approx(1.0)

@pytest.mark.xfail(strict=True, reason="a query without relevant labels scores 1 in LRAP and 0 in AP (trec_eval's convention)")
def test_lrap_zero_relevant_labels():
    # sklearn test_ranking.py::check_zero_or_all_relevant_labels, its rows without a relevant label
    random_state = check_random_state(0)
    for n_labels in range(2, 5):
        assert lrap(np.zeros((1, n_labels)), random_state.uniform(size=(1, n_labels))) == 1.0

@pytest.mark.parametrize('n_samples', (1, 2, 8, 20))
@pytest.mark.parametrize('n_classes', (2, 5, 10))
def test_alternative_lrap_implementation_uniform_scores(n_samples, n_classes):
    # sklearn test_ranking.py::test_alternative_lrap_implementation, its uniform (untied) scores
    _, y_true = make_multilabel_classification(n_features=1, allow_unlabeled=False, random_state=0, n_classes=n_classes, n_samples=n_samples)
    y_score = check_random_state(0).uniform(size=(n_samples, n_classes))      # allow_unlabeled=False: every row has a label
    assert lrap(y_true, y_score) == pytest.approx(sk.label_ranking_average_precision_score(y_true, y_score))

@pytest.mark.xfail(strict=True, reason=LRAP_WORST_RANK)
def test_alternative_lrap_implementation_tied_scores():
    # sklearn test_ranking.py::test_alternative_lrap_implementation, its sparse (tied) scores, n_samples=20, n_classes=5
    from sklearn.random_projection import _sparse_random_matrix
    _, y_true = make_multilabel_classification(n_features=1, allow_unlabeled=False, random_state=0, n_classes=5, n_samples=20)
    y_score = _sparse_random_matrix(n_components=y_true.shape[0], n_features=y_true.shape[1], random_state=0)
    y_score = y_score.toarray() if hasattr(y_score, 'toarray') else y_score
    assert lrap(y_true, y_score) == pytest.approx(sk.label_ranking_average_precision_score(y_true, y_score))

def test_lrap_sample_weighting_zero_labels():
    # sklearn test_ranking.py::test_lrap_sample_weighting_zero_labels: the APs of the weighted rows are 0.5 and 0.75
    y_true = np.array([[1, 0, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0]], dtype=bool)
    y_score = np.array([[0.3, 0.4, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]])
    ap = average_precision(batch(y_true, y_score))
    assert ap[:2] == pytest.approx([0.5, 0.75])
    weight = np.array([1.0, 1.0, 0.0])
    assert np.sum(weight * ap) / np.sum(weight) == pytest.approx(
        sk.label_ranking_average_precision_score(y_true, y_score, sample_weight=weight))

# ------------------------------------------------------------------ top_k_accuracy_score as Success@k

def top_k(y_true, y_score, k, labels=None)->float:
    "Success@k with the true class relevant, scikit-learn's tie rule (the higher column first), averaged over samples."
    y_score = np.asarray(y_score, np.float64)
    if y_score.ndim == 1:                                          # binary: the positive class's score against its complement
        other = 1 - y_score if y_score.min() >= 0 and y_score.max() <= 1 else -y_score
        y_score = np.stack([other, y_score], axis=1)
    labels = list(range(y_score.shape[1])) if labels is None else list(labels)
    grades = np.zeros(y_score.shape); grades[np.arange(len(y_true)), [labels.index(y) for y in y_true]] = 1
    return float(success(batch(grades, y_score, 'double'), k).mean())

SCORE4 = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.3, 0.4, 0.2], [0.4, 0.1, 0.2, 0.3], [0.3, 0.2, 0.4, 0.1]])

@pytest.mark.parametrize('y_true,k,true_score', [([0, 1, 2, 3], 1, 0.25), ([0, 1, 2, 3], 2, 0.5), ([0, 1, 2, 3], 3, 0.75)])
def test_top_k_accuracy_score(y_true, k, true_score):
    # sklearn test_ranking.py::test_top_k_accuracy_score
    assert top_k(y_true, SCORE4, k) == pytest.approx(true_score)

@pytest.mark.parametrize('y_score,k,true_score', [
    (np.array([-1, -1, 1, 1]), 1, 1), (np.array([-1, 1, -1, 1]), 1, 0.5), (np.array([-1, 1, -1, 1]), 2, 1),
    (np.array([0.2, 0.2, 0.7, 0.7]), 1, 1), (np.array([0.2, 0.7, 0.2, 0.7]), 1, 0.5), (np.array([0.2, 0.7, 0.2, 0.7]), 2, 1)])
def test_top_k_accuracy_score_binary(y_score, k, true_score):
    # sklearn test_ranking.py::test_top_k_accuracy_score_binary
    assert top_k([0, 0, 1, 1], y_score, k) == pytest.approx(true_score)

@pytest.mark.parametrize('labels_as_ndarray', [True, False])
@pytest.mark.parametrize('y_true,true_score,labels', [
    (np.array([0, 1, 1, 2]), 0.75, [0, 1, 2, 3]), (np.array([0, 1, 1, 1]), 0.5, [0, 1, 2, 3]),
    (np.array([1, 1, 1, 1]), 0.5, [0, 1, 2, 3]), (np.array(['a', 'e', 'e', 'a']), 0.75, ['a', 'b', 'd', 'e'])])
def test_top_k_accuracy_score_multiclass_with_labels(y_true, true_score, labels, labels_as_ndarray):
    # sklearn test_ranking.py::test_top_k_accuracy_score_multiclass_with_labels
    labels = np.asarray(labels) if labels_as_ndarray else labels
    assert top_k(list(y_true), SCORE4, 2, labels=list(labels)) == pytest.approx(true_score)

def test_top_k_accuracy_score_increasing():
    # sklearn test_ranking.py::test_top_k_accuracy_score_increasing
    from sklearn import datasets
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    X, y = datasets.make_classification(n_classes=10, n_samples=1000, n_informative=10, random_state=0)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    clf = LogisticRegression(random_state=0).fit(X_train, y_train)
    for X, y in zip((X_train, X_test), (y_train, y_test)):
        p = clf.predict_proba(X)
        scores = [top_k(y, p, k) for k in range(2, 10)]
        assert np.all(np.diff(scores) > 0)
        assert scores == pytest.approx([sk.top_k_accuracy_score(y, p, k=k) for k in range(2, 10)])

@pytest.mark.parametrize('y_true,k,true_score', [([0, 1, 2, 3], 1, 0.25), ([0, 1, 2, 3], 2, 0.5), ([0, 1, 2, 3], 3, 1)])
def test_top_k_accuracy_score_ties(y_true, k, true_score):
    # sklearn test_ranking.py::test_top_k_accuracy_score_ties (the higher column first among equal scores)
    y_score = np.array([[5, 5, 7, 0], [1, 5, 5, 5], [0, 0, 3, 3], [1, 1, 1, 1]])
    assert top_k(y_true, y_score, k) == pytest.approx(true_score)

@pytest.mark.parametrize('y_true,k', [([0, 1, 2, 3], 4), ([0, 1, 2, 3], 5)])
def test_top_k_accuracy_score_warning_value(y_true, k):
    # sklearn test_ranking.py::test_top_k_accuracy_score_warning, its value: k ≥ the number of classes scores 1
    y_score = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.4, 0.3, 0.2], [0.2, 0.1, 0.4, 0.3], [0.3, 0.2, 0.1, 0.4]])
    assert top_k(y_true, y_score, k) == 1

@pytest.mark.xfail(strict=True, reason="a cutoff beyond the list is valid here (Success@k is 1 when the list holds the relevant document); no warning")
@pytest.mark.parametrize('y_true,k', [([0, 1, 2, 3], 4), ([0, 1, 2, 3], 5)])
def test_top_k_accuracy_score_warning(y_true, k):
    # sklearn test_ranking.py::test_top_k_accuracy_score_warning, its warning
    y_score = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.4, 0.3, 0.2], [0.2, 0.1, 0.4, 0.3], [0.3, 0.2, 0.1, 0.4]])
    with pytest.warns(UserWarning, match="perfect score"): top_k(y_true, y_score, k)
