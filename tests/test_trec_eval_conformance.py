"""`rankmetrics trec_eval` against trec_eval's own test suite.

1. Every command of trec_eval 10.0's `make quicktest` (conformance/trec_eval/README.md) that uses the
   standard qrels format is run through `main`, and stdout is compared byte for byte with the expected
   file; the same commands with `--trec-eval-version 9` against the v9.0.8/ expected files.
   The multi-assessor format (`-R qrels_jg`) and the preference formats (`-R prefs`, `qrels_prefs`)
   are compared the same way.
2. The conventions the driver adds (missing queries, notes on stderr, `-N`, `--average-over`, `-D`,
   `-J`, stdin) and the error cases: unknown measure (with a suggestion), bad flag, missing file,
   malformed line, no common query.

Part 1 skips, saying why, where the shared conformance folder is absent (as in a user's clone)."""
import io, subprocess, sys
from pathlib import Path
import pytest
from rankmetrics_nb.interop.trec_eval import trec_eval_main as main, trec_eval, select_measures
from rankmetrics_nb.engine.checks import EvalInputError

# expected file -> the trec_eval arguments of the Makefile's quicktest (file names relative to the folder)
CASES = {
    'out.test': ['qrels.test', 'results.test'],
    'out.test.with-comments': ['qrels.test.with-comments', 'results.test'],        # same expected file: out.test
    'out.comment.test': ['qrels.comment.test', 'results.comment.test'],
    'out.test.a': ['-m', 'all_trec', 'qrels.test', 'results.test'],
    'out.test.aq': ['-m', 'all_trec', '-q', 'qrels.test', 'results.test'],
    'out.test.aqc': ['-m', 'all_trec', '-q', '-c', 'qrels.test', 'results.trunc'],
    'out.test.aqcM': ['-m', 'all_trec', '-q', '-c', '-M100', 'qrels.test', 'results.trunc'],
    'out.test.aql': ['-m', 'all_trec', '-mrelstring.20', '-q', '-l2', 'qrels.rel_level', 'results.test'],
    'out.test.meas_params': ['-q', '-miprec_at_recall..10,.20,.25,.75,.50', '-m', 'P.5,7,3', '-m', 'recall.20,2000',
                             '-m', 'Rprec_mult.5.0,0.2,0.35', '-mutility.2,-1,0,0', '-m', '11pt_avg..25,.5,.75',
                             '-mndcg.1=3,2=9,4=4.5', '-mndcg_cut.10,20,23.4', '-msuccess.2,5,20', 'qrels.test', 'results.test'],
    'out.test.aqZ': ['-q', '-m', 'all_trec', '-Z', 'zscores_file', 'qrels.test', 'results.test'],
    'out.test.qrels_jg': ['-m', 'qrels_jg', '-q', '-R', 'qrels_jg', 'qrels.123', 'results.test'],
    'out.test.qrels_jg.with-comments': ['-m', 'qrels_jg', '-q', '-R', 'qrels_jg', 'qrels.comments.123', 'results.test'],
    'out.test.prefs': ['-m', 'all_prefs', '-q', '-R', 'prefs', 'prefs.test', 'prefs.results.test'],
    'out.test.prefs.with-comments': ['-m', 'all_prefs', '-q', '-R', 'prefs', 'prefs.comment.test', 'prefs.results.test'],
    'out.test.qrels_prefs': ['-m', 'all_prefs', '-q', '-R', 'qrels_prefs', 'qrels.test', 'results.test'],
}
EXPECTED = {'out.test.with-comments': 'out.test', 'out.test.qrels_jg.with-comments': 'out.test.qrels_jg',
            'out.test.prefs.with-comments': 'out.test.prefs'}
V9 = [c for c in CASES if 'comment' not in c]                        # v9.0.8's quicktest had no comment cases
# cases whose output is not (yet) byte-identical, with the reason; strict: they fail loudly once they pass
XFAIL10 = {}
XFAIL9 = dict(XFAIL10)

def run(argv, cwd=None):
    "(exit status, stdout, stderr) of `main(argv)`."
    out, err = io.StringIO(), io.StringIO()
    return main([str(a) for a in argv], out, err), out.getvalue(), err.getvalue()

