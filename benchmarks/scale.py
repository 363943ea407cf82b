#!/usr/bin/env python
"""Benchmark the paths for runs larger than memory: in memory, streamed, and Dask on local workers.

Data (benchmarks/data/, git-ignored): the seeded MS MARCO-scale collection of ``make_data.py`` (7M run lines,
~7,000 queries x 1,000 documents), and a 10x run built from it (``msmarco-x10``: 70M lines, the 7M run written ten
times with its query ids renamed ``c<k>_<qid>``, the qrels likewise), so the 10x run is deterministic too.

Jobs, each in a fresh process (peak memory = its ``ru_maxrss``):

* ``memory``  -- ``evaluation()`` on the 7M run (the whole run in memory);
* ``stream``  -- ``stream_evaluation()`` on the 7M and the 70M run (``--block-mb`` blocks);
* ``partition`` -- the Dask job's 16 partitions read and evaluated one after the other in one process (the
                 per-partition throughput of a worker without the cluster's overheads);
* ``dask``    -- ``dask_evaluation()`` on a ``distributed.LocalCluster`` (2 worker processes, 1 thread each) on the
                 7M run cut into 16 files of whole queries (no shuffle), and into 16 files of scattered lines (shuffle).

Writes benchmarks/results/scale.json and prints a table (time, peak memory, lines/s).

Usage::

    .venv/bin/python benchmarks/scale.py                  # everything (70M lines: several minutes)
    .venv/bin/python benchmarks/scale.py --big-copies 5   # a 35M-line run instead of 70M
"""
from __future__ import annotations
import argparse, json, os, subprocess, sys, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_data  # noqa: E402

MEASURES = ['RR@10', 'nDCG@10', 'AP', 'R@1000']


def _count_lines(p: Path) -> int:
    n = 0
    with open(p, 'rb') as f:
        while b := f.read(1 << 24): n += b.count(b'\n')
    return n


def big_run(src: dict, copies: int) -> dict:
    "The run and qrels of `src` written `copies` times with renamed query ids (each line's qid gets a prefix)."
    d = make_data.DATA_DIR / f'msmarco-x{copies}'
    d.mkdir(parents=True, exist_ok=True)
    out = {'qrels': d / 'qrels.txt', 'run': d / 'run.txt'}
    stamp = d / 'done.json'
    if stamp.exists() and json.loads(stamp.read_text()).get('copies') == copies: return out
    for kind in ('qrels', 'run'):
        text = src[kind].read_bytes()
        with open(out[kind], 'wb') as f:
            for k in range(copies):
                p = b'c%d_' % k
                f.write(p + text[:-1].replace(b'\n', b'\n' + p) + b'\n')
        del text
    stamp.write_text(json.dumps({'copies': copies}))
    return out


