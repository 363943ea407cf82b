"""Messages that lead somewhere: what an error or a note says is in the user's terms and points at the user's own line."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb import example_paths
from rankmetrics_nb.cli import main
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.registry.measures import parse_measure

QRELS, RUN = str(example_paths()['qrels']), str(example_paths()['bm25'])

def cli(capsys, *args)->tuple:
    "(status, stdout, stderr) of `rankmetrics ARGS`."
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err

# -- unknown names: suggestions in the syntax the user wrote

def test_unknown_name_suggests_ours_with_the_cutoff(capsys):
    rc, _, err = cli(capsys, 'eval', QRELS, RUN, '-m', 'ndgc@10')
    assert rc == 2 and err.startswith("rankmetrics: error: unknown measure 'ndgc@10'; did you mean nDCG@10, "), err
    assert 'ndcg_rel' not in err and ', dcg' not in err

def test_unknown_name_keeps_parameters_and_reads_trec_cutoffs_as_ours():
    with pytest.raises(EvalInputError, match=r"did you mean nDCG\(gain=exp\)@5"): parse_measure('ndgc(gain=exp)@5')
    with pytest.raises(EvalInputError, match=r"did you mean nDCG@10\?"): parse_measure('ndgc_cut_10')

def test_trec_eval_command_still_suggests_trec_eval_names(capsys):
    rc, _, err = cli(capsys, 'trec_eval', '-m', 'ndgc', QRELS, RUN)
    assert rc != 0 and "did you mean 'ndcg'" in err, err

# -- several measures in one -m value

def test_comma_list_in_m_says_how_to_write_it(capsys):
    rc, _, err = cli(capsys, 'eval', QRELS, RUN, '-m', 'nDCG@10,AP')
    assert rc == 2 and "'nDCG@10,AP' is 2 measures in one name" in err and 'on the command line -m nDCG@10 AP' in err, err
    assert 'cutoff' not in err
    rc, _, err = cli(capsys, 'eval', QRELS, RUN, '-m', 'P@5,10')
    assert rc == 2 and '-m P@5 P@10' in err, err
    rc, _, err = cli(capsys, 'compare', QRELS, RUN, str(example_paths()['rerank']), '-m', 'nDCG@10,AP')
    assert rc == 2 and '-m nDCG@10 AP' in err, err

def test_commas_inside_brackets_and_trec_eval_lists_still_work(capsys):
    rc, out, err = cli(capsys, 'eval', QRELS, RUN, '-m', 'nDCG(gain=exp,discount=log2)@10', 'AP')
    assert rc == 0, err
    rc, out, err = cli(capsys, 'trec_eval', '-m', 'P.5,10', QRELS, RUN)
    assert rc == 0 and 'P_5 ' in out and 'P_10 ' in out, err

# -- QRELS and RUN swapped

def test_swapped_files_are_named_as_such(capsys):
    rc, _, err = cli(capsys, 'eval', RUN, QRELS, '-m', 'AP')
    assert rc == 2 and 'found 6 (is this a run file? the qrels come first)' in err, err
    from rankmetrics_nb import evaluate
    with pytest.raises(EvalInputError, match=r'found 4 \(is this a qrels file\? the qrels come first\)'): evaluate(QRELS, QRELS, ['AP'])

def test_swapped_frames_are_named_as_such():
    pd = pytest.importorskip('pandas')
    from rankmetrics_nb import evaluate
    qrels = pd.DataFrame(dict(query_id=['q1'], doc_id=['d1'], relevance=[1]))
    run = pd.DataFrame(dict(query_id=['q1'], doc_id=['d1'], score=[1.0]))
    with pytest.raises(EvalInputError, match='is this a run DataFrame'): evaluate(run, qrels, ['AP'])

# -- diagnose's depth

def test_diagnose_checks_k():
    from rankmetrics_nb import diagnose
    with pytest.raises(EvalInputError, match='k must be a positive number of ranks; got -1'): diagnose(QRELS, RUN, k=-1)
    with pytest.raises(EvalInputError, match='k must be a positive number of ranks; got 0'): diagnose(QRELS, RUN, k=0)
    assert diagnose(QRELS, RUN, 'AP').k == 10 and diagnose(QRELS, RUN, 'nDCG@5').k == 5 and diagnose(QRELS, RUN, k=3).k == 3

# -- warnings point at the user's line

TIED_QRELS, TIED_RUN = {'q1': {'a': 1, 'b': 0}, 'q2': {'c': 1}}, {'q1': {'a': 1.0, 'b': 1.0}, 'q3': {'c': 1.0}}

def caught(call, category)->list:
    "The warnings of `category` that `call()` raises."
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        call()
    return [x for x in w if issubclass(x.category, category)]

@pytest.mark.parametrize('name', ['evaluate', 'evaluate files', 'evaluation', 'join', 'trec_eval'])
def test_warnings_point_at_the_callers_line(name):
    import rankmetrics_nb as rm
    from rankmetrics_nb.engine.checks import QueryMismatchWarning
    from rankmetrics_nb.evaluator.tie_range import TieWarning
    calls = dict(evaluate=lambda: rm.evaluate(TIED_QRELS, TIED_RUN, ['AP']),
                 evaluation=lambda: rm.evaluation(TIED_QRELS, TIED_RUN, ['AP']),
                 join=lambda: rm.join(TIED_QRELS, TIED_RUN),
                 trec_eval=lambda: rm.trec_eval(TIED_QRELS, TIED_RUN, ['map']),
                 **{'evaluate files': lambda: rm.evaluate(QRELS, RUN, ['AP'])})
    found = caught(calls[name], (QueryMismatchWarning, TieWarning))
    assert found, name
    assert all(w.filename == __file__ for w in found), [(w.category.__name__, w.filename, w.lineno) for w in found]

# -- eval --workers: Dask's worker log stays quiet

def test_workers_error_is_one_line(tmp_path):
    pytest.importorskip('distributed')
    import subprocess, sys
    bad = tmp_path/'bad.run'
    bad.write_text('101 Q0 d1 1 1.5 r\n101 Q0 d2 2 NaN r\n')
    r = subprocess.run([sys.executable, '-m', 'rankmetrics_nb', 'eval', QRELS, str(bad), '--workers', '2', '-m', 'AP'],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2
    assert r.stderr == f"rankmetrics: error: {bad}, line 2: score 'NaN' is not a finite number: '101 Q0 d2 2 NaN r'\n", r.stderr

# -- diversity measures against a plain qrels

def test_diversity_measures_refuse_a_plain_qrels(tmp_path, capsys):
    from rankmetrics_nb import evaluate
    with pytest.raises(EvalInputError, match=r"alpha_nDCG@10 reads diversity qrels .* the second column is '0' in every line"):
        evaluate(QRELS, RUN, ['alpha_nDCG@10'])
    with pytest.raises(EvalInputError, match='no subtopics'): evaluate(QRELS, RUN, ['ERR_IA@10'], block_bytes=4096)   # streamed too
    rc, _, err = cli(capsys, 'eval', QRELS, RUN, '-m', 'alpha_nDCG@10')
    assert rc == 2 and 'have no subtopics' in err and err.count('\n') == 1, err
    one = tmp_path/'one.qrels'                              # one subtopic a query, numbered as diversity qrels number them
    one.write_text('q1 1 a 1\nq1 1 b 0\n')
    assert evaluate(str(one), {'q1': {'a': 2.0, 'b': 1.0}}, ['alpha_nDCG@10']) == {'alpha_nDCG@10': 1.0}

# -- run names in Markdown and HTML tables are text, never markup

def test_run_names_are_escaped_in_markdown_and_html():
    from rankmetrics_nb import compare
    names = ['<img src=x onerror=alert(1)>', 'a|b\nc']
    c = compare(QRELS, dict(zip(names, [RUN, str(example_paths()['rerank'])])), ['AP'])
    md, h = c.to_markdown(), c.to_html()
    assert '<img' not in md and '&lt;img src=x onerror=alert(1)&gt;' in md
    assert 'a\\|b c' in md
    assert all(line.startswith('|') for line in md.split('\n\n')[0].splitlines())     # one table row per run
    assert '<img' not in h and '&lt;img src=x onerror=alert(1)&gt;' in h

# -- counts agree with their nouns; p-values are never a false zero

def test_mean_of_one_query():
    from rankmetrics_nb import evaluate
    m = evaluate({'q1': {'a': 1}}, {'q1': {'a': 1.0}}, ['AP'])['AP']
    assert repr(m) == '1.0 (mean of 1 query)'

def test_tiny_adjusted_p_prints_as_below_the_smallest_printed(capsys):
    rc, out, err = cli(capsys, 'compare', QRELS, RUN, str(example_paths()['rerank']), '--test', 'randomisation')
    assert rc == 0, err
    assert '< 0.0001 *' in out and '0.0000' not in out, out

# -- evaluate_runs: one result per run, never two runs folded into one

def test_evaluate_runs_refuses_repeated_runs(tmp_path, monkeypatch):
    import shutil
    from rankmetrics_nb.evaluator.scale import evaluate_runs
    shutil.copy(RUN, tmp_path/'run')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(EvalInputError, match="run 'run' is given twice"): evaluate_runs(QRELS, ['run', 'run'], 'AP')
    with pytest.raises(EvalInputError, match="runs 'run' and './run' are one file"): evaluate_runs(QRELS, ['run', './run'], 'AP')
    with pytest.raises(EvalInputError, match="runs 1 and '1' have one name as text"):
        evaluate_runs(QRELS, {1: 'run', '1': {'101': {'d': 1.0}}}, 'AP')
    assert list(evaluate_runs(QRELS, {'a': 'run', 'b': RUN}, 'AP')) == ['a', 'b']        # two files, two results
