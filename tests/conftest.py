import os, sys
from pathlib import Path
import pytest

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

@pytest.fixture(scope='session')
def trec_dicts(trec_scale):
    "The TREC-scale qrels and run as pytrec_eval's own parsers read them (the test skips where pytrec_eval is absent)."
    pytrec_eval = pytest.importorskip('pytrec_eval', reason='pytrec_eval-terrier (a dev dependency) is not installed')
    with open(trec_scale['qrels']) as f: qrels = pytrec_eval.parse_qrel(f)
    with open(trec_scale['run']) as f: run = pytrec_eval.parse_run(f)
    return qrels, run
