"""Meeting users where they are: every spelling of the cheat sheet resolves (generated from the registry), inputs from
other tools (rows of tuples and namedtuples, generators, ir_measures' measure objects, ir_datasets' qrels) give the
values of the same data as dicts, `rankmetrics eval` with several runs equals each run alone, `evaluate_runs` takes
what `compare` takes, and diversity_table's column names are names `evaluate` reads, with the same values in the
same order."""
import io, json, sys, warnings
from collections import namedtuple
from contextlib import redirect_stdout, redirect_stderr
from pathlib import Path
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import DIVERSITY
from rankmetrics_nb import evaluate, EvalInputError, parse_measure
from rankmetrics_nb.registry.measures import REGISTRY, SPELLINGS
from rankmetrics_nb.registry.names import entry_readings, spelling_key, tool_spellings
from rankmetrics_nb.cli import main
from rankmetrics_nb.data import example_paths

# ------------------------------------------------------------------ names: generated from the registry
READINGS = [(d.name, r) for d in REGISTRY.values() for r in entry_readings(d)]

def _parsed(spelling, cut):
    "The measure a spelling parses to, with a cutoff where the spelling needs or the entry requires one."
    d = REGISTRY[parse_measure_name(spelling)]
    at = '@0.5' if d.cutoff in ('recall', 'x') else '@10' if cut or d.cutoff == 'required' else ''
    return parse_measure(spelling + at)

def parse_measure_name(spelling):
    from rankmetrics_nb.registry.measures import _resolve
    return _resolve(spelling, spelling)[0]

@pytest.mark.parametrize('entry,reading', READINGS, ids=[f'{r.tool}:{r.spelling}' for _, r in READINGS])
def test_every_spelling_resolves(entry, reading):
    "Each tool's spelling of each entry (the cheat sheet's cells, trec_eval's forms) reads as that entry, its fixed parameters set."
    m = _parsed(reading.spelling, reading.cut)
    assert m.name == entry
    assert all(dict(m.params)[k] == v for k, v in reading.fixed)

@pytest.mark.parametrize('entry,reading', READINGS, ids=[f'{r.tool}:{r.spelling}' for _, r in READINGS])
def test_variants_resolve_or_name_their_readings(entry, reading):
    "Upper case, lower case and separator variants read as the same entry, or are refused naming it among the readings."
    s = reading.spelling
    for v in {s.upper(), s.lower(), s.replace('_', '-'), s.replace('-', '_')} - {s}:
        if v in SPELLINGS.exact: continue                           # another tool's exact spelling: read as written
        try: m = _parsed(v, reading.cut)
        except EvalInputError as e:
            assert 'ambiguous' in str(e) and entry in str(e), (v, str(e))
            continue
        assert m.name == entry, (v, m)

def test_cheat_sheet_cells_are_the_readings():
    "The cheat sheet prints each entry's names text; every spelling in it is a reading of the index."
    for d in REGISTRY.values():
        for tool, text in d.names.items():
            for s, _ in tool_spellings(text): assert any(r.measure == d.name for r in SPELLINGS.exact[s]), (tool, s)

def test_counts_per_tool():
    from rankmetrics_nb.registry.names import spelling_counts
    c = spelling_counts(SPELLINGS)
    assert c['ranx'] >= 12 and c['ndeval'] == 9 and c['trec_eval'] >= 50 and c['ir_measures'] >= 45 and c['torchmetrics'] >= 10

@pytest.mark.parametrize('text,canonical', [
    ('err@20', 'ERR@20'), ('mrr', 'RR'), ('ap', 'AP'), ('infap', 'infAP'), ('rr@10', 'RR@10'), ('alpha_ndcg@20', 'alpha_nDCG@20'),
    ('mrr@10', 'RR@10'), ('precision@10', 'P@10'), ('hit_rate@10', 'Success@10'), ('r-precision', 'Rprec'),
    ('recall@100', 'R@100'), ('ndcg_cut@10', 'nDCG@10'), ('NDCG_CUT_10', 'nDCG@10'), ('bpref', 'Bpref'),
    ('RetrievalNormalizedDCG@10', 'nDCG@10'), ('ndcg_score', 'nDCG'), ('alpha-DCG@20', 'alpha_DCG(normalise=ideal-ideal)@20')])