def _args(folder, argv, zfile='zscores_file'):
    "The arguments with the data files as paths into `folder`."
    files = {p.name for p in folder.iterdir()}
    return [str(folder / (zfile if a == 'zscores_file' else a)) if a in files else a for a in argv]

def _mark(cases, xfail):
    return [pytest.param(c, marks=pytest.mark.xfail(reason=xfail[c], strict=True)) if c in xfail else c for c in cases]

def test_every_expected_output_is_covered(trec_eval_dir):
    "Each out.* file of the folder (and of v9.0.8/) has a case here, so none goes unchecked."
    names = {EXPECTED.get(c, c) for c in CASES}
    assert sorted(p.name for p in trec_eval_dir.glob('out.*')) == sorted(names)
    assert sorted(p.name for p in (trec_eval_dir / 'v9.0.8').glob('out.*')) == sorted({EXPECTED.get(c, c) for c in V9})

@pytest.mark.parametrize('case', _mark(CASES, XFAIL10))
def test_trec_eval_10_byte_identical(trec_eval_dir, case):
    status, out, err = run(_args(trec_eval_dir, CASES[case]))
    assert status == 0, err
    assert out == (trec_eval_dir / EXPECTED.get(case, case)).read_text()

@pytest.mark.parametrize('case', _mark(V9, XFAIL9))
def test_trec_eval_9_byte_identical(trec_eval_dir, case):
    v9 = trec_eval_dir / 'v9.0.8'
    status, out, err = run(['--trec-eval-version', '9'] + _args(trec_eval_dir, CASES[case], zfile=v9 / 'zscores_file'))
    assert status == 0, err
    assert out == (v9 / EXPECTED.get(case, case)).read_text()

def test_unknown_relevance_format_exits_2(trec_eval_dir):
    status, out, err = run(_args(trec_eval_dir, ['-R', 'prefz', 'prefs.test', 'prefs.results.test']))
    assert (status, out) == (2, '') and "Illegal rel_format 'prefz'" in err

def test_prefs_options_and_errors(trec_eval_dir, tmp_path):
    "-M cuts the run before the preferences are counted; -c adds a judged query without results (nothing retrieved); bad lines name file and line."
    full = run(_args(trec_eval_dir, ['-m', 'prefs_num_prefs_ful_ret', '-R', 'prefs', 'prefs.test', 'prefs.results.test']))[1]
    cut = run(_args(trec_eval_dir, ['-m', 'prefs_num_prefs_ful_ret', '-M1', '-R', 'prefs', 'prefs.test', 'prefs.results.test']))[1]
    assert full.split()[-1] == '82' and cut.split()[-1] == '0'      # one document retrieved: no pair has both retrieved
    (tmp_path / 'p').write_text('1 u s a 2\n1 u s b 1\n2 u s a 1\n2 u s b 0\n')
    (tmp_path / 'r').write_text('1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n')
    status, out, err = run(['-q', '-c', '-m', 'prefs_num_prefs_poss', '-m', 'prefs_simp', '-R', 'prefs', tmp_path / 'p', tmp_path / 'r'])
    assert status == 0 and [l.split('\t')[1:] for l in out.splitlines()] == [
        ['1', '1'], ['1', '1.0000'], ['2', '1'], ['2', '0.0000'], ['all', '2'], ['all', '0.5000']]
    (tmp_path / 'bad').write_text('1 u s a 2\n1 u a 1\n')
    status, out, err = run(['-R', 'prefs', '-m', 'all_prefs', tmp_path / 'bad', tmp_path / 'r'])
    assert (status, out) == (2, '') and 'bad, line 2' in err
    status, out, err = run(['-R', 'qrels', '-m', 'prefs_simp', tmp_path / 'p', tmp_path / 'r'])
    assert status == 1 and "needs relevance format 'prefs'" in err

# ---------------------------------------------------------------- queries and notes

