#!/usr/bin/env python
"""Benchmark rankmetrics_nb against peers (pytrec_eval, optionally ranx) on TREC files.

Every measurement is one *job* (tool x stage) run on one dataset in a **fresh
subprocess**; the child times only the stage itself (imports and untimed inputs are
prepared first) and reports its wall time and peak RSS.  Each job is repeated
``--repeat`` times (repetitions interleaved across jobs) and the median is reported.

    .venv/bin/python benchmarks/run.py                        # msmarco + trec, 3 repeats
    .venv/bin/python benchmarks/run.py --quick --repeat 1     # smoke test (700-query MS MARCO)
    .venv/bin/python benchmarks/run.py --datasets trec --tools ours,pytrec_eval,ranx
    .venv/bin/python benchmarks/run.py --list                 # registered jobs

Adding a job: write a generator function decorated with ``@job(tool, stage)``.  It
receives the qrels and run paths and yields three times::

    @job("mytool", "load")
    def _(qrels_path, run_path):
        import mytool                  # untimed: imports, inputs for this stage
        yield                          # clock starts
        q, r = mytool.load(qrels_path), mytool.load(run_path)
        yield                          # clock stops (peak RSS is read here)
        yield {"queries": len(q)}      # optional, untimed: info recorded in the JSON

Only the standard library is imported at module level so a child's baseline is clean.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS_DIR = HERE / "results"
RESULT_MARK = "@@BENCH-RESULT@@ "

# Measures every tool is asked for -- keep the tools' sets equivalent.  pytrec_eval (trec_eval)
# has no reciprocal rank with a cutoff, so it computes six of the seven (no RR@10).
MEASURES = ["nDCG@10", "nDCG", "AP", "RR", "RR@10", "P@10", "R@100"]
PYTREC_MEASURES = {"ndcg_cut.10", "ndcg", "map", "recip_rank", "P.10", "recall.100"}
RANX_METRICS = ["ndcg@10", "ndcg", "map", "mrr", "mrr@10", "precision@10", "recall@100"]
MEASURES6 = [m for m in MEASURES if m != "RR@10"]           # the six every tool computes (dicts, runs20, process stages)
RANX_METRICS6 = [m for m in RANX_METRICS if m != "mrr@10"]


def applies(stage: str, dataset: str) -> bool:
    "runs20 runs on the 20-run dataset only, and that dataset has no other stage."
    return (stage == "runs20") == (dataset == "msmarco-runs20")


def _run_files(run_path) -> list:
    "Every run file of the dataset whose first run is `run_path` (run.txt, run_01.txt, ...)."
    d = Path(run_path).parent
    return [Path(run_path)] + sorted(d.glob("run_*.txt"))

# Canonical stages, in table order.  A tool implements any subset.
STAGES = {
    "load": "parse only: the qrels + run files into the tool's in-memory form",
    "join": "align run with qrels into per-query graded rankings (no metrics)",
    "evaluate": "in memory: from loaded inputs to per-query values of the measures",
    "metrics": "the metrics alone, from an already joined batch (ours only: peers have no such stage)",
    "e2e": "files -> per-query values of the measures",
    "warmup": "ranx only: numba compiles (or loads from its cache) its kernels on a tiny input, in a fresh process",
    "all_trec": "trec_eval's whole measure set, files -> per-query values (ours: `trec_eval -q -m all_trec`, text "
                "to /dev/null; pytrec_eval: all its supported_measures, trec_eval 9's set)",
    "dicts": "{qid: {docno: value}} dicts in memory -> per-query values of the six measures pytrec_eval computes",
    "runs20": "20 run files against one qrels file -> per-query values of the six measures, for every run (the qrels read once)",
    "process": "a fresh Python process: start, import the tool, files -> per-query values of the six measures (what a script pays)",
    "dropin": "pytrec_eval's interface on {qid: {docno: value}} dicts: RelevanceEvaluator(qrels, measures) + evaluate(run) -> "
              "its result dict (ours: rankmetrics_nb.interop.dropin.pytrec_eval, the drop-in)",
    "all_prefs": "trec_eval's preference measures on the qrels read as preferences, files -> per-query values (ours only: "
                 "`trec_eval -q -R qrels_prefs -m all_prefs`, text to /dev/null)",
}


# --------------------------------------------------------------------------- registry
@dataclass(frozen=True)
class Job:
    tool: str
    stage: str
    fn: Callable[[str, str], Iterator]
    metrics: bool  # does the timed section compute the metrics?
    doc: str

    @property
    def name(self) -> str:
        return f"{self.tool}.{self.stage}"


JOBS: dict[str, Job] = {}


def job(tool: str, stage: str, *, metrics: bool = False):
    assert stage in STAGES, stage

    def deco(fn):
        j = Job(tool, stage, fn, metrics, (fn.__doc__ or "").strip())
        JOBS[j.name] = j
        return fn

    return deco


class Unavailable(Exception):
    """Raised during a job's untimed setup when the tool is not importable (yet)."""


# --------------------------------------------------------------------------- ours
def _module_of(path: str, flat: str):
    "The package's module `path` (0.2's subpackages), or `flat` in a checkout of 0.1 timed with --baseline"
    import importlib
    try: return importlib.import_module(f"rankmetrics_nb.{path}")
    except ModuleNotFoundError: return importlib.import_module(f"rankmetrics_nb.{flat}")


def _ours():
    try:
        from rankmetrics_nb import read_qrels, read_run, join
    except ImportError as e:
        raise Unavailable(f"rankmetrics_nb: {e}") from None
    return read_qrels, read_run, join


