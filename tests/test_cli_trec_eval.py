"""The installed commands reach the trec_eval drop-in: `rankmetrics trec_eval` and `python -m rankmetrics_nb trec_eval`
print trec_eval's expected output byte for byte (trec_eval's flags pass through untouched)."""
import subprocess, sys
from pathlib import Path
import pytest

def _commands():
    exe = Path(sys.executable).with_name('rankmetrics')
    return ([[str(exe)]] if exe.exists() else []) + [[sys.executable, '-m', 'rankmetrics_nb']]

@pytest.mark.parametrize('cmd', _commands(), ids=lambda c: 'console-script' if len(c) == 1 else 'python-m')
def test_trec_eval_through_the_command(trec_eval_dir, cmd):
    args = ['-m', 'all_trec', '-q', '-c', '-M100', str(trec_eval_dir / 'qrels.test'), str(trec_eval_dir / 'results.trunc')]
    r = subprocess.run(cmd + ['trec_eval'] + args, capture_output=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (trec_eval_dir / 'out.test.aqcM').read_bytes()

def test_trec_eval_errors_through_the_command(tmp_path):
    r = subprocess.run(_commands()[0] + ['trec_eval', '-m', 'ndcg_cutt', str(tmp_path / 'q'), str(tmp_path / 'r')],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "unknown measure 'ndcg_cutt'; did you mean 'ndcg_cut'" in r.stderr
