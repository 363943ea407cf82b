"""Hardening, second round: one regression test per finding (each fails on the code before its fix), then a bounded,
seeded adversarial probe over files (pipes, FIFOs, devices, mutated bytes, huge fields), dicts, DataFrames and CLI
arguments. Every input either gives the values every other path gives, or one clear `EvalInputError` (one line and
status 2 from the command), never another exception, a hang or a crash."""
import contextlib, copy, gzip, io, json, os, pickle, signal, subprocess, sys, tempfile, threading, warnings
from pathlib import Path
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.engine.kit import Mean
from rankmetrics_nb.engine.ids import ID_LIMIT
from rankmetrics_nb.engine import reader
from rankmetrics_nb.engine.reader import parse_text, parse_file, read_text
from rankmetrics_nb.engine.inputs import read_run, read_qrels
from rankmetrics_nb import evaluate                          # the evaluate users import: in memory, streamed or on Dask
from rankmetrics_nb.evaluator.memory import evaluation, Evaluation
from rankmetrics_nb.evaluator.stream import stream_evaluation, sort_run
from rankmetrics_nb.evaluator.scale import dask_evaluation
from rankmetrics_nb.evaluator.memory import MergedEvaluation
from rankmetrics_nb.results.compare import compare_values, Comparison
from rankmetrics_nb.interop.trec_eval import trec_eval
from rankmetrics_nb.cli import main

warnings.simplefilter('ignore')
CLI = [sys.executable, '-m', 'rankmetrics_nb']
MS = ['AP', 'P@5', 'nDCG@10', 'RR', 'NumRet']

@pytest.fixture(scope='module')
def files(tmp_path_factory):
    "A run of 300 queries (about 40 KB per 30 queries: far more than a pipe's 4 KiB buffer) and its qrels."
    d = tmp_path_factory.mktemp('probe')
    rng = np.random.default_rng(25)
    run = ''.join(f'q{q:03d} Q0 D{d} {r + 1} {s:.2f} tag25\n' for q in range(300)
                  for r, (d, s) in enumerate(zip(rng.choice(200, 40, replace=False), np.sort(rng.random(40))[::-1])))
    qrels = ''.join(f'q{q:03d} 0 D{d} {g}\n' for q in range(300) for d, g in zip(rng.choice(200, 30, replace=False), rng.integers(0, 3, 30)))
    (d / 'run.txt').write_text(run); (d / 'qrels.txt').write_text(qrels)
    return d / 'qrels.txt', d / 'run.txt'

def through_fifo(data:bytes, read):
    "`read(path)` of a FIFO that another thread writes `data` into (a shell's `<(...)`)."
    fifo = Path(tempfile.mkdtemp()) / 'fifo'
    os.mkfifo(fifo)
    def write():
        try: fifo.write_bytes(data)
        except OSError: pass                                   # the reader stopped: a refusal
    t = threading.Thread(target=write); t.start()
    try: return read(fifo)
    finally:
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)); t.join()

