"""The results store never loses or rewrites data: a run is its path (or the name it is given), never a file name two
runs share; a command that reads writes nothing and migrates nothing; a damaged store, another application's file
or a store of another schema is one clear error; results under different conventions are not ranked together
unsaid; streamed and Dask evaluations are stored as in-memory ones are; each message names its own command's options."""
import os, shutil, sqlite3, warnings
from pathlib import Path
import numpy as np
import pytest
from rankmetrics_nb.cli import main
from rankmetrics_nb.data import example_paths
from rankmetrics_nb.engine.checks import EvalInputError, QueryMismatchWarning
from rankmetrics_nb.evaluator.evaluate import evaluate
from rankmetrics_nb.evaluator.memory import evaluation
from rankmetrics_nb.evaluator.stream import stream_evaluation
from rankmetrics_nb.results.store import Store, StaleResultError

P = example_paths()
V1_SCHEMA = '''
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE collections (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, digest TEXT NOT NULL,
    source TEXT, size INTEGER, mtime INTEGER, added TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE runs (id INTEGER PRIMARY KEY,
    collection INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE, name TEXT NOT NULL,
    digest TEXT NOT NULL, source TEXT, size INTEGER, mtime INTEGER,
    added TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, UNIQUE (collection, name));
CREATE TABLE evaluations (id INTEGER PRIMARY KEY,
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    ties TEXT NOT NULL, rel REAL NOT NULL, depth INTEGER NOT NULL, queries TEXT NOT NULL, empty TEXT NOT NULL,
    conventions TEXT NOT NULL, n_ret INTEGER NOT NULL, in_run INTEGER NOT NULL,
    missing_from_run TEXT NOT NULL, missing_from_qrels TEXT NOT NULL,
    UNIQUE (run, ties, rel, depth, queries, empty, conventions));
CREATE TABLE results (id INTEGER PRIMARY KEY,
    evaluation INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE, measure TEXT NOT NULL,
    version TEXT NOT NULL, added TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, UNIQUE (evaluation, measure));
CREATE TABLE qvalues (result INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
    pos INTEGER NOT NULL, qid TEXT NOT NULL, value, nan BLOB, PRIMARY KEY (result, pos)) WITHOUT ROWID;
'''

@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        yield

def _cli(capsys, *args)->tuple:
    "(status, stdout, stderr) of `rankmetrics ARGS`."
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err

def _error_line(err:str)->str:
    "The one error line of a failed command (notes before it aside), checked to be one line and no traceback."
    assert 'Traceback' not in err, err
    errors = [l for l in err.splitlines() if l.startswith('rankmetrics: error:')]
    assert len(errors) == 1, err
    return errors[0]

def _two_runs_one_file_name(tmp_path)->tuple:
    (tmp_path / 'a').mkdir(); (tmp_path / 'b').mkdir()
    a, b = tmp_path / 'a' / 'run', tmp_path / 'b' / 'run'
    shutil.copy(P['bm25'], a); shutil.copy(P['rerank'], b)
    return a, b

def _ap(run)->float: return float(evaluation(P['qrels'], run, ['AP']).means()['AP'])

# --- a run is its path, or the name it is given

@pytest.mark.parametrize('replace', [False, True])
def test_two_runs_that_share_a_file_name_are_two_runs(tmp_path, capsys, replace):
    a, b = _two_runs_one_file_name(tmp_path)
    db = tmp_path / 'results.db'
    status, out, err = _cli(capsys, 'eval', P['qrels'], a, b, '-m', 'AP', '--store', db, *(['--replace'] if replace else []))
    assert status == 0, err
    status, csv, err = _cli(capsys, 'leaderboard', db, '--format', 'csv')
    assert status == 0, err
    rows = [l.split(',') for l in csv.splitlines()[1:]]
    assert sorted((r[1], float(r[2])) for r in rows) == sorted([(str(a), _ap(a)), (str(b), _ap(b))])   # shown by their paths
    with Store(db) as st:
        assert st.evaluation(str(a), measures='AP').values.tobytes() == evaluation(P['qrels'], a, ['AP']).values.tobytes()
        with pytest.raises(EvalInputError, match=r"run 'run' names 2 stored runs"):
            st.evaluation('run')

