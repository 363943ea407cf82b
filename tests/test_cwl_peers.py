"""The C/W/L measures against cwl_eval 1.0.12 itself: its main() reads gain, run and metric files written here,
and each metric's expected utility is compared per query to 1e-12, on seeded random collections (unjudged documents,
runs of 1 to 60 documents, queries without relevant documents, k and T and p drawn) and on the benchmark's TREC-scale
collection. Also: the registry names through ir_measures' cwl_eval provider (the grade scaling by min_rel/max_rel and
negative grades), and cwl_eval's command line at its printed 4 decimals."""
import contextlib, logging, os, subprocess, sys, tempfile, warnings
from pathlib import Path
import numpy as np
import pytest
from rankmetrics_nb import join, QueryMismatchWarning, read_qrels, read_run
from rankmetrics_nb.metrics.cwl import bpm, insq, inst, nerr8, nerr9, nerr10, nerr11, sdcg, rbp
from rankmetrics_nb.registry.measures import parse_measure

cwl = pytest.importorskip('cwl', reason='cwl-eval (a dev dependency) is not installed')
sys.path.insert(0, os.path.dirname(cwl.__file__))     # cwl_eval loads its metric classes as `ruler.measures.*`
from cwl import cwl_eval

class _Capture(cwl_eval.CWLRuler):
    "cwl_eval's ruler, recording (query, expected utility) instead of printing 4 decimals."
    rows = []
    def report(self):
        for m in self.metrics: _Capture.rows.append((m.ranking.topic_id, m.expected_utility))

def write_files(folder, gains, ranked, metrics):
    (folder/'gains').write_text(''.join(f"{q} 0 {d} {float(v)!r}\n" for q, gd in gains.items() for d, v in gd.items()))
    (folder/'run').write_text(''.join(f"{q} Q0 {d} {r + 1} {len(docs) - r} x\n" for q, docs in ranked.items() for r, d in enumerate(docs)))
    (folder/'metrics').write_text('\n'.join(metrics) + '\n')

def cwl_eval_values(gains, ranked, metrics, max_n=1000)->dict:
    "{(query, metric number): EU} from cwl_eval's main() on files written to a temporary folder."
    with tempfile.TemporaryDirectory() as d, contextlib.chdir(d):
        write_files(Path(d), gains, ranked, metrics)
        _Capture.rows, saved = [], cwl_eval.CWLRuler
        cwl_eval.CWLRuler = _Capture
        try: cwl_eval.main('run', 'gains', metrics_file='metrics', max_n=max_n)
        finally:
            cwl_eval.CWLRuler = saved
            log = logging.getLogger('cwl')
            for h in list(log.handlers): log.removeHandler(h); h.close()
    return {(q, j % len(metrics)): v for j, (q, v) in enumerate(_Capture.rows)}

def random_collection(rng, n_queries=10, top=None):
    "qrels {q: {doc: grade}} (some documents unjudged, one query without relevant documents) and rankings {q: [docs]}."
    top = int(rng.integers(1, 5)) if top is None else top
    qrels, ranked = {}, {}
    for q in range(n_queries):
        n = int(rng.integers(1, 60))
        grades = rng.integers(0, top + 1, n) * (q != 2)
        qrels[f'q{q}'] = {f'd{j}': int(g) for j, g in enumerate(grades) if rng.random() < 0.8} | {'zz': 0}
        ranked[f'q{q}'] = [f'd{j}' for j in rng.permutation(n)]
    return qrels, ranked, top

def as_batch(qrels, ranked):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return join(qrels, {q: {d: float(len(docs) - r) for r, d in enumerate(docs)} for q, docs in ranked.items()})

def compare(b, ours, theirs, j):
    expected = np.array([theirs[(q, j)] for q in b.qids])
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)
    return float(np.abs(ours - expected).max())

