"""Diversity measures against ndeval (v4.5, the TREC Web track's program).

1. Every number of every ndeval output in conformance/diversity/tiny (both sort modes, alpha 0,
   alpha 1 with beta 0.9, -c averaging, a run whose rank column and scores disagree) is reproduced
   to 1e-6 by `diversity_table` (and the CSV text is identical).
2. On the TREC Web 2012 diversity qrels (TREC Web Track 2012 qrels, NIST) and the track's four
   Indri baseline runs, for which no ndeval output is published, `diversity_table` agrees per topic
   to 1e-9 with `ndeval_reference` below: a slow, loop-by-loop implementation written directly from
   ndeval's documented semantics (conformance/diversity/README.md), sharing no code with the
   package. The reference is itself checked against every file of (1). The means computed then
   are kept below as a regression fixture, and invariants are asserted on the real data.

The tests skip, saying why, where the shared conformance folder is absent (as in a user's clone)."""
import csv, io, math, warnings
from functools import lru_cache
from pathlib import Path
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import EvalInputError, QueryMismatchWarning
from rankmetrics_nb.engine.joins import join_subtopics
from rankmetrics_nb.metrics.diversity import alpha_ndcg
from rankmetrics_nb.interop.ndeval import diversity_table, DIVERSITY_PRESETS

from conftest import DIVERSITY
TINY, QRELS_2012 = DIVERSITY / 'tiny', DIVERSITY / 'qrels' / 'wt2012.qrels-for-ndeval.txt'
RUNS_2012 = sorted((DIVERSITY / 'runs').glob('wt2012.baseline.*.txt')) if (DIVERSITY / 'runs').is_dir() else []

