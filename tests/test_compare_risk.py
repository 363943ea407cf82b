"""The risk rows of ndeval (v4.5) and gdeval.pl (v1.3) with `-baseline B -riskAlpha a`, reproduced by `trec_risk`.

No published output of either tool with a baseline exists, so the expected text below was produced by
running the two tools themselves (ndeval.c compiled from the TREC Web track 2014 source, gdeval.pl run
with perl) on the shared conformance inputs:

* the small edge collection (topics 7, 8, 9 judged, run topic 10 unjudged) against a baseline that
  lacks topics 8 and 10 and has topic 9, which the run lacks (written by the test, `EDGE_BASELINE`);
* the TREC Web 2012 diversity and ad hoc qrels (TREC Web Track 2012 qrels, NIST) with the track's Indri
  RM (Cat A) run against the QL (Cat A) baseline.

Our per-topic values come from the package (`diversity_table`, gdeval's nDCG and ERR presets), which
other tests already check against the tools without a baseline; `trec_risk` then applies the tools'
rules for topics and divisors. The tests skip where the shared folder is absent."""
import warnings
import numpy as np
import pytest
from rankmetrics_nb import join, QueryMismatchWarning
from rankmetrics_nb.interop.ndeval import diversity_table
from rankmetrics_nb.metrics.dcg import ndcg
from rankmetrics_nb.metrics.err import err
from rankmetrics_nb.stats.risk import trec_risk, urisk, trisk, georisk, risk_weighted

from conftest import DIVERSITY
TINY = DIVERSITY / 'tiny'
WEB = DIVERSITY / 'runs'
EDGE_BASELINE = "7 Q0 d1 1 5.0 base\n7 Q0 d2 2 4.0 base\n7 Q0 d3 3 3.0 base\n9 Q0 z1 1 1.0 base\n"

@pytest.fixture
def tiny(tmp_path):
    if not TINY.is_dir(): pytest.skip(f"conformance data not found at {TINY} (set RANKMETRICS_SHARED to the shared/ folder)")
    base = tmp_path / 'edge.base'; base.write_text(EDGE_BASELINE)
    return TINY, base

@pytest.fixture
def web2012():
    q = DIVERSITY / 'qrels' / 'wt2012.qrels-for-ndeval.txt'
    if not q.is_file() or not WEB.is_dir(): pytest.skip(f"TREC Web 2012 data not found under {DIVERSITY}")
    return q, DIVERSITY / 'qrels' / 'wt2012.qrels.adhoc.txt', WEB / 'wt2012.baseline.rm.cata-filtered.txt', WEB / 'wt2012.baseline.ql.cata-filtered.txt'

# ------------------------------------------------------------------ ndeval
def ndeval_risk_text(qrels, run, base, alpha, c, ties='rank'):
    "Our ndeval output with a baseline: {topic: [values as printed]} plus 'amean'."
    tr, tb = diversity_table(qrels, run, ties=ties), diversity_table(qrels, base, ties=ties)
    judged = {line.split()[0] for line in open(qrels) if line.strip()}
    out, means = {}, []
    for m in tr.measures:
        rows, mean = trec_risk(dict(zip(tr.topics, tr[m].tolist())), dict(zip(tb.topics, tb[m].tolist())), alpha,
                               'ndeval', judged, all_topics=c)
        for t, v in rows.items(): out.setdefault(t, []).append(f'{v:.6f}')
        means.append(f'{mean:.6f}')
    return out | {'amean': means}

def parse(text):
    rows = [l.split(',') for l in text.strip().splitlines()]
    return {r[0]: r[1:] for r in rows}