def cli(*args, stdin=None, env=None, timeout=120):
    "The command in a fresh process: (status, stdout, stderr)."
    p = subprocess.run(CLI + [str(a) for a in args], input=stdin, capture_output=True, timeout=timeout,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')

def run_main(*args):
    "`main()` in this process: (status, stdout, stderr)."
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()

def one_line_error(status, err):
    assert status == 2 and len(err.strip().splitlines()) == 1 and err.startswith(('rankmetrics: error:', 'trec_eval:')), err
    assert 'Traceback' not in err

# ================================================================ findings: data lost without a word (pipes, FIFOs)
def test_a_fifo_loses_nothing(files):
    qrels, run = files
    want = evaluate(qrels, run, MS, per_query=True)
    assert through_fifo(run.read_bytes(), lambda p: evaluate(qrels, p, MS, per_query=True)) == want
    assert through_fifo(run.read_bytes(), lambda p: stream_evaluation(qrels, p, MS, block_bytes=5000).per_query()) == want
    assert through_fifo(gzip.compress(run.read_bytes()), lambda p: evaluate(qrels, p, MS, per_query=True)) == want
    assert through_fifo(qrels.read_bytes(), lambda p: evaluate(p, run, MS, per_query=True)) == want
    t = trec_eval(qrels, run, ['official'], per_query=True)
    for kw in (dict(), dict(block_bytes=5000)):                              # the run id comes from the same read
        got = through_fifo(run.read_bytes(), lambda p: trec_eval(qrels, p, ['official'], per_query=True, **kw))
        assert (got.text(), got.runid) == (t.text(), 'tag25')

@pytest.mark.parametrize('extra', [[], ['--block-mb', '0.01']])
def test_dev_stdin_loses_nothing(files, extra):
    qrels, run = files
    want = run_main('eval', qrels, run, '--format', 'json', '--per-query', *extra)[1]
    status, out, err = cli('eval', qrels, '/dev/stdin', '--format', 'json', '--per-query', *extra, stdin=run.read_bytes())
    got, want = json.loads(out), json.loads(want)                  # (the provenance differs: a pipe has no digest)
    assert status == 0 and got['per_query'] == want['per_query'] and len(got['per_query']) == 300, err

def test_trec_eval_through_stdin(files):
    qrels, run = files
    want = cli('trec_eval', '-q', qrels, run)[1]
    assert cli('trec_eval', '-q', qrels, '/dev/stdin', stdin=run.read_bytes())[1] == want

# ================================================================ findings: silently wrong values
def test_iprec_presets_refused_not_trec_eval_10():
    q, r = {'q': {'a': 1, 'b': 1, 'c': 0}}, {'q': {'a': 3.0, 'x': 2.0, 'y': 1.5, 'b': 1.0}}
    for preset in ('pytrec_eval', 'trec_eval9', 'ir_measures'):
        for m in ('IPrec@0.6', '11pt_avg') if preset != 'ir_measures' else ('IPrec@0.6',):
            with pytest.raises(EvalInputError, match='truncating x·R \\+ 0.9'): evaluate(q, r, [m], conventions=preset)
    assert float(evaluate(q, r, ['IPrec@0.6'], conventions='trec_eval')['IPrec@0.6']) == \
        trec_eval(q, r, ['iprec_at_recall.0.6'], version=10).summary['iprec_at_recall_0.60']

@pytest.mark.parametrize('test', ['t', 'wilcoxon', 'sign', 'randomisation', 'bootstrap', 'tukey'])
def test_nan_per_query_values_never_significant(test):
    x = np.random.default_rng(1).random((1, 30, 2)); x[:, 3:9, 1] = np.nan
    c = compare_values(np.concatenate([x, x]), ['a', 'b'], ['m1', 'm2'], test=test, n_resamples=500)
    assert not c.significant.any() and c.excluded == {'m2': 6}
    assert np.isnan(c.pvalue).all() or (c.pvalue[~np.isnan(c.pvalue)] > 0.05).all()

def test_judged_and_counts_under_ir_measures():
    for m in ('Judged@10', 'Compat', 'NumQ', 'NumRel'):
        with pytest.raises(EvalInputError, match="conventions='ir_measures' cannot reproduce"):
            evaluate({'q': {'a': 1}, 'p': {'b': 1}}, {'q': {'a': 1.0, 'c': 1.0}}, [m], conventions='ir_measures')

def test_ranx_preset_sorts_by_score():
    "Beyond the list: ranx sorts by score; the preset read an unsorted run as given (ties='input')."
    q, r = {'q': {'a': 1}}, {'q': {'b': 0.1, 'a': 0.9}}
    assert float(evaluate(q, r, ['P@1'], conventions='ranx')['P@1']) == 1.0

def test_grades_beyond_2_53_in_files(tmp_path):
    (tmp_path / 'q').write_text(f'q 0 a {2**53 + 1}\n')
    with pytest.raises(EvalInputError, match=r"line 1: grade '9007199254740993' is out of range \(integers up to 2\*\*53\)"):
        evaluate(tmp_path / 'q', {'q': {'a': 1.0}}, ['P(rel=9007199254740993)@1'])
    with pytest.raises(EvalInputError, match='out of range'): evaluate({'q': {'a': 2**53 + 1}}, {'q': {'a': 1.0}}, ['P@1'])

@pytest.mark.parametrize('bad', [None, float('nan'), 1.5, True])
def test_a_dict_query_id_is_never_stringified(bad):
    with pytest.raises(EvalInputError, match='a query id'): evaluate({bad: {'a': 1}, 'None': {'a': 1}}, {'None': {'a': 1.0}}, ['P@1'])
    with pytest.raises(EvalInputError): evaluate({'None': {'a': 1}}, {bad: {'a': 1.0}, 'None': {'a': 1.0}}, ['P@1'])

def test_del_in_an_id_whatever_the_other_lines():
    plain = b'q Q0 d\x7f1 1 1.5 t\nq Q0 d2 2 1.0 t\n'
    odd = plain + b'q Q0 d3 3 1.00000000000000000000000000000000000000001 t\n'   # a long number: the line reader
    assert parse_text(plain, 'a', 'run')['docno'][0] == parse_text(odd, 'b', 'run')['docno'][0] == b'd\x7f1'
    assert read_run({'q': {'d\x7f1': 1.0}}).docno[0] == b'd\x7f1'

# ================================================================ findings: raw exceptions from the API
def test_mean_pickles_and_copies():
    m = Mean(0.25, 3, 1)
    for twin in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)): assert (twin, twin.n, twin.skipped) == (0.25, 3, 1)