def test_a_relative_and_an_absolute_path_are_one_run(tmp_path, monkeypatch):
    shutil.copy(P['bm25'], tmp_path / 'run')
    monkeypatch.chdir(tmp_path)
    with Store('results.db') as st:
        st.evaluate(P['qrels'], 'run', ['AP'], collection='example')
        st.evaluate(P['qrels'], './run', ['nDCG@10'], collection='example')
        st.evaluate(P['qrels'], tmp_path / 'run', ['AP'], collection='example')
        lb = st.leaderboard()
        assert lb.rows == [('example', 'run')] and lb.measures == ['AP', 'nDCG@10']
        assert st.evaluation('run').keys == ['AP', 'nDCG@10']            # its file name finds it while no other run shares it

def test_a_name_given_is_the_identity(tmp_path):
    a, b = _two_runs_one_file_name(tmp_path)
    with Store(tmp_path / 'results.db') as st:
        st.add(evaluation(P['qrels'], a, ['AP']), P['qrels'], a, 'example', name='bm25')
        shutil.copy(a, tmp_path / 'copy'); st.add(evaluation(P['qrels'], tmp_path / 'copy', ['AP']), P['qrels'], tmp_path / 'copy', 'example', name='bm25')
        with pytest.raises(StaleResultError, match="run 'bm25'"):      # another file's content under that name: refused
            st.add(evaluation(P['qrels'], b, ['AP']), P['qrels'], b, 'example', name='bm25')
        st.add(evaluation(P['qrels'], a, ['AP']), P['qrels'], a, 'example')     # the file itself, unnamed: another run
        assert sorted(r for _, r in st.leaderboard().rows) == sorted(['bm25', 'run'])

def test_two_qrels_that_share_a_file_name_are_two_collections(tmp_path, capsys):
    (tmp_path / 'x').mkdir(); (tmp_path / 'y').mkdir()
    qx, qy = tmp_path / 'x' / 'qrels', tmp_path / 'y' / 'qrels'
    shutil.copy(P['qrels'], qx); qy.write_text(Path(P['qrels']).read_text().replace(' 1\n', ' 0\n', 5))
    db = tmp_path / 'results.db'
    assert _cli(capsys, 'eval', qx, P['bm25'], '-m', 'AP', '--store', db)[0] == 0
    status, _, err = _cli(capsys, 'eval', qy, P['bm25'], '-m', 'AP', '--store', db, '--replace')
    assert status == 0, err
    with Store(db, readonly=True) as st:
        assert sorted(c for c, _ in st.leaderboard().rows) == sorted([str(qx), str(qy)])   # the first is kept

def test_name_with_several_runs_is_refused_before_anything_is_stored(tmp_path, capsys):
    a, b = _two_runs_one_file_name(tmp_path)
    status, _, err = _cli(capsys, 'eval', P['qrels'], a, b, '-m', 'AP', '--store', tmp_path / 'r.db', '--name', 'x')
    assert status == 2 and 'path' in _error_line(err)
    assert not (tmp_path / 'r.db').exists()

# --- reading writes nothing, and never to a file that is not a store

def _app_db(path)->bytes:
    db = sqlite3.connect(path); db.execute('CREATE TABLE users (name TEXT)'); db.execute("INSERT INTO users VALUES ('ann')")
    db.commit(); db.close()
    return Path(path).read_bytes()