EDGE_NDEVAL = {  # `ndeval [-c] -traditional -riskAlpha a -baseline edge.base edge.div.qrels edge.div.run`, topic and values
    (2.5, False): """7,-0.487141,-0.343683,-0.343642,-0.708211,-0.502933,-0.502933,-0.286184,-0.012338,-0.012334,-0.408300,-0.017842,-0.017842,-0.560547,-0.829480,0.001852,0.066667,0.066667,0.033333,0.000000,0.333333,0.333333
8,0.363086,0.360717,0.360674,0.666667,0.666667,0.666667,0.329277,0.324882,0.324770,0.613147,0.613147,0.613147,0.375000,0.666667,0.500000,0.100000,0.050000,0.025000,0.500000,0.500000,0.500000
10,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000
amean,-0.041351,0.005678,0.005677,-0.013848,0.054578,0.054578,0.014364,0.104181,0.104145,0.068283,0.198435,0.198435,-0.061849,-0.054271,0.167284,0.055556,0.038889,0.019444,0.166667,0.277778,0.277778""",
    (0, False): """amean,0.074634,0.087507,0.087497,0.154774,0.174324,0.174324,0.082503,0.107119,0.107082,0.165497,0.202683,0.202683,0.071615,0.143224,0.167284,0.055556,0.038889,0.019444,0.166667,0.277778,0.277778""",
    (1, True): """7,-0.278366,-0.196390,-0.196367,-0.404692,-0.287390,-0.287390,-0.163534,-0.007051,-0.007048,-0.233314,-0.010195,-0.010195,-0.320312,-0.473988,0.001852,0.066667,0.066667,0.033333,0.000000,0.333333,0.333333
8,0.363086,0.360717,0.360674,0.666667,0.666667,0.666667,0.329277,0.324882,0.324770,0.613147,0.613147,0.613147,0.375000,0.666667,0.500000,0.100000,0.050000,0.025000,0.500000,0.500000,0.500000
9,-1.452345,-1.442866,-1.442695,-2.000000,-2.000000,-2.000000,-1.317109,-1.299526,-1.299079,-2.000000,-2.000000,-2.000000,-1.500000,-2.000000,-2.000000,-0.400000,-0.200000,-0.100000,-2.000000,-2.000000,-2.000000
10,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000
amean,-0.341906,-0.319635,-0.319597,-0.434506,-0.405181,-0.405181,-0.287841,-0.245424,-0.245339,-0.405042,-0.349262,-0.349262,-0.361328,-0.451830,-0.374537,-0.058333,-0.020833,-0.010417,-0.375000,-0.291667,-0.291667""",
    (0, True): """amean,-0.125567,-0.114728,-0.114714,-0.133920,-0.119257,-0.119257,-0.102761,-0.082102,-0.082073,-0.125877,-0.097988,-0.097988,-0.133789,-0.142582,-0.124537,-0.008333,0.004167,0.002083,-0.125000,-0.041667,-0.041667""",
}

@pytest.mark.parametrize('alpha,c', list(EDGE_NDEVAL))
def test_ndeval_risk_rows_on_the_edge_collection(tiny, alpha, c):
    folder, base = tiny
    ours = ndeval_risk_text(folder / 'edge.div.qrels', folder / 'edge.div.run', base, alpha, c, ties='traditional')
    expected = parse(EDGE_NDEVAL[(alpha, c)])
    if len(expected) > 1: assert list(ours) == list(expected)          # the same topics, in the same order
    for topic, values in expected.items(): assert ours[topic] == values, topic

WEB_NDEVAL = {  # `ndeval [-c] -riskAlpha a -baseline ql.cata rm.cata` on wt2012.qrels-for-ndeval.txt
    (1, False): """151,0.000000,-0.023747,-0.009592,0.000000,-0.023747,-0.009592,0.000000,-0.054629,-0.016898,0.000000,-0.054629,-0.016898,-0.001264,-0.001264,0.002390,0.000000,-0.320000,-0.080000,0.000000,0.000000,0.000000
152,0.000000,0.000658,0.000647,0.000000,0.000658,0.000647,0.000000,0.000622,0.000609,0.000000,0.000623,0.000610,0.000172,0.000172,0.006592,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000
amean,-0.011140,-0.006467,-0.010309,-0.010840,-0.006104,-0.010582,-0.009898,-0.003002,-0.012237,-0.009581,-0.002995,-0.013351,-0.006317,-0.005507,-0.005808,-0.011200,-0.011033,-0.001383,0.001667,0.021667,0.006000""",
    (5, True): """amean,-0.082970,-0.070236,-0.081162,-0.088596,-0.075515,-0.087864,-0.076469,-0.060382,-0.088321,-0.080330,-0.064407,-0.095033,-0.071867,-0.077603,-0.034908,-0.081867,-0.069700,-0.048983,-0.018333,-0.005000,-0.036667""",
}

@pytest.mark.parametrize('alpha,c', list(WEB_NDEVAL))
def test_ndeval_risk_rows_on_trec_web_2012(web2012, alpha, c):
    qrels, _, run, base = web2012
    ours = ndeval_risk_text(qrels, run, base, alpha, c)
    for topic, values in parse(WEB_NDEVAL[(alpha, c)]).items(): assert ours[topic] == values, topic

# ------------------------------------------------------------------ gdeval
def gdeval_values(qrels, run, k=20):
    "{topic: (nDCG@k, ERR@k)} as gdeval computes them, for the run topics with a grade > 0."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(qrels, run, ties='trec', queries='run')
    keep = b.n_rel_at(1) > 0
    nd, er = ndcg(b, k=k, preset='gdeval'), err(b, k=k, preset='gdeval')
    return {q: (n, e) for q, n, e, kk in zip(b.qids, nd, er, keep) if kk}