def split(run: Path, folder: Path, n: int, grouped: bool) -> str:
    "The run cut into `n` files: by whole queries (`grouped`) or line i to file i mod n; their glob."
    folder.mkdir(parents=True, exist_ok=True)
    for f in folder.glob('part*.txt'): f.unlink()
    text = run.read_bytes()
    lines = text.split(b'\n')[:-1]
    if grouped:
        qid = [l.split(b' ', 1)[0] for l in lines]
        starts = [i for i in range(len(qid)) if i == 0 or qid[i] != qid[i - 1]] + [len(qid)]
        per = -(-(len(starts) - 1) // n)
        for j in range(n):
            a, b = starts[min(j * per, len(starts) - 1)], starts[min((j + 1) * per, len(starts) - 1)]
            (folder / f'part{j:02d}.txt').write_bytes(b'\n'.join(lines[a:b]) + b'\n')
    else:
        for j in range(n): (folder / f'part{j:02d}.txt').write_bytes(b'\n'.join(lines[j::n]) + b'\n')
    return str(folder / 'part*.txt')


CHILD = r'''
import json, resource, sys, time, warnings
warnings.simplefilter('ignore')
def peak_mb():   # VmHWM: reset by exec (ru_maxrss is inherited from the parent process)
    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) / 1024
job, qrels, run, block, workers = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
measures = json.loads(sys.argv[6])
from rankmetrics_nb.evaluator.memory import evaluation
from rankmetrics_nb.evaluator.stream import stream_evaluation
from rankmetrics_nb.evaluator.scale import dask_evaluation
extra = {}
t = time.perf_counter()
if job == 'memory': means = evaluation(qrels, run, measures).means()
elif job == 'partition':                     # the partitions of the Dask job, one after the other in this process
    import glob
    from rankmetrics_nb.evaluator.stream import QrelsIndex, evaluate_part, merge_parts
    from rankmetrics_nb.evaluator.scale import _file_part
    index = QrelsIndex(qrels)
    t = time.perf_counter()
    parts = [evaluate_part(index, _file_part(f, False), measures) for f in sorted(glob.glob(run))]
    means = merge_parts(parts, index, measures).means()
    extra['parts'] = len(parts)
elif job == 'stream': means = stream_evaluation(qrels, run, measures, block_bytes=block << 20).means()
else:
    from distributed import Client, get_task_stream
    from rankmetrics_nb.evaluator.scale import local_cluster
    with local_cluster(workers) as cluster, Client(cluster) as client:
        client.run(lambda: __import__('rankmetrics_nb.evaluator.scale'))   # the workers import the package before the clock starts
        t = time.perf_counter()
        with get_task_stream(client) as ts: e = dask_evaluation(qrels, run, measures, scheduler=client)
        busy = {}
        for task in ts.data:                 # seconds the workers computed, by kind of task (read, count, split, evaluate)
            kind = task['key'].split('-')[0] if isinstance(task['key'], str) else str(task['key'][0]).split('-')[0]
            busy[kind] = busy.get(kind, 0) + sum(s['stop'] - s['start'] for s in task['startstops'] if s['action'] == 'compute')
        extra['task_seconds'] = busy
        means = e.means()
        extra['parts'] = e.parts
        extra['worker_peak_mb'] = sorted(client.run(peak_mb).values())
        extra['seconds_in_cluster'] = time.perf_counter() - t
seconds = extra.pop('seconds_in_cluster', time.perf_counter() - t)
print(json.dumps(dict(seconds=seconds, peak_mb=peak_mb(),
                      means={k: float(v) for k, v in means.items()}, **extra)))
'''


def child(job: str, qrels, run, lines: int, block_mb: int = 64, workers: int = 2) -> dict:
    py = str(HERE.parent / '.venv' / 'bin' / 'python')
    py = py if os.path.exists(py) else sys.executable
    r = subprocess.run([py, '-c', CHILD, job, str(qrels), str(run), str(block_mb), str(workers), json.dumps(MEASURES)],
                       capture_output=True, text=True)
    if r.returncode: raise SystemExit(f'{job} failed:\n{r.stderr[-3000:]}')
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out.update(job=job, lines=lines, lines_per_s=lines / out['seconds'], block_mb=block_mb if job == 'stream' else None)
    print(f"{job:8s} {lines:>11,d} lines  {out['seconds']:8.1f} s  {out['peak_mb']:8.0f} MB peak  "
          f"{out['lines_per_s'] / 1e6:6.2f} M lines/s" + (f"  workers' peak MB {out.get('worker_peak_mb')}" if job == 'dask' else ''),
          flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--big-copies', type=int, default=10, help='the big run is the 7M run this many times (default 10: 70M lines)')
    ap.add_argument('--block-mb', type=int, default=64, help='streaming block size in MB (default 64)')
    ap.add_argument('--skip', default='', help='comma-separated jobs to skip: memory, stream, dask, partition, shuffle, big')
    a = ap.parse_args(argv)
    skip = set(filter(None, a.skip.split(',')))
    make_data.ensure('msmarco')
    small = make_data.paths('msmarco')
    n_small = _count_lines(small['run'])
    rows = []
    if 'memory' not in skip: rows.append(child('memory', small['qrels'], small['run'], n_small))
    if 'stream' not in skip: rows.append(child('stream', small['qrels'], small['run'], n_small, a.block_mb))
    if 'dask' not in skip:
        g = split(small['run'], make_data.DATA_DIR / 'msmarco-parts', 16, grouped=True)
        rows.append(dict(child('dask', small['qrels'], g, n_small), input='16 files, whole queries'))
    if 'partition' not in skip:
        g = split(small['run'], make_data.DATA_DIR / 'msmarco-parts', 16, grouped=True)
        rows.append(dict(child('partition', small['qrels'], g, n_small), input='16 files, whole queries, one process'))
    if 'shuffle' not in skip:
        g = split(small['run'], make_data.DATA_DIR / 'msmarco-scattered', 16, grouped=False)
        rows.append(dict(child('dask', small['qrels'], g, n_small), input='16 files, scattered lines (shuffle)'))
    if 'big' not in skip:
        big = big_run(small, a.big_copies)
        first = big['run'].with_name('run-first-tenth.txt')        # the big run's first 7M lines: the same ids, the same qrels
        if not first.exists():
            with open(big['run'], 'rb') as f, open(first, 'wb') as out:
                for _, line in zip(range(n_small), f): out.write(line)
        rows.append(dict(child('memory', big['qrels'], first, n_small), input='first 7M lines of the big run'))
        rows.append(dict(child('stream', big['qrels'], first, n_small, a.block_mb), input='first 7M lines of the big run'))
        rows.append(dict(child('stream', big['qrels'], big['run'], n_small * a.big_copies, a.block_mb), input='the big run'))
    res = HERE / 'results'
    res.mkdir(exist_ok=True)
    old = json.loads((res / 'scale.json').read_text())['rows'] if (res / 'scale.json').exists() else []
    key = lambda r: (r['job'], r.get('input'), r['lines'])      # a job run again replaces its row; the others stay
    rows = [r for r in old if key(r) not in {key(n) for n in rows}] + rows
    (res / 'scale.json').write_text(json.dumps(dict(measures=MEASURES, cpus=os.cpu_count(), rows=rows), indent=1) + '\n')
    print(f'wrote {res / "scale.json"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
