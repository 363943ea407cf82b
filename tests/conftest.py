import os, warnings
from pathlib import Path
import pytest
from hypothesis import settings, strategies as st, HealthCheck

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get('RANKMETRICS_SHARED', ROOT.parent / 'shared'))
TREC_EVAL = SHARED / 'conformance' / 'trec_eval'
DIVERSITY = SHARED / 'conformance' / 'diversity'     # TREC Web 2012 qrels and runs, gdeval/ndeval outputs

def trec_eval_printed(path, measure)->dict:
    "{qid: value as printed} of `measure` in a trec_eval output file (lines `measure<TAB>qid<TAB>value`)."
    out = {}
    for line in Path(path).read_text().splitlines():
        name, qid, value = line.split('\t')
        if name.strip() == measure: out[qid] = value
    return out

@pytest.fixture
def trec_eval_dir():
    "The trec_eval conformance folder; the test skips (saying why) where it is absent, as in a user's clone."
    if not TREC_EVAL.is_dir():
        pytest.skip(f"trec_eval conformance data not found at {TREC_EVAL} (set RANKMETRICS_SHARED to the shared/ folder)")
    return TREC_EVAL

@pytest.fixture(scope='session')
def trec_scale(tmp_path_factory):
    "The benchmark's seeded TREC-scale collection (50 queries x 1,000 documents, graded): {'qrels': path, 'run': path}."
    import importlib.util
    spec = importlib.util.spec_from_file_location('bench_make_data', ROOT/'benchmarks'/'make_data.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    folder = tmp_path_factory.mktemp('bench-data')
    mod.ensure('trec', data_dir=folder)
    return {k: Path(v) for k, v in mod.paths('trec', folder).items()}

def pytrec():
    "The pytrec_eval module; the test skips (saying why) where it is absent."
    return pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')

@pytest.fixture(scope='session')
def trec_dicts(trec_scale):
    "The TREC-scale qrels and run as pytrec_eval's own parsers read them (the test skips where pytrec_eval is absent)."
    pytrec_eval = pytrec()
    with open(trec_scale['qrels']) as f: qrels = pytrec_eval.parse_qrel(f)
    with open(trec_scale['run']) as f: run = pytrec_eval.parse_run(f)
    return qrels, run

def quiet_join(*args, **kw):
    "`join`, without the warning about queries on one side only."
    from rankmetrics_nb import join, QueryMismatchWarning
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        return join(*args, **kw)

SEEDED = settings(derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])   # no unseeded randomness

@st.composite
def collections(draw, docs, # the document ids to draw from
                scores, # the scores to draw from
                grades=(-1, 3), # the range of the grades
                ranked=10, # most documents a query ranks
                judged=12, # most documents a query's judgements cover
                qids=None, # query ids to draw from (default: q0, q1, ...)
                positive=True, # every query gets a grade >= 0 (pytrec_eval-terrier 0.5 corrupts memory on a query judged only negatively)
               ):
    "A qrels and a run dict over the same 1-4 queries; judgements may cover documents the run never ranks."
    qrels, run = {}, {}
    names = draw(st.lists(st.sampled_from(qids), unique=True, min_size=1, max_size=4)) if qids else \
            [f'q{q}' for q in range(draw(st.integers(1, 4)))]
    for q in names:
        ranked_docs = draw(st.lists(st.sampled_from(docs), unique=True, min_size=1, max_size=ranked))
        judged_docs = draw(st.lists(st.sampled_from(docs), unique=True, min_size=1, max_size=judged))
        run[q] = {d: draw(st.sampled_from(scores)) for d in ranked_docs}
        g = [draw(st.integers(*grades)) for _ in judged_docs]
        if positive and max(g) < 0: g[0] = 0
        qrels[q] = dict(zip(judged_docs, g))
    return qrels, run


@pytest.fixture(scope='session')
def jnp():
    "JAX's numpy on the CPU with float64 (the array-API tests compare to 1e-12); the test skips where JAX is not installed."
    jax = pytest.importorskip('jax')
    jax.config.update('jax_enable_x64', True)
    jax.config.update('jax_platforms', 'cpu')
    import jax.numpy as jnp
    return jnp
