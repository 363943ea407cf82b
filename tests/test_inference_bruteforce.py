"""Discriminative power against a loop over pairs and resamples (same seed), and tau_AP against its definition
enumerated over every tie-break, on seeded random inputs."""
import itertools
import numpy as np
import pytest
from rankmetrics_nb.stats.inference import discriminative_power, swap_rates, tau_ap
from rankmetrics_nb.stats.significance import t_test, adjust_pvalues


def _randomisation_loop(d, n_resamples, seed):
    "Fisher's randomisation p-value of one pair, one sign vector at a time."
    bits = np.random.default_rng(seed).integers(0, 2, (n_resamples, len(d)), dtype=np.int8)
    obs, tol, count = abs(d.sum()), 1e-12 * np.abs(d).sum(), 0
    for b in range(n_resamples):
        s = sum((1 - 2 * int(bits[b, q])) * d[q] for q in range(len(d)))
        count += abs(s) >= obs - tol
    return count / n_resamples


@pytest.mark.parametrize('runs,topics,measures,seed', [(3, 21, 1, 0), (5, 26, 2, 1), (6, 40, 1, 2)])
def test_discriminative_power_equals_a_loop(runs, topics, measures, seed):
    rng = np.random.default_rng(seed)
    X = np.round(rng.beta(2, 4, (runs, topics, measures)) + rng.normal(0, 0.05, (runs, 1, 1)), 2)
    B, alpha = 300, 0.05
    dp = discriminative_power(X, n_resamples=B, seed=seed, alpha=alpha, correction='holm')
    p = np.array([[_randomisation_loop(X[b, :, m] - X[a, :, m], B, seed) for m in range(measures)]
                  for a in range(runs) for b in range(a + 1, runs)])
    assert np.array_equal(dp.pvalue, p)
    padj = np.column_stack([adjust_pvalues(p[:, m], 'holm') for m in range(measures)])
    assert np.array_equal(dp.padj, padj)
    assert np.array_equal(dp.power, (padj < alpha).mean(0))


def test_discriminative_power_t_equals_a_loop():
    X = np.random.default_rng(4).uniform(0, 1, (5, 15, 2))
    dp = discriminative_power(X, test='t')
    for k, (a, b) in enumerate(dp.pairs):
        for m in range(2):
            assert abs(dp.pvalue[k, m] - t_test(X[b, :, m] - X[a, :, m])[1][0]) < 1e-14     # summation order aside


def test_swap_rates_equal_a_loop():
    rng = np.random.default_rng(8)
    X = rng.uniform(0, 1, (4, 12)) + np.arange(4)[:, None] * 0.03
    sr = swap_rates(X, sizes=[3, 6], n_trials=40, bin_width=0.05, seed=8)
    rng, comps, swaps = np.random.default_rng(8), {}, {}
    for c in (3, 6):
        perms = np.argsort(rng.random((40, 12)), axis=1)
        for t in range(40):
            A, B = perms[t, :c], perms[t, c:2 * c]
            for a, b in itertools.combinations(range(4), 2):
                dA, dB = X[b, A].mean() - X[a, A].mean(), X[b, B].mean() - X[a, B].mean()
                k = (c, int(np.floor(abs(dA) / 0.05 + 1e-9)))
                comps[k] = comps.get(k, 0) + 1
                swaps[k] = swaps.get(k, 0) + (dA * dB < 0)
    for (c, k), n in comps.items():
        s = sr.sizes.index(c)
        assert sr.comparisons[s, k, 0] == n and sr.swaps[s, k, 0] == swaps[(c, k)]
    assert sr.comparisons.sum() == sum(comps.values())


def _tau_ap_definition(x, y):
    "Mean over every order of x (tied items in any order) of (1/(N-1)) sum_i (C(i) - D(i)) / (i - 1)."
    vals = []
    for order in itertools.permutations(range(len(x))):
        if any(x[a] < x[b] for a, b in zip(order, order[1:])): continue
        total = 0.0
        for i in range(1, len(x)):
            C = sum(y[order[k]] > y[order[i]] for k in range(i))
            D = sum(y[order[k]] < y[order[i]] for k in range(i))
            total += (C - D) / i
        vals.append(total / (len(x) - 1))
    return float(np.mean(vals))


@pytest.mark.parametrize('levels', [None, 2, 3, 5])
def test_tau_ap_equals_its_definition(levels):
    rng = np.random.default_rng(100 + (levels or 0))
    for _ in range(40):
        n = int(rng.integers(2, 8))
        if levels is None: x, y = rng.permutation(n).astype(float), rng.permutation(n).astype(float)   # no ties
        else: x, y = rng.integers(0, levels, n).astype(float), rng.integers(0, levels + 1, n).astype(float)
        assert abs(tau_ap(x, y) - _tau_ap_definition(x, y)) < 1e-12
        if levels is None: assert tau_ap(x, y, ties='refuse') == tau_ap(x, y)


def test_randomised_tukey_equals_a_loop():
    rng = np.random.default_rng(30)
    X = rng.uniform(0, 1, (4, 9, 2)) + np.arange(4)[:, None, None] * 0.05
    B = 200
    dp = discriminative_power(X, test='randomised_tukey', n_resamples=B, seed=30)
    u = np.random.default_rng(30).random((B, 4, 9))            # one batch: the same draws, shuffle by shuffle
    ranges = np.zeros((B, 2))
    for b in range(B):
        for m in range(2):
            means = [np.mean([X[np.argsort(u[b, :, t])[r], t, m] for t in range(9)]) for r in range(4)]
            ranges[b, m] = max(means) - min(means)
    for k, (a, c) in enumerate(dp.pairs):
        for m in range(2):
            d = abs(X[c, :, m].mean() - X[a, :, m].mean())
            assert dp.pvalue[k, m] == np.mean(ranges[:, m] >= d - 1e-12)
    assert dp.correction == 'none' and np.array_equal(dp.padj, dp.pvalue)