def test_the_names_users_typed(text, canonical):
    assert str(parse_measure(text)) == canonical

@pytest.mark.parametrize('text,message', [
    ('ndcg_cut', "name one, as trec_eval prints it (ndcg_cut_10) or after @ (ndcg_cut@10)"),
    ('Rbp', "'Rbp' is ambiguous: it could be RBP"), ('alpha_dcg@5', "ambiguous"), ('Rprec@10', "Rprec takes no cutoff")])
def test_errors_true_to_what_was_written(text, message):
    with pytest.raises(EvalInputError, match=message.replace('(', r'\(').replace(')', r'\)')): parse_measure(text)

def test_recall_at_k_is_not_told_to_add_a_cutoff():
    q, r = example_paths()['qrels'], example_paths()['bm25']
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert evaluate(q, r, ['recall@100'])['recall@100'] == evaluate(q, r, ['R@100'])['R@100']

def test_ranx_names_under_the_ranx_preset():
    p = example_paths()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = evaluate(p['qrels'], p['bm25'], ['mrr@10', 'precision@10', 'hit_rate@10', 'r-precision', 'bpref'], conventions='ranx')
    assert set(got) == {'mrr@10', 'precision@10', 'hit_rate@10', 'r-precision', 'bpref'}

# ------------------------------------------------------------------ inputs from other tools
Qrel = namedtuple('Qrel', 'query_id doc_id relevance iteration')      # ir_datasets' TrecQrel's fields
ScoredDoc = namedtuple('ScoredDoc', 'query_id doc_id score')          # ir_measures' ScoredDoc

def _collection(seed):
    rng = np.random.default_rng(seed)
    qrels = {f'q{i}': {f'd{j}': int(rng.integers(0, 3)) for j in rng.choice(30, 12, replace=False)} for i in range(8)}
    run = {f'q{i}': {f'd{j}': float(rng.integers(0, 8)) / 2 for j in rng.choice(30, 15, replace=False)} for i in range(1, 9)}
    return qrels, run

MEASURES = ['nDCG@10', 'AP', 'RR', 'P@5', 'R@10', 'Bpref', 'ERR@10', 'NumRet']

@pytest.mark.parametrize('seed', range(4))
def test_rows_equal_dicts(seed):
    qrels, run = _collection(seed)
    want = evaluate(qrels, run, MEASURES, per_query=True)
    rows_q = [Qrel(q, d, g, '0') for q, m in qrels.items() for d, g in m.items()]
    rows_r = [ScoredDoc(q, d, s) for q, m in run.items() for d, s in m.items()]
    assert evaluate(iter(rows_q), (x for x in rows_r), MEASURES, per_query=True) == want           # generators, read once
    assert evaluate([tuple(x[:3]) for x in rows_q], [tuple(x) for x in rows_r], MEASURES, per_query=True) == want   # plain tuples

def test_rows_are_checked_by_the_one_rule():
    with pytest.raises(EvalInputError, match='control character'):
        evaluate([('q1', 'd\t1', 1)], [('q1', 'd1', 1.0)], ['AP'])
    with pytest.raises(EvalInputError, match='is not an integer'):
        evaluate([('q1', 'd1', 1.5)], [('q1', 'd1', 1.0)], ['AP'])
    with pytest.raises(EvalInputError, match='a plain tuple is read as'):
        evaluate([('q1', '0', 'd1', 1)], [('q1', 'd1', 1.0)], ['AP'])

def test_ir_measures_objects_equal_names():
    ir_measures = pytest.importorskip('ir_measures')
    qrels, run = _collection(5)
    objs = [ir_measures.nDCG@10, ir_measures.AP(rel=2), ir_measures.P(rel=2)@5, ir_measures.RR@10, ir_measures.Bpref,
            ir_measures.nDCG(dcg='exp-log2')@10, ir_measures.Judged@10]
    got = evaluate(qrels, run, objs, per_query=True)
    assert got == evaluate(qrels, run, [str(o) for o in objs], per_query=True)
    assert evaluate(qrels, run, ir_measures.nDCG@10) == evaluate(qrels, run, 'nDCG@10')

