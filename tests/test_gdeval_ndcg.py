"""nDCG@k under preset='gdeval' against gdeval.pl 1.3's own outputs (shared/conformance/diversity/tiny):
every printed per-topic ndcg@k and the amean row, to the printed precision (%.5f).

gdeval's rules, as the diversity README states them: the run is ordered by score, then docno
descending (join's default ties='trec'); a topic "exists" only if it has a judgement > 0; rows are
printed for the run's topics that exist; amean divides by the number of those topics, or, with
-c, by the number of qrels topics that exist (a topic without a run scores 0)."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.kit import query_mean
from rankmetrics_nb.engine.checks import QueryMismatchWarning, EvalInputError
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.metrics.dcg import ndcg

from conftest import DIVERSITY
TINY = DIVERSITY / 'tiny'

@pytest.fixture
def tiny():
    "The gdeval/ndeval conformance folder; the test skips (saying why) where it is absent, as in a user's clone."
    if not TINY.is_dir():
        pytest.skip(f"gdeval conformance data not found at {TINY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return TINY

def gdeval_csv(path):
    "k, and {topic: ndcg text} from a gdeval CSV (header runid,topic,ndcg@K,err@K; last row amean)."
    header, *rows = path.read_text().split()
    k = int(header.split(',')[2].split('@')[1])
    return k, {topic: value for _, topic, value, _ in (r.split(',') for r in rows)}

def gdeval_ndcg(qrels, run, k, c=False):
    "What gdeval prints for nDCG@k: {topic: '%.5f'} for the printed topics, plus 'amean'."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)        # run topics without qrels, qrels topics without a run
        b = join(qrels, run, queries='qrels' if c else 'run')
    values = ndcg(b, k=k, preset='gdeval')
    exists = b.n_rel_at(1) > 0                                       # a judgement > 0
    printed = {q: f'{v:.5f}' for q, v, e, r in zip(b.qids, values, exists, b.in_run) if e and r}
    return printed | {'amean': f'{query_mean(values, keep=exists):.5f}'}

CASES = [  # (qrels, run, gdeval output, -c)
    ('irmeasures_gdeval.qrels', 'irmeasures_gdeval.run', 'irmeasures_gdeval.gdeval.k20.csv', False),
    ('irmeasures_gdeval.qrels', 'irmeasures_gdeval.run', 'irmeasures_gdeval.gdeval.k2.csv', False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.k20.csv', False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.k3.csv', False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.c.k20.csv', True),
    ('edge.adhoc.qrels', 'edge.div.run2', 'edge.adhoc.run2.gdeval.k20.csv', False),
]

@pytest.mark.parametrize('qrels,run,out,c', CASES)
def test_ndcg_matches_gdeval(tiny, qrels, run, out, c):
    k, want = gdeval_csv(tiny/out)
    assert gdeval_ndcg(tiny/qrels, tiny/run, k, c) == want

def test_edge_cases_are_exercised(tiny):
    """The edge files hold what the rules are about: a -2 (spam) judgement, a tie that docno order breaks, a run
    topic without qrels (10), a qrels topic without a run (9) and one with only grade-0 judgements (11)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(tiny/'edge.adhoc.qrels', tiny/'edge.div.run', queries='qrels')
    row = {q: i for i, q in enumerate(b.qids)}
    assert sorted(row) == ['11', '7', '8', '9'] and list(b.missing_from_qrels) == ['10']
    assert {q: int(b.n_rel_at(1)[i]) for q, i in row.items()} == {'7': 4, '8': 1, '9': 1, '11': 0}
    assert not b.in_run[row['9']] and not b.in_run[row['11']]
    assert (b.ideal[row['7']] == -2).any() and b.tied[row['7']].any()
    assert list(b.docnos()[row['7']][:2]) == ['d9', 'd2']              # tied at 5.0: docno descending
    assert gdeval_ndcg(tiny/'edge.adhoc.qrels', tiny/'edge.div.run', 20, c=True)['amean'] != \
           gdeval_ndcg(tiny/'edge.adhoc.qrels', tiny/'edge.div.run', 20)['amean']

def test_exact_values_behind_the_printed_ones(tiny):
    "Topic 7 at k=20 and k=3 from the formula: exponential gain, log2 discount, ideal from the qrels sorted descending."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(tiny/'edge.adhoc.qrels', tiny/'edge.div.run')
    # topic 7 ranks d9 (unjudged), d2 (4), d1 (1), d3 (2), d7 (3), d4 (-2); its judged grades are 4, 3, 2, 1 (and -2, 0)
    dcg7 = 15/np.log2(3) + 1/np.log2(4) + 3/np.log2(5) + 7/np.log2(6)
    ideal7 = 15 + 7/np.log2(3) + 3/np.log2(4) + 1/np.log2(5)
    t7 = list(b.qids).index('7')
    assert abs(ndcg(b, k=20, preset='gdeval')[t7] - dcg7 / ideal7) <= 1e-15
    assert abs(ndcg(b, k=3, preset='gdeval')[t7] - (15/np.log2(3) + 1/np.log2(4)) / (15 + 7/np.log2(3) + 3/np.log2(4))) <= 1e-15

def test_gdeval_grade_scale_is_enforced():
    "gdeval refuses qrels grades above 4 (MAX_JUDGMENT); so does the preset, while plain exp gain accepts them."
    b = join({'1': dict(a=5, b=1)}, {'1': dict(a=2.0, b=1.0)})
    with pytest.raises(EvalInputError, match='above max_grade=4'): ndcg(b, preset='gdeval')
    assert ndcg(b, gain='exp') == pytest.approx([1.0])