def test_leaderboard_on_another_applications_file_changes_nothing(tmp_path, capsys):
    app = tmp_path / 'app.db'
    before = _app_db(app)
    status, out, err = _cli(capsys, 'leaderboard', app)
    assert status == 2 and out == ''
    assert 'not a results store' in _error_line(err)
    assert app.read_bytes() == before and sorted(os.listdir(tmp_path)) == ['app.db']      # no tables, no WAL, no -shm
    with pytest.raises(EvalInputError, match='not a results store'): Store(app)           # nor does a writer touch it
    status, _, err = _cli(capsys, 'eval', P['qrels'], P['bm25'], '-m', 'AP', '--store', app)
    assert status == 2 and 'not a results store' in _error_line(err)
    assert app.read_bytes() == before and sorted(os.listdir(tmp_path)) == ['app.db']

def test_an_empty_file_is_a_new_store_for_a_writer_not_for_a_reader(tmp_path):
    (tmp_path / 'empty.db').touch()
    with pytest.raises(EvalInputError, match='not a results store'): Store(tmp_path / 'empty.db', readonly=True)
    assert (tmp_path / 'empty.db').read_bytes() == b''
    with Store(tmp_path / 'empty.db') as st: assert st.leaderboard().rows == []

def test_reading_a_store_writes_nothing(tmp_path, capsys):
    db = tmp_path / 'results.db'
    with Store(db) as st: st.evaluate(P['qrels'], P['bm25'], ['AP'], collection='example')
    before = db.read_bytes()
    assert _cli(capsys, 'leaderboard', db)[0] == 0
    assert db.read_bytes() == before
    with Store(db, readonly=True) as st:
        assert st.leaderboard().rows == [('example', 'example-bm25.run')]
        with pytest.raises(EvalInputError, match='read-only'): st.evaluate(P['qrels'], P['rerank'], ['AP'], collection='example')
        with pytest.raises(EvalInputError, match='read-only'): st.forget('example-bm25.run')
    assert _cli(capsys, 'leaderboard', db)[0] == 0
    assert db.read_bytes() == before

def _v1_store(path, source:Path, name:str, other:str=None)->bytes:
    "A store as version 1 wrote it: the run `name` read from `source`, and a run named `other` (given, not a file's name)."
    db = sqlite3.connect(path); db.executescript(V1_SCHEMA)
    db.execute("INSERT INTO meta VALUES ('schema', '1')")
    db.execute("INSERT INTO collections (id, name, digest, source) VALUES (1, 'example', 'sha256:q', NULL)")
    runs = [(1, name, str(source))] + ([(2, other, str(source))] if other else [])
    for rid, n, src in runs:
        db.execute('INSERT INTO runs (id, collection, name, digest, source) VALUES (?, 1, ?, ?, ?)', (rid, n, f'sha256:{rid}', src))
        db.execute("INSERT INTO evaluations VALUES (?, ?, 'trec', 1.0, 0, 'run', '', '', 10, 2, '[]', '[]')", (rid, rid))
        db.execute("INSERT INTO results VALUES (?, ?, 'AP', '0.1.0', '2026-01-01')", (rid, rid))
        db.executemany('INSERT INTO qvalues VALUES (?, ?, ?, ?, NULL)', [(rid, 0, '101', 0.25 * rid), (rid, 1, '102', 0.5)])
    db.commit(); db.close()
    return Path(path).read_bytes()

def test_a_version_1_store_is_read_without_migrating_and_upgraded_by_a_writer(tmp_path, capsys):
    src = tmp_path / 'bm25.run'; src.write_text('101 Q0 d 1 1 x\n')
    db = tmp_path / 'old.db'
    before = _v1_store(db, src, 'bm25.run', other='mine')
    status, out, err = _cli(capsys, 'leaderboard', db, '--no-verify', '--format', 'csv')
    assert status == 0, err
    assert out.splitlines()[1:] == ['example,bm25.run,0.375', 'example,mine,0.5']
    assert db.read_bytes() == before and sorted(os.listdir(tmp_path)) == ['bm25.run', 'old.db']
    with Store(db) as st:                                          # a writer upgrades it, in one transaction
        assert st.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == '2'
        got = st.db.execute('SELECT name, path FROM runs ORDER BY id').fetchall()
        assert got == [('bm25.run', str(src)), ('mine', '')]      # a run named by its file is its file; a given name stays
        assert st.evaluation(str(src)).values.tolist() == [[0.25], [0.5]]
        assert st.evaluation('mine').values.tolist() == [[0.5], [0.5]]