def test_results_round_trip(files):
    qrels, run = files
    e = evaluation(qrels, run, MS + ['11pt_avg(judged_only=True)'], empty='skip')
    for back in (Evaluation.from_json(e.to_json()), pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert back.means() == e.means() and back.report() == e.report()
    s = stream_evaluation(qrels, run, MS, block_bytes=20000)
    assert MergedEvaluation.from_json(s.to_json()).to_json() == s.to_json() and pickle.loads(pickle.dumps(s)).means() == s.means()
    x = np.random.default_rng(2).random((3, 25, 2)); x[1, 0, 0] = np.nan
    c = compare_values(x, ['a', 'b|c', 'd'], ['m1', 'm2'], baseline='a', test='bootstrap', n_resamples=300)
    text = c.to_json()
    json.loads(text, parse_constant=lambda t: pytest.fail(f'{t} is not JSON'))
    assert Comparison.from_json(text).to_json() == text and copy.deepcopy(c).report() == c.report()
    assert '| b\\|c |' in c.to_markdown()

def test_a_pair_repeated_across_dask_files(tmp_path):
    (tmp_path / 'q').write_text('1 0 a 1\n2 0 c 1\n')
    (tmp_path / 'r1').write_text('1 Q0 a 1 2 t\n2 Q0 c 1 1 t\n')
    (tmp_path / 'r2').write_text('# a comment\n2 Q0 x 1 1 t\n1 Q0 a 2 0.5 t\n')
    with pytest.raises(EvalInputError, match=r"r2, line 3: document 'a' appears twice for query '1' \(first at .*r1, line 1\)"):
        dask_evaluation(tmp_path / 'q', [tmp_path / 'r1', tmp_path / 'r2'], ['AP'], scheduler='sync')

@pytest.mark.parametrize('options', [dict(n_resamples=0, test='randomisation'), dict(seed=-1, test='bootstrap'),
                                     dict(alpha=2), dict(risk_alpha=float('nan'), baseline='a')])
def test_compare_options(options):
    with pytest.raises(EvalInputError): compare_values(np.random.default_rng(0).random((2, 25, 1)), ['a', 'b'], ['m'], **options)

def test_bca_on_identical_runs():
    x = np.random.default_rng(0).random((1, 25, 1))
    c = compare_values(np.concatenate([x, x]), ['a', 'b'], ['m'], ci='bca', n_resamples=300)
    assert (c.ci_low, c.ci_high) == (0.0, 0.0) and not c.significant.any()

@pytest.mark.parametrize('bad', [float('nan'), float('inf'), 'x', 10**30, 0, -5, 2.5])
def test_block_bytes(files, bad):
    with pytest.raises(EvalInputError, match='block_bytes must be'): stream_evaluation(files[0], files[1], ['AP'], block_bytes=bad)
    with pytest.raises(EvalInputError, match='block_bytes must be'): evaluate(files[0], files[1], ['AP'], block_bytes=bad)

def test_sort_run_errors(files, tmp_path):
    for src, kw, why in [(tmp_path / 'none', {}, 'run file not found'), (tmp_path, {}, 'is a directory'),
                         (files[1], dict(block_bytes=0), 'block_bytes must be'), (files[1], dict(block_bytes=-1), 'block_bytes must be')]:
        with pytest.raises(EvalInputError, match=why): sort_run(src, tmp_path / 'out.txt', **kw)

def test_huge_cutoffs():
    with pytest.raises(EvalInputError, match='at most 2\\*\\*53'): evaluate({'q': {'a': 1}}, {'q': {'a': 1.0}}, ['P@99999999999999999999999'])

def test_trec_eval_arguments(files):
    qrels, run = files
    assert run_main('trec_eval', '-M', '99999999999999999999', qrels, run)[1] == run_main('trec_eval', qrels, run)[1]   # no cut
    assert run_main('trec_eval', '-l', '99999999999999999999', qrels, run)[0] == 0
    status, out, err = run_main('trec_eval', '-m', 'P.99999999999999999999', qrels, run)
    one_line_error(status, err)

def test_a_dask_dataframe_run(files):
    dd = pytest.importorskip('dask.dataframe')
    import pandas as pd
    df = pd.read_csv(files[1], sep=' ', header=None, names=['qid', 'Q0', 'docno', 'rank', 'score', 'tag'], dtype=str)
    df['score'] = df['score'].astype(float)
    ddf = dd.from_pandas(df, npartitions=3)
    import dask
    with dask.config.set(scheduler='sync'): got = evaluate(files[0], ddf, MS, per_query=True)
    assert got == evaluate(files[0], files[1], MS, per_query=True)          # (means: merged sums, equal to the last bits)
    with pytest.raises(EvalInputError, match='Dask DataFrame: evaluate it with dask_evaluation'): evaluation(files[0], ddf, MS)

# ================================================================ findings: the command line
def test_broken_pipe_ends_quietly(files):
    p = subprocess.run(' '.join(CLI + ['eval', str(files[0]), str(files[1]), '--per-query'])
                       + ' | head -1; echo "status=${PIPESTATUS[0]}"', shell=True, executable='/bin/bash', capture_output=True, timeout=120)
    assert b'Traceback' not in p.stderr and p.stderr.strip() == b'' or b'note' in p.stderr, p.stderr
    assert p.stdout.splitlines()[-1] in (b'status=141', b'status=0')

def test_names_that_are_not_utf8(files, tmp_path):
    odd = os.fsencode(tmp_path) + b'/r\xffn.txt'
    with open(odd, 'wb') as f: f.write(files[1].read_bytes())
    env = dict(PYTHONIOENCODING='utf-8:strict')
    for cmd, opts in ((['summary', files[0]], []), (['compare', files[0], files[1]], ['--format', 'markdown', '-m', 'AP'])):
        p = subprocess.run(CLI + [str(a) for a in cmd] + [odd] + opts,
                           capture_output=True, timeout=120, env=dict(os.environ, **env))
        assert p.returncode == 0 and b'xffn.txt' in p.stdout, p.stderr     # escaped: r\xffn.txt (Markdown: r\\xffn.txt)

@pytest.mark.parametrize('args', [['sort-run', 'NOFILE', 'out.txt'], ['sort-run', '.', 'out.txt'], ['sort-run', 'RUN', 'out.txt', '--block-mb', '0'],
                                  ['sort-run', 'RUN', '/no/such/dir/out.txt'], ['eval', 'QRELS', 'RUN', '--block-mb', 'nan'],
                                  ['eval', 'QRELS', 'RUN', '--workers', '-1'], ['eval', 'QRELS', 'RUN', '--workers', '0'],
                                  ['compare', 'QRELS', 'RUN', 'RUN2', '--test', 'randomisation', '--seed', '-1'],
                                  ['compare', 'QRELS', 'RUN', 'RUN2', '--test', 'bootstrap', '--resamples', '0'],
                                  ['eval', 'QRELS', 'RUN', '--depth', '0'], ['summary', 'QRELS', 'RUN', '--rel', 'x'],
                                  ['compare', 'QRELS', 'RUN', 'RUN2', '--alpha', 'inf'], ['eval', 'QRELS', 'RUN', '--block-mb', '1e30']])
def test_every_bad_argument_is_one_line(files, tmp_path, args):
    (tmp_path / 'run2.txt').write_bytes(files[1].read_bytes())                 # a second run (two names: a comparison)
    args = [str(files[0]) if a == 'QRELS' else str(files[1]) if a == 'RUN' else str(tmp_path / 'run2.txt') if a == 'RUN2' else
            str(tmp_path / a) if a in ('NOFILE', 'out.txt') else a for a in args]
    one_line_error(*run_main(*args)[::2])

def test_workers_minus_one_does_not_hang(files):
    status, out, err = cli('eval', files[0], files[1], '--workers', '-1', timeout=60)
    one_line_error(status, err)

def test_json_output_is_json():
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / 'q').write_text('q1 0 a 1\nq2 0 b 0\n'); (Path(d) / 'r').write_text('q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\n')
        status, out, err = run_main('eval', Path(d) / 'q', Path(d) / 'r', '--format', 'json', '--per-query', '--empty', 'skip', '-m', 'AP')
    assert status == 0 and json.loads(out, parse_constant=lambda t: pytest.fail(t))['per_query']['q2']['AP'] is None