@pytest.fixture
def tiny():
    "The folder of small ndeval cases; skip (saying why) where it is absent."
    if not TINY.is_dir(): pytest.skip(f"ndeval conformance data not found at {TINY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return TINY

@pytest.fixture
def web2012():
    "The TREC Web 2012 qrels and baseline runs; skip where absent."
    if not QRELS_2012.is_file() or len(RUNS_2012) != 4:
        pytest.skip(f"TREC Web 2012 data not found under {DIVERSITY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return QRELS_2012, RUNS_2012

# ---------------------------------------------------------------- the tiny reference outputs

# output file -> (qrels, run, the ndeval flags as diversity_table settings)
TINY_CASES = {
    'pyndeval_readme.ndeval.traditional.csv': ('pyndeval_readme.qrels', 'pyndeval_readme.run', dict(ties='traditional')),
    'irmeasures_pyndeval.ndeval.traditional.csv': ('irmeasures_pyndeval.qrels', 'irmeasures_pyndeval.run', dict(ties='traditional')),
    'edge.div.ndeval.traditional.csv': ('edge.div.qrels', 'edge.div.run', dict(ties='traditional')),
    'edge.div.ndeval.byrank.csv': ('edge.div.qrels', 'edge.div.run', dict()),
    'edge.div.ndeval.c.traditional.csv': ('edge.div.qrels', 'edge.div.run', dict(ties='traditional', queries='qrels')),
    'edge.div.ndeval.traditional.alpha0.csv': ('edge.div.qrels', 'edge.div.run', dict(ties='traditional', alpha=0)),
    'edge.div.ndeval.traditional.alpha1.beta0.9.csv': ('edge.div.qrels', 'edge.div.run', dict(ties='traditional', alpha=1, beta=0.9)),
    'edge.div.run2.ndeval.byrank.csv': ('edge.div.qrels', 'edge.div.run2', dict()),
    'edge.div.run2.ndeval.traditional.csv': ('edge.div.qrels', 'edge.div.run2', dict(ties='traditional')),
}

def read_ndeval_csv(text):
    "ndeval's CSV output as (runid, measure names, {topic: values}, amean values)."
    rows = list(csv.reader(io.StringIO(text)))
    measures, body = rows[0][2:], {r[1]: [float(x) for x in r[2:]] for r in rows[1:]}
    return rows[1][0], measures, {t: v for t, v in body.items() if t != 'amean'}, body['amean']

def test_every_tiny_output_is_covered(tiny):
    "Each ndeval output in tiny/ has a case here, so none goes unchecked."
    assert sorted(p.name for p in tiny.glob('*.ndeval.*.csv')) == sorted(TINY_CASES)

@pytest.mark.parametrize('name', sorted(TINY_CASES))
def test_tiny_every_number(tiny, name):
    "Every per-topic value and every mean of ndeval's output, to 1e-6 (the printed precision)."
    qrels, run, flags = TINY_CASES[name]
    runid, measures, topics, amean = read_ndeval_csv((tiny / name).read_text())
    t = diversity_table(tiny / qrels, tiny / run, **flags)
    assert (t.runid, t.measures, t.topics) == (runid, measures, list(topics))
    for i, topic in enumerate(t.topics):
        assert np.abs(t.values[i] - topics[topic]).max() <= 1e-6, (name, topic)
    assert np.abs(np.array([t.mean[m] for m in measures]) - amean).max() <= 1e-6, name

@pytest.mark.parametrize('name', sorted(TINY_CASES))
def test_tiny_csv_text_is_identical(tiny, name):
    "`to_csv` prints exactly what ndeval printed, digit for digit."
    qrels, run, flags = TINY_CASES[name]
    assert diversity_table(tiny / qrels, tiny / run, **flags).to_csv() == (tiny / name).read_text()

def test_tiny_cases_exercise_the_conventions(tiny):
    "The edge files really separate the sort modes, the averaging and the subtopic rule."
    rank = diversity_table(tiny / 'edge.div.qrels', tiny / 'edge.div.run2')
    trad = diversity_table(tiny / 'edge.div.qrels', tiny / 'edge.div.run2', ties='traditional')
    assert rank['alpha-nDCG@5'][0] != trad['alpha-nDCG@5'][0] and rank.topics == trad.topics == ['7', '8', '10']
    c = diversity_table(tiny / 'edge.div.qrels', tiny / 'edge.div.run', queries='qrels', ties='traditional')
    assert (c.n_averaged, trad.n_averaged) == (3, 2) and (c.values[2] == 0).all()
    with pytest.warns(QueryMismatchWarning, match="ties='double'"):           # topics 9 and 10 are one-sided
        b = join_subtopics(tiny / 'edge.div.qrels', tiny / 'edge.div.run', ties='double')
    assert b.subtopic_ids[0].tolist() == ['1', '2', '3']          # subtopic 4 of topic 7 has no relevant document

# ---------------------------------------------------------------- an independent slow reference

def _reference_qrels(path):
    "{topic: {docno: {subtopic: 0 or 1}}}, judgements above 1 made 1, as ndeval reads them."
    topics = {}
    for line in open(path):
        f = line.split()
        if f: topics.setdefault(int(f[0]), {}).setdefault(f[2], {})[int(f[1])] = 1 if int(f[3]) > 0 else 0
    return topics

def _reference_run(path, traditional):
    "{topic: [docno, …]} in ndeval's order: the rank column, or score descending then docno descending."
    rows = {}
    for line in open(path):
        f = line.split()
        if not f: continue
        topic = int(f[0]) if f[0][0].isdigit() else int(f[0].split('-', 1)[1])
        rows.setdefault(topic, []).append((int(f[3]), float(f[4]), f[2]))
    order = {}
    for topic, r in rows.items():
        if traditional:
            r = sorted(sorted(r, key=lambda x: x[2], reverse=True), key=lambda x: -x[1])
        else:
            r = sorted(r)
        order[topic] = [docno for _, _, docno in r]
    return order

def _subtopic_gains(docs, judged, subtopics, alpha):
    "The gain of each document in turn, straight from the definition."
    seen, out = {s: 0 for s in subtopics}, []
    for d in docs:
        g = 0.0
        for s in subtopics:
            if judged.get(d, {}).get(s, 0):
                g += (1 - alpha) ** seen[s]
                seen[s] += 1
        out.append(g)
    return out

@lru_cache(maxsize=None)
def _reference_ideal(qrels_path, alpha):
    "{topic: gains of the greedy ideal list}: at each step the largest gain, ties to the greatest docno."
    ideal = {}
    for topic, judged in _reference_qrels(qrels_path).items():
        subtopics = sorted({s for d in judged.values() for s, j in d.items() if j})
        left = [d for d in sorted(judged, reverse=True) if any(judged[d].get(s, 0) for s in subtopics)]
        seen, gains = {s: 0 for s in subtopics}, []
        while left:
            best, best_gain = None, -1.0
            for d in left:                                           # docno descending: keep the first of equal gains
                g = sum((1 - alpha) ** seen[s] for s in subtopics if judged[d].get(s, 0))
                if g > best_gain: best, best_gain = d, g
            left.remove(best)
            gains.append(best_gain)
            for s in subtopics:
                if judged[best].get(s, 0): seen[s] += 1
        ideal[topic] = gains
    return ideal

def _reference_topic(judged, ranking, ideal, alpha, beta, cutoffs):
    "ndeval's measures for one topic, in its column order."
    subtopics = sorted({s for d in judged.values() for s, j in d.items() if j})
    S = len(subtopics)
    n_cols = 4 * len(cutoffs) + 3 + 2 * len(cutoffs)
    if S == 0: return [0.0] * n_cols
    g = _subtopic_gains(ranking, judged, subtopics, alpha)
    def upto(gains, k, weight): return sum(x * weight(r) for r, x in enumerate(gains[:k]))
    dcg_w, err_w = (lambda r: 1 / math.log2(r + 2)), (lambda r: 1 / (r + 1))
    def ideal_ideal(k, weight): return sum(S * (1 - alpha) ** r * weight(r) for r in range(k))
    err = [upto(g, k, err_w) / ideal_ideal(k, err_w) for k in cutoffs]
    nerr = [upto(g, k, err_w) / upto(ideal, k, err_w) if upto(g, k, dcg_w) else 0.0 for k in cutoffs]
    dcg = [upto(g, k, dcg_w) / ideal_ideal(k, dcg_w) for k in cutoffs]
    ndcg = [upto(g, k, dcg_w) / upto(ideal, k, dcg_w) if upto(g, k, dcg_w) else 0.0 for k in cutoffs]
    rbp = lambda gains: (1 - (1 - alpha) * beta) / S * sum(x * beta ** r for r, x in enumerate(gains))
    ap = []
    for s in subtopics:
        found, total = 0, 0.0
        for r, d in enumerate(ranking):
            if judged.get(d, {}).get(s, 0): found += 1; total += found / (r + 1)
        ap.append(total / sum(j.get(s, 0) for j in judged.values()))
    pairs = [sum(judged.get(d, {}).get(s, 0) for s in subtopics) for d in ranking]
    p_ia = [sum(pairs[:k]) / (k * S) for k in cutoffs]
    strec = [len({s for d in ranking[:k] for s in subtopics if judged.get(d, {}).get(s, 0)}) / S for k in cutoffs]
    return err + nerr + dcg + ndcg + [rbp(g), rbp(g) / rbp(ideal), sum(ap) / S] + p_ia + strec

def ndeval_reference(qrels_path, run_path, alpha=0.5, beta=0.5, traditional=False, complete=False, cutoffs=(5, 10, 20)):
    "ndeval's table, the slow way: ({topic: values}, amean values)."
    qrels, run = _reference_qrels(qrels_path), _reference_run(run_path, traditional)
    ideal = _reference_ideal(str(qrels_path), alpha)
    n_cols = 4 * len(cutoffs) + 3 + 2 * len(cutoffs)
    rows = {t: _reference_topic(qrels[t], run[t], ideal[t], alpha, beta, cutoffs) if t in qrels else [0.0] * n_cols
            for t in sorted(run)}
    divisor = len(qrels) if complete else len(set(qrels) & set(run))
    return {str(t): v for t, v in rows.items()}, [sum(col) / divisor for col in zip(*rows.values())]

@pytest.mark.parametrize('name', sorted(TINY_CASES))
def test_reference_reproduces_tiny(tiny, name):
    "The slow reference reproduces every ndeval output too: it is a fair judge for data without one."
    qrels, run, flags = TINY_CASES[name]
    _, _, topics, amean = read_ndeval_csv((tiny / name).read_text())
    rows, mean = ndeval_reference(tiny / qrels, tiny / run, alpha=flags.get('alpha', 0.5), beta=flags.get('beta', 0.5),
                                  traditional=flags.get('ties') == 'traditional', complete=flags.get('queries') == 'qrels')
    assert list(rows) == list(topics)
    for topic, want in topics.items(): assert np.abs(np.array(rows[topic]) - want).max() <= 1e-6, (name, topic)
    assert np.abs(np.array(mean) - amean).max() <= 1e-6

# ---------------------------------------------------------------- TREC Web 2012

@pytest.mark.parametrize('ties', ['rank', 'traditional'])
@pytest.mark.parametrize('run_index', range(4))
def test_web2012_agrees_with_the_reference(web2012, run_index, ties):
    "Every per-topic value of every baseline run, in both sort modes, equals the slow reference's to 1e-9."
    qrels, runs = web2012
    t = diversity_table(qrels, runs[run_index], ties=ties)
    rows, mean = ndeval_reference(qrels, runs[run_index], traditional=ties == 'traditional')
    assert t.topics == list(rows) and len(t.topics) == 50
    assert np.abs(t.values - np.array([rows[topic] for topic in t.topics])).max() <= 1e-9
    assert np.abs(np.array([t.mean[m] for m in t.measures]) - mean).max() <= 1e-9

# The `amean` rows of `diversity_table(...).to_csv()` on the Web 2012 baselines, computed by this
# package and confirmed by `ndeval_reference` (the test above): a regression fixture.
WEB2012_MEANS = {
    ('wt2012.baseline.ql.cata-filtered.txt', 'rank'): 'indri,amean,0.258413,0.278425,0.290432,0.284107,0.304924,0.317883,0.285034,0.328168,0.367440,0.309838,0.353050,0.394067,0.241082,0.267425,0.080270,0.200733,0.193100,0.163217,0.485667,0.582667,0.693333',
    ('wt2012.baseline.ql.cata-filtered.txt', 'traditional'): 'indri,amean,0.258413,0.278403,0.290411,0.284107,0.304903,0.317862,0.285034,0.328149,0.367421,0.309838,0.353032,0.394049,0.241067,0.267410,0.080261,0.200733,0.193100,0.163217,0.485667,0.582667,0.693333',
    ('wt2012.baseline.ql.catb-filtered.txt', 'rank'): 'indri,amean,0.266801,0.282673,0.295611,0.294932,0.310581,0.324227,0.290662,0.324975,0.366139,0.318538,0.350816,0.393127,0.250178,0.278065,0.074861,0.211867,0.186567,0.153483,0.472333,0.557000,0.680000',
    ('wt2012.baseline.ql.catb-filtered.txt', 'traditional'): 'indri,amean,0.266619,0.282492,0.295431,0.294751,0.310401,0.324046,0.290518,0.324833,0.365996,0.318394,0.350673,0.392985,0.249944,0.277830,0.074852,0.211867,0.186567,0.153483,0.472333,0.557000,0.680000',
    ('wt2012.baseline.rm.cata-filtered.txt', 'rank'): 'indri,amean,0.265230,0.287900,0.297835,0.292706,0.316173,0.326621,0.291780,0.339510,0.374224,0.317945,0.365409,0.401137,0.251152,0.279942,0.081736,0.207200,0.196733,0.173733,0.492333,0.611000,0.710000',
    ('wt2012.baseline.rm.cata-filtered.txt', 'traditional'): 'indri,amean,0.265230,0.287879,0.297814,0.292706,0.316151,0.326600,0.291780,0.339492,0.374206,0.317945,0.365390,0.401118,0.251138,0.279927,0.081727,0.207200,0.196733,0.173733,0.492333,0.611000,0.710000',
    ('wt2012.baseline.rm.catb-filtered.txt', 'rank'): 'indri,amean,0.256798,0.281896,0.292451,0.285269,0.310265,0.321016,0.279142,0.331914,0.366815,0.307357,0.358325,0.393332,0.242614,0.271097,0.078332,0.209400,0.197800,0.163783,0.459000,0.602667,0.701667',
    ('wt2012.baseline.rm.catb-filtered.txt', 'traditional'): 'indri,amean,0.256496,0.281596,0.292150,0.284966,0.309965,0.320715,0.278914,0.331689,0.366590,0.307128,0.358100,0.393106,0.242145,0.270628,0.078321,0.209400,0.197800,0.163783,0.459000,0.602667,0.701667',
}

@pytest.mark.parametrize('run_name, ties', sorted(WEB2012_MEANS))
def test_web2012_means_regression(web2012, run_name, ties):
    "The means of the four baselines in both sort modes, as printed, are unchanged."
    qrels, _ = web2012
    t = diversity_table(qrels, DIVERSITY / 'runs' / run_name, ties=ties)
    assert t.to_csv().splitlines()[-1] == WEB2012_MEANS[run_name, ties]

def test_web2012_invariants(web2012):
    "Bounds and orderings that must hold on real data, and the data's own properties that the tests rely on."
    qrels, runs = web2012
    for run in runs:
        rank, trad = diversity_table(qrels, run), diversity_table(qrels, run, ties='traditional')
        for t in (rank, trad):
            v = t.values
            assert ((v >= 0) & (v <= 1 + 1e-12)).all()                  # nERR-IA, alpha-nDCG and nNRBP included
            for k in (5, 10, 20):
                assert (t[f'ERR-IA@{k}'] <= t[f'nERR-IA@{k}'] + 1e-12).all()       # the ideal-ideal divisor is the larger
                assert (t[f'alpha-DCG@{k}'] <= t[f'alpha-nDCG@{k}'] + 1e-12).all()
            assert (t['NRBP'] <= t['nNRBP'] + 1e-12).all()
            assert (np.diff(np.stack([t[f'strec@{k}'] for k in (5, 10, 20)]), axis=0) >= 0).all()
            assert (np.diff(np.stack([k * t[f'P-IA@{k}'] for k in (5, 10, 20)]), axis=0) >= -1e-12).all()
        assert (rank['alpha-nDCG@20'] != trad['alpha-nDCG@20']).any()      # the rank column disagrees with the scores
        complete = diversity_table(qrels, run, queries='qrels')
        assert complete.n_averaged == rank.n_averaged == 50 and complete.to_csv() == rank.to_csv()

def test_web2012_raw_qrels_are_rejected_like_ndeval(web2012):
    "The raw diversity qrels hold spam grades (-2): ndeval refuses them; join_subtopics reads them as not relevant."
    raw = DIVERSITY / 'qrels' / 'wt2012.qrels.diversity.txt'
    if not raw.is_file(): pytest.skip(f"{raw} not found")
    _, runs = web2012
    with pytest.raises(EvalInputError, match='ndeval rejects negative judgements'): diversity_table(raw, runs[0])
    b = join_subtopics(raw, runs[0])
    assert len(b) == 50 and ((alpha_ndcg(b, k=20) >= 0) & (alpha_ndcg(b, k=20) <= 1)).all()

def test_preset_is_ndeval():
    "The preset's settings are ndeval's defaults."
    assert DIVERSITY_PRESETS['ndeval'] == dict(alpha=0.5, beta=0.5, rel=1, ties='rank', queries='run', depth=None,
                                               cutoffs=(5, 10, 20))