def gdeval_judged(qrels):
    return {f[0] for f in (l.split() for l in open(qrels)) if f and int(f[3]) > 0}

def gdeval_risk_text(qrels, run, base, alpha, c):
    r, b, judged = gdeval_values(qrels, run), gdeval_values(qrels, base), gdeval_judged(qrels)
    cols = [trec_risk({t: v[j] for t, v in r.items()}, {t: v[j] for t, v in b.items()}, alpha, 'gdeval', judged, c) for j in (0, 1)]
    out = {t: [f'{cols[0][0][t]:.5f}', f'{cols[1][0][t]:.5f}'] for t in cols[0][0]}
    return out | {'amean': [f'{cols[0][1]:.5f}', f'{cols[1][1]:.5f}']}

EDGE_GDEVAL = {  # `gdeval.pl [-c] -riskAlpha a -baseline edge.base edge.adhoc.qrels edge.div.run`
    (0, False): "7,0.09369,-0.02865\n8,0.00000,0.00000\namean,0.04684,-0.01433",
    (1, False): "7,0.09369,-0.05730\n8,0.00000,0.00000\namean,0.04684,-0.02865",
    (0, True): "7,0.09369,-0.02865\n8,0.00000,0.00000\n9,-1.00000,-0.18750\namean,-0.30210,-0.07205",
    (1, True): "7,0.09369,-0.05730\n8,0.00000,0.00000\n9,-2.00000,-0.37500\namean,-0.63544,-0.14410",
}

@pytest.mark.parametrize('alpha,c', list(EDGE_GDEVAL))
def test_gdeval_risk_rows_on_the_edge_collection(tiny, alpha, c):
    folder, base = tiny
    assert gdeval_risk_text(folder / 'edge.adhoc.qrels', folder / 'edge.div.run', base, alpha, c) == parse(EDGE_GDEVAL[(alpha, c)])

WEB_GDEVAL = {(1, False): "151,-0.00865,-0.00113\namean,-0.00137,0.02505", (3, True): "amean,-0.01698,0.00913"}

@pytest.mark.parametrize('alpha,c', list(WEB_GDEVAL))
def test_gdeval_risk_rows_on_trec_web_2012(web2012, alpha, c):
    _, adhoc, run, base = web2012
    ours = gdeval_risk_text(adhoc, run, base, alpha, c)
    for topic, values in parse(WEB_GDEVAL[(alpha, c)]).items(): assert ours[topic] == values, topic

# ------------------------------------------------------------------ the risk measures by hand
def test_urisk_trisk_by_hand():
    run, base = np.array([0.4, 0.1, 0.3, 0.3]), np.array([0.2, 0.3, 0.3, 0.0])
    z = np.array([0.2, -0.4, 0.0, 0.3])                        # alpha = 1: the loss of 0.2 weighs 0.4
    np.testing.assert_allclose(risk_weighted(run, base, 1), z, rtol=0, atol=1e-15)
    assert abs(urisk(run, base, 1) - 0.025) < 1e-15
    assert abs(trisk(run, base, 1) - 0.025 / (z.std(ddof=1) / 2)) < 1e-14
    assert abs(urisk(run, base, 0) - (run - base).mean()) < 1e-15

def test_georisk_by_hand():
    x = np.array([[0.2, 0.6], [0.4, 0.2]])                      # S = (0.8, 0.6), T = (0.6, 0.8), N = 1.4
    e = np.outer([0.8, 0.6], [0.6, 0.8]) / 1.4
    z = (x - e) / np.sqrt(e)
    from statistics import NormalDist
    for alpha in (0, 2):
        zr = np.where(z < 0, (1 + alpha) * z, z).sum(1)
        expected = [np.sqrt(s / 2 * NormalDist().cdf(v / 2)) for s, v in zip([0.8, 0.6], zr)]
        np.testing.assert_allclose(georisk(x, alpha), expected, rtol=1e-14)

def test_gdeval_keeps_the_previous_baseline_value_for_topics_missing_from_both():
    rows, mean = trec_risk({1: 0.5}, {1: 0.5, 2: 0.4}, alpha=0, tool='gdeval', judged={1, 2, 3}, all_topics=True)
    assert rows == {'1': 0.0, '2': -0.4, '3': -0.4}          # topic 3: no run, no baseline -> baseline of topic 2
    assert abs(mean - (-0.8 / 3)) < 1e-15
