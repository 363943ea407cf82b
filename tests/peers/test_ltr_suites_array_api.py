"""The learning-to-rank suites of TF-Ranking, Rax and torchmetrics (`ltr_cases.py`) again, on `array_api_strict` arrays:
each case runs as in test_ltr_suites.py, with every matrix `evaluate_batch` receives (scores, labels, mask, item and list
weights) given as an array_api_strict array. The result must come back in that namespace (computed there by the batch
kernels, never copied to numpy), and its values must meet the source's own assertion. Every measure of the suites has a batch
kernel now (NO_KERNEL is empty; a case of a measure without one would have to be refused with the one namespace error); a case whose discount is a
Python callable runs the list functions on numpy and is not counted. The counts of each kind are pinned, so a measure
that stops running in the namespace fails here."""
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

xps = pytest.importorskip('array_api_strict')
pytest.importorskip('array_api_compat')
sys.path.insert(0, str(Path(__file__).parent))
import ltr_cases as L                      # noqa: E402
import test_ltr_suites as T                # noqa: E402
from rankmetrics_nb import EvalInputError  # noqa: E402
from rankmetrics_nb.evaluator.batches import evaluate_batch, ArrayBatchEvaluation  # noqa: E402

NO_KERNEL = ('Bpref', 'alpha_DCG', 'P_IA')
RUNNERS = {'tf_ranking': T.test_tf_ranking, 'rax': T.test_rax, 'torchmetrics': T.test_torchmetrics}
# (reproduced in the namespace, refused for want of a kernel, run on numpy for a callable discount) per tool
EXPECTED = {'tf_ranking': (220, 0, 5), 'rax': (80, 0, 0), 'torchmetrics': (16, 0, 0)}


def _strict(x):
    if x is None or isinstance(x, str): return x
    a = np.asarray(x)
    return xps.asarray(a if a.dtype == bool else a.astype(np.float64))


class _NoKernel(Exception):
    "The namespace refusal, carried past the suites' own `pytest.raises(EvalInputError)` checks"


def run_case(tool: str, case, monkeypatch) -> str:
    "'namespace', 'refused' or 'host': how the case ran (it failed the test if its values were wrong)"
    calls = []

    def in_strict(scores, labels, measures, **kw):
        for k in ('mask', 'weights', 'list_weights'): kw[k] = _strict(kw.get(k))
        calls.append(measures)                 # (a refusal the suite expects, such as empty='error', counts as run here)
        try: e = evaluate_batch(_strict(scores), _strict(labels), measures, **kw)
        except EvalInputError as err:
            if 'cannot be evaluated on array_api_strict arrays' in str(err): raise _NoKernel(str(err)) from None
            raise
        assert isinstance(e, ArrayBatchEvaluation) and type(e.values).__module__.startswith('array_api_strict')
        return e.to_numpy()

    monkeypatch.setattr(T, 'evaluate_batch', in_strict)
    try: RUNNERS[tool](case)
    except _NoKernel as err:
        assert str(err).split('(')[0].split('@')[0].split()[0] in NO_KERNEL, str(err)
        return 'refused'
    return 'namespace' if calls else 'host'


@pytest.mark.parametrize('tool,case', [(t, c) for t in RUNNERS for c in L.by_tool(t)], ids=lambda x: getattr(x, 'test', x))
def test_peer_case_on_array_api_strict(tool, case, monkeypatch):
    assert run_case(tool, case, monkeypatch) in ('namespace', 'refused', 'host')


def test_counts_of_each_kind(monkeypatch):
    "Every case of the three suites, counted by how it ran: the pinned counts (independent of the test order)."
    got = Counter()
    for tool in RUNNERS:
        for case in L.by_tool(tool):
            with monkeypatch.context() as mp: got[tool, run_case(tool, case, mp)] += 1
    assert {t: (got[t, 'namespace'], got[t, 'refused'], got[t, 'host']) for t in RUNNERS} == EXPECTED