def test_a_store_of_an_unknown_version_is_refused(tmp_path, capsys):
    db = tmp_path / 'new.db'
    with Store(db) as st: st.db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    before = db.read_bytes()
    status, _, err = _cli(capsys, 'leaderboard', db)
    assert status == 2 and 'schema version 99' in _error_line(err)
    for readonly in (True, False):
        with pytest.raises(EvalInputError, match='schema version 99.*this version of rankmetrics_nb reads version 2'):
            Store(db, readonly=readonly)
    assert db.read_bytes() == before

# --- damage and odd paths: one line

def _damaged(tmp_path)->Path:
    db = tmp_path / 'results.db'
    with Store(db) as st:
        for r in ('bm25', 'rerank'): st.evaluate(P['qrels'], P[r], ['AP', 'nDCG@10', 'P@10', 'RR'], collection='example')
        st.db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    data = bytearray(db.read_bytes())
    page = 4096
    for at in range(2 * page, len(data), page): data[at:at + 64] = b'\xff' * 64       # every page but the first two
    db.write_bytes(bytes(data))
    return db

def test_a_damaged_store_is_one_clear_error(tmp_path, capsys):
    db = _damaged(tmp_path)
    status, _, err = _cli(capsys, 'leaderboard', db, '--no-verify')
    assert status == 2 and str(db) in _error_line(err)
    with pytest.raises(EvalInputError, match='damaged'):
        with Store(db, readonly=True) as st: st.leaderboard(verify=False)

def test_a_truncated_or_foreign_file_is_one_clear_error(tmp_path, capsys):
    db = tmp_path / 'results.db'
    with Store(db) as st: st.evaluate(P['qrels'], P['bm25'], ['AP'], collection='example')
    (tmp_path / 'cut.db').write_bytes(db.read_bytes()[:1000])
    (tmp_path / 'text.db').write_text('hello\n')
    for name in ('cut.db', 'text.db'):
        status, _, err = _cli(capsys, 'leaderboard', tmp_path / name)
        assert status == 2 and name in _error_line(err), err

def test_a_folder_as_the_store_path(tmp_path, capsys):
    (tmp_path / 'dir.db').mkdir()
    for args in (['leaderboard', tmp_path / 'dir.db'], ['eval', P['qrels'], P['bm25'], '-m', 'AP', '--store', tmp_path / 'dir.db']):
        status, _, err = _cli(capsys, *args)
        assert status == 2 and 'is a folder' in _error_line(err), err

def test_a_store_in_a_folder_that_does_not_exist(tmp_path, capsys):
    status, _, err = _cli(capsys, 'eval', P['qrels'], P['bm25'], '-m', 'AP', '--store', tmp_path / 'no' / 'r.db')
    assert status == 2 and 'no' in _error_line(err) and 'folder' in _error_line(err)

# --- conventions: never ranked together unsaid

def test_the_leaderboard_ranks_runs_only_against_runs_under_the_same_conventions(tmp_path, capsys):
    db = tmp_path / 'results.db'
    with Store(db) as st:
        st.evaluate(P['qrels'], P['bm25'], ['AP'], collection='example', queries='qrels')
        st.evaluate(P['qrels'], P['rerank'], ['AP'], collection='example', queries='run')
        with pytest.raises(EvalInputError, match='different conventions'): st.compare('example', measures=['AP'])
        t = st.leaderboard().table()
    assert t.header == ['collection', 'run', 'conventions', 'AP']
    assert [r[2].text for r in t.rows] == ['queries=qrels', 'queries=run']
    assert not any(c.bold for r in t.rows for c in r[3:])            # each alone under its conventions: nothing in bold
    assert 'conventions' in t.caption
    status, md, err = _cli(capsys, 'leaderboard', db, '--format', 'markdown')
    assert status == 0 and '**' not in md and 'queries=qrels' in md

