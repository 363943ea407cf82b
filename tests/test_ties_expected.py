"""ties='expected' against a brute-force enumerator of every order of the tied documents.

Every supported metric (P, R, F, R-precision, Success, RR, AP with each denominator, CG, DCG, nDCG
and ERR) is computed on one batch per collection by `join(..., ties='expected')` and compared with
the mean over all orders of each query's tie groups, each order scored straight from the
definition. The rational metrics are enumerated in exact fractions: our float must lie within
1e-12 of the fraction, and where the fraction's denominator is at most 10^5 the float recovers it
exactly (`limit_denominator`). DCG/nDCG with the log2 discount are irrational and compared within
1e-12. Lists: every list of 1 to 5 documents with grades 0-2 and every split into tie groups
(exhaustive: 4,665 lists), and every split of 6 to 8 documents (224 splits, at most 4 tie groups of
two or more) once, with seeded grades 0-3: 4,889 lists, 23,214 distinct orders; every cutoff from 1 to one past the list, so that cutoffs cut through groups.
Also scikit-learn's ndcg_score/dcg_score (ignore_ties=False) on seeded tied data, and the refusals."""
import math, warnings
from fractions import Fraction as Fr
from itertools import permutations, product
import numpy as np
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning, EvalInputError
from rankmetrics_nb.engine.joins import join, join_subtopics
from rankmetrics_nb.metrics.precision import precision, recall, f_measure, r_precision, success
from rankmetrics_nb.metrics.reciprocal_rank import reciprocal_rank, mean_reciprocal_rank
from rankmetrics_nb.metrics.average_precision import average_precision, DENOMINATORS
from rankmetrics_nb.metrics.dcg import cumulative_gain, dcg, ndcg
from rankmetrics_nb.metrics.err import err, cascade_stop_probabilities, simulate_cascade
from rankmetrics_nb.metrics.rank_correlation import rank_correlation

GMAX = 3

# ---------------------------------------------------------------- the lists

def compositions(n:int):
    "Every split of n ranks into consecutive groups (sizes)."
    for cuts in product([False, True], repeat=n - 1):
        sizes, run = [], 1
        for c in cuts:
            if c: sizes.append(run); run = 1
            else: run += 1
        yield tuple(sizes + [run])

def tied_groups(sizes): return sum(s > 1 for s in sizes)

def cases():
    "(grades in the batch's fixed order, group sizes, extra unretrieved relevant grades): exhaustive small, seeded larger."
    out = []
    for n in range(1, 6):
        for sizes in compositions(n):
            for grades in product(range(3), repeat=n): out.append((grades, sizes))
    rng = np.random.default_rng(20080330)
    shapes = [s for n in range(6, 9) for s in compositions(n) if tied_groups(s) <= 4]   # all 224 of them
    for i in rng.permutation(len(shapes)):
        sizes = shapes[i]
        out.append((tuple(int(g) for g in rng.choice(4, sum(sizes), p=[.4, .3, .2, .1])), sizes))
    return [(g, s, (1,) * (i % 3) + (3,) * (i % 7 == 0)) for i, (g, s) in enumerate(out)]   # some relevant documents never retrieved

CASES = cases()

def orders(grades, sizes):
    "Every distinct grade sequence the tie groups can take (each equally likely: distinct arrangements share one multiplicity)."
    parts, at = [], 0
    for s in sizes:
        parts.append(sorted(set(permutations(grades[at:at + s])))); at += s
    for p in product(*parts): yield sum(p, ())

def collection(cases):
    "Qrels and run dicts: query i ranks its documents with one score per tie group; grade-0 documents of odd queries unjudged."
    qrels, run = {}, {}
    for i, (grades, sizes, extra) in enumerate(cases):
        q, docs = f'q{i:05d}', [f'd{j}' for j in range(len(grades))]
        scores = [float(len(sizes) - g) for g, s in enumerate(sizes) for _ in range(s)]
        run[q] = dict(zip(docs, scores))
        qrels[q] = {d: g for d, g in zip(docs, grades) if g > 0 or i % 2 == 0}
        qrels[q].update({f'x{j}': g for j, g in enumerate(extra)})
        if not qrels[q]: qrels[q] = {'x_none': 0}
    return qrels, run

# ---------------------------------------------------------------- the definitions, one order at a time
# Each rational value is kept as an integer numerator over a denominator that depends on the list only (not on the
# order): L = lcm(1..n) for sums of 1/i, 8^n for ERR's dyadic stop chances. Sums over orders are then sums of
# integers, and the exact mean is one Fraction per value at the end.

