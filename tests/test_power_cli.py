"""`rankmetrics power` as a user runs it: the console script, its numbers, and bad arguments answered with one
line on stderr and exit status 2 (never a traceback)."""
import subprocess, sys
from pathlib import Path
import pytest
from rankmetrics_nb.stats.topic_sets import topic_set_size, power, residual_variance
from rankmetrics_nb.results.compare import compare
from rankmetrics_nb.data import example_paths

EXE = Path(sys.executable).parent / 'rankmetrics'


def _run(*args):
    return subprocess.run([str(EXE), 'power', *map(str, args)], capture_output=True, text=True)


def test_sizes_and_power_from_the_command_line():
    r = _run('--variance', '0.03', '--min-diff', '0.05', '--test', 'anova', '--systems', '8', '--alpha', '0.01', '--beta', '0.1')
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].split()[-1] == str(topic_set_size(alpha=0.01, beta=0.1, min_diff=0.05, variance=0.03, test='anova', m=8))
    r = _run('--variance', '0.03', '--min-diff', '0.05', '--topics', '50')
    assert float(r.stdout.splitlines()[-1].split()[-1]) == round(power(n=50, min_diff=0.05, variance=0.03), 4)


def test_variance_estimated_from_runs():
    p = example_paths()
    r = _run(p['qrels'], p['bm25'], p['rerank'], '-m', 'AP', '--min-diff', '0.05')
    assert r.returncode == 0, r.stderr
    v = residual_variance(compare(p['qrels'], {'bm25': p['bm25'], 'rerank': p['rerank']}, ['AP']).values)[0]
    name, var, topics = r.stdout.splitlines()[-1].split()
    assert name == 'AP' and float(var) == round(v, 6) and int(topics) == topic_set_size(min_diff=0.05, variance=v)


@pytest.mark.parametrize('args,says', [
    (['--variance', '0.02'], 'needs min_diff='),
    (['--variance', 'abc', '--min-diff', '0.1'], "invalid float value: 'abc'"),
    (['--min-diff', '0.1'], 'give --variance'),
    (['--variance', '0.02', '--min-diff', '0.1', '--test', 'anova'], '--test anova needs --systems'),
    (['--variance', '0.02', '--min-diff', '0.1', '--test', 'f'], "invalid choice: 'f'"),
    (['--variance', '0.02', '--min-diff', '0', '--topics', '10'], 'min_diff must be a positive number'),
    (['--variance', '0.02', '--min-diff', '0.1', '--topics', '1'], 'n must be a whole number of topics >= 2'),
    (['--variance', '0.02', '--min-diff', '0.1', '--alpha', '1'], 'alpha must be below 1'),
    (['--variance', '0.02', '--min-diff', '0.1', '--frobnicate'], 'unrecognized arguments: --frobnicate'),
    (['no-such-qrels.txt', 'a.run', 'b.run', '--min-diff', '0.1'], 'not found'),
])
def test_bad_arguments_are_one_line(args, says):
    r = _run(*args)
    assert r.returncode == 2 and r.stdout == ''
    assert len(r.stderr.splitlines()) == 1 and says in r.stderr and 'Traceback' not in r.stderr, r.stderr