def test_missing_query_is_skipped_and_said(trec_eval_dir):
    "No -c: 302 (no results) is skipped as trec_eval 9 does; stderr says so; the other blocks equal -c's."
    status, out, err = run(_args(trec_eval_dir, ['-q', '-m', 'map', '-m', 'num_q', 'qrels.test', 'results.trunc']))
    assert status == 0
    assert "1 qrels query has no results: 302; skipped" in err and '-c counts them as 0' in err
    assert [l.split('\t')[1] for l in out.splitlines()] == ['301', '303', 'all', 'all']
    with_c = (trec_eval_dir / 'out.test.aqc').read_text().splitlines()
    assert [l for l in out.splitlines() if l.startswith('map') and '\tall\t' not in l] == \
           [l for l in with_c if l.startswith('map ') and l.split('\t')[1] in ('301', '303')]
    assert 'num_q                 \tall\t2' in out.splitlines()

def test_run_queries_without_judgements_are_said(trec_eval_dir):
    status, out, err = run(_args(trec_eval_dir, ['qrels.comment.test', 'results.comment.test']))
    assert status == 0 and '270 run queries have no judgements and are not evaluated' in err

def test_first_parameter_list_wins_and_the_other_is_reported(trec_eval_dir):
    status, out, err = run(_args(trec_eval_dir, ['-m', 'P.5', '-m', 'P.10', 'qrels.test', 'results.test']))
    assert status == 0 and [l.split('\t')[0].strip() for l in out.splitlines()] == ['P_5']
    assert "parameters '10' ignored" in err

def test_print_order_is_the_table_order(trec_eval_dir):
    a = run(_args(trec_eval_dir, ['-m', 'P.5', '-m', 'map', '-m', 'num_q', 'qrels.test', 'results.test']))[1]
    assert [l.split('\t')[0].strip() for l in a.splitlines()] == ['num_q', 'map', 'P_5']

def test_average_over_divides_by_n(trec_eval_dir):
    qrels, results = trec_eval_dir / 'qrels.test', trec_eval_dir / 'results.test'
    m = ['map', 'num_ret', 'num_q']
    r3, r6 = trec_eval(qrels, results, m), trec_eval(qrels, results, m, n_queries=6)
    assert r6.summary['map'] == sum(v['map'] for v in r3.per_query.values()) / 6
    assert r6.summary['num_ret'] == r3.summary['num_ret'] == 1500 and r6.summary['num_q'] == 6
    with pytest.raises(EvalInputError, match='smaller than the number of evaluated queries'): trec_eval(qrels, results, n_queries=2)

def test_collection_size_enters_utility_only(trec_eval_dir):
    "-N: utility's fourth coefficient d multiplies the collection size (m_utility.c), so the value moves by d·N."
    qrels, results = trec_eval_dir / 'qrels.test', trec_eval_dir / 'results.test'
    a = trec_eval(qrels, results, ['utility.1,-1,0,2', 'map'])
    b = trec_eval(qrels, results, ['utility.1,-1,0,2', 'map'], num_docs_in_coll=1000)
    name = a.names[-1]
    assert list(b.values(name) - a.values(name)) == [2000.0] * 3 and b.summary['map'] == a.summary['map']

def test_debug_query_evaluates_one_query(trec_eval_dir):
    status, out, err = run(_args(trec_eval_dir, ['-D', '0.302', '-q', '-m', 'map', 'qrels.test', 'results.test']))
    lines = out.splitlines()
    assert status == 0 and [l.split('\t')[1] for l in lines] == ['302', 'all'] and lines[0].split('\t')[2] == lines[1].split('\t')[2]

def test_results_from_stdin():
    "A results file named '-' is read from standard input, as in trec_eval."
    from rankmetrics_nb.data import example_paths
    p = example_paths()
    r = subprocess.run([sys.executable, '-m', 'rankmetrics_nb.interop.trec_eval', '-m', 'map', str(p['qrels']), '-'],
                       input=Path(p['bm25']).read_bytes(), capture_output=True, timeout=120)
    assert r.returncode == 0 and r.stdout.decode() == run(['-m', 'map', p['qrels'], p['bm25']])[1]

def test_judged_only_ranks_over_judged_documents(tmp_path):
    "-J: an unjudged document at rank 1 is removed, so the relevant one moves up to rank 1."
    (tmp_path / 'q').write_text('1 0 a 1\n1 0 c 0\n')
    (tmp_path / 'r').write_text('1 Q0 x 1 3 t\n1 Q0 a 2 2 t\n1 Q0 c 3 1 t\n')
    plain = trec_eval(tmp_path / 'q', tmp_path / 'r', ['recip_rank', 'num_ret'])
    judged = trec_eval(tmp_path / 'q', tmp_path / 'r', ['recip_rank', 'num_ret'], judged_only=True)
    assert (plain.summary['recip_rank'], plain.summary['num_ret']) == (0.5, 3)
    assert (judged.summary['recip_rank'], judged.summary['num_ret']) == (1.0, 2)

