"""Topic-set sizes and powers against statsmodels (a dev dependency): `TTestPower` for the paired t-test,
`FTestAnovaPower` for the one-way ANOVA, over a grid of alpha, beta, differences and variances; and the
variance estimate against a two-way ANOVA fitted as a regression on dummy variables."""
import itertools, math
import numpy as np
import pytest
from rankmetrics_nb.stats.topic_sets import topic_set_size, power, residual_variance, nct_cdf, ncf_sf

smp = pytest.importorskip('statsmodels.stats.power', reason='statsmodels (a dev dependency) is not installed')
sm = pytest.importorskip('statsmodels.api')

ALPHAS, BETAS = (0.01, 0.05, 0.10), (0.1, 0.2, 0.3)
DIFFS, VARIANCES = (0.02, 0.05, 0.1, 0.2), (0.01, 0.03, 0.1)
GRID = list(itertools.product(ALPHAS, BETAS, DIFFS, VARIANCES))


def _ceil(x): return math.ceil(x - 1e-7)       # statsmodels solves for a real n to about 1e-8


@pytest.mark.parametrize('alpha,beta,d,s2', GRID)
def test_t_sizes_equal_statsmodels(alpha, beta, d, s2):
    es = d / math.sqrt(2 * s2)
    n_sm = smp.TTestPower().solve_power(es, alpha=alpha, power=1 - beta)
    assert topic_set_size(alpha=alpha, beta=beta, min_diff=d, variance=s2) == max(2, _ceil(n_sm))


@pytest.mark.parametrize('alpha,beta,d,s2', GRID[::2])
@pytest.mark.parametrize('m', [2, 5, 20])
def test_anova_sizes_equal_statsmodels(alpha, beta, d, s2, m):
    f = d / math.sqrt(2 * m * s2)
    nobs = smp.FTestAnovaPower().solve_power(f, alpha=alpha, power=1 - beta, k_groups=m)
    assert topic_set_size(alpha=alpha, beta=beta, min_diff=d, variance=s2, test='anova', m=m) == max(2, _ceil(nobs / m))


@pytest.mark.parametrize('alpha,d,s2', list(itertools.product(ALPHAS, DIFFS, VARIANCES)))
def test_powers_equal_statsmodels(alpha, d, s2):
    for n in (2, 3, 7, 30, 120, 600):
        es = d / math.sqrt(2 * s2)
        ours, ref = power(n=n, alpha=alpha, min_diff=d, variance=s2), smp.TTestPower().power(es, n, alpha)
        if math.isnan(ref): assert ours > 1 - 1e-6 and es * math.sqrt(n) > 6     # scipy's nctdtr gives NaN deep in the tail
        else: assert abs(ours - ref) < 1e-8
        for m in (2, 4, 30):
            f = d / math.sqrt(2 * m * s2)
            ours = power(n=n, alpha=alpha, min_diff=d, variance=s2, test='anova', m=m)
            assert abs(ours - smp.FTestAnovaPower().power(f, n * m, alpha, k_groups=m)) < 1e-8


def test_noncentral_distributions_equal_scipy():
    special = pytest.importorskip('scipy.special')
    rng = np.random.default_rng(11)
    compared = 0
    for _ in range(200):
        t, df, nc = rng.uniform(-8, 8), float(rng.choice([1, 2, 5, 30, 400, 5000])), rng.uniform(-30, 30) * rng.choice([0, 0.1, 1])
        ref = special.nctdtr(df, nc, t)
        if not np.isnan(ref):              # scipy gives NaN for some points far in a tail
            compared += 1
            assert abs(nct_cdf(t, df, nc) - ref) < 1e-12
        f, d1, d2, lam = rng.uniform(0.01, 8), float(rng.choice([1, 3, 19])), float(rng.choice([2, 30, 3000])), rng.uniform(0, 200)
        assert abs(ncf_sf(f, d1, d2, lam) - (1 - special.ncfdtr(d1, d2, lam, f))) < 1e-12
    assert compared > 150


@pytest.mark.parametrize('m,n,seed', [(2, 5, 0), (4, 50, 1), (13, 30, 2)])
def test_variance_equals_a_two_way_anova_residual(m, n, seed):
    x = np.random.default_rng(seed).beta(2, 3, (m, n))
    system, topic = np.repeat(np.arange(m), n), np.tile(np.arange(n), m)
    design = np.column_stack([np.ones(m * n)] + [system == i for i in range(1, m)] + [topic == j for j in range(1, n)]).astype(float)
    fit = sm.OLS(x.ravel(), design).fit()
    assert fit.df_resid == (m - 1) * (n - 1)
    assert abs(residual_variance(x) - fit.mse_resid) < 1e-13