def test_ir_datasets_qrels_offline(tmp_path):
    "A dataset registered from a local file (no download), read by its id and as an object: the values of the same qrels file."
    ir_datasets = pytest.importorskip('ir_datasets')
    from ir_datasets.formats import TrecQrels
    from ir_datasets.util import LocalDownload
    p = example_paths()
    name = 'rankmetrics-test/example'
    if name not in ir_datasets.registry:
        ir_datasets.registry.register(name, ir_datasets.datasets.base.Dataset(TrecQrels(LocalDownload(Path(p['qrels'])), {})))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        want = evaluate(p['qrels'], p['bm25'], MEASURES, per_query=True)
        assert evaluate('irds:' + name, p['bm25'], MEASURES, per_query=True) == want
        assert evaluate(ir_datasets.load(name), p['bm25'], MEASURES, per_query=True) == want
        assert evaluate(ir_datasets.load(name).qrels_iter(), p['bm25'], MEASURES, per_query=True) == want
    with pytest.raises(EvalInputError, match="ir_datasets has no dataset 'no/such'"):
        evaluate('irds:no/such', p['bm25'], ['AP'])

# ------------------------------------------------------------------ many runs
def _cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err): status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()

def _runs(tmp_path):
    p = example_paths()
    d = tmp_path / 'runs'
    d.mkdir()
    for k in ('bm25', 'rerank'): (d / f'{k}.run').write_bytes(Path(p[k]).read_bytes())
    return p['qrels'], d

@pytest.mark.parametrize('fmt', ['json', 'csv', 'table', 'trec'])
def test_eval_several_runs_equals_each_alone(tmp_path, fmt):
    qrels, d = _runs(tmp_path)
    ms = ['-m', 'AP', 'nDCG@10', 'P(rel=2)@5']
    status, out, err = _cli('eval', qrels, d / 'bm25.run', d / 'rerank.run', '--format', fmt, '--per-query', *ms)
    assert status == 0
    alone = {k: _cli('eval', qrels, d / f'{k}.run', '--format', fmt, '--per-query', *ms)[1] for k in ('bm25', 'rerank')}
    if fmt == 'json': assert json.loads(out) == {f'{k}.run': json.loads(v) for k, v in alone.items()}
    elif fmt == 'trec': assert out == '\n'.join(f"{'runid':<22}\tall\t{k}.run\n{v.rstrip()}" for k, v in alone.items()) + '\n'
    else:
        sep = ',' if fmt == 'csv' else None
        rows = [l.split(sep) for l in out.splitlines() if not set(l) <= set('- ')]
        for k, v in alone.items():
            mine = [r[1:] for r in rows[1:] if r[0] == f'{k}.run']
            assert mine == [l.split(sep) for l in v.splitlines() if not set(l) <= set('- ')][1:]
    assert 'bm25.run: 1 query in the run but not the qrels' in err

def test_a_glob_of_several_runs_is_several_runs(tmp_path):
    qrels, d = _runs(tmp_path)
    status, out, _ = _cli('eval', qrels, str(d / '*.run'), '--format', 'json', '-m', 'AP')
    assert status == 0 and set(json.loads(out)) == {'bm25.run', 'rerank.run'}
    status, _, err = _cli('eval', qrels, str(d / '*.nothing'), '-m', 'AP')
    assert status == 2 and 'no run file matches' in err

def test_several_runs_on_one_dask_cluster(tmp_path):
    "--workers with several runs: one local cluster, each run a task; the values of each run alone, in memory."
    pytest.importorskip('distributed')
    qrels, d = _runs(tmp_path)
    ms = ['-m', 'AP', 'nDCG@10']
    status, out, err = _cli('eval', qrels, d / 'bm25.run', d / 'rerank.run', '--workers', '2', '--format', 'json', '--per-query', *ms)
    assert status == 0, err
    alone = {f'{k}.run': json.loads(_cli('eval', qrels, d / f'{k}.run', '--format', 'json', '--per-query', *ms)[1]) for k in ('bm25', 'rerank')}
    assert _close(_values(json.loads(out)), _values(alone))