# ================================================================ findings: hangs and crashes
@pytest.mark.skipif(not os.path.exists('/dev/zero'), reason='no /dev/zero')
@pytest.mark.parametrize('extra', [[], ['--block-mb', '1']])
def test_dev_zero_is_refused_at_once(files, extra):
    status, out, err = cli('eval', files[0], '/dev/zero', *extra, timeout=60)
    one_line_error(status, err); assert 'a NUL byte' in err

def test_a_text_larger_than_the_limit(files, monkeypatch):
    "A pipe's text beyond the limit is refused, not read until memory runs out; a plain file is read part by part, never whole."
    limit = (files[0].stat().st_size + files[1].stat().st_size) // 2           # the qrels fit, the run does not
    assert files[0].stat().st_size < limit < files[1].stat().st_size
    monkeypatch.setattr(reader, 'READ_LIMIT', limit)
    with pytest.raises(EvalInputError, match=f'more than {limit:,} bytes'): through_fifo(files[1].read_bytes(), read_text)
    with pytest.raises(EvalInputError, match=f'more than {limit:,} bytes'):
        through_fifo(files[1].read_bytes(), lambda p: evaluate(files[0], p, ['AP']))
    assert evaluate(files[0], files[1], ['AP'])                                  # a plain file: parts, never whole
    assert stream_evaluation(files[0], files[1], ['AP'], block_bytes=5000).means()     # streaming holds a block, not the file

