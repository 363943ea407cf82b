"""Statistics that say what they compute, and refuse what they cannot.

1. `compare(test='tukey')`: the intervals are Tukey's simultaneous ones (the studentized range's quantile, checked
   against scipy's `studentized_range.ppf` and `tukey_hsd(...).confidence_interval`), wider than the paired t ones, and
   every output names them: the text report, Markdown, LaTeX, HTML and the plots' labels.
2. A correction (or interval, or family) beside `test='tukey'` is an `EvalInputError`; the CLI prints one line, exit 2.
3. The topic-set-size functions refuse n < 2, a fractional n, beta outside (0, 1) and a variance <= 0 with one
   `EvalInputError` each (no ZeroDivisionError, OverflowError or "math domain error"), and so does `rankmetrics power`."""
import contextlib, io
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.results.compare import compare_values, compare
from rankmetrics_nb.stats.significance import studentized_range_quantile, tukey_intervals, tukey_hsd, t_quantile
from rankmetrics_nb.stats.topic_sets import power, ci_width, topic_set_size, detectable_difference
from rankmetrics_nb.cli import main
from rankmetrics_nb.data import example_paths

def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()

def _values(k=4, n=30, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.random((k, n, 2)) * 0.5 + rng.random((1, n, 1)) * 0.5     # topics share a level: the paired design matters
    X[1] += 0.08
    return X

# ------------------------------------------------------------------ Tukey's simultaneous intervals
@pytest.mark.parametrize('p,k,df', [(0.95, 3, 10), (0.95, 4, 87), (0.99, 10, 30), (0.9, 2, 2), (0.95, 4, 3),
                                    (0.95, 30, 1000), (0.95, 3, np.inf), (0.5, 6, 12)])
def test_studentized_range_quantile_is_scipys(p, k, df):
    stats = pytest.importorskip('scipy.stats', reason='scipy (a dev dependency, the oracle here) is not installed')
    assert abs(studentized_range_quantile(p, k, df) - stats.studentized_range.ppf(p, k, df)) < 1e-9

def test_tukey_intervals_are_scipys_in_the_one_way_design():
    stats = pytest.importorskip('scipy.stats', reason='scipy (a dev dependency, the oracle here) is not installed')
    x = _values()[:, :, 0]
    for conf in (0.95, 0.9):
        lo, hi = tukey_intervals(x, conf, 'independent')
        ci = stats.tukey_hsd(*x).confidence_interval(conf)
        i, j = np.triu_indices(len(x), 1)
        assert np.abs(lo - ci.low[j, i]).max() < 1e-9 and np.abs(hi - ci.high[j, i]).max() < 1e-9

def test_compare_tukey_intervals_are_simultaneous_not_t():
    X = _values()
    c, t = compare_values(X, list('abcd'), ['m1', 'm2'], test='tukey'), compare_values(X, list('abcd'), ['m1', 'm2'], test='t')
    assert c.ci == 'tukey' and c.correction == 'none'
    k, n = X.shape[0], X.shape[1]
    for m in range(2):
        x = X[:, :, m]
        resid = x - x.mean(1)[:, None] - x.mean(0)[None, :] + x.mean()
        half = studentized_range_quantile(0.95, k, (k - 1) * (n - 1)) * np.sqrt((resid ** 2).sum() / ((k - 1) * (n - 1)) / n)
        np.testing.assert_allclose(c.ci_high[:, m] - c.diff[:, m], half, atol=1e-12)
        np.testing.assert_allclose(c.diff[:, m] - c.ci_low[:, m], half, atol=1e-12)
    assert not np.allclose(c.ci_low, t.ci_low)                       # not the paired t intervals under another name
    assert (((c.ci_low > 0) | (c.ci_high < 0)) == c.significant).all()   # an interval leaves out 0 where the HSD rejects

def test_compare_tukey_intervals_with_a_baseline_read_b_minus_a():
    X = _values()
    c = compare_values(X, list('abcd'), ['m1', 'm2'], test='tukey', baseline='c')
    assert c.pairs[0] == (2, 0)
    assert np.all(c.ci_low < c.diff) and np.all(c.diff < c.ci_high)
    full = compare_values(X, list('abcd'), ['m1', 'm2'], test='tukey')
    p = full.pairs.index((0, 2))
    np.testing.assert_allclose([c.ci_low[0, 0], c.ci_high[0, 0]], [-full.ci_high[p, 0], -full.ci_low[p, 0]], atol=1e-15)

def test_every_output_names_the_simultaneous_intervals():
    c = compare_values(_values(), list('abcd'), ['m1', 'm2'], test='tukey')
    label = '95% simultaneous interval (Tukey HSD)'
    assert label in c.report() and '95% interval (t)' not in c.report()
    for text in (c.to_markdown(), c.to_latex(), c.to_html()): assert 'simultaneous interval (Tukey HSD)' in text
    t = compare_values(_values(), list('abcd'), ['m1', 'm2'], test='t')
    assert '95% interval (t)' in t.report() and 'simultaneous' not in t.to_markdown()

def test_plots_name_the_simultaneous_intervals():
    pytest.importorskip('matplotlib')
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    c = compare_values(_values(), list('abcd'), ['m1', 'm2'], test='tukey')
    fig = c.plot('forest')
    assert 'simultaneous interval (Tukey HSD)' in fig._supxlabel.get_text()
    plt.close('all')

def test_cli_compare_tukey_prints_simultaneous_intervals():
    P = example_paths()
    status, out, err = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'AP', '--test', 'tukey')
    assert status == 0, err
    assert 'simultaneous interval (Tukey HSD)' in out and 'interval (t)' not in out

