import os, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get('RANKMETRICS_SHARED', ROOT.parent / 'shared'))
TREC_EVAL = SHARED / 'conformance' / 'trec_eval'

@pytest.fixture
def trec_eval_dir():
    "The trec_eval conformance folder; the test skips (saying why) where it is absent, as in a user's clone."
    if not TREC_EVAL.is_dir():
        pytest.skip(f"trec_eval conformance data not found at {TREC_EVAL} (set RANKMETRICS_SHARED to the shared/ folder)")
    return TREC_EVAL
