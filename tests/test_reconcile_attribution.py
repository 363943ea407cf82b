"""`reconcile` on seeded random inputs (ties, unjudged documents, queries missing on either side, queries without a
relevant document, scores <= 0, runs not in score order): every column is `evaluate` under the tool's preset (the
engine joins only the queries where a tie policy can differ, and splices them onto a full join: this checks the splice
against full joins), and every attribution is exact (its parts sum to the difference), antisymmetric, and the same
whatever the order the tools are listed in."""
import itertools, warnings
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.evaluator.evaluate import evaluate
from rankmetrics_nb.registry.conventions import CONVENTIONS, Convention
from rankmetrics_nb.results.reconcile import reconcile, reconcile_measures, shapley

def messy_inputs(seed:int):
    "A qrels dict and a run dict with every complication, seeded."
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(int(rng.integers(5, 15))):
        n = int(rng.integers(1, 40))
        docs = [f'd{i}' for i in rng.choice(200, n, replace=False)]
        scores = np.round(rng.normal(0.5, 0.5, n), int(rng.integers(0, 3)))          # some ≤ 0, ties from rounding
        if rng.random() < 0.5: scores = np.sort(scores)[::-1]                           # half the queries in score order
        if rng.random() < 0.9: run[f'q{q}'] = dict(zip(docs, map(float, scores)))
        if rng.random() < 0.9:
            judged = [d for d in docs if rng.random() < 0.6] + ['missing'] * int(rng.random() < 0.5)
            qrels[f'q{q}'] = {d: int(rng.integers(-1, 4)) if rng.random() < 0.85 else 0 for d in judged} or {'z': 0}
    if not run: run['q0'] = {'a': 1.0}
    if not qrels: qrels['q0'] = {'a': 1}
    return qrels, run

MEASURES = ['nDCG@10', 'AP', 'RR', 'P@5', 'nDCG(gain=exp)@5', 'AP@10', 'R@20', 'ERR@10']

def quiet_evaluate(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return evaluate(*args, warn_ties=None, **kw)

@pytest.mark.parametrize('seed', range(10))
def test_columns_are_evaluate_under_each_preset(seed):
    qrels, run = messy_inputs(seed)
    for m, r in reconcile_measures(qrels, run, MEASURES).items():
        for tool, p in r.profiles.items():
            if p.nonpositive == 'not retrieved': continue                 # (a rule evaluate's preset does not apply)
            want = quiet_evaluate(qrels, run, m, conventions=None if tool == 'ours' else tool)[m]
            assert float(r.means[tool]) == pytest.approx(float(want), abs=1e-12), (seed, m, tool)
            assert r.means[tool].n == want.n, (seed, m, tool)
            per_q = quiet_evaluate(qrels, run, m, conventions=None if tool == 'ours' else tool, per_query=True)
            for q, v in per_q.items():
                got = r.per_query[q][tool]
                assert got == pytest.approx(v[m], abs=1e-12) or (np.isnan(got) and np.isnan(v[m])), (seed, m, tool, q)

@pytest.mark.parametrize('seed', range(10))
def test_attributions_are_exact_and_antisymmetric(seed):
    qrels, run = messy_inputs(seed)
    for m, r in reconcile_measures(qrels, run, ['nDCG@10', 'AP', 'RR', 'P@5']).items():
        for a, b in itertools.combinations(r.profiles, 2):
            att, back = r.attribution(a, b), r.attribution(b, a)
            assert sum(att.values()) == pytest.approx(att.total, abs=1e-12), (seed, m, a, b)
            assert att.total == pytest.approx(float(r.means[b]) - float(r.means[a]), abs=0)
            assert sum(v.sum() for v in att.per_query.values()) == pytest.approx(att.total, abs=1e-12)
            assert set(att) == set(back) and all(att[c] == pytest.approx(-back[c], abs=1e-12) for c in att)
            assert set(att) == {c for c, v in r.profiles[a].conventions().items() if r.profiles[b].conventions()[c] != v}

@pytest.mark.parametrize('seed', range(4))
def test_attributions_do_not_depend_on_the_order_of_the_tools(seed):
    qrels, run = messy_inputs(seed)
    tools = ['ours', *CONVENTIONS]
    order = list(np.random.default_rng(seed).permutation(tools))
    r1, r2 = reconcile(qrels, run, 'nDCG@10', tools=tools), reconcile(qrels, run, 'nDCG@10', tools=order)
    for a, b in itertools.permutations(r1.profiles, 2):
        assert dict(r1.attribution(a, b)) == dict(r2.attribution(a, b))          # to the bit

def test_one_cause_gets_the_whole_difference_on_random_inputs():
    "Tools whose presets differ in one convention: the part is the whole difference, however the inputs look."
    drop = Convention('drop', 'scores ≤ 0 not retrieved', dict(ties='trec', nonpositive='not retrieved'))
    adaptive = Convention('adaptive', 'P over min(k, retrieved)', dict(ties='trec'), {'P': {'adaptive_k': True}})
    cases = [('AP', 'ir_measures', 'pytrec_eval', 'queries the run misses'), ('RR', 'ir_measures', 'ranx', 'tie order'),
             ('AP', 'ours', drop, 'scores ≤ 0'), ('P@30', 'ours', adaptive, 'cutoff beyond the list'),
             ('nDCG@10', 'trec_eval', 'trec_eval9', 'tie order')]
    for seed in range(8):
        qrels, run = messy_inputs(seed)
        for m, a, b, cause in cases:
            r = reconcile(qrels, run, m, tools=[a, b])
            if len(r.profiles) < 2: continue                              # (ranx refused: long tied lists)
            att = r.attribution(*r.profiles)
            assert set(att) == {cause} and att[cause] == pytest.approx(att.total, abs=1e-12), (seed, m, cause)

def test_shapley_is_the_average_over_orders():
    "Against the definition: each convention's marginal change averaged over every order of switching."
    rng = np.random.default_rng(5)
    table = {frozenset(S): rng.random() for r in range(5) for S in itertools.combinations('abcd', r)}
    got = shapley(table.__getitem__, list('abcd'))
    for c in 'abcd':
        ms = [table[frozenset(o[:o.index(c) + 1])] - table[frozenset(o[:o.index(c)])] for o in itertools.permutations('abcd')]
        assert got[c] == pytest.approx(np.mean(ms), abs=1e-14)