def test_a_run_stored_under_two_conventions_is_two_rows(tmp_path, capsys):
    db = tmp_path / 'results.db'
    with Store(db) as st:
        for q in ('run', 'qrels'):
            for r in ('bm25', 'rerank'): st.evaluate(P['qrels'], P[r], ['AP'], collection='example', queries=q)
        lb = st.leaderboard()
    t = lb.table()
    assert len(lb.rows) == 4 and sum(c.bold for r in t.rows for c in r[3:]) == 2       # one best under each
    status, out, err = _cli(capsys, 'leaderboard', db)
    assert status == 0, err

# --- streamed and Dask evaluations are stored

def test_a_streamed_evaluation_is_stored(tmp_path, capsys):
    db = tmp_path / 'results.db'
    e = evaluation(P['qrels'], P['bm25'], ['AP', 'nDCG@10'])
    with Store(db) as st:
        got = evaluate(P['qrels'], P['bm25'], ['AP', 'nDCG@10'], block_bytes=4096, store=st)
        back = st.evaluation('example-bm25.run')
        assert back.values.tobytes() == e.values.tobytes() and back.qids.tolist() == e.qids.tolist()
        assert [float(v) for v in back.means().values()] == [float(v) for v in e.means().values()]
        assert np.allclose([float(v) for v in got.values()], [float(v) for v in e.means().values()], rtol=1e-12)
        st.add(stream_evaluation(P['qrels'], P['rerank'], ['AP'], block_bytes=4096), P['qrels'], P['rerank'])
    status, out, err = _cli(capsys, 'eval', P['qrels'], P['rerank'], '-m', 'AP', '--block-mb', '0.01', '--store', db)
    assert status == 0 and 'AP' in out, err
    with Store(db, readonly=True) as st:
        assert st.evaluation('example-rerank.run').values.tobytes() == evaluation(P['qrels'], P['rerank'], ['AP']).values.tobytes()

def test_a_dask_evaluation_is_stored(tmp_path):
    pytest.importorskip('dask')
    from rankmetrics_nb.evaluator.scale import dask_evaluation
    e = dask_evaluation(P['qrels'], str(P['bm25']), ['AP'], scheduler='sync')
    with Store(tmp_path / 'results.db') as st:
        st.add(e, P['qrels'], P['bm25'])
        assert st.evaluation('example-bm25.run').values.tobytes() == evaluation(P['qrels'], P['bm25'], ['AP']).values.tobytes()

def test_stored_conventions_must_be_the_evaluations_own(tmp_path):
    e = evaluation(P['qrels'], P['bm25'], ['AP'])
    with Store(tmp_path / 'results.db') as st:
        with pytest.raises(EvalInputError, match='depth'): st.add(e, P['qrels'], P['bm25'], depth=10)

# --- each message names its own command's options

def test_a_changed_run_names_the_options_of_the_command_that_says_so(tmp_path, capsys):
    run, db = tmp_path / 'bm25.run', tmp_path / 'results.db'
    shutil.copy(P['bm25'], run)
    assert _cli(capsys, 'eval', P['qrels'], run, '-m', 'AP', '--store', db)[0] == 0
    run.write_text(run.read_text() + '101 Q0 extra 51 -99 bm25\n')
    status, _, err = _cli(capsys, 'eval', P['qrels'], run, '-m', 'AP', '--store', db)
    line = _error_line(err)
    assert status == 2 and '--replace' in line and 'replace=True' not in line
    status, _, err = _cli(capsys, 'leaderboard', db)
    line = _error_line(err)
    assert status == 2 and '--no-verify' in line and 'replace=True' not in line and '(--replace)' not in line
    with Store(db) as st:
        with pytest.raises(StaleResultError) as got: st.leaderboard()
        assert 'verify=False' in str(got.value) and '--' not in str(got.value)

# --- names a table cannot print as they are