def test_a_file_cut_short_while_read_is_no_crash(files, tmp_path):
    "The file is cut to nothing while it is read: a clear error (a mapped file: SIGBUS, the process killed without a word)."
    p = tmp_path / 'run.txt'; p.write_bytes(files[1].read_bytes() * 20)                   # 8 MB: several parts
    code = ("import sys, os\nfrom rankmetrics_nb.engine import reader\nchunk = reader._parse_chunk\n"
            "def cut(*a):\n    os.truncate(sys.argv[1], 0)\n    return chunk(*a)\n"
            "reader._parse_chunk = cut\nreader.PARSE_WORKERS = 1\n"
            "try: print(len(reader.parse_file(sys.argv[1], 'run')['qid']))\n"
            "except ValueError as e: print(e)\n")
    r = subprocess.run([sys.executable, '-c', code, str(p)], capture_output=True, timeout=120)
    assert r.returncode == 0 and b'changed while it was read' in r.stdout, (r.returncode, r.stdout[-300:], r.stderr[-300:])

def test_a_file_changed_while_read(files, tmp_path, monkeypatch):
    p = tmp_path / 'run.txt'; p.write_bytes(files[1].read_bytes())
    real = os.preadv
    def cut(fd, buffers, offset):
        os.truncate(p, 100)
        return real(fd, buffers, offset)
    monkeypatch.setattr(os, 'preadv', cut)
    with pytest.raises(EvalInputError, match='changed while it was read'): read_text(p)

