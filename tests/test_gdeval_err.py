"""ERR@k with preset="gdeval" against gdeval.pl: the values gdeval.pl 1.3 printed on the conformance
collections (per topic to the printed 5 decimals, and the amean with and without -c), and the TREC Web
2012 baseline runs against a direct, slow restatement of gdeval's rules. The conformance data lives in
the shared folder next to the repository; without it these tests skip and say why."""
import csv, warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.engine.inputs import read_run
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.metrics.err import err, mean_err, ERR_PRESETS as PRESETS

from conftest import DIVERSITY

@pytest.fixture(scope='module')
def diversity():
    "The diversity conformance folder (qrels, runs, tiny/ with gdeval's outputs), or a skip saying where it was looked for."
    if not (DIVERSITY / 'tiny').is_dir():
        pytest.skip(f"gdeval conformance data not found at {DIVERSITY} (set RANKMETRICS_SHARED to the shared/ folder)")
    return DIVERSITY

# (qrels, run, gdeval output, k, -c) as listed in the folder's README
PRINTED = [
    ('irmeasures_gdeval.qrels', 'irmeasures_gdeval.run', 'irmeasures_gdeval.gdeval.k20.csv', 20, False),
    ('irmeasures_gdeval.qrels', 'irmeasures_gdeval.run', 'irmeasures_gdeval.gdeval.k2.csv', 2, False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.k20.csv', 20, False),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.c.k20.csv', 20, True),
    ('edge.adhoc.qrels', 'edge.div.run', 'edge.adhoc.gdeval.k3.csv', 3, False),
    ('edge.adhoc.qrels', 'edge.div.run2', 'edge.adhoc.run2.gdeval.k20.csv', 20, False),
]

def read_printed(path, k):
    "gdeval's CSV: {topic: err@k text} and the amean text."
    with open(path) as f: rows = list(csv.DictReader(f))
    values = {r['topic']: r[f'err@{k}'] for r in rows}
    return {t: v for t, v in values.items() if t != 'amean'}, values['amean']

def batch(qrels, run, all_topics):
    "The joined batch in gdeval's order; -c is join's queries='qrels'."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return join(qrels, run, ties='trec', queries='qrels' if all_topics else 'run')

def gdeval_topics(qrels_path):
    "gdeval's qrels: {topic: {docno: grade}} keeping grades > 0 only (a topic exists only with one); grades above 4 refused."
    judged = {}
    with open(qrels_path) as f:
        for line in f:
            fields = line.split()
            if not fields: continue
            topic, zero, docno, grade = fields[0], fields[1], fields[2], int(fields[3])
            assert zero == '0' and grade <= 4, line
            if grade > 0: judged.setdefault(topic, {})[docno] = grade
    return judged

def gdeval_reference(qrels_path, run_path, k, all_topics=False):
    "gdeval's ERR@k, restated slowly: per topic a loop down the run (score desc, docno desc, as doubles); the amean by its rules."
    judged, ranked = gdeval_topics(qrels_path), {}
    with open(run_path) as f:
        for line in f:
            fields = line.split()
            if fields: ranked.setdefault(fields[0], []).append((float(fields[4]), fields[2]))
    per_topic = {}
    for topic, docs in ranked.items():
        if topic not in judged: continue                      # gdeval skips run topics without a grade > 0
        value, reach = 0.0, 1.0
        for i, (_, docno) in enumerate(sorted(docs, reverse=True)[:k], 1):
            R = (2 ** judged[topic].get(docno, 0) - 1) / 16
            value, reach = value + reach * R / i, reach * (1 - R)
        per_topic[topic] = value
    divisor = len(judged) if all_topics else len(per_topic)
    return per_topic, sum(per_topic.values()) / divisor

def test_preset_is_gdevals():
    assert PRESETS['gdeval'] == dict(max_grade=4, no_relevant='skip')