def _batch_info(batch) -> dict:
    g = getattr(batch, "grades", None)
    info = {"type": type(batch).__name__}
    if g is not None:
        import numpy as np

        info.update(shape=list(g.shape), dtype=str(g.dtype),
                    filled=float(np.isfinite(g).mean()) if g.size else 0.0,
                    relevant_retrieved=int(np.nansum(g > 0)))
    for attr in ("qids", "n_rel"):
        v = getattr(batch, attr, None)
        if v is not None:
            info[f"len_{attr}"] = len(v)
    n_rel = getattr(batch, "n_rel", None)
    if n_rel is not None:
        info["total_n_rel"] = float(sum(n_rel))
    return info


# The measures alone, on a joined batch (the "metrics" stage): the seven MEASURES, as evaluate computes them.
def _our_metrics(batch):
    """MEASURES from one batch, each by its registry entry (the same calls evaluate makes)."""
    from rankmetrics_nb import parse_measure
    return {m: parse_measure(m).compute(batch) for m in MEASURES}


def _our_evaluate():
    """`rankmetrics_nb.evaluate` (files or loaded inputs -> {qid: {measure: value}})."""
    try:
        from rankmetrics_nb import evaluate
    except ImportError as e:
        raise Unavailable(f"rankmetrics_nb.evaluate: {e}") from None
    return lambda q, r: evaluate(q, r, MEASURES, per_query=True)


def _per_query_means(res) -> dict:
    """{qid: {measure: value}} -> {measure: mean over queries} (for cross-checking the tools)."""
    if not res:
        return {}
    keys = next(iter(res.values())).keys()
    return {k: sum(v[k] for v in res.values()) / len(res) for k in sorted(keys)}


OUR_METRICS: Callable | None = _our_metrics


@job("ours", "load")
def _ours_load(qrels_path, run_path):
    """read_qrels + read_run"""
    read_qrels, read_run, _ = _ours()
    yield
    q = read_qrels(qrels_path)
    r = read_run(run_path)
    yield
    yield {"qrels_type": type(q).__name__, "run_type": type(r).__name__}


@job("ours", "join")
def _ours_join(qrels_path, run_path):
    """join(qrels, run) on already-parsed inputs (ties='trec')"""
    read_qrels, read_run, join = _ours()
    q, r = read_qrels(qrels_path), read_run(run_path)
    yield
    batch = join(q, r)
    yield
    yield _batch_info(batch)


@job("ours", "evaluate", metrics=True)
def _ours_evaluate(qrels_path, run_path):
    """evaluate(qrels, run, MEASURES, per_query=True) on already-parsed Qrels/Run"""
    read_qrels, read_run, _ = _ours()
    evaluate = _our_evaluate()
    q, r = read_qrels(qrels_path), read_run(run_path)
    yield
    res = evaluate(q, r)
    yield
    yield {"queries": len(res), "means": _per_query_means(res)}


if OUR_METRICS is not None:
    @job("ours", "metrics", metrics=True)
    def _ours_metrics(qrels_path, run_path):
        """the metrics alone, on a batch joined beforehand"""
        read_qrels, read_run, join = _ours()
        batch = join(read_qrels(qrels_path), read_run(run_path))
        yield
        res = OUR_METRICS(batch)
        yield
        yield {"means": {k: float(v.mean()) for k, v in res.items()}}


@job("ours", "e2e", metrics=True)
def _ours_e2e(qrels_path, run_path):
    """evaluate(qrels_path, run_path, MEASURES, per_query=True): files -> {qid: {measure: value}}"""
    evaluate = _our_evaluate()
    yield
    res = evaluate(qrels_path, run_path)
    yield
    yield {"queries": len(res), "means": _per_query_means(res)}


def _ours_trec_eval(flags, qrels_path, run_path):
    "The stage body of `rankmetrics trec_eval FLAGS QRELS RUN`, output to /dev/null."
    try:
        main = _module_of("interop.trec_eval", "trec_eval").__dict__.get("trec_eval_main") or \
            _module_of("interop.trec_eval", "trec_eval").main        # the command line, in 0.2 and in a 0.1 --baseline
    except ImportError as e:
        raise Unavailable(f"rankmetrics_nb.interop.trec_eval: {e}") from None
    yield
    with open(os.devnull, "w") as out:
        status = main(list(flags) + [str(qrels_path), str(run_path)], out=out)
    yield
    yield {"exit_status": status}


@job("ours", "all_trec")
def _ours_all_trec(qrels_path, run_path):
    """rankmetrics trec_eval -q -m all_trec QRELS RUN, output to /dev/null"""
    yield from _ours_trec_eval(["-q", "-m", "all_trec"], qrels_path, run_path)


@job("ours", "all_prefs")
def _ours_all_prefs(qrels_path, run_path):
    """rankmetrics trec_eval -q -R qrels_prefs -m all_prefs QRELS RUN, output to /dev/null"""
    yield from _ours_trec_eval(["-q", "-R", "qrels_prefs", "-m", "all_prefs"], qrels_path, run_path)


def _plain_dicts(qrels_path, run_path):
    "Both files as {qid: {docno: value}} dicts (pytrec_eval's parser when installed, else a plain Python one), untimed."
    try:
        import pytrec_eval
        with open(qrels_path) as f:
            q = pytrec_eval.parse_qrel(f)
        with open(run_path) as f:
            r = pytrec_eval.parse_run(f)
        return q, r
    except ImportError:
        q, r = {}, {}
        for line in open(qrels_path):
            a = line.split()
            q.setdefault(a[0], {})[a[2]] = int(a[3])
        for line in open(run_path):
            a = line.split()
            r.setdefault(a[0], {})[a[2]] = float(a[4])
        return q, r


