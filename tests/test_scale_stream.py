"""Streaming evaluation (blocks of whole queries) against the in-memory path: per-query values equal exactly, means to 1e-12;
runs not grouped by query are refused with the file and line, and `sort_run` / `presort=True` group them."""
import gzip, io, contextlib, json, warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from rankmetrics_nb import evaluation, evaluate, EvalInputError
from rankmetrics_nb.evaluator.stream import (stream_evaluation, stream_evaluate, sort_run, run_blocks,
                                             synthetic_collection)
from rankmetrics_nb.evaluator.scale import evaluate_runs
from rankmetrics_nb.cli import main

MEASURES = ['AP', 'nDCG@10', 'nDCG', 'P@5', 'RR', 'ERR@20', 'R@50', 'Rprec', 'NumRel', 'NumRelRet', 'NumRet']


def in_memory(qrels, run, measures=MEASURES, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return evaluation(qrels, run, measures, **kw)


def same(streamed, whole):
    assert streamed.qids.tolist() == whole.qids.tolist()
    assert np.array_equal(streamed.values, whole.values)              # bit for bit
    wm, sm = whole.means(), streamed.means()
    for k, v in wm.items():
        assert abs(float(sm[k]) - float(v)) <= 1e-12, k
        if hasattr(v, 'n'): assert (sm[k].n, sm[k].skipped) == (v.n, v.skipped)
        else: assert sm[k] == v


@pytest.fixture(scope='module')
def collection(tmp_path_factory):
    return synthetic_collection(tmp_path_factory.mktemp('c'), n_queries=80, depth=120, seed=11)


@pytest.mark.parametrize('queries', ['run', 'qrels'])
@pytest.mark.parametrize('block', [200, 5_000, 1 << 20])
def test_stream_equals_in_memory(collection, queries, block):
    qp, rp = collection
    same(stream_evaluation(qp, rp, MEASURES, block_bytes=block, queries=queries), in_memory(qp, rp, queries=queries))


@pytest.mark.parametrize('ties', ['input', 'double'])
def test_stream_ties_depth_and_gzip(collection, tmp_path, ties):
    qp, rp = collection
    gz = tmp_path / 'run.gz'
    gz.write_bytes(gzip.compress(rp.read_bytes()))
    same(stream_evaluation(qp, gz, MEASURES, block_bytes=3_000, ties=ties, depth=25), in_memory(qp, rp, ties=ties, depth=25))


def test_stream_evaluate_answers_like_evaluate(collection):
    qp, rp = collection
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert stream_evaluate(qp, rp, ['AP', 'P@10'], per_query=True, block_bytes=4_000) == evaluate(qp, rp, ['AP', 'P@10'], per_query=True)


def test_queries_missing_from_every_block(tmp_path):
    qp, rp = tmp_path / 'q.txt', tmp_path / 'r.txt'
    qp.write_text('a 0 d1 1\nb 0 d2 2\nc 0 d3 1\nz 0 d9 1\n')
    rp.write_text('b Q0 d2 1 2.0 t\nb Q0 d1 2 1.0 t\nc Q0 d0 1 5.0 t\nc Q0 d3 2 4.0 t\ny Q0 d1 1 1.0 t\n')
    for queries in ('run', 'qrels'):
        s = stream_evaluation(qp, rp, MEASURES, block_bytes=20, queries=queries)
        same(s, in_memory(qp, rp, queries=queries))
        assert s.missing_from_run.tolist() == ['a', 'z'] and s.missing_from_qrels.tolist() == ['y']
    assert float(s.means()['AP']) == pytest.approx((1 + 0.5) / 4)


def test_ungrouped_run_names_file_and_line(collection, tmp_path):
    qp, _ = collection
    rp = tmp_path / 'r.txt'
    rp.write_text('q1 Q0 a 1 3 t\nq2 Q0 a 1 9 t\n# comment\nq2 Q0 b 2 8 t\nq3 Q0 c 1 1 t\nq1 Q0 b 2 2 t\n')
    for block in (10, 1 << 20):                  # across blocks and within one block
        with pytest.raises(EvalInputError, match=rf"{rp}, line 6: query 'q1' comes back after other queries.*sort-run"):
            stream_evaluation(qp, rp, ['AP'], block_bytes=block)


def test_bad_line_is_named_with_its_file_line(tmp_path):
    rp = tmp_path / 'r.txt'
    rp.write_text(''.join(f'q{i // 10} Q0 d{i} {i} {100 - i} t\n' for i in range(50)) + 'q9 Q0 dx 1 notanumber t\n')
    with pytest.raises(EvalInputError, match=rf"{rp}, line 51: score 'notanumber' is not a number"):
        list(run_blocks(rp, block_bytes=64))


def test_sort_run_and_presort(tmp_path):
    qp, rp = synthetic_collection(tmp_path, n_queries=50, depth=60, seed=12, shuffle=True)
    with pytest.raises(EvalInputError, match='comes back'):
        stream_evaluation(qp, rp, ['AP'], block_bytes=5_000)
    out = sort_run(rp, tmp_path / 'g.txt', block_bytes=4_000)
    lines = out.read_text().splitlines()
    assert sorted(lines) == sorted(rp.read_text().splitlines())
    q = [l.split()[0] for l in lines]
    assert sum(1 for i in range(len(q)) if i == 0 or q[i] != q[i - 1]) == len(set(q))
    whole = in_memory(qp, rp, ties='input')                       # a query's lines keep their order
    same(stream_evaluation(qp, out, MEASURES, block_bytes=4_000, ties='input'), whole)
    same(stream_evaluation(qp, rp, MEASURES, block_bytes=4_000, ties='input', presort=True, tmpdir=tmp_path), whole)


def test_evaluate_runs_processes(tmp_path):
    qp, _ = synthetic_collection(tmp_path, n_queries=30, depth=40, seed=13)
    runs = []
    for s in (14, 15, 16):
        _, r = synthetic_collection(tmp_path / f's{s}', n_queries=30, depth=40, seed=s)
        runs.append(r.rename(tmp_path / f'run{s}.txt'))
    res = evaluate_runs(qp, runs, ['AP', 'nDCG@10'], workers=2, block_bytes=2_000)
    assert list(res) == ['run14.txt', 'run15.txt', 'run16.txt']
    for r in runs: same(res[r.name], in_memory(qp, r, ['AP', 'nDCG@10']))


def _cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()


def test_cli_block_mb_and_sort_run(collection, tmp_path):
    qp, rp = collection
    status, out, _ = _cli('eval', qp, rp, '--block-mb', '0.005', '--per-query', '--format', 'json', '-m', 'AP', 'nDCG@10')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert (status, json.loads(out)['per_query']) == (0, evaluate(qp, rp, ['AP', 'nDCG@10'], per_query=True))
    lines = rp.read_text().splitlines(keepends=True)
    (tmp_path / 's.txt').write_text(''.join(lines[1::2] + lines[::2]))
    status, out, err = _cli('eval', qp, tmp_path / 's.txt', '--block-mb', '0.005', '-m', 'AP')
    assert status == 2 and err.startswith('rankmetrics: error: ') and 'comes back' in err and err.count('\n') == 1
    assert _cli('sort-run', tmp_path / 's.txt', tmp_path / 'g.txt', '--block-mb', '0.01')[0] == 0
    status, out, _ = _cli('eval', qp, tmp_path / 'g.txt', '--block-mb', '0.005', '--format', 'json', '-m', 'AP', '--presort')
    assert status == 0 and json.loads(out)['means']['AP'] == pytest.approx(float(in_memory(qp, rp, ['AP']).means()['AP']), abs=1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_property_any_block_size(tmp_path_factory, data):
    "Random small runs (ties, varying depths, unjudged queries), random block sizes: the streamed values are the in-memory ones."
    n_q = data.draw(st.integers(1, 6))
    rows = []
    for q in range(n_q):
        docs = data.draw(st.lists(st.integers(0, 30), min_size=1, max_size=25, unique=True))
        rows += [(f'q{q}', f'd{d}', data.draw(st.sampled_from([0.5, 1.0, 1.5, 2.0]))) for d in docs]
    judged = data.draw(st.lists(st.tuples(st.integers(0, n_q), st.integers(0, 30), st.integers(0, 3)), min_size=1, max_size=40,
                                unique_by=lambda t: t[:2]))
    d = tmp_path_factory.mktemp('p')
    (d / 'q.txt').write_text(''.join(f'q{q} 0 d{doc} {g}\n' for q, doc, g in judged))
    (d / 'r.txt').write_text(''.join(f'{q} Q0 {doc} 0 {s} t\n' for q, doc, s in rows))
    block = data.draw(st.integers(1, 400))
    queries = data.draw(st.sampled_from(['run', 'qrels']))
    ms = ['AP', 'nDCG@5', 'RR', 'P@3', 'NumRet']
    whole = in_memory(d / 'q.txt', d / 'r.txt', ms, queries=queries)
    same(stream_evaluation(d / 'q.txt', d / 'r.txt', ms, block_bytes=block, queries=queries), whole)
