"""Dask evaluation on a distributed.LocalCluster (2 worker processes, started here): per-query values equal the in-memory
ones exactly and means to 1e-12, for files grouped by query, files with scattered queries (shuffle), a dask.dataframe,
and many runs at once."""
import gzip, io, contextlib, json, warnings
import numpy as np
import pytest

dd = pytest.importorskip('dask.dataframe', reason='dask is an optional extra: pip install rankmetrics_nb[dask]')
distributed = pytest.importorskip('distributed')
import pandas as pd
from rankmetrics_nb import evaluation
from rankmetrics_nb.evaluator.scale import dask_evaluation, evaluate_runs
from rankmetrics_nb.evaluator.stream import synthetic_collection
from rankmetrics_nb.cli import main

MEASURES = ['AP', 'nDCG@10', 'RR', 'P@5', 'ERR@20', 'R@50', 'NumRel', 'NumRet']


def in_memory(qrels, run, measures=MEASURES, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return evaluation(qrels, run, measures, **kw)


def same(e, whole):
    assert e.qids.tolist() == whole.qids.tolist()
    assert np.array_equal(e.values, whole.values)
    for k, v in whole.means().items():
        assert abs(float(e.means()[k]) - float(v)) <= 1e-12, k
        if hasattr(v, 'n'): assert (e.means()[k].n, e.means()[k].skipped) == (v.n, v.skipped)


@pytest.fixture(scope='module')
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope='module')
def collection(tmp_path_factory):
    d = tmp_path_factory.mktemp('dask')
    qp, rp = synthetic_collection(d, n_queries=90, depth=80, seed=21, shuffle=True)   # queries scattered through the file
    lines = rp.read_text().splitlines(keepends=True)
    (d / 'scattered').mkdir()
    for i in range(4):                                          # 4 files, each query's lines spread over all of them
        text = ''.join(lines[i::4]).encode()
        (d / 'scattered' / f'part{i}.txt.gz' if i % 2 else d / 'scattered' / f'part{i}.txt').write_bytes(gzip.compress(text) if i % 2 else text)
    (d / 'grouped').mkdir()
    by_q = {}
    for l in lines: by_q.setdefault(l.split()[0], []).append(l)
    qs = sorted(by_q)
    for i in range(3): (d / 'grouped' / f'part{i}.txt').write_text(''.join(l for q in qs[i::3] for l in by_q[q]))
    return d, qp, rp


@pytest.mark.parametrize('queries', ['run', 'qrels'])
def test_files_scattered_and_grouped(client, collection, queries):
    d, qp, rp = collection
    whole = in_memory(qp, rp, queries=queries)
    shuffled = dask_evaluation(qp, str(d / 'scattered' / 'part*'), MEASURES, queries=queries, scheduler=client, partitions=3)
    same(shuffled, whole)
    assert shuffled.parts == 3
    grouped = dask_evaluation(qp, str(d / 'grouped' / 'part*.txt'), MEASURES, queries=queries, scheduler=client)
    same(grouped, whole)
    assert grouped.parts == 3


def test_dataframes_run_and_qrels(client, collection):
    d, qp, rp = collection
    names = ['qid', 'Q0', 'docno', 'rank', 'score', 'tag']
    run = pd.read_csv(rp, sep=' ', header=None, names=names, dtype={'qid': str, 'docno': str})
    qrels = pd.read_csv(qp, sep=' ', header=None, names=['qid', 'iter', 'docno', 'rel'], dtype={'qid': str, 'docno': str})
    e = dask_evaluation(dd.from_pandas(qrels, npartitions=2), dd.from_pandas(run, npartitions=5), MEASURES, ties='input',
                        scheduler=client)
    same(e, in_memory(qp, rp, ties='input'))
    frame = e.to_frame()
    assert list(frame.columns) == MEASURES and frame.index.name == 'qid'


def test_local_scheduler_without_cluster(collection):
    d, qp, rp = collection
    same(dask_evaluation(qp, str(d / 'scattered' / 'part*'), MEASURES, scheduler='threads', depth=30),
         in_memory(qp, rp, depth=30))


def test_many_runs_on_the_cluster(client, tmp_path):
    qp, _ = synthetic_collection(tmp_path, n_queries=25, depth=40, seed=22)
    for s in (23, 24, 25):
        _, r = synthetic_collection(tmp_path / f's{s}', n_queries=25, depth=40, seed=s)
        r.rename(tmp_path / f'run{s}.txt')
    res = evaluate_runs(qp, str(tmp_path / 'run2*.txt'), ['AP', 'nDCG@10'], scheduler=client, block_bytes=3_000)
    assert list(res) == ['run23.txt', 'run24.txt', 'run25.txt']
    for name, e in res.items(): same(e, in_memory(qp, tmp_path / name, ['AP', 'nDCG@10']))


def test_cli_scheduler_address(client, collection):
    d, qp, rp = collection
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(['eval', str(qp), str(d / 'scattered' / 'part*'), '--parts', '--scheduler', client.scheduler.address,
                       '--per-query', '--format', 'json', '-m', 'AP', 'nDCG@10'])
    assert status == 0, err.getvalue()
    whole = in_memory(qp, rp, ['AP', 'nDCG@10'])
    assert json.loads(out.getvalue())['per_query'] == whole.per_query()


def test_cli_workers_starts_and_closes_a_local_cluster(collection):
    d, qp, rp = collection
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(['eval', str(qp), str(d / 'grouped' / 'part*.txt'), '--parts', '--workers', '2', '--format', 'json', '-m', 'AP', 'RR'])
    assert status == 0, err.getvalue()
    want = in_memory(qp, rp, ['AP', 'RR']).means()
    assert json.loads(out.getvalue())['means'] == pytest.approx({k: float(v) for k, v in want.items()}, abs=1e-12)


def test_cli_unreachable_scheduler_is_one_line(collection):
    d, qp, rp = collection
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(['eval', str(qp), str(rp), '--scheduler', 'tcp://127.0.0.1:9', '-m', 'AP'])
    assert status == 2 and err.getvalue().startswith('rankmetrics: error: cannot reach the Dask scheduler')