@job("ours", "dicts", metrics=True)
def _ours_dicts(qrels_path, run_path):
    """evaluate(qrels_dict, run_dict, the six measures, per_query=True) on {qid: {docno: value}} dicts"""
    try:
        from rankmetrics_nb import evaluate
    except ImportError as e:
        raise Unavailable(f"rankmetrics_nb.evaluate: {e}") from None
    q, r = _plain_dicts(qrels_path, run_path)               # the runner collects garbage before the clock starts
    yield
    res = evaluate(q, r, MEASURES6, per_query=True)
    yield
    yield {"queries": len(res), "means": _per_query_means(res)}


@job("ours", "runs20", metrics=True)
def _ours_runs20(qrels_path, run_path):
    """prepare_qrels(qrels file) once, then evaluate(prepared, run file, the six measures, per_query=True) for every run"""
    try:
        from rankmetrics_nb import evaluate
    except ImportError as e:
        raise Unavailable(f"rankmetrics_nb.evaluate: {e}") from None
    try:
        from rankmetrics_nb import prepare_qrels
    except ImportError:                          # a version without it: the qrels read once all the same
        from rankmetrics_nb import read_qrels as prepare_qrels
    runs = _run_files(run_path)
    yield
    q = prepare_qrels(qrels_path)
    res = [evaluate(q, r, MEASURES6, per_query=True) for r in runs]
    yield
    yield {"runs": len(res), "means": [_per_query_means(x) for x in res[:3]]}


_PROCESS_CODE = {
    "ours": "import sys\nfrom rankmetrics_nb import evaluate\nres = evaluate(sys.argv[1], sys.argv[2], {m!r}, per_query=True)\n"
            "print(len(res))",
    "pytrec_eval": "import sys, pytrec_eval\nq = pytrec_eval.parse_qrel(open(sys.argv[1]))\nr = pytrec_eval.parse_run(open(sys.argv[2]))\n"
                   "res = pytrec_eval.RelevanceEvaluator(q, {m!r}).evaluate(r)\nprint(len(res))",
}


def _process_job(tool, measures, module, qrels_path, run_path):
    "A fresh interpreter runs the whole script; the grandchild's peak memory comes from RUSAGE_CHILDREN."
    import importlib.util
    if importlib.util.find_spec(module) is None:
        raise Unavailable(f"{module} is not installed")
    code = _PROCESS_CODE[tool].format(m=measures)
    env = dict(os.environ, PYTHONHASHSEED="0")
    yield
    p = subprocess.run([sys.executable, "-c", code, str(qrels_path), str(run_path)], capture_output=True, text=True, env=env)
    yield
    if p.returncode:
        raise RuntimeError(p.stderr[-2000:])
    yield {"queries": int(p.stdout.split()[-1]),
           "child_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * (1 if sys.platform == "darwin" else 1024) / 2**20}


@job("ours", "process", metrics=True)
def _ours_process(qrels_path, run_path):
    """python -c 'from rankmetrics_nb import evaluate; evaluate(QRELS, RUN, six measures, per_query=True)'"""
    yield from _process_job("ours", MEASURES6, "rankmetrics_nb", qrels_path, run_path)


# --------------------------------------------------------------------------- pytrec_eval
def _pytrec():
    try:
        import pytrec_eval
    except ImportError as e:
        raise Unavailable(str(e)) from None
    return pytrec_eval


def _pytrec_load(pytrec_eval, qrels_path, run_path):
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    return qrels, run


_pytrec_means = _per_query_means


@job("pytrec_eval", "load")
def _pt_load(qrels_path, run_path):
    """parse_qrel + parse_run from open files (dict of dicts)"""
    pytrec_eval = _pytrec()
    yield
    qrels, run = _pytrec_load(pytrec_eval, qrels_path, run_path)
    yield
    yield {"qrels_queries": len(qrels), "run_queries": len(run), "version": pytrec_eval.__version__}


@job("pytrec_eval", "evaluate", metrics=True)
def _pt_evaluate(qrels_path, run_path):
    """RelevanceEvaluator(qrels, measures) + evaluate(run), inputs already parsed"""
    pytrec_eval = _pytrec()
    qrels, run = _pytrec_load(pytrec_eval, qrels_path, run_path)
    yield
    res = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    yield
    yield {"queries": len(res), "means": _pytrec_means(res)}


@job("pytrec_eval", "e2e", metrics=True)
def _pt_e2e(qrels_path, run_path):
    """parse both files + RelevanceEvaluator + evaluate"""
    pytrec_eval = _pytrec()
    yield
    qrels, run = _pytrec_load(pytrec_eval, qrels_path, run_path)
    res = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    yield
    yield {"queries": len(res), "means": _pytrec_means(res)}


@job("pytrec_eval", "all_trec")
def _pt_all_trec(qrels_path, run_path):
    """parse both files + RelevanceEvaluator(qrels, supported_measures) + evaluate"""
    pytrec_eval = _pytrec()
    yield
    qrels, run = _pytrec_load(pytrec_eval, qrels_path, run_path)
    res = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    yield
    yield {"queries": len(res), "values_per_query": len(next(iter(res.values()), {}))}


@job("pytrec_eval", "dicts", metrics=True)
def _pt_dicts(qrels_path, run_path):
    """RelevanceEvaluator(qrels, measures).evaluate(run) on the same dicts: pytrec_eval's `evaluate` stage, whose inputs are dicts"""
    yield from _pt_evaluate(qrels_path, run_path)


@job("pytrec_eval", "dropin", metrics=True)
def _pt_dropin(qrels_path, run_path):
    """RelevanceEvaluator(qrels, measures).evaluate(run) on dicts, the interface the drop-in copies"""
    yield from _pt_evaluate(qrels_path, run_path)


@job("ours", "dropin", metrics=True)
def _ours_dropin(qrels_path, run_path):
    """rankmetrics_nb.interop.dropin.pytrec_eval: RelevanceEvaluator(qrels, measures).evaluate(run) on the same dicts"""
    try:
        dropin = _module_of("interop.dropin", "dropin").pytrec_eval
    except ImportError as e:
        raise Unavailable(f"rankmetrics_nb.interop.dropin: {e}") from None
    qrels, run = _plain_dicts(qrels_path, run_path)
    yield
    res = dropin.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    yield
    yield {"queries": len(res), "means": _pytrec_means(res)}


@job("pytrec_eval", "runs20", metrics=True)
def _pt_runs20(qrels_path, run_path):
    """parse_qrel + RelevanceEvaluator once, then parse_run + evaluate for every run"""
    pytrec_eval = _pytrec()
    runs = _run_files(run_path)
    yield
    with open(qrels_path) as f:
        ev = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(f), PYTREC_MEASURES)
    res = []
    for p in runs:
        with open(p) as f:
            res.append(ev.evaluate(pytrec_eval.parse_run(f)))
    yield
    yield {"runs": len(res), "means": [_pytrec_means(x) for x in res[:3]]}


