"""The bundled example collection and the `rankmetrics` command, run as a user runs them."""
import subprocess, sys
from pathlib import Path
import pytest
from rankmetrics_nb import example_paths
from rankmetrics_nb.data import example_texts

BIN = Path(sys.executable).parent

def run(*args):
    return subprocess.run([str(BIN/'rankmetrics'), *args], capture_output=True, text=True, timeout=120)

def test_shipped_files_are_the_generator_output():
    texts = example_texts()
    for key, path in example_paths().items(): assert path.read_text() == texts[key], key

def test_main_job_prints_the_table_and_the_report():
    r = run('example')
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ['run', 'queries', 'retrieved', 'relevant', 'rel_retrieved', 'judged@10', 'P@10', 'MAP', 'MRR', 'nDCG@10']
    assert lines[2].split()[:3] == ['bm25', '36', '1800'] and lines[3].split()[:3] == ['rerank', '35', '1750']
    assert 'note: rerank: 1 query in the qrels but not the run: 136' in r.stdout
    assert 'note: bm25: 1 query in the run but not the qrels (not evaluated): 199' in r.stdout

def test_python_dash_m_matches_console_script():
    r = subprocess.run([sys.executable, '-m', 'rankmetrics_nb.cli', 'example'], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout == run('example').stdout

def test_bad_file_exits_2_naming_file_and_line(tmp_path):
    bad = tmp_path/'bad.run'
    bad.write_text('101 Q0 doc0001 1 1.5 r\n101 Q0 doc0002 2 NaN r\n')
    r = run('summary', str(example_paths()['qrels']), str(bad))
    assert r.returncode == 2
    assert r.stderr == f"rankmetrics: error: {bad}, line 2: score 'NaN' is not a finite number: '101 Q0 doc0002 2 NaN r'\n"

@pytest.mark.parametrize('text,message', [
    ('101 Q0 doc1 1 2.0\n', 'line 1: expected 6 or more columns'),
    ('101 Q0 doc1 1 high r\n', "line 1: score 'high' is not a number"),
    ('101 Q0 doc1 1 inf r\n', "line 1: score 'inf' is not a finite number"),
    ('101 Q0 doc1 1 2 r\n101 Q0 doc1 2 1 r\n', "line 2: document 'doc1' appears twice for query '101' (first at line 1)"),
    ('', 'no data lines'),
])
def test_each_bad_run_line_is_named(tmp_path, text, message):
    bad = tmp_path/'bad.run'
    bad.write_text(text)
    r = run('summary', str(example_paths()['qrels']), str(bad))
    assert r.returncode == 2 and message in r.stderr, r.stderr

@pytest.mark.parametrize('text,message', [
    ('101 0 doc1\n', 'line 1: expected 4 columns (qid iter docno rel), found 3'),
    ('101 0 doc1 1.5\n', "line 1: grade '1.5' is not an integer"),
    ('101 0 doc1 x\n', "line 1: grade 'x' is not a number"),
    ('# header\n101 0 doc1 1\n101 0 doc1 2\n', "line 3: document 'doc1' appears twice for query '101' (first at line 2)"),
])
def test_each_bad_qrels_line_is_named(tmp_path, text, message):
    bad = tmp_path/'bad.qrels'
    bad.write_text(text)
    r = run('summary', str(bad), str(example_paths()['bm25']))
    assert r.returncode == 2 and message in r.stderr, r.stderr

def test_main_job_means_agree_with_pytrec_eval():
    "The table's P@10, MAP, MRR and nDCG@10 are pytrec_eval's P_10, map, recip_rank and ndcg_cut_10 means (4 decimals)."
    pytrec_eval = pytest.importorskip('pytrec_eval')
    paths = example_paths()
    with open(paths['qrels']) as f: qrels = pytrec_eval.parse_qrel(f)
    table = {l.split()[0]: l.split() for l in run('example').stdout.splitlines()[2:4]}
    for name in ('bm25', 'rerank'):
        with open(paths[name]) as f: r = {q: d for q, d in pytrec_eval.parse_run(f).items() if q in qrels}
        res = pytrec_eval.RelevanceEvaluator(qrels, {'P.10', 'map', 'recip_rank', 'ndcg_cut.10'}).evaluate(r)
        means = [sum(v[m] for v in res.values()) / len(res) for m in ('P_10', 'map', 'recip_rank', 'ndcg_cut_10')]
        assert table[name][6:10] == [f'{m:.4f}' for m in means], name