def test_one_long_id_costs_its_own_length(tmp_path):
    long = b'D' * 100_000
    text = b''.join(b'q%d Q0 d%d %d 1.0 t\n' % (q, d, d) for q in range(30) for d in range(100)) + b'q0 Q0 ' + long + b' 101 2.0 t\n'
    (tmp_path / 'r').write_bytes(text)
    for cols in (parse_file(tmp_path / 'r', 'run'), parse_text(text + b'# a comment \x01 for the line reader\n'[:0], 'r', 'run')):
        assert cols['docno'].dtype.itemsize <= ID_LIMIT + 16                           # was 100,000 bytes a row
    r = read_run(tmp_path / 'r')
    assert r.docno.nbytes < 3100 * (ID_LIMIT + 16) and evaluate({'q0': {long.decode(): 1}}, tmp_path / 'r', ['RR'])['RR'] == 1.0
    assert read_run({'q0': {long.decode(): 1.0, 'd1': 0.5}}).docno.dtype.itemsize <= ID_LIMIT + 16

# ================================================================ the probe: seeded adversarial inputs
def _valid_run(rng, n=60)->bytes:
    ids = [b'q1', b'q2', b'Q\xc3\xa9', b'd' * 300 + b'a', b'd' * 300 + b'b', b'd' * 290, b'x\x7fy']
    return b''.join(b'%s Q0 %s %d %s t\n' % (ids[rng.integers(3)], ids[rng.integers(7)] + b'%d' % i, i, b'%.1f' % rng.normal())
                    for i in range(n))

@pytest.mark.parametrize('seed', range(40))
def test_mutated_bytes_every_path_agrees(seed, tmp_path):
    "A valid run with a few bytes changed: the file, the FIFO and the streamed reader give one answer (or one error)."
    rng = np.random.default_rng(seed)
    text = bytearray(_valid_run(rng))
    for _ in range(int(rng.integers(0, 4))):
        text[int(rng.integers(len(text)))] = int(rng.choice([0, 9, 10, 13, 32, 35, 127, 0xff, ord('x'), ord('.'), ord('-')]))
    text = bytes(text)
    (tmp_path / 'r').write_bytes(text)
    qrels = {'q1': {'d' * 300 + 'a1': 1, 'q12': 2, 'x\x7fy5': 1}, 'Qé': {'x\x7fy3': 1, 'd' * 290 + '4': 2}}
    def result(f):
        try: return ('ok', json.dumps(f(), sort_keys=True, default=float))
        except EvalInputError as e: return ('error', str(e).split(': ', 1)[-1] if ', line' not in str(e) else str(e)[str(e).index(', line'):])
    paths = [lambda: evaluate(qrels, tmp_path / 'r', MS, per_query=True),
             lambda: through_fifo(text, lambda p: evaluate(qrels, p, MS, per_query=True))]
    got = [result(f) for f in paths]
    assert got[0] == got[1], got
    if got[0][0] == 'ok':                                                # and the dict of the same run, where it has no repeat
        try: s = stream_evaluation(qrels, tmp_path / 'r', MS, block_bytes=int(rng.integers(50, 400))).per_query()
        except EvalInputError as e: assert 'comes back after other queries' in str(e)
        else: assert json.dumps(s, sort_keys=True, default=float) == got[0][1]

