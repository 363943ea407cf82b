"""The tests of `rankmetrics_nb.results.compare` against scipy (a test-only oracle) and brute force.

* t, Wilcoxon and sign p-values equal `scipy.stats.ttest_rel`, `wilcoxon` (its defaults) and `binomtest`
  to 1e-12 on seeded differences with ties and zeros, in every regime of scipy's Wilcoxon (exact,
  permutation, normal approximation);
* the exact randomisation test equals a brute-force enumeration; the Monte Carlo one is within 4
  standard errors of the exact value;
* bootstrap intervals (percentile, BCa) equal `scipy.stats.bootstrap` given the same generator: our
  resample indices are the ones scipy draws (`default_rng(seed).integers(0, n, (batch, n))`);
* Tukey HSD equals `scipy.stats.tukey_hsd` (one-way) and the studentized range `scipy.stats.studentized_range`."""
import itertools, math
import numpy as np
import pytest
from rankmetrics_nb.stats.significance import (t_test, wilcoxon_test, sign_test, randomisation_test, bootstrap_means,
                                               bootstrap_ci, bootstrap_test, tukey_hsd, studentized_range_sf, t_pvalue,
                                               t_quantile, binom_cdf, normal_cdf, normal_ppf, betainc, adjust_pvalues)
from rankmetrics_nb.results.compare import compare
stats = pytest.importorskip('scipy.stats', reason='scipy (a dev dependency) is not installed')
special = pytest.importorskip('scipy.special')

def cases(seed=0):
    "Seeded difference vectors: continuous, rounded (ties, zeros), few distinct values; sizes across scipy's thresholds."
    rng = np.random.default_rng(seed)
    for n in (3, 5, 8, 12, 13, 14, 20, 25, 49, 50, 51, 80, 300):
        yield n, 'continuous', rng.normal(0.05, 0.2, n)
        yield n, 'rounded', np.round(rng.normal(0.05, 0.2, n), 1)
        yield n, 'few values', rng.integers(-2, 3, n) / 4.0

CASES = [c for c in cases() if np.any(c[2] != 0)]

@pytest.mark.parametrize('n,kind,d', CASES, ids=[f'{n}-{k}' for n, k, _ in CASES])
def test_pvalues_equal_scipy(n, kind, d):
    if d.std() > 0:
        t, p = t_test(d)
        ref = stats.ttest_rel(d, np.zeros(n))
        assert abs(p[0] - ref.pvalue) <= 1e-12 and abs(t[0] - ref.statistic) <= 1e-12 * max(1, abs(ref.statistic))
    w, p = wilcoxon_test(d)
    ref = stats.wilcoxon(d)
    assert abs(p[0] - ref.pvalue) <= 1e-12 and w[0] == ref.statistic
    k, p = sign_test(d)
    assert abs(p[0] - stats.binomtest(int(k[0]), int((d != 0).sum())).pvalue) <= 1e-12

def test_columns_at_once_equal_one_by_one():
    D = np.round(np.random.default_rng(3).normal(0, 0.2, (30, 7)), 1)
    for f in (t_test, wilcoxon_test, sign_test):
        together = f(D)[1]
        assert np.allclose(together, np.concatenate([f(D[:, j])[1] for j in range(7)]), rtol=0, atol=1e-14)

def test_distributions_equal_scipy():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 4, 200)
    assert np.abs(normal_cdf(x) - special.ndtr(x)).max() <= 1e-15
    p = rng.uniform(size=200)
    assert np.abs(normal_ppf(p) - special.ndtri(p)).max() <= 1e-14
    for df in (1, 2, 5, 19, 20, 21, 50, 299, 6999):
        t = rng.normal(0, 3, 50)
        assert np.abs(t_pvalue(t, df) - 2 * stats.t.sf(np.abs(t), df)).max() <= 1e-13, df
        assert abs(t_quantile(0.975, df) - stats.t.ppf(0.975, df)) <= 1e-11 * stats.t.ppf(0.975, df)
    a, b, xs = rng.uniform(0.1, 3000, 300), rng.uniform(0.1, 3000, 300), rng.uniform(size=300)
    assert np.abs(betainc(a, b, xs) - special.betainc(a, b, xs)).max() <= 1e-13
    for n in (1, 7, 40, 501, 7000):
        k = np.arange(n + 1)
        assert np.abs(binom_cdf(k, n) - stats.binom.cdf(k, n, 0.5)).max() <= 1e-13

# ------------------------------------------------------------------ randomisation
def brute_force_p(d):
    "Share of the 2^n sign vectors whose |sum| reaches the observed |sum|, by plain enumeration."
    obs, hits = abs(sum(d)), 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        hits += abs(sum(s * x for s, x in zip(signs, d))) >= obs - 1e-12
    return hits / 2 ** len(d)

def test_exact_randomisation_equals_brute_force():
    rng = np.random.default_rng(5)
    for n in (1, 2, 5, 9, 12):
        D = np.column_stack([np.round(rng.normal(0.1, 0.3, n), 2), rng.integers(-2, 3, n) / 4, np.zeros(n)])
        p, se, exact = randomisation_test(D)
        assert exact and (se == 0).all()
        assert p.tolist() == [brute_force_p(D[:, j].tolist()) for j in range(3)]