@job("pytrec_eval", "process", metrics=True)
def _pt_process(qrels_path, run_path):
    """python -c 'import pytrec_eval; parse both files; RelevanceEvaluator(...).evaluate(run)'"""
    yield from _process_job("pytrec_eval", sorted(PYTREC_MEASURES), "pytrec_eval", qrels_path, run_path)


# --------------------------------------------------------------------------- ranx
def _ranx():
    try:
        import ranx
    except ImportError as e:
        raise Unavailable(str(e)) from None
    return ranx


@job("ranx", "load")
def _rx_load(qrels_path, run_path):
    """Qrels.from_file + Run.from_file (kind='trec'; numba warm-up untimed)"""
    ranx = _ranx()
    _ranx_warm(ranx, qrels_path, run_path)
    yield
    q = ranx.Qrels.from_file(qrels_path, kind="trec")
    r = ranx.Run.from_file(run_path, kind="trec")
    yield
    yield {"qrels_queries": len(q.keys()), "run_queries": len(r.keys())}


@job("ranx", "evaluate", metrics=True)
def _rx_evaluate(qrels_path, run_path):
    """ranx.evaluate(qrels, run, metrics) on loaded inputs (numba cache warm-up untimed)"""
    ranx = _ranx()
    q = ranx.Qrels.from_file(qrels_path, kind="trec")
    r = ranx.Run.from_file(run_path, kind="trec")
    _ranx_warm(ranx, qrels_path, run_path)
    yield
    res = ranx.evaluate(q, r, RANX_METRICS, return_mean=False, make_comparable=True)
    yield
    yield {"means": {k: float(sum(v) / len(v)) for k, v in res.items()}}


@job("ranx", "e2e", metrics=True)
def _rx_e2e(qrels_path, run_path):
    """load both files + ranx.evaluate (numba cache warm-up untimed)"""
    ranx = _ranx()
    _ranx_warm(ranx, qrels_path, run_path)
    yield
    q = ranx.Qrels.from_file(qrels_path, kind="trec")
    r = ranx.Run.from_file(run_path, kind="trec")
    res = ranx.evaluate(q, r, RANX_METRICS, return_mean=False, make_comparable=True)
    yield
    yield {"means": {k: float(sum(v) / len(v)) for k, v in res.items()}}


@job("ranx", "warmup")
def _rx_warmup(qrels_path, run_path):
    """the first ranx.evaluate of a process: numba compiles or loads its kernels (tiny input, same measures)"""
    ranx = _ranx()
    q, r = ranx.Qrels({"q": {"d": 1}}), ranx.Run({"q": {"d": 1.0, "e": 0.5}})
    yield
    ranx.evaluate(q, r, RANX_METRICS)
    yield
    yield {}


@job("ranx", "runs20", metrics=True)
def _rx_runs20(qrels_path, run_path):
    """Qrels.from_file once, then Run.from_file + ranx.evaluate for every run (numba warm-up untimed)"""
    ranx = _ranx()
    runs = _run_files(run_path)
    _ranx_warm(ranx, qrels_path, run_path)
    yield
    q = ranx.Qrels.from_file(str(qrels_path), kind="trec")
    res = [ranx.evaluate(q, ranx.Run.from_file(str(p), kind="trec"), RANX_METRICS6, return_mean=False, make_comparable=True)
           for p in runs]
    yield
    yield {"runs": len(res), "means": [{k: float(sum(v) / len(v)) for k, v in x.items()} for x in res[:3]]}


def _ranx_warm(ranx, qrels_path, run_path, head=2000):
    """Untimed: trigger numba compilation / cache loading on the first lines of the files.

    ranx specialises its typed containers on the docno dtype (<U{max_len}), so the
    warm-up uses real lines rather than a toy dict."""
    import itertools
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for src, dst in ((qrels_path, "q.trec"), (run_path, "r.trec")):
            with open(src) as f, open(os.path.join(d, dst), "w") as g:
                g.writelines(itertools.islice(f, head))
        q = ranx.Qrels.from_file(os.path.join(d, "q.trec"), kind="trec")
        r = ranx.Run.from_file(os.path.join(d, "r.trec"), kind="trec")
        ranx.evaluate(q, r, RANX_METRICS, return_mean=False, make_comparable=True)


