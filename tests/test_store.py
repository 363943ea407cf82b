"""The results store: two processes writing into one file at once, and the round trip (evaluate, store, reload,
compare) on the TREC Web 2012 runs, bit for bit; a changed run file is refused."""
import os, subprocess, sys, textwrap, time, warnings
from pathlib import Path
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.data import example_paths
from rankmetrics_nb.evaluator.memory import evaluation
from rankmetrics_nb.results.compare import compare
from rankmetrics_nb.results.store import Store, StaleResultError
from conftest import DIVERSITY

MEASURES = ['P@5', 'P@10', 'P@20', 'P@100', 'R@10', 'R@100', 'AP', 'AP@10', 'RR', 'RR@10', 'nDCG@5', 'nDCG@10', 'nDCG@20',
            'nDCG', 'ERR@10', 'ERR@20', 'Rprec', 'Success@5', 'NumRelRet', 'NumRet']     # 20 measures
RUNS_A, RUNS_B = range(0, 50), range(25, 75)     # 50 runs x 20 measures = 1,000 results each; runs 25-49 written by both

WRITER = textwrap.dedent('''
    import sys, time, warnings
    from dataclasses import replace
    from pathlib import Path
    import numpy as np
    from rankmetrics_nb.data import example_paths
    from rankmetrics_nb.evaluator.memory import evaluation
    from rankmetrics_nb.results.store import Store
    sys.path.insert(0, sys.argv[1]); from test_store import MEASURES, run_variant
    db, first, last, folder = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5])
    warnings.simplefilter('ignore')
    p = example_paths()
    todo = []
    for i in range(first, last):                             # one evaluation per run, stored one measure at a time
        run = run_variant(i); e = evaluation(p['qrels'], run, MEASURES)
        todo += [(i, run, replace(e, keys=[k], measures=[m], values=e.values[:, [j]])) for j, (k, m) in enumerate(zip(e.keys, e.measures))]
    (folder / f'ready-{first}').touch()
    deadline = time.monotonic() + 120
    while not (folder / 'go').exists():                      # start together
        if time.monotonic() > deadline: sys.exit('no go signal')
        time.sleep(0.005)
    start = time.time()
    with Store(db) as store:
        for i, run, e in todo: store.add(e, p['qrels'], run, collection='example', name=f'run{i:03d}')   # one transaction each
    print(len(todo), start, time.time())
''')

def run_variant(i:int)->dict:
    "The example's bm25 run with its scores moved by seeded noise: a different ranking for every i."
    rng = np.random.default_rng(i)
    out = {}
    for line in Path(example_paths()['bm25']).read_text().splitlines():
        q, _, d, _, s, _ = line.split()
        out.setdefault(q, {})[d] = float(s) + float(rng.normal(0, 0.5))
    return out