@pytest.mark.parametrize('qrels,run,printed,k,all_topics', PRINTED)
def test_err_matches_gdeval_printed_values(diversity, qrels, run, printed, k, all_topics):
    "Per topic and amean, ERR@k with the gdeval preset prints (%.5f) exactly what gdeval.pl printed."
    tiny = diversity / 'tiny'
    want, want_mean = read_printed(tiny / printed, k)
    b = batch(tiny / qrels, tiny / run, all_topics)
    values = err(b, k=k, preset='gdeval')
    judged = gdeval_topics(tiny / qrels)
    ranked = set(read_run(tiny / run).qid.astype(str))
    shown = {q: v for q, v in zip(b.qids, values) if q in judged and q in ranked}     # gdeval prints run topics that exist
    assert sorted(shown) == sorted(want)
    assert {q: f'{v:.5f}' for q, v in shown.items()} == want
    # the amean by gdeval's rules, computed here: over the printed topics, or with -c over every qrels topic that exists
    divisor = len(judged) if all_topics else len(shown)
    assert f'{sum(shown.values()) / divisor:.5f}' == want_mean
    m = mean_err(b, k=k, preset='gdeval')
    assert f'{m:.5f}' == want_mean and m.n == divisor
    assert abs(m - sum(shown.values()) / divisor) <= 1e-15

@pytest.mark.parametrize('qrels,run,printed,k,all_topics', PRINTED)
def test_slow_restatement_reproduces_the_printed_values(diversity, qrels, run, printed, k, all_topics):
    "The test's own restatement of gdeval is right on the printed files (so it can stand in for gdeval below)."
    tiny = diversity / 'tiny'
    want, want_mean = read_printed(tiny / printed, k)
    per_topic, amean = gdeval_reference(tiny / qrels, tiny / run, k, all_topics)
    assert {t: f'{v:.5f}' for t, v in per_topic.items()} == want and f'{amean:.5f}' == want_mean

def float32_order_is_float64_order(run_path):
    "Whether ordering by score (as float32, trec_eval's way) then docno equals ordering by the scores as doubles (gdeval's)."
    r = read_run(run_path)
    topic = r.qid
    o64 = np.lexsort((r.docno, r.score, topic))
    o32 = np.lexsort((r.docno, r.score.astype(np.float32), topic))
    return bool((o64 == o32).all())

def test_score_precision_does_not_matter_on_these_files(diversity):
    "gdeval reads scores as doubles, the 'trec' order as float32: on every file used here the orders agree."
    runs = [diversity / 'tiny' / n for n in ('irmeasures_gdeval.run', 'edge.div.run', 'edge.div.run2')]
    runs += sorted((diversity / 'runs').glob('*.txt'))
    assert all(float32_order_is_float64_order(p) for p in runs)

def test_gdeval_ignores_the_rank_column(diversity):
    "run2 swaps the rank column of the tied pair: the values are the same."
    tiny = diversity / 'tiny'
    a, b = (err(batch(tiny / 'edge.adhoc.qrels', tiny / r, False), k=20, preset='gdeval') for r in ('edge.div.run', 'edge.div.run2'))
    assert (a == b).all()

@pytest.mark.parametrize('run', ['ql.cata', 'ql.catb', 'rm.cata', 'rm.catb'])
@pytest.mark.parametrize('k', [5, 20])
@pytest.mark.parametrize('all_topics', [False, True])
def test_trec_web_2012_baselines_match_gdevals_rules(diversity, run, k, all_topics):
    "TREC Web 2012 ad hoc qrels (grades -2..4) and the organisers' baselines: per topic to 1e-12, and the amean."
    qrels, run_path = diversity / 'qrels' / 'wt2012.qrels.adhoc.txt', diversity / 'runs' / f'wt2012.baseline.{run}-filtered.txt'
    per_topic, amean = gdeval_reference(qrels, run_path, k, all_topics)
    b = batch(qrels, run_path, all_topics)
    ours = dict(zip(b.qids, err(b, k=k, preset='gdeval')))
    assert per_topic and all(abs(ours[t] - v) <= 1e-12 for t, v in per_topic.items())
    assert abs(mean_err(b, k=k, preset='gdeval') - amean) <= 1e-12
    assert (b.grades < 0).any()                               # the spam grade -2 is retrieved and counts 0