DEFAULT_TOOLS = "ours,pytrec_eval,ranx"
BASELINE: Path | None = None  # --baseline: a checkout of an earlier commit, timed as the tool "base"


def _register_baseline_jobs() -> None:
    """Every job of ours once more as the tool "base": the same code timed on the package of the checkout `--baseline`
    names (its directory first on the child's PYTHONPATH), so that before and after are measured in one run."""
    for j in [j for j in JOBS.values() if j.tool == "ours"]:
        b = Job("base", j.stage, j.fn, j.metrics, f"{j.doc} (the --baseline checkout)")
        JOBS[b.name] = b
LEGEND = ("Median of {repeat} fresh-process runs per job; stage time is measured inside the "
          "child (imports and the stage's inputs are prepared untimed). ratio = peer s / ours s "
          "(> 1: rankmetrics_nb is faster); cpu ratio = the same on the children's CPU time "
          "(process_time), steadier when the machine is busy. MB = peak RSS of the child during the timed stage "
          "(VmHWM, reset after setup), so it includes inputs the process already holds, max over runs.")
NOISY = 0.25  # flag a job whose (max - min) / median over the repetitions exceeds this


# --------------------------------------------------------------------------- child side
def _proc_status_mb(field: str) -> float | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return None


def _peak_rss_mb() -> float:
    """Peak RSS of this process image.

    On Linux ``getrusage(RUSAGE_SELF).ru_maxrss`` is *not* usable here: the kernel carries
    the parent's high-water mark across fork/exec, so every child would report at least
    the parent's peak.  ``VmHWM`` belongs to the exec'd address space only."""
    hwm = _proc_status_mb("VmHWM")
    if hwm is not None:
        return hwm
    scale = 1 if sys.platform == "darwin" else 1024  # macOS: bytes, elsewhere KiB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def _reset_peak_rss() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0), so the reported peak belongs to the
    timed stage (plus whatever the process already holds) rather than to the setup."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def timed_stage(gen: Iterator, out: dict, unavailable: tuple = (Unavailable,), profile: Callable | None = None) -> bool:
    """Drive a job's generator into `out`: its untimed setup, then the stage alone on the clock (wall and CPU), with the
    peak RSS measured from a reset after the setup. False, with `out["unavailable"]`, when the setup raises one of
    `unavailable`. `profile()`, if given, starts a profiler just before the stage and returns what stops it after."""
    t_setup = time.perf_counter()
    try:
        next(gen)  # untimed setup
    except unavailable as e:
        out["unavailable"] = str(e)
        return False
    out["setup_seconds"] = time.perf_counter() - t_setup
    gc.collect()
    out["setup_peak_rss_mb"] = _peak_rss_mb()
    out["peak_reset"] = _reset_peak_rss()
    out["rss_start_mb"] = _proc_status_mb("VmRSS")
    stop = profile() if profile else None
    c0, t0 = time.process_time(), time.perf_counter()
    next(gen)  # the measured stage
    t1, c1 = time.perf_counter(), time.process_time()
    if stop:
        stop()
    out["seconds"] = t1 - t0
    out["cpu_seconds"] = c1 - c0  # less sensitive to other load on the machine than wall time
    out["peak_rss_mb"] = _peak_rss_mb()
    return True


def child_main(name: str, qrels_path: str, run_path: str) -> int:
    out: dict = {"job": name}
    gen = JOBS[name].fn(qrels_path, run_path)
    if not timed_stage(gen, out):
        print(RESULT_MARK + json.dumps(out), flush=True)
        return 0
    try:
        info = next(gen, None)
    except Exception as e:                      # the stage's own check failed after the clock stopped
        out["error"] = f"{type(e).__name__}: {e}"
        info = None
    if info:
        out["info"] = info
        if "child_peak_rss_mb" in info:          # the stage ran in a process of its own: its peak is the one that counts
            out["peak_rss_mb"] = info["child_peak_rss_mb"]
    gen.close()
    print(RESULT_MARK + json.dumps(out, default=str), flush=True)
    return 0