def denominators(n:int, R:dict, ks)->dict:
    "{key: the denominator of the key's integer numerator} for a list of n documents and R relevant per threshold."
    L, out = math.lcm(*range(1, n + 1)), {}
    for k in ks:
        m = n if k is None else k
        for rel in (1, 2):
            out['P', rel, k], out['R', rel, k] = m, R[rel]
            out['RR', rel, k], out['Success', rel, k] = L, 1
            out['AP', 'n_rel', rel, k], out['AP', 'retrieved', rel, k] = L * R[rel], L * L
            out['AP', 'min_n_rel_k', rel, k] = L * (R[rel] if k is None else min(R[rel], k))
        out['F', 1, k], out['F', 2, k] = R[1] + m, 4 * R[1] + m       # w = 1/2: 2·found/(R + m); w = 4/5: 5·found/(4R + m)
        out['RRtop', k], out['CG', k], out['DCG1/i', k], out['ERR', k] = L, 1, L, 8 ** n * L
    out['Rprec',] = R[1]
    return out

def reference(seq, judged, ks, L:int)->dict:
    "{key: value} of one order straight from the definitions: integer numerators (see `denominators`), floats for log2."
    n, R = len(seq), {r: sum(g >= r for g in judged) for r in (1, 2)}
    top = max(judged, default=0)
    w = [1 / math.log2(i + 2) for i in range(n)]
    ideal = sorted((max(g, 0) for g in judged), reverse=True)
    iw = [1 / math.log2(i + 2) for i in range(len(ideal))]
    at = {}                                            # state after each depth d (the top d documents)
    found, first, s, tfirst, cg, d1, dl, de, err_num, reach = {1: 0, 2: 0}, {1: 0, 2: 0}, {1: 0, 2: 0}, 0, 0, 0, 0.0, 0.0, 0, 1
    for d, g in enumerate(seq, 1):
        for rel in (1, 2):
            if g >= rel:
                found[rel] += 1; s[rel] += found[rel] * (L // d)
                first[rel] = first[rel] or d
        if g == top and top >= 1: tfirst = tfirst or d
        gain = max(g, 0)
        cg += gain; d1 += gain * (L // d); dl += gain * w[d - 1]; de += (2 ** gain - 1) * w[d - 1]
        b = 2 ** gain - 1                              # ERR: stop = b/8, read on = (8 - b)/8
        err_num += reach * b * 8 ** (n - d) * (L // d); reach *= 8 - b
        at[d] = (dict(found), dict(first), dict(s), tfirst, cg, d1, dl, de, err_num)
    out, ret = {}, sorted((max(g, 0) for g in seq), reverse=True)
    for k in ks:
        kk = n if k is None else min(k, n)
        found, first, s, tfirst, cg, d1, dl, de, err_num = at[kk]
        for rel in (1, 2):
            out['P', rel, k], out['R', rel, k], out['Success', rel, k] = found[rel], found[rel], int(found[rel] > 0)
            out['RR', rel, k] = L // first[rel] if first[rel] else 0
            out['AP', 'n_rel', rel, k] = out['AP', 'min_n_rel_k', rel, k] = s[rel]
            out['AP', 'retrieved', rel, k] = s[rel] * (L // found[rel]) if found[rel] else 0
        out['F', 1, k], out['F', 2, k] = 2 * found[1], 5 * found[1]
        out['RRtop', k] = L // tfirst if tfirst else 0
        out['CG', k], out['DCG1/i', k], out['ERR', k], out['DCG', k], out['DCGexp', k] = cg, d1, err_num, dl, de
        idcg = math.fsum(g * x for g, x in zip(ideal[:k], iw))
        rdcg = math.fsum(g * x for g, x in zip(ret[:kk], w))
        out['nDCG', k], out['nDCGret', k] = (dl / idcg if idcg > 0 else 0.0), (dl / rdcg if rdcg > 0 else 0.0)
    out['Rprec',] = sum(g >= 1 for g in seq[:R[1]])
    return out

def expected(case)->dict:
    "The mean over every order of the case's tie groups: exact fractions for the rational values, floats for log2."
    grades, sizes, extra = case
    judged, n = list(grades) + list(extra), len(grades)
    ks = list(range(1, n + 2)) + [None]
    R = {r: sum(g >= r for g in judged) for r in (1, 2)}
    den, L = denominators(n, R, ks), math.lcm(*range(1, n + 1))
    total, count = {}, 0
    for seq in orders(grades, sizes):
        for key, v in reference(seq, judged, ks, L).items(): total[key] = total.get(key, 0) + v
        count += 1
    return {key: (v / count if key not in den else Fr(v, den[key] * count) if den[key] else Fr(0)) for key, v in total.items()}

# ---------------------------------------------------------------- the batch and the comparison

@pytest.fixture(scope='module')
def tied():
    qrels, run = collection(CASES)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(qrels, run, ties='expected')
    assert len(b) == len(CASES)
    return b, [expected(c) for c in CASES]

def ours(b, key):
    "Our per-query value of the reference's `key`."
    name, *rest = key
    k = rest[-1] if rest else None
    if name in ('P', 'R', 'RR', 'Success'):
        f = dict(P=precision, R=lambda b, k, rel: recall(b, k, rel=rel), RR=reciprocal_rank, Success=success)[name]
        return f(b, k, rel=rest[0])
    if name == 'AP': return average_precision(b, k, denominator=rest[0], rel=rest[1])
    if name == 'F': return f_measure(b, k, beta=rest[0])
    if name == 'RRtop': return reciprocal_rank(b, k, by='most_relevant')
    if name == 'CG': return cumulative_gain(b, k)
    if name == 'DCG1/i': return dcg(b, k, discount=lambda r: 1 / r)
    if name == 'DCG': return dcg(b, k)
    if name == 'DCGexp': return dcg(b, k, gain='exp')
    if name == 'nDCG': return ndcg(b, k)
    if name == 'nDCGret': return ndcg(b, k, ideal='returned')
    if name == 'ERR': return err(b, k, max_grade=GMAX)
    if name == 'Rprec': return r_precision(b)
    raise KeyError(key)

def test_the_lists_cover_the_shapes():
    "Exhaustive up to 5 documents (every split, every grade 0-2), then seeded lists of 6-8 with up to 4 tied groups."
    small = [c for c in CASES if len(c[0]) <= 5]
    assert len(small) == sum(2 ** (n - 1) * 3 ** n for n in range(1, 6)) == 4665
    assert {len(c[0]) for c in CASES} == set(range(1, 9)) and len(CASES) == 4665 + 224
    assert max(tied_groups(c[1]) for c in CASES) == 4 and all(tied_groups(c[1]) <= 4 for c in CASES)
    assert max(max(c[1]) for c in CASES) == 8                                  # one group of all 8 documents

def test_every_metric_equals_the_enumeration(tied):
    b, want = tied
    keys = {key for w in want for key in w}
    assert len(keys) > 150
    for key in sorted(keys, key=str):
        got = ours(b, key)
        rows = [i for i, w in enumerate(want) if key in w]
        values = [want[i][key] for i in rows]
        np.testing.assert_allclose(got[rows], [float(v) for v in values], rtol=1e-12, atol=1e-13, err_msg=str(key))
        exact = [(i, v.numerator, v.denominator) for i, v in zip(rows, values) if isinstance(v, Fr) and v.denominator <= 10 ** 5]
        if exact:   # within 1/(2q²) of p/q: p/q is the only fraction with a denominator ≤ q that close (limit_denominator finds it)
            i, p, q = (np.array(a) for a in zip(*exact))
            assert (np.abs(got[i] - p / q) < 1 / (2.0 * q * q)).all(), key
            j = int(i[len(i) // 2]); assert Fr(float(got[j])).limit_denominator(int(q[len(q) // 2])) == want[j][key]

def test_expected_is_the_mean_of_the_fixed_orders():
    "On a few lists, the mean of the batches joined under every fixed order (ties='input') equals ties='expected'."
    rng = np.random.default_rng(9)
    for _ in range(12):
        grades = tuple(int(g) for g in rng.integers(0, 3, 5)); sizes = (1, 3, 1) if _ % 2 else (2, 3)
        qrels, run = collection([(grades, sizes, (1,))])
        b = join(qrels, run, ties='expected')
        docs = list(run['q00000'])
        groups, at = [], 0
        for s in sizes: groups.append(docs[at:at + s]); at += s
        fixed = [join(qrels, {'q00000': {d: 1.0 for d in sum(p, ())}}, ties='input')
                 for p in product(*[list(permutations(g)) for g in groups])]
        for k in (1, 2, 3, 4, None):
            for f in (precision, success, reciprocal_rank, average_precision, dcg, ndcg, lambda b, k: err(b, k, max_grade=2)):
                assert f(b, k)[0] == pytest.approx(np.mean([f(x, k)[0] for x in fixed]), rel=1e-12, abs=1e-14)

def test_large_groups_stay_finite():
    "A query of 3,000 tied documents: the mean products of ERR do not overflow, and the values match the closed forms."
    n = 3000
    qrels = {'q': {f'd{j:04d}': int(j % 10 == 0) * 3 for j in range(n)}}
    run = {'q': {f'd{j:04d}': 0.0 for j in range(n)}}
    b = join(qrels, run, ties='expected')
    e = err(b, max_grade=GMAX)[0]
    assert np.isfinite(e) and 0 < e < 1
    r = 300                                                    # relevant ones: RR = Σ_j C(n-j, r-1)/C(n, r) / j
    rr = sum(math.comb(n - j, r - 1) / math.comb(n, r) / j for j in range(1, n - r + 2))
    assert reciprocal_rank(b)[0] == pytest.approx(rr, rel=1e-10)
    assert precision(b, 7)[0] == pytest.approx(0.1, rel=1e-12)
    P = cascade_stop_probabilities(b, max_grade=GMAX)[0]
    assert P.sum() == pytest.approx(1 - (1 - 7 / 8) ** r, rel=1e-10)   # the whole group read past: Π(1 - R) in any order

# ---------------------------------------------------------------- scikit-learn

def test_scikit_learn_ndcg_and_dcg_with_ties():
    "ndcg_score/dcg_score (ignore_ties=False, their default) with k: our ideal='returned' (the row's grades sorted, then cut at k)."
    sk = pytest.importorskip('sklearn.metrics', reason='scikit-learn (a dev dependency) is not installed')
    rng = np.random.default_rng(1414)
    y_true = rng.integers(0, 5, (40, 15)) * (rng.random((40, 1)) < 0.9)
    y_score = np.round(rng.normal(size=(40, 15)), 0)               # a handful of values: tied groups in every row
    qrels = {f'q{i:02d}': {f'd{j:02d}': int(y_true[i, j]) for j in range(15)} for i in range(40)}
    run = {f'q{i:02d}': {f'd{j:02d}': float(y_score[i, j]) for j in range(15)} for i in range(40)}
    b = join(qrels, run, ties='expected')
    assert (b.tied.sum(axis=1) > 0).all()
    for k in (None, 1, 2, 3, 4, 6, 10, 15):
        nd = [sk.ndcg_score(y_true[i:i + 1], y_score[i:i + 1], k=k) for i in range(40)]
        dc = [sk.dcg_score(y_true[i:i + 1], y_score[i:i + 1], k=k) for i in range(40)]
        np.testing.assert_allclose(ndcg(b, k, ideal='returned'), nd, rtol=0, atol=1e-12)
        np.testing.assert_allclose(ndcg(b, k, preset='sklearn'), nd, rtol=0, atol=1e-12)
        np.testing.assert_allclose(dcg(b, k), dc, rtol=0, atol=1e-12)
        assert ndcg(b, k, ideal='returned').mean() == pytest.approx(sk.ndcg_score(y_true, y_score, k=k), abs=1e-12)

# ---------------------------------------------------------------- refusals and the join

def test_refusals_name_the_measure_and_why(tmp_path):
    qrels, run = {'q': {'a': 1, 'b': 0, 'c': 2}}, {'q': {'a': 1.0, 'b': 1.0, 'c': 0.5}}
    b = join(qrels, run, ties='expected')
    for f, what in [(lambda: rank_correlation(b), "rank_correlation does not support ties='expected'"),
                    (lambda: simulate_cascade(b, max_grade=2, seed=0), "simulate_cascade does not support ties='expected'"),
                    (lambda: ndcg(b, 1, ideal='returned_top_k'), "ndcg(ideal='returned_top_k') with a cutoff does not support"),
                    (lambda: mean_reciprocal_rank(b, 1, unanswered='skip'), "mean_reciprocal_rank(unanswered='skip') does not support"),
                    (lambda: join(qrels, run, ties='expected', depth=1), "depth=1 cuts through a tie group of query 'q'")]:
        with pytest.raises(EvalInputError, match=None) as e: f()
        assert what in str(e.value)
    with pytest.raises(EvalInputError, match="join_subtopics does not support ties='expected'"):
        (tmp_path/'div.qrels').write_text('q 1 a 1\nq 2 c 1\n')
        join_subtopics(tmp_path/'div.qrels', run, ties='expected')

def test_other_policies_carry_no_groups():
    qrels, run = {'q': {'a': 1}}, {'q': {'a': 1.0, 'b': 1.0}}
    for ties in ('trec', 'double', 'input'): assert join(qrels, run, ties=ties).tie_groups is None
    assert join(qrels, run, ties='expected').tie_groups.tolist() == [[0, 0]]
