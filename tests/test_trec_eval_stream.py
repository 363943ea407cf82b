"""`rankmetrics trec_eval --block-mb` / `trec_eval(block_bytes=)` streams the run file in blocks of whole queries; its
output must be the in-memory output byte for byte, on trec_eval's own test files and on a seeded run cut into tiny blocks."""
import contextlib, io
import numpy as np
import pytest
from rankmetrics_nb.interop.trec_eval import trec_eval, trec_eval_main as main
from rankmetrics_nb.data import example_paths

FLAGS = [['-q', '-m', 'all_trec'], ['-q', '-m', 'all_trec', '-l', '2'], ['-m', 'official', '-M', '100'],
         ['-q', '-m', 'ndcg_cut.5,10', '-m', 'P.3', '-J'], ['-q', '-m', 'all_trec', '--trec-eval-version', '9']]

def printed(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(argv)
    return status, out.getvalue()

@pytest.mark.parametrize('flags', FLAGS, ids=[' '.join(f) for f in FLAGS])
def test_streamed_equals_in_memory_on_trec_eval_files(trec_eval_dir, flags):
    files = [str(trec_eval_dir / 'qrels.test'), str(trec_eval_dir / 'results.test')]
    want = printed(flags + files)
    for mb in ('1',):
        assert printed(flags + ['--block-mb', mb] + files) == want
    small = trec_eval(*files, measures=['all_trec'], per_query=True, block_bytes=3000)     # many blocks
    assert small.text() == trec_eval(*files, measures=['all_trec'], per_query=True).text()

def test_streamed_example_in_tiny_blocks():
    p = example_paths()
    for block in (500, 5000, 1 << 20):
        s = trec_eval(p['qrels'], p['bm25'], ['all_trec'], per_query=True, block_bytes=block)
        m = trec_eval(p['qrels'], p['bm25'], ['all_trec'], per_query=True)
        assert s.text() == m.text() and s.summary == m.summary

def test_streaming_refuses_what_it_cannot_do(tmp_path):
    p = example_paths()
    status, _ = printed(['-c', '--block-mb', '1', str(p['qrels']), str(p['rerank'])])
    assert status == 2
    (tmp_path / 'scattered.run').write_text('q1 Q0 a 1 2 r\nq2 Q0 b 1 2 r\nq1 Q0 c 2 1 r\n')
    (tmp_path / 'q.txt').write_text('q1 0 a 1\nq2 0 b 1\n')
    status, _ = printed(['--block-mb', '1', str(tmp_path / 'q.txt'), str(tmp_path / 'scattered.run')])
    assert status == 2
