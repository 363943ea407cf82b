"""The many-short-lists benchmark data: the TREC files, the dicts and the numpy columns hold the same collection."""
import importlib.util, sys
from pathlib import Path
from types import SimpleNamespace
import numpy as np
import pytest

BENCH = Path(__file__).resolve().parent.parent / 'benchmarks'

def _module(name):
    spec = importlib.util.spec_from_file_location(f'bench_{name}', BENCH / f'{name}.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

@pytest.fixture(scope='module')
def bench(tmp_path_factory):
    "The benchmark's modules and its smallest short-lists dataset (2,000 queries x 100 documents) written to a temporary folder."
    make_data, short_lists = _module('make_data'), _module('short_lists')
    folder = tmp_path_factory.mktemp('short-lists')
    make_data.ensure('short-2k', data_dir=folder, log=lambda *a: None)
    paths = make_data.paths('short-2k', folder)
    ctx = SimpleNamespace(dataset='short-2k', seed=make_data.DEFAULT_SEED)
    return SimpleNamespace(make_data=make_data, short_lists=short_lists, paths=paths, ctx=ctx)

def _read(path, value, col):
    "A TREC file as {qid: {docno: value}}, parsed line by line (plain Python: correctly rounded floats)."
    out = {}
    for line in open(path):
        f = line.split()
        out.setdefault(f[0], {})[f[2]] = value(f[col])
    return out

def test_files_hold_the_dicts(bench):
    qrels, run = bench.short_lists._dicts(bench.ctx)
    assert _read(bench.paths['qrels'], int, 3) == qrels
    assert _read(bench.paths['run'], float, 4) == run        # 9-decimal text reads back as the very same floats

def test_the_shape_is_ranx_s(bench):
    qrels, run = bench.short_lists._dicts(bench.ctx)
    assert list(run)[:3] == ['q0', 'q1', 'q2'] and len(run) == 2000 and {len(d) for d in run.values()} == {100}
    assert list(run['q7']) == [f'd{j}' for j in range(100)]           # the dicts' order, not sorted by score
    sizes = [len(d) for d in qrels.values()]
    assert set(sizes) == set(range(1, 10))                           # 1-9 relevant documents per query ...
    assert all(list(d) == [f'd{j}' for j in range(len(d))] for d in qrels.values())   # ... the first ones, d0 .. d{k-1}
    assert {g for d in qrels.values() for g in d.values()} == {1, 2, 3, 4, 5}
    scores = np.array([s for d in run.values() for s in d.values()])
    assert scores.min() >= 0 and scores.max() < 1 and abs(scores.mean() - 0.5) < 0.01

def test_run_file_is_ranked(bench):
    lines = [l.split() for l in open(bench.paths['run'])][:300]
    for q in range(3):
        block = lines[100 * q: 100 * (q + 1)]
        assert {f[0] for f in block} == {f'q{q}'} and [int(f[3]) for f in block] == list(range(1, 101))
        scores = [float(f[4]) for f in block]
        assert scores == sorted(scores, reverse=True)

def test_columns_hold_the_dicts(bench):
    qrels, run = bench.short_lists._dicts(bench.ctx)
    cq, cr = bench.short_lists._columns(bench.ctx)
    flat = lambda d: [(q.encode(), k.encode(), v) for q, m in d.items() for k, v in m.items()]
    assert list(zip(cr.qid.tolist(), cr.docno.tolist(), cr.score.tolist())) == flat(run)
    assert list(zip(cq.qid.tolist(), cq.docno.tolist(), cq.rel.tolist())) == flat(qrels)

def test_seeded(bench):
    a, b = bench.make_data.short_lists('short-2k'), bench.make_data.short_lists('short-2k')
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c = bench.make_data.short_lists('short-2k', seed=1)
    assert not np.array_equal(a[2], c[2])

def test_frames_hold_the_dicts(bench):
    qrels, run = bench.short_lists._dicts(bench.ctx)
    fq, fr = bench.short_lists._frames(bench.ctx)
    assert str(fr['doc_id'].dtype) == 'string' and fr['doc_id'].dtype.storage == 'pyarrow'
    rows = lambda d: [(q, k, v) for q, m in d.items() for k, v in m.items()]
    assert list(zip(fq['query_id'], fq['doc_id'], fq['relevance'])) == rows(qrels)
    assert list(zip(fr['query_id'], fr['doc_id'], fr['score'])) == rows(run)