# --------------------------------------------------------------------------- parent side
def run_child(j: Job, qrels: Path, run: Path, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", j.name, "--qrels", str(qrels), "--run", str(run)]
    return marked_result(cmd, RESULT_MARK, {"job": j.name}, timeout, BASELINE if j.tool == "base" else REPO)


def marked_result(cmd: list, mark: str, what: dict, timeout: float | None = None, root: Path = REPO, tail: int = 15) -> dict:
    """Run a benchmark's child command `cmd` in a fresh process (in the repository, `root`'s package first on its
    PYTHONPATH, hash seed 0) and return the JSON it printed after `mark` on its last such line, with the child's wall time
    (start and imports included) as `process_seconds`; else `what` with an `error`: the time limit, or the exit status
    and the output's last `tail` lines. Every benchmark's parent runs its children through this one function."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO)
    except subprocess.TimeoutExpired:
        return dict(what, error=f"timeout after {timeout:.0f}s")
    wall = time.perf_counter() - t
    for line in reversed(p.stdout.splitlines()):
        if line.startswith(mark):
            return dict(json.loads(line[len(mark):]), process_seconds=wall)
    return dict(what, error=f"exit {p.returncode}: " + "\n".join((p.stderr or p.stdout).strip().splitlines()[-tail:]))


def _warm_cache(*paths: Path) -> None:
    for path in paths:  # so the first timed tool does not pay for cold disk reads
        with open(path, "rb", buffering=0) as f:
            while f.read(1 << 24):
                pass


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def summarise(measurements: dict) -> dict:
    """{(dataset, job): [results]} -> {(dataset, job): summary}"""
    out = {}
    for (ds, name), rs in measurements.items():
        ok = [r for r in rs if "seconds" in r]
        s = {"dataset": ds, "job": name, "tool": JOBS[name].tool, "stage": JOBS[name].stage,
             "metrics": JOBS[name].metrics, "runs": rs}
        if ok:
            s.update(median_seconds=_median([r["seconds"] for r in ok]),
                     median_cpu_seconds=_median([r.get("cpu_seconds") for r in ok]),
                     min_seconds=min(r["seconds"] for r in ok),
                     max_seconds=max(r["seconds"] for r in ok),
                     peak_rss_mb=max(r["peak_rss_mb"] for r in ok),
                     rss_start_mb=_median([r["rss_start_mb"] for r in ok]),
                     setup_seconds=_median([r["setup_seconds"] for r in ok]),
                     n=len(ok))
        elif rs and "unavailable" in rs[0]:
            s["unavailable"] = rs[0]["unavailable"]
        else:
            s["error"] = next((r.get("error") for r in rs if r.get("error")), "no result")
        out[(ds, name)] = s
    return out


def _ratio(peer, ours, key):
    p, o = (peer or {}).get(key), (ours or {}).get(key)
    return p / o if (p and o) else None


def comparison_rows(summary: dict, datasets: list[str], tools: list[str]) -> list[dict]:
    """One row per (dataset, stage, peer); ours-only stages get a row with no peer."""
    peers = [t for t in tools if t != "ours"]
    rows = []
    for ds in datasets:
        for stage in STAGES:
            ours = summary.get((ds, f"ours.{stage}"))
            targets = [summary.get((ds, f"{p}.{stage}")) for p in peers]
            targets = [t for t in targets if t is not None]
            if ours is None and not targets:
                continue
            for peer in targets or [None]:
                o_s = ours.get("median_seconds") if ours else None
                p_s = peer.get("median_seconds") if peer else None
                note = []
                if ours and peer and peer["metrics"] and not ours["metrics"]:
                    note.append("ours has no metrics yet")
                if ours and "unavailable" in ours:
                    note.append("ours unavailable")
                for s in (ours, peer):
                    if s and "error" in s:
                        note.append(f"{s['job']} failed")
                    elif s and s.get("n", 0) > 1 and s["median_seconds"] > 0:
                        spread = (s["max_seconds"] - s["min_seconds"]) / s["median_seconds"]
                        if spread > NOISY:
                            note.append(f"{s['tool']} noisy (range {spread:.0%} of median)")
                rows.append({
                    "stage": stage, "dataset": ds,
                    "ours_s": o_s, "peer": peer["tool"] if peer else None, "peer_s": p_s,
                    "ratio": (p_s / o_s) if (o_s and p_s) else None,
                    "cpu_ratio": _ratio(peer, ours, "median_cpu_seconds"),
                    "min_ratio": _ratio(peer, ours, "min_seconds"),
                    "ours_rss_mb": ours.get("peak_rss_mb") if ours else None,
                    "peer_rss_mb": peer.get("peak_rss_mb") if peer else None,
                    "note": "; ".join(note),
                })
    return rows


# The targets, checked on each dataset's medians: (label, value, bound, "min" or "max").
def target_rows(summary: dict, datasets: list[str]) -> list[dict]:
    get = lambda ds, name, key="median_seconds": (summary.get((ds, name)) or {}).get(key)
    ratio = lambda ds, a, b, key="median_seconds": (get(ds, a, key) / get(ds, b, key)) if get(ds, a, key) and get(ds, b, key) else None
    rows = []
    for ds in [d for d in datasets if d.startswith("msmarco")]:   # the targets are set at MS MARCO scale
        rx, warm, ours_e2e = get(ds, "ranx.e2e"), get(ds, "ranx.warmup"), get(ds, "ours.e2e")
        checks = [("trec_eval -q -m all_trec: ours / pytrec_eval's full measure set (time)", ratio(ds, "ours.all_trec", "pytrec_eval.all_trec"), 0.5, "max"),
                  ("files -> per-query values vs pytrec_eval (x faster)", ratio(ds, "pytrec_eval.e2e", "ours.e2e"), 3.0, "min"),
                  ("the same in a fresh process, start and import included, vs pytrec_eval (x faster)",
                   ratio(ds, "pytrec_eval.process", "ours.process"), 6.0, "min"),
                  ("the same vs ranx, warm (x faster)", ratio(ds, "ranx.e2e", "ours.e2e"), 5.0, "min"),
                  ("the same vs ranx incl. its JIT warm-up (x faster)", rx and warm and ours_e2e and (rx + warm) / ours_e2e, 5.0, "min"),
                  ("end to end / parse only (ours)", ratio(ds, "ours.e2e", "ours.load"), 1.5, "max"),
                  ("dicts in memory -> per-query values vs pytrec_eval (x faster)", ratio(ds, "pytrec_eval.dicts", "ours.dicts"), 2.0, "min"),
                  ("the pytrec_eval drop-in on dicts vs pytrec_eval (x faster)", ratio(ds, "pytrec_eval.dropin", "ours.dropin"), 3.0, "min"),
                  ("20 runs against one qrels vs pytrec_eval (x faster)", ratio(ds, "pytrec_eval.runs20", "ours.runs20"), 5.0, "min"),
                  ("20 runs against one qrels vs ranx, warm (x faster; reported, no goal)", ratio(ds, "ranx.runs20", "ours.runs20"), 0.0, "min")]
        for stage in STAGES:                                      # every stage both tools run: ours may not need more memory
            checks.append((f"peak MB, {stage}: ours / pytrec_eval", ratio(ds, f"ours.{stage}", f"pytrec_eval.{stage}", "peak_rss_mb"), 1.0, "max"))
        for label, value, bound, kind in checks:
            if value is None and (label.startswith("peak") or "ranx" in label):
                continue                                          # a stage this dataset does not run
            met = None if not value or not bound else (value >= bound if kind == "min" else value <= bound)
            rows.append({"dataset": ds, "target": label, "value": value, "bound": bound, "kind": kind, "met": met})
    return [r for r in rows if r["value"] is not None or (r["dataset"] == "msmarco" and "20 runs" not in r["target"])]


def render_targets(rows: list[dict]) -> str:
    lines = ["| dataset | target | value | goal | met |", "|---|---|---:|---:|---|"]
    for r in rows:
        goal = ("≥ " if r["kind"] == "min" else "≤ ") + f"{r['bound']:g}" if r["bound"] else "—"
        met = {True: "yes", False: "**no**", None: "—"}[r["met"]]
        lines.append(f"| {r['dataset']} | {r['target']} | {_f(r['value'], '.2f')} | {goal} | {met} |")
    return "\n".join(lines)


def _f(x, fmt):
    return "—" if x is None else format(x, fmt)


def render_table(rows: list[dict], markdown: bool) -> str:
    head = ["stage", "dataset", "ours s", "peer", "peer s", "ratio", "cpu ratio", "ours MB",
            "peer MB", "note"]
    x = lambda v: _f(v, ".1f") + ("x" if v else "")
    body = [[r["stage"], r["dataset"], _f(r["ours_s"], ".3f"), r["peer"] or "—",
             _f(r["peer_s"], ".3f"), x(r["ratio"]), x(r.get("cpu_ratio")),
             _f(r["ours_rss_mb"], ".0f"), _f(r["peer_rss_mb"], ".0f"), r["note"]] for r in rows]
    right = (2, 4, 5, 6, 7, 8)
    if markdown:
        lines = ["| " + " | ".join(head) + " |",
                 "|" + "|".join("---:" if i in right else "---" for i in range(len(head))) + "|"]
        lines += ["| " + " | ".join(b) + " |" for b in body]
        return "\n".join(lines)
    w = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    fmt = lambda r: "  ".join(str(x).rjust(n) if i in right else str(x).ljust(n)
                              for i, (x, n) in enumerate(zip(r, w))).rstrip()
    return "\n".join([fmt(head), "  ".join("-" * n for n in w)] + [fmt(b) for b in body])


def _versions() -> dict:
    code = ("import json,importlib.metadata as m\nout={}\n"
            "for p in ['numpy','pytrec-eval-terrier','ranx','rankmetrics_nb']:\n"
            "    try: out[p]=m.version(p)\n    except Exception: out[p]=None\n"
            "print(json.dumps(out))")
    try:
        return json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                         text=True, timeout=60).stdout)
    except Exception:
        return {}


def _cpu() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def _git_rev() -> str | None:
    try:
        p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                           text=True, cwd=REPO, timeout=10)
        return p.stdout.strip() or None
    except Exception:
        return None


_register_baseline_jobs()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="msmarco,msmarco-ties,msmarco-runs20,trec",
                    help="comma-separated (msmarco, msmarco-ties, msmarco-runs20, trec, msmarco-quick)")
    ap.add_argument("--repeat", type=int, default=3, help="fresh-process repetitions per job (median reported)")
    ap.add_argument("--quick", action="store_true", help="use the 700-query MS MARCO variant (smoke test)")
    ap.add_argument("--tools", default=DEFAULT_TOOLS, help=f"comma-separated tools (registered: "
                    f"{', '.join(sorted({j.tool for j in JOBS.values()}))})")
    ap.add_argument("--stages", default=",".join(STAGES), help="comma-separated stages to run")
    ap.add_argument("--timeout", type=float, default=900, help="per-child timeout in seconds")
    ap.add_argument("--seed", type=int, default=None, help="data seed (default: make_data's)")
    ap.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/")
    ap.add_argument("--list", action="store_true", help="list registered jobs and exit")
    ap.add_argument("--baseline", type=Path, help="a checkout of an earlier commit (a git worktree): its package is timed "
                    "too, as the tool 'base', on every stage ours runs (ratio base s / ours s > 1: we got faster)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--qrels", help=argparse.SUPPRESS)
    ap.add_argument("--run", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.child:
        return child_main(a.child, a.qrels, a.run)
    if a.list:
        for j in JOBS.values():
            print(f"{j.name:22s} {'[metrics] ' if j.metrics else ''}{j.doc}")
        return 0

    sys.path.insert(0, str(HERE))
    import make_data  # numpy is needed here (parent only), not in the children's baseline

    datasets = [d.strip() for d in a.datasets.split(",") if d.strip()]
    if a.quick:
        datasets = ["msmarco-quick" if d == "msmarco" else d for d in datasets]
    tools = [t.strip() for t in a.tools.split(",") if t.strip()]
    global BASELINE
    if a.baseline is not None:
        if not (a.baseline / "rankmetrics_nb" / "__init__.py").is_file():
            ap.error(f"--baseline {a.baseline}: no rankmetrics_nb package there")
        BASELINE = a.baseline.resolve()
        tools += [] if "base" in tools else ["base"]
    elif "base" in tools:
        ap.error("the tool 'base' is the --baseline checkout: give --baseline DIR")
    stages = [s.strip() for s in a.stages.split(",") if s.strip()]
    jobs = [j for j in JOBS.values() if j.tool in tools and j.stage in stages]
    unknown = set(tools) - {j.tool for j in JOBS.values()}
    if unknown:
        ap.error(f"unknown tools: {', '.join(sorted(unknown))}")
    bad = [d for d in datasets if d not in make_data.DATASETS]
    if bad:
        ap.error(f"unknown datasets: {', '.join(bad)} (known: {', '.join(make_data.DATASETS)})")
    if not jobs:
        ap.error("no jobs selected (see --list)")

    # A regular `pip install` leaves every module byte-compiled, and the installed peers are; an editable install under
    # PYTHONDONTWRITEBYTECODE=1 would otherwise compile our sources in every fresh process of the `process` stage.
    for root in filter(None, [REPO, BASELINE]):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "rankmetrics_nb")], check=True)
    t_start = time.perf_counter()
    manifests = {}
    for ds in datasets:
        kw = {} if a.seed is None else {"seed": a.seed}
        t = time.perf_counter()
        manifests[ds] = make_data.ensure(ds, **kw)
        manifests[ds]["ensure_seconds"] = round(time.perf_counter() - t, 3)
    files = {ds: make_data.paths(ds) for ds in datasets}

    measurements: dict[tuple[str, str], list[dict]] = {(ds, j.name): [] for ds in datasets for j in jobs
                                                       if applies(j.stage, ds)}
    skip: set[tuple[str, str]] = set()
    for rep in range(a.repeat):
        for ds in datasets:
            _warm_cache(files[ds]["qrels"], *make_data.run_paths(ds))
            for j in jobs:
                if (ds, j.name) in skip or not applies(j.stage, ds):
                    continue
                r = run_child(j, files[ds]["qrels"], files[ds]["run"], a.timeout)
                measurements[(ds, j.name)].append(r)
                if "unavailable" in r or "error" in r:
                    skip.add((ds, j.name))  # no point repeating
                    msg = r.get("unavailable") or r.get("error")
                    print(f"[{rep + 1}/{a.repeat}] {ds:14s} {j.name:22s} SKIP: {msg}", flush=True)
                else:
                    print(f"[{rep + 1}/{a.repeat}] {ds:14s} {j.name:22s} {r['seconds']:8.3f}s "
                          f"peak {r['peak_rss_mb']:7.0f} MB  (process {r['process_seconds']:.1f}s)",
                          flush=True)

    summary = summarise(measurements)
    rows = comparison_rows(summary, datasets, tools)
    total = time.perf_counter() - t_start
    targets = target_rows(summary, datasets)
    print()
    print(render_table(rows, markdown=False))
    print()
    print(render_targets(targets))
    print(f"\n{LEGEND.format(repeat=a.repeat)} Total {total:.0f}s.")

    if a.no_write:
        return 0
    now = datetime.now(timezone.utc)
    meta = {"timestamp": now.isoformat(timespec="seconds"), "repeat": a.repeat,
            "datasets": datasets, "tools": tools, "stages": stages,
            "python": sys.version.split()[0], "versions": _versions(), "git": _git_rev(),
            "machine": {"cpu": _cpu(), "cores": os.cpu_count(), "platform": platform.platform()},
            "total_seconds": round(total, 1)}
    data_info = {ds: {"files": m["files"], "stats": m["stats"], "generation_seconds":
                      m["generation_seconds"], "seed": m["seed"]} for ds, m in manifests.items()}
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = {"meta": meta, "data": data_info, "rows": rows, "targets": targets,
           "jobs": [dict(v, dataset=k[0]) for k, v in summary.items()]}
    jpath = RESULTS_DIR / f"{now.strftime('%Y%m%dT%H%M%SZ')}.json"
    jpath.write_text(json.dumps(out, indent=1, default=str) + "\n")
    md = [f"# Benchmark results ({meta['timestamp']})", "",
          LEGEND.format(repeat=a.repeat), "",
          render_table(rows, markdown=True), "",
          f"Measures: {', '.join(MEASURES)} (pytrec_eval: the same without RR@10, which trec_eval does not have). "
          "load = parse only; evaluate = in memory, from parsed inputs; e2e = files to per-query values; "
          "warmup = ranx's numba compilation in a fresh process (its other stages are timed warm).", "",
          "Targets:", "", render_targets(targets), "",
          "| dataset | run lines | run MB | qrels lines | qrels MB |", "|---|---:|---:|---:|---:|"]
    for ds, m in manifests.items():
        fr, fq = m["files"]["run"], m["files"]["qrels"]
        md.append(f"| {ds} | {fr['lines']:,} | {fr['bytes'] / 1e6:.1f} | {fq['lines']:,} | "
                  f"{fq['bytes'] / 1e6:.2f} |")
    v = meta["versions"]
    md += ["", f"Machine: {meta['machine']['cpu']}, {meta['machine']['cores']} cores; Python "
               f"{meta['python']}; " + ", ".join(f"{k} {v[k]}" for k in v if v[k]) +
           f"; git {meta['git'] or '(no commit)'}. Total wall time {total:.0f}s.", "",
           f"Raw data: `{jpath.relative_to(REPO)}`."]
    (RESULTS_DIR / "latest.md").write_text("\n".join(md) + "\n")
    print(f"wrote {jpath.relative_to(REPO)} and {(RESULTS_DIR / 'latest.md').relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
