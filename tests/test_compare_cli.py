"""`rankmetrics compare`: every format carries `compare`'s numbers; the query policy is reported; bad input is one line, exit 2."""
import contextlib, csv, io, json, subprocess, sys
import numpy as np
import pytest
from rankmetrics_nb import compare, example_paths
from rankmetrics_nb.cli import main

P = example_paths()

def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()

def test_formats_carry_the_same_numbers():
    c = compare(P['qrels'], {P['bm25'].name: P['bm25'], P['rerank'].name: P['rerank']}, ['nDCG@10', 'AP'], test='wilcoxon')
    status, out, _ = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'nDCG@10', '-m', 'AP', '--test', 'wilcoxon', '--format', 'json')
    assert status == 0
    data = json.loads(out)
    assert [r['p'] for r in data['pairs']] == c.pvalue.ravel().tolist()
    assert data['n_queries'] == len(c.qids) and data['dropped'] == c.dropped
    status, out, _ = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'nDCG@10', 'AP', '--test', 'wilcoxon', '--format', 'csv')
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [float(r['p']) for r in rows] == c.pvalue.ravel().tolist()
    for fmt, mark in (('table', 'ᵃ'), ('markdown', '<sup>a</sup>'), ('latex', '\\textsuperscript{a}')):
        status, out, _ = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'AP', '--format', fmt)
        assert status == 0 and mark in out, fmt

def test_query_policy_is_explicit():
    _, out, _ = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'AP')
    assert '(common to all runs)' in out and 'dropped' in out
    common = compare(P['qrels'], [P['bm25'], P['rerank']], 'AP')
    full = compare(P['qrels'], [P['bm25'], P['rerank']], 'AP', queries='qrels')
    assert len(full.qids) > len(common.qids) and set(common.qids) <= set(full.qids)
    assert sum(common.dropped.values()) > 0 and sum(full.dropped.values()) == 0

@pytest.mark.parametrize('args,message', [
    (['--baseline', 'nope'], "baseline 'nope' is not one of the runs"),
    (['-m', 'nDGC@10'], "unknown measure 'nDGC@10'"),
    (['--alpha', '2'], 'argument --alpha: must be a finite number in (0, 1)'),
    (['--seed', '-1'], 'argument --seed: must be at least 0'),
    (['--resamples', '0'], 'argument --resamples: must be a positive whole number'),
])
def test_errors_are_one_line_exit_2(args, message):
    status, out, err = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], *args)
    assert status == 2 and out == '' and len(err.splitlines()) == 1 and message in err, err

def test_one_run_is_an_error():
    status, _, err = run_cli('compare', P['qrels'], P['bm25'])
    assert status == 2 and 'at least two runs' in err

def test_risk_columns_with_a_baseline():
    status, out, _ = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'AP', '--baseline', P['bm25'], '--risk-alpha', '1', '--format', 'json')
    data = json.loads(out)
    c = compare(P['qrels'], {P['bm25'].name: P['bm25'], P['rerank'].name: P['rerank']}, 'AP', baseline=P['bm25'].name, risk_alpha=1)
    assert data['pairs'][0]['urisk'] == float(c.urisk[0, 0]) and data['risk_alpha'] == 1.0