def test_monte_carlo_within_four_standard_errors_of_exact():
    rng = np.random.default_rng(6)
    D = np.column_stack([rng.normal(mu, 0.3, 18) for mu in (0, 0.05, 0.1, 0.15, 0.2, 0.3)])
    exact = randomisation_test(D)[0]
    for seed in (0, 1):
        p, se, is_exact = randomisation_test(D, n_resamples=5000, seed=seed, exact_max=0)
        assert not is_exact
        sd = np.sqrt(exact * (1 - exact) / 5000)
        assert (np.abs(p - exact) <= 4 * sd + 1e-12).all(), (p, exact)
        assert np.allclose(se, np.sqrt(p * (1 - p) / 5000))

def test_one_sign_matrix_for_all_columns():
    "The same seed gives column j the same p-value whether it is tested alone or with others."
    D = np.random.default_rng(7).normal(0, 1, (40, 5))
    together = randomisation_test(D, 3000, seed=9)[0]
    alone = [randomisation_test(D[:, j], 3000, seed=9)[0][0] for j in range(5)]
    assert together.tolist() == alone

# ------------------------------------------------------------------ bootstrap
@pytest.mark.parametrize('n,B,batch', [(10, 999, None), (37, 2000, None), (60, 3000, 250)])
def test_bootstrap_intervals_equal_scipy(n, B, batch):
    d = np.random.default_rng(n).gamma(2, 0.1, n) - 0.15
    theta = bootstrap_means(d, B, seed=42, batch=batch)
    for method, ours in (('percentile', bootstrap_ci(d, theta, 0.95, 'percentile')), ('BCa', bootstrap_ci(d, theta, 0.95, 'bca'))):
        ref = stats.bootstrap((d,), np.mean, n_resamples=B, method=method, rng=np.random.default_rng(42),
                              batch=batch or B, vectorized=True)
        assert np.allclose(np.sort(theta[:, 0]), np.sort(ref.bootstrap_distribution), rtol=0, atol=1e-15)
        assert abs(ours[0][0] - ref.confidence_interval.low) <= 1e-12, method
        assert abs(ours[1][0] - ref.confidence_interval.high) <= 1e-12, method

def test_bootstrap_test_shift_method():
    d = np.random.default_rng(2).normal(0.1, 0.2, 30)
    tb = bootstrap_means(d, 4000, seed=1)
    assert bootstrap_test(d, tb)[0] == np.mean(np.abs(tb[:, 0] - d.mean()) >= abs(d.mean()) - 1e-12 * np.abs(d).mean())

# ------------------------------------------------------------------ Tukey
@pytest.mark.parametrize('k,df', [(2, 3), (3, 10), (5, 40), (10, 99), (4, 2), (10, 62991), (20, 500)])
def test_studentized_range_equals_scipy(k, df):
    q = np.array([0.3, 1.0, 2.5, 3.5, 5.0, 7.0])
    assert np.abs(studentized_range_sf(q, k, df) - stats.studentized_range.sf(q, k, df)).max() <= 1e-9

def test_tukey_independent_equals_scipy():
    x = np.random.default_rng(4).normal(0.5, 0.2, (5, 30)) + np.arange(5)[:, None] * 0.03
    q, p = tukey_hsd(x, 'independent')
    ref = stats.tukey_hsd(*x).pvalue[np.triu_indices(5, 1)]
    assert np.abs(p - ref).max() <= 1e-9

def test_tukey_paired_is_the_two_way_anova_error():
    rng = np.random.default_rng(8)
    x = rng.uniform(0, 1, 25)[None, :] + rng.normal(0, 0.1, (4, 25))
    k, n = x.shape
    sse = ((x - x.mean()) ** 2).sum() - n * ((x.mean(1) - x.mean()) ** 2).sum() - k * ((x.mean(0) - x.mean()) ** 2).sum()
    df = (k - 1) * (n - 1)
    i, j = np.triu_indices(k, 1)
    q_ref = np.abs(x.mean(1)[i] - x.mean(1)[j]) / math.sqrt(sse / df / n)
    q, p = tukey_hsd(x)
    assert np.allclose(q, q_ref, rtol=1e-12)
    assert np.abs(p - stats.studentized_range.sf(q_ref, k, df)).max() <= 1e-9

# ------------------------------------------------------------------ corrections
def test_corrections_equal_scipy_false_discovery_control():
    p = np.random.default_rng(9).uniform(0, 0.2, 12)
    assert np.allclose(adjust_pvalues(p, 'bh'), stats.false_discovery_control(p, method='bh'), rtol=1e-14)
    holm = adjust_pvalues(p, 'holm')
    order = np.argsort(p)
    expected = np.maximum.accumulate(np.minimum(1, (12 - np.arange(12)) * p[order]))
    assert np.allclose(holm[order], expected, rtol=0, atol=0)
