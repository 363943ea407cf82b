"""The join against trec_eval's own test suite: the counts and the rank-ordered grades trec_eval
prints (num_q, num_ret, num_rel, num_rel_ret, relstring) depend on nothing but reading, ordering
and joining, so the core must reproduce them exactly."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb import join, QueryMismatchWarning

from conftest import trec_eval_printed as expected

def counts(b):
    per_q = {q: dict(num_ret=str(n), num_rel=str(r), num_rel_ret=str(k)) for q, n, r, k in
             zip(b.qids, b.n_ret, b.n_rel, ((b.grades >= b.rel) & b.judged).sum(1))}
    per_q['all'] = dict(num_q=str(len(b)), num_ret=str(b.n_ret.sum()), num_rel=str(b.n_rel.sum()),
                        num_rel_ret=str(((b.grades >= b.rel) & b.judged).sum()))
    return per_q

def check_counts(b, out_file):
    ours = counts(b)
    for m in ('num_q', 'num_ret', 'num_rel', 'num_rel_ret'):
        for qid, v in expected(out_file, m).items(): assert ours[qid][m] == v, (out_file.name, m, qid)

@pytest.mark.parametrize('qrels,run,out,kw', [
    ('qrels.test', 'results.test', 'out.test.aq', {}),
    ('qrels.test.with-comments', 'results.test', 'out.test', {}),
    ('qrels.comment.test', 'results.comment.test', 'out.comment.test', {}),
    ('qrels.test', 'results.trunc', 'out.test.aqc', dict(queries='qrels')),
    ('qrels.test', 'results.trunc', 'out.test.aqcM', dict(queries='qrels', depth=100)),
    ('qrels.rel_level', 'results.test', 'out.test.aql', dict(rel=2)),
])
def test_counts(trec_eval_dir, qrels, run, out, kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(trec_eval_dir/qrels, trec_eval_dir/run, **kw)
    check_counts(b, trec_eval_dir/out)

def relstring(b, k=20):
    "trec_eval's relstring: the grade at each rank, '-' unjudged, '.' grade -1, '>' above 9."
    g, j = b.grades[:, :k], b.judged[:, :k]
    char = lambda grade, judged: '-' if not judged else '.' if grade < 0 else '>' if grade > 9 else str(int(grade))
    return {q: "'" + ''.join(char(x, y) for x, y in zip(gr, ju) if not np.isnan(x)) + "'" for q, gr, ju in zip(b.qids, g, j)}

def test_relstring_is_trec_eval_order(trec_eval_dir):
    "The top 20 grades of each query, in trec_eval's order (score, then docno descending)."
    b = join(trec_eval_dir/'qrels.rel_level', trec_eval_dir/'results.test', rel=2)
    assert relstring(b) == expected(trec_eval_dir/'out.test.aql', 'relstring_20')

def test_comment_run_reports_unjudged_queries(trec_eval_dir):
    with pytest.warns(QueryMismatchWarning, match='270 queries in the run but not the qrels'):
        b = join(trec_eval_dir/'qrels.comment.test', trec_eval_dir/'results.comment.test')
    assert len(b) == 31 and len(b.missing_from_qrels) == 270
    assert any('#' in d for d in b.docnos().ravel())           # '#' inside a docno is data

def test_trunc_without_c_skips_and_reports(trec_eval_dir):
    with pytest.warns(QueryMismatchWarning, match="1 query in the qrels but not the run: 302"):
        b = join(trec_eval_dir/'qrels.test', trec_eval_dir/'results.trunc')
    assert list(b.qids) == ['301', '303'] and list(b.missing_from_run) == ['302']