def test_hostile_run_names_stay_in_their_cell(tmp_path, capsys):
    db = tmp_path / 'results.db'
    names = ['<img src=x onerror=alert(1)>', 'two\nlines', 'a|b']
    with Store(db) as st:
        for n in names: st.add(evaluation(P['qrels'], P['bm25'], ['AP']), P['qrels'], P['bm25'], 'example', name=n)
        assert sorted(r for _, r in st.leaderboard().rows) == sorted(names)        # stored as given
    status, md, err = _cli(capsys, 'leaderboard', db, '--format', 'markdown')
    assert status == 0, err
    body = md.split('\n\n')[0].splitlines()
    assert len(body) == 2 + len(names) and all(l.startswith('| ') and l.endswith(' |') for l in body[2:])
    assert '<img' not in md and '&lt;img' in md and 'two\\nlines' in md
    status, text, _ = _cli(capsys, 'leaderboard', db)
    assert 'two\\nlines' in text and len(text.splitlines()) == 3 + len(names)

def test_an_empty_run_is_stored_and_shown_as_empty(tmp_path, capsys):
    empty, db = tmp_path / 'empty.run', tmp_path / 'results.db'
    empty.write_text('')
    status, out, err = _cli(capsys, 'eval', P['qrels'], empty, '-m', 'AP', '--store', db)
    if status != 0: assert 'empty' in _error_line(err) or 'no lines' in _error_line(err)
    else:
        status, out, err = _cli(capsys, 'leaderboard', db, '--format', 'csv')
        assert status == 0, err

@pytest.fixture
def readonly_folder(tmp_path):
    "A function that makes a folder read-only (as root: a tmpfs mounted read-only there; skipped where that cannot be done)."
    import subprocess
    mounted = []
    def make(folder:Path):
        if os.geteuid() != 0: folder.chmod(0o555); return
        keep = tmp_path / 'kept'; shutil.copytree(folder, keep)
        if subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', str(folder)], capture_output=True).returncode:
            pytest.skip('a read-only folder needs mount (root) or an unprivileged user')
        mounted.append(folder)
        for f in keep.iterdir(): shutil.copy(f, folder / f.name)
        subprocess.run(['mount', '-o', 'remount,ro', str(folder)], check=True)
    yield make
    for folder in mounted: subprocess.run(['umount', str(folder)])
    if os.geteuid() != 0: (tmp_path / 'ro').chmod(0o755)

def test_a_store_in_a_read_only_folder_is_read_and_refuses_writes_in_one_line(tmp_path, capsys, readonly_folder):
    folder = tmp_path / 'ro'; folder.mkdir()
    with Store(folder / 'results.db') as st: st.evaluate(P['qrels'], P['bm25'], ['AP'], collection='example')
    readonly_folder(folder)
    status, out, err = _cli(capsys, 'leaderboard', folder / 'results.db', '--format', 'csv')
    assert status == 0 and out.splitlines()[1] == f"example,example-bm25.run,{_ap(P['bm25'])!r}", err
    for db in ('results.db', 'new.db'):
        status, _, err = _cli(capsys, 'eval', P['qrels'], P['rerank'], '-m', 'AP', '--store', folder / db)
        assert status == 2 and 'read-only' in _error_line(err), err

def test_forget_never_drops_two_runs_that_share_a_file_name(tmp_path):
    a, b = _two_runs_one_file_name(tmp_path)
    with Store(tmp_path / 'results.db') as st:
        for r in (a, b): st.evaluate(P['qrels'], r, ['AP'], collection='example')
        with pytest.raises(EvalInputError, match=r"run 'run' names 2 stored runs"): st.forget('run')
        assert st.forget(str(a)) == 1 and st.leaderboard().rows == [('example', 'run')]
        st.evaluate(P['qrels'], b, ['AP'], collection='other'); st.forget(str(b), 'example')
        assert st.forget(collection='example') == 0 and st.db.execute('SELECT name FROM collections').fetchall() == [('other',)]