# ---------------------------------------------------------------- errors

def test_unknown_measure_suggests_close_names(trec_eval_dir):
    status, out, err = run(['-m', 'ndcg_cutt', 'q', 'r'])
    assert (status, out) == (1, '') and "unknown measure 'ndcg_cutt'; did you mean 'ndcg_cut'" in err
    assert "'P.10'" in run(['-m', 'P_10', 'q', 'r'])[2]

def test_bad_flag_and_bad_value_exit_1():
    status, out, err = run(['-x', 'q', 'r'])
    assert (status, out) == (1, '') and 'option -x not recognized' in err and 'Usage' in err
    assert run(['-M', 'ten', 'q', 'r'])[0] == 1 and run(['-l'])[0] == 1 and run(['q'])[0] == 1
    assert run(['--trec-eval-version', '8', 'q', 'r'])[0] == 1

def test_missing_file_exits_2_naming_it(tmp_path):
    status, out, err = run([tmp_path / 'nope.qrels', tmp_path / 'nope.run'])
    assert (status, out) == (2, '') and 'nope.qrels' in err

def test_malformed_line_exits_2_naming_file_and_line(tmp_path, trec_eval_dir):
    (tmp_path / 'bad.run').write_text('301 Q0 FR940202-2-00150 1 2.1 t\n301 Q0 doc 2 high t\n')
    status, out, err = run([trec_eval_dir / 'qrels.test', tmp_path / 'bad.run'])
    assert (status, out) == (2, '') and 'bad.run, line 2' in err

def test_bad_parameter_exits_2(trec_eval_dir):
    status, out, err = run(_args(trec_eval_dir, ['-m', 'P.five', 'qrels.test', 'results.test']))
    assert (status, out) == (2, '') and 'five' in err

def test_no_common_query_exits_7(tmp_path):
    (tmp_path / 'q').write_text('1 0 a 1\n')
    (tmp_path / 'r').write_text('2 Q0 a 1 1 t\n')
    status, out, err = run([tmp_path / 'q', tmp_path / 'r'])
    assert (status, out) == (7, '') and 'no queries with both results and relevance information' in err

def test_help_lists_measures_and_version_goes_to_stderr():
    status, out, err = run(['-h', '-m', 'ndcg_cut'])
    assert status == 0 and 'ndcg_cut' in out and '--trec-eval-version' in out
    status, out, err = run(['-v'])
    assert (status, out) == (0, '') and 'trec_eval version 10.0' in err

def test_measures_belong_to_their_relevance_format(trec_eval_dir):
    "The *_avgjg measures need -R qrels_jg, and the standard measures refuse it, as in trec_eval (form_res_rels*.c)."
    status, out, err = run(_args(trec_eval_dir, ['-m', 'map', '-R', 'qrels_jg', 'qrels.123', 'results.test']))
    assert (status, out) == (1, '') and "measure 'map' needs relevance format 'qrels'" in err
    status, out, err = run(_args(trec_eval_dir, ['-m', 'map_avgjg', 'qrels.test', 'results.test']))
    assert (status, out) == (1, '') and "needs relevance format 'qrels_jg'" in err

def test_qrels_jg_with_one_group_equals_the_standard_measures(trec_eval_dir):
    "qrels.test read as qrels_jg has one group ('0'), so map_avgjg, P_avgjg_k, Rprec_mult_avgjg_x equal map, P_k, Rprec_mult_x."
    qrels, results = trec_eval_dir / 'qrels.test', trec_eval_dir / 'results.test'
    jg = trec_eval(qrels, results, ['qrels_jg'], rel_format='qrels_jg')
    std = trec_eval(qrels, results, ['map', 'P', 'Rprec_mult'])
    for name in std.names:
        assert list(jg.values(name.replace('map', 'map_avgjg').replace('P_', 'P_avgjg_').replace('Rprec_mult_', 'Rprec_mult_avgjg_'))) == list(std.values(name))