@pytest.mark.parametrize('seed', range(30))
def test_random_collections(seed):
    rng = np.random.default_rng(seed)
    qrels, ranked, top = random_collection(rng)
    b = as_batch(qrels, ranked)
    k, T, p = int(rng.integers(1, 25)), float(rng.choice([0.5, 1.0, 2.0, 3.0])), float(rng.choice([0.5, 0.8, 0.9, 0.95]))
    depth = int(rng.choice([1000, 20]))                             # cwl_eval's --max_depth, also below the list lengths
    kw = dict(max_rel=top, max_depth=depth)
    pairs = [(f'BPMCWLMetric({T},{k})', bpm(b, k, T=T, **kw)), (f'INSQCWLMetric({T})', insq(b, T=T, **kw)),
             (f'INSTCWLMetric({T})', inst(b, T=T, **kw)), (f'NERReq8CWLMetric({k})', nerr8(b, k, **kw)),
             (f'NERReq9CWLMetric({k})', nerr9(b, k, **kw)), (f'NERReq10CWLMetric({p})', nerr10(b, p=p, **kw)),
             (f'NERReq11CWLMetric({T})', nerr11(b, T=T, **kw)), (f'NDCGCWLMetric({k})', sdcg(b, k, **kw))]
    theirs = cwl_eval_values({q: {d: g / top for d, g in gd.items()} for q, gd in qrels.items()}, ranked, [n for n, _ in pairs], max_n=depth)
    for j, (_, ours) in enumerate(pairs): compare(b, ours, theirs, j)
    level = int(rng.integers(1, top + 1))                           # RBP: binary gains at grade >= rel
    binary = cwl_eval_values({q: {d: float(g >= level) for d, g in gd.items()} for q, gd in qrels.items()}, ranked,
                             [f'RBPCWLMetric({p})'], max_n=depth)
    compare(b, rbp(b, p=p, rel=level, max_depth=depth), binary, 0)

def test_trec_scale(trec_scale):
    "50 queries x 1,000 documents, graded, as read by our readers and by cwl_eval (after scaling the grades)."
    qrels, run = read_qrels(trec_scale['qrels']), read_run(trec_scale['run'])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        b = join(qrels, run)
    grades = b.ideal
    top = int(np.nanmax(grades))
    docnos = b.docnos()
    ranked = {q: [d for d in docnos[i] if d] for i, q in enumerate(b.qids)}
    gains = {q: {d: max(g, 0) / top for d, g, j in zip(docnos[i], b.grades[i], b.judged[i]) if d and j} for i, q in enumerate(b.qids)}
    gains = {q: gd | {'zz-not-retrieved': 0.0} for q, gd in gains.items()}
    pairs = [('INSTCWLMetric(2.0)', inst(b, T=2, max_rel=top)), ('BPMCWLMetric(1.0,20)', bpm(b, 20, max_rel=top)),
             ('NERReq10CWLMetric(0.9)', nerr10(b, max_rel=top)), ('NDCGCWLMetric(10)', sdcg(b, 10, max_rel=top))]
    theirs = cwl_eval_values(gains, ranked, [n for n, _ in pairs])
    for j, (_, ours) in enumerate(pairs): compare(b, ours, theirs, j)

@pytest.mark.parametrize('seed', range(4))
def test_registry_names_through_ir_measures(seed):
    "ir_measures' names and parameters, computed by its cwl_eval provider, against the registry (grades -1..3, min_rel > 0 too)."
    ir_measures = pytest.importorskip('ir_measures')
    rng = np.random.default_rng(100 + seed)
    qrels, ranked, _ = random_collection(rng, top=3)
    qrels = {q: {d: (g if rng.random() > 0.1 else -1) for d, g in gd.items()} for q, gd in qrels.items()}
    run = {q: {d: float(len(docs) - r) for r, d in enumerate(docs)} for q, docs in ranked.items()}
    b = as_batch(qrels, ranked)
    lo = int(seed % 2)
    names = [f'BPM(T=2.0,min_rel={lo},max_rel=3)@10', f'SDCG(min_rel={lo},max_rel=3)@5', f'NERR8(min_rel={lo},max_rel=3)@10',
             f'NERR9(min_rel={lo},max_rel=3)@10', f'NERR10(p=0.8,min_rel={lo},max_rel=3)', f'NERR11(T=2.0,min_rel={lo},max_rel=3)',
             f'INST(T=2.0,min_rel={lo},max_rel=3)', f'INSQ(min_rel={lo},max_rel=3)', 'RBP(p=0.9,rel=2)']
    theirs = {}
    logging.getLogger('ir_measures.cwl_eval').disabled = True
    for m in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names], qrels, run):
        theirs[(str(m.measure), m.query_id)] = m.value
    for n in names:
        irm = str(ir_measures.parse_measure(n))
        ours = parse_measure(n).compute(b)
        expected = np.array([theirs[(irm, q)] for q in b.qids])
        np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12, err_msg=n)