def test_two_processes_write_1000_results_each_into_one_store(tmp_path):
    db = tmp_path / 'results.db'
    Store(db).close()
    env = dict(os.environ, PYTHONWARNINGS='ignore')
    procs = [subprocess.Popen([sys.executable, '-c', WRITER, str(Path(__file__).parent), str(db), str(r.start), str(r.stop), str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for r in (RUNS_A, RUNS_B)]
    deadline = time.monotonic() + 300
    while not all((tmp_path / f'ready-{r.start}').exists() for r in (RUNS_A, RUNS_B)):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        time.sleep(0.01)
    (tmp_path / 'go').touch()
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    (n_a, start_a, end_a), (n_b, start_b, end_b) = [map(float, o.split()) for o, _ in outs]
    assert (n_a, n_b) == (1000, 1000)
    assert start_a < end_b and start_b < end_a                 # the two writers wrote at the same time
    with Store(db) as store:
        q = store.db.execute
        names = {f'run{i:03d}' for i in set(RUNS_A) | set(RUNS_B)}
        assert {r for (r,) in q('SELECT name FROM runs')} == names and q('SELECT count(*) FROM runs').fetchone()[0] == 75
        per_result = q('SELECT r.name, s.measure, count(*) FROM results s JOIN evaluations e ON e.id = s.evaluation '
                       'JOIN runs r ON r.id = e.run GROUP BY r.name, s.measure').fetchall()
        assert len(per_result) == 75 * 20 and {n for *_, n in per_result} == {1}          # every result present, none duplicated
        assert {(r, m) for r, m, _ in per_result} == {(r, m) for r in names for m in MEASURES}
        assert q('SELECT count(*) FROM evaluations').fetchone()[0] == 75
        n_q = len(evaluation(example_paths()['qrels'], run_variant(0), ['AP']).qids)
        assert q('SELECT count(*) FROM qvalues').fetchone()[0] == 75 * 20 * n_q
        for i in (0, 30, 74):                                  # the values are the evaluation's, bit for bit
            e = evaluation(example_paths()['qrels'], run_variant(i), MEASURES)
            assert store.evaluation(f'run{i:03d}', 'example', MEASURES).values.tobytes() == e.values.tobytes()

def _web2012():
    if not DIVERSITY.is_dir(): pytest.skip(f"TREC Web 2012 runs not found at {DIVERSITY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return DIVERSITY / 'qrels' / 'wt2012.qrels.adhoc.txt', sorted((DIVERSITY / 'runs').glob('wt2012.baseline.*.txt'))

def test_round_trip_on_web2012_is_bit_identical(tmp_path):
    qrels, runs = _web2012()
    ms = ['nDCG@20', 'ERR@20', 'AP', 'P@10', 'RR', 'gm_map']
    with Store(tmp_path / 'results.db') as store, warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        direct = {r.name: evaluation(qrels, r, ms) for r in runs}
        for r in runs: evaluation(qrels, r, ms, store=store)                       # evaluate and store
    with Store(tmp_path / 'results.db', create=False) as store:                       # reload in a new connection
        for r in runs:
            back = store.evaluation(r.name, measures=ms)
            assert back.values.tobytes() == direct[r.name].values.tobytes()
            assert back.qids.tolist() == direct[r.name].qids.tolist()
            assert [repr(v) for v in back.means().values()] == [repr(v) for v in direct[r.name].means().values()]
        lb = store.leaderboard(measures=ms)
        assert lb.means.tobytes() == np.array([[float(v) for v in direct[r].means().values()] for _, r in lb.rows]).tobytes()
        base = runs[0].name
        sc = store.compare(measures=ms, baseline=base)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', QueryMismatchWarning)
            c = compare(qrels, {r.name: r for r in runs}, ms, baseline=base)
        for f in ('values', 'diff', 'statistic', 'pvalue', 'padj', 'ci_low', 'ci_high', 'effect', 'significant'):
            assert getattr(sc, f).tobytes() == getattr(c, f).tobytes(), f
        assert sc.qids.tolist() == c.qids.tolist() and sc.runs == c.runs

def test_a_changed_run_file_is_refused_not_reused(tmp_path):
    p = example_paths()
    run = tmp_path / 'bm25.run'
    run.write_bytes(Path(p['bm25']).read_bytes())
    with Store(tmp_path / 'results.db') as store:
        first = store.evaluate(p['qrels'], run, ['AP', 'nDCG@10'], collection='example')
        run.write_text(run.read_text().replace('101 Q0', '101  Q0', 1))       # the same ranking, another file: another digest
        with pytest.raises(StaleResultError, match=r"run 'bm25.run' \(.*\) has changed since its results were stored"):
            store.evaluate(p['qrels'], run, ['AP'], collection='example')
        with pytest.raises(StaleResultError, match="has changed"):
            store.leaderboard()
        assert store.leaderboard(verify=False).means.tolist() == [[float(v) for v in first.means().values()]]
        again = store.evaluate(p['qrels'], run, ['AP'], collection='example', replace=True)
        assert again.values.tobytes() == first.values[:, :1].tobytes()
        assert store.leaderboard().measures == ['AP']                        # the old nDCG@10 went with the old file