def _values(d):
    "A JSON result without its provenance (where the inputs came from differs between the ways of reading them; the values do not)."
    return {k: _values(v) for k, v in d.items() if k != 'provenance'} if isinstance(d, dict) else d

def _close(got, want):
    "Nested dicts of floats equal to 1e-12, keys and order of the keys included."
    if isinstance(want, dict): return list(got) == list(want) and all(_close(got[k], v) for k, v in want.items())
    return abs(got - want) <= 1e-12 if isinstance(want, float) else got == want

def test_parts_of_one_run(tmp_path):
    "--parts: the files are one run, split by query; the same values as the whole file."
    qrels, d = _runs(tmp_path)
    lines = (d / 'bm25.run').read_text().splitlines(keepends=True)
    qids = sorted({l.split()[0] for l in lines})
    (tmp_path / 'p1').write_text(''.join(l for l in lines if l.split()[0] in qids[:10]))
    (tmp_path / 'p2').write_text(''.join(l for l in lines if l.split()[0] not in qids[:10]))
    whole = _cli('eval', qrels, d / 'bm25.run', '--format', 'json', '--per-query', '-m', 'AP', 'nDCG@10')[1]
    parts = _cli('eval', qrels, tmp_path / 'p1', tmp_path / 'p2', '--parts', '--format', 'json', '--per-query', '-m', 'AP', 'nDCG@10')[1]
    assert _values(json.loads(parts)) == _values(json.loads(whole))
    status, _, err = _cli('eval', qrels, tmp_path / 'p1', tmp_path / 'p2', '--format', 'json', '-m', 'AP')
    assert status == 0                                           # without --parts: two runs, each evaluated alone

def test_evaluate_runs_takes_what_compare_takes(tmp_path):
    from rankmetrics_nb.evaluator.scale import evaluate_runs
    qrels, d = _runs(tmp_path)
    runs = {'bm25': str(d / 'bm25.run'), 'rerank': str(d / 'rerank.run')}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = evaluate_runs(qrels, runs, ['AP', 'nDCG@10'])
        assert list(got) == ['bm25', 'rerank']
        for k, p in runs.items(): assert got[k].per_query() == evaluate(qrels, p, ['AP', 'nDCG@10'], per_query=True)
        qd, rd = _collection(1)
        mixed = evaluate_runs(qd, [rd, rd], ['AP'])                 # runs in memory, named as compare names them
        assert list(mixed) == ['run1', 'run2'] and mixed['run1'].per_query() == evaluate(qd, rd, ['AP'], per_query=True)

# ------------------------------------------------------------------ one default for the diversity measures
def _div_inputs():
    qrels = DIVERSITY / 'qrels' / 'wt2012.qrels-for-ndeval.txt'
    runs = sorted((DIVERSITY / 'runs').glob('wt2012.baseline.*.txt')) if (DIVERSITY / 'runs').is_dir() else []
    if not qrels.is_file() or not runs: pytest.skip(f"TREC Web 2012 diversity data not found under {DIVERSITY} (set RANKMETRICS_SHARED)")
    return qrels, runs

def test_diversity_table_columns_are_evaluate_names():
    from rankmetrics_nb.interop.ndeval import diversity_table
    qrels, runs = _div_inputs()
    for run in runs:
        t = diversity_table(qrels, run)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            e = evaluate(qrels, run, t.measures, per_query=True, ties=t.settings['ties'])    # the table's order: its rank column
        for j, m in enumerate(t.measures):
            mine = np.array([e[q][m] for q in t.topics if q in e])
            theirs = np.array([t.values[i, j] for i, q in enumerate(t.topics) if q in e])
            np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-12, err_msg=m)
        assert "ties='rank'" in t.report()