def test_command_line(tmp_path):
    "The cwl-eval script itself, at the 4 decimals it prints."
    exe = Path(sys.executable).parent / 'cwl-eval'
    if not exe.exists(): pytest.skip(f'the cwl-eval script is not at {exe}')
    rng = np.random.default_rng(7)
    qrels, ranked, top = random_collection(rng, n_queries=6)
    b = as_batch(qrels, ranked)
    write_files(tmp_path, {q: {d: g / top for d, g in gd.items()} for q, gd in qrels.items()}, ranked,
                ['INSTCWLMetric(1.0)', 'NERReq9CWLMetric(5)', 'BPMCWLMetric(2.0,10)'])
    out = subprocess.run([sys.executable, str(exe), 'gains', 'run', '-m', 'metrics'], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    printed = [line.split('\t') for line in out.splitlines()]
    ours = {'INST': inst(b, max_rel=top), 'NERR': nerr9(b, 5, max_rel=top), 'BPM': bpm(b, 10, T=2, max_rel=top)}
    row = {q: i for i, q in enumerate(b.qids)}
    assert len(printed) == 3 * len(ranked)
    for q, name, eu, *_ in printed:
        assert abs(float(eu) - ours[name.split('-')[0]][row[q]]) <= 5e-5, (q, name)

def test_no_relevant_and_empty():
    "Queries without relevant documents, empty lists and qrels queries the run does not rank: 0 for every measure."
    b = join({'a': {'x': 0}, 'b': {'y': 2}, 'c': {'z': 1}}, {'a': {'x': 1.0, 'u': 0.5}, 'c': {'z': 1.0}}, queries='qrels')
    assert list(b.qids) == ['a', 'b', 'c']
    for f in (lambda b: bpm(b, 5, max_rel=2), lambda b: insq(b, max_rel=2), lambda b: inst(b, max_rel=2), lambda b: nerr8(b, 3, max_rel=2),
              lambda b: nerr9(b, 3, max_rel=2), lambda b: nerr10(b, max_rel=2), lambda b: nerr11(b, max_rel=2), lambda b: sdcg(b, 3, max_rel=2),
              lambda b: rbp(b)):
        v = f(b)
        assert v[0] == 0 and v[1] == 0 and v[2] > 0

def test_registry_rules():
    "max_rel has no default (ir_measures requires it); BPM, SDCG, NERR8 and NERR9 need a cutoff; the others take none."
    from rankmetrics_nb import EvalInputError
    b = join({'q': {'a': 2}}, {'q': {'a': 1.0}})
    with pytest.raises(EvalInputError, match='max_rel is required'): parse_measure('INST').compute(b)
    for name in ('BPM', 'SDCG', 'NERR8', 'NERR9'):
        with pytest.raises(EvalInputError, match='needs a cutoff'): parse_measure(f'{name}(max_rel=2)')
    for name in ('INST', 'INSQ', 'NERR10', 'NERR11', 'RBP', 'Compat'):
        with pytest.raises(EvalInputError, match='takes no cutoff'): parse_measure(f'{name}@10')
    assert str(parse_measure('NERR10(p=0.9,max_rel=2)')) == 'NERR10(max_rel=2)'                  # defaults are not written
    assert parse_measure('SDCG(dcg=log2,max_rel=2)@1').compute(b)[0] == 1