# ------------------------------------------------------------------ a correction Tukey's HSD makes meaningless
@pytest.mark.parametrize('kw,why', [(dict(correction='holm'), "correction='holm' does not apply to test='tukey'"),
                                    (dict(correction='bh'), "correction='bh' does not apply to test='tukey'"),
                                    (dict(ci='bca'), "ci='bca' does not apply to test='tukey'"),
                                    (dict(family='all'), "family='all' does not apply to test='tukey'")])
def test_tukey_refuses_a_correction_beside_it(kw, why):
    with pytest.raises(EvalInputError, match=why): compare_values(_values(), list('abcd'), ['m1', 'm2'], test='tukey', **kw)
    P = example_paths()
    with pytest.raises(EvalInputError, match=why): compare(P['qrels'], [P['bm25'], P['rerank']], 'AP', test='tukey', **kw)

def test_tukey_takes_none_and_the_others_keep_holm():
    X = _values()
    assert compare_values(X, list('abcd'), ['m1', 'm2'], test='tukey', correction='none').correction == 'none'
    assert compare_values(X, list('abcd'), ['m1', 'm2']).correction == 'holm'
    with pytest.raises(EvalInputError, match="ci='tukey'"): compare_values(X, list('abcd'), ['m1', 'm2'], ci='tukey')

def test_cli_tukey_with_holm_is_one_line_exit_2():
    P = example_paths()
    status, out, err = run_cli('compare', P['qrels'], P['bm25'], P['rerank'], '-m', 'AP', '--test', 'tukey', '--correction', 'holm')
    assert status == 2 and out == '' and len(err.splitlines()) == 1, err
    assert "correction='holm' does not apply to test='tukey'" in err

# ------------------------------------------------------------------ topic-set sizes and power
@pytest.mark.parametrize('call,why', [
    (lambda: power(n=1, min_diff=0.1, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: power(n=2.5, min_diff=0.1, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: power(n=float('nan'), min_diff=0.1, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: power(n=float('inf'), min_diff=0.1, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: power(n=10, min_diff=0.1, variance=0.05, test='anova', m=float('nan')), "m= systems, a whole number >= 2"),
    (lambda: ci_width(n=1, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: ci_width(n=0, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: ci_width(n=2.5, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: topic_set_size(beta=1, min_diff=0.1, variance=0.05), r'beta must be a number in \(0, 1\)'),
    (lambda: topic_set_size(beta=0, min_diff=0.1, variance=0.05), r'beta must be a number in \(0, 1\)'),
    (lambda: topic_set_size(min_diff=0.1, variance=-0.05), 'variance must be a positive number'),
    (lambda: detectable_difference(n=1, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: detectable_difference(n=2.5, variance=0.05), 'n must be a whole number of topics >= 2'),
    (lambda: detectable_difference(n=10, beta=1, variance=0.05), r'beta must be a number in \(0, 1\)'),
    (lambda: detectable_difference(n=10, variance=-0.05), 'variance must be a positive number'),
    (lambda: detectable_difference(n=10, variance=0.05, test='ci'), 'a confidence interval detects no difference'),
])
def test_topic_set_functions_refuse_with_one_clear_error(call, why):
    with pytest.raises(EvalInputError, match=why): call()

def test_topic_set_functions_still_compute():
    assert ci_width(n=2, variance=0.05) > ci_width(n=3, variance=0.05) > 0
    d = detectable_difference(n=30, variance=0.05)
    assert abs(power(n=30, min_diff=d, variance=0.05) - 0.8) < 1e-9

@pytest.mark.parametrize('args,why', [
    (['--variance', '0.05', '--topics', '1', '--min-diff', '0.1'], 'n must be a whole number of topics >= 2'),
    (['--variance', '0.05', '--topics', '1', '--test', 'ci'], 'n must be a whole number of topics >= 2'),
    (['--variance', '0.05', '--topics', '1'], 'n must be a whole number of topics >= 2'),
    (['--variance', '0.05', '--beta', '1', '--min-diff', '0.1'], 'beta must be a number in (0, 1)'),
    (['--variance', '0.05', '--topics', '10', '--beta', '1'], 'beta must be a number in (0, 1)'),
    (['--variance', '-0.05', '--topics', '10'], 'variance must be a positive number'),
])
def test_cli_power_refusals_are_one_line_exit_2(args, why):
    status, out, err = run_cli('power', *args)
    assert status == 2 and out == '' and len(err.splitlines()) == 1 and why in err, err

def test_discriminative_power_refuses_a_correction_beside_tukey():
    from rankmetrics_nb.stats.inference import discriminative_power
    X = _values()
    for test in ('tukey', 'randomised_tukey'):
        with pytest.raises(EvalInputError, match=f"correction='holm' does not apply to test='{test}'"):
            discriminative_power(X, test=test, correction='holm', n_resamples=50)
        assert discriminative_power(X, test=test, n_resamples=50).correction == 'none'