@pytest.mark.parametrize('seed', range(15))
def test_files_dicts_and_dataframes_agree(seed, tmp_path):
    "One run as a file, a dict and a DataFrame (long ids, UTF-8, DEL among them): the same values, ties included."
    pd = pytest.importorskip('pandas')
    rng = np.random.default_rng(100 + seed)
    docs = ['d' * 300 + c for c in 'abcdef'] + ['é1', 'x\x7fy', 'd2', 'd' * 256]
    run = {f'q{q}': {d: float(np.round(rng.normal(), 1)) for d in rng.choice(docs, 6, replace=False)} for q in range(4)}
    qrels = {f'q{q}': {d: int(rng.integers(0, 3)) for d in rng.choice(docs, 5, replace=False)} for q in range(4)}
    (tmp_path / 'r').write_text(''.join(f'{q} Q0 {d} 1 {s} t\n' for q, ds in run.items() for d, s in ds.items()), encoding='utf-8')
    df = pd.DataFrame([(q, d, s) for q, ds in run.items() for d, s in ds.items()], columns=['qid', 'docno', 'score'])
    for ties in ('trec', 'double', 'stable'):
        want = evaluate(qrels, run, MS, per_query=True, ties=ties)
        assert evaluate(qrels, tmp_path / 'r', MS, per_query=True, ties=ties) == want
        assert evaluate(qrels, df, MS, per_query=True, ties=ties) == want
    pytrec_eval = pytest.importorskip('pytrec_eval')
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {'map', 'recip_rank', 'P_5', 'ndcg_cut_10'}).evaluate(run)
    ours = evaluate(qrels, run, ['AP', 'RR', 'P@5', 'nDCG@10'], per_query=True)
    for q, v in theirs.items():                                                 # long tied ids: tie-broken as trec_eval does
        assert np.allclose([ours[q][m] for m in ('AP', 'RR', 'P@5', 'nDCG@10')], [v['map'], v['recip_rank'], v['P_5'], v['ndcg_cut_10']], atol=1e-12)

@pytest.mark.parametrize('seed', range(10))
def test_cli_argument_fuzz(seed, files):
    "Random bad values for every numeric option: status 2 and one line, never a traceback."
    rng = np.random.default_rng(seed)
    bad = ['-1', '0', 'nan', 'inf', '-inf', 'x', '', '1e400', '99999999999999999999999', '1.5']
    options = [('eval', '--block-mb'), ('eval', '--workers'), ('eval', '--depth'), ('summary', '--depth'), ('summary', '--rel'),
               ('compare', '--alpha'), ('compare', '--resamples'), ('compare', '--seed'), ('compare', '--depth'),
               ('compare', '--risk-alpha'), ('sort-run', '--block-mb')]
    for cmd, opt in [options[i] for i in rng.choice(len(options), 4, replace=False)]:
        value = str(rng.choice(bad))
        files_ = {'eval': [files[0], files[1]], 'summary': [files[0], files[1]], 'compare': [files[0], files[1], files[1]],
                  'sort-run': [files[1], Path(tempfile.mkdtemp()) / 'o']}[cmd]
        status, out, err = run_main(cmd, *files_, opt, value, *(['-m', 'AP', '--resamples', '50'] if cmd == 'compare' and opt != '--resamples' else []))
        if status != 0: one_line_error(status, err)
        else: assert 'Traceback' not in err                     # (a value that happens to be valid: e.g. --depth 99..., --block-mb 1.5)
