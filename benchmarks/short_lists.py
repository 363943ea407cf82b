#!/usr/bin/env python
"""Many short lists: ranx's efficiency benchmark re-run side by side with pytrec_eval and rankmetrics_nb.

The shape is the one of ranx's paper ("ranx: A Blazing-Fast Python Library for Ranking Evaluation and
Comparison", ECIR 2022) and of the notebook its repository runs it with (``dev/efficiency_test.ipynb``):
queries x 100 documents with uniform scores, 1-9 relevant documents per query with grades 1-5, held as
``{qid: {docno: score}}`` dicts. ``make_data.py`` draws it seeded (``short-200k`` by default, ``short-1m`` is ranx's
own 1,000,000 queries) and writes it as TREC files; this script rebuilds the same data as dicts or numpy columns in
each job's untimed setup.

Every job is one approach and one measure (MAP, MRR or nDCG, each alone, as ranx's notebook times them), run in a
fresh process that prepares its inputs untimed and times only the call; repetitions are interleaved and the median
is reported, with the peak memory during the call (VmHWM, reset after the setup).

    .venv/bin/python benchmarks/short_lists.py                          # 200,000 queries x 100, 3 repetitions
    .venv/bin/python benchmarks/short_lists.py --scale 1m --repeat 1 --approaches ours.columns,ours.files  # ranx's scale (README: memory)
    .venv/bin/python benchmarks/short_lists.py --quick                  # smoke test: 2,000 queries, 1 repetition
    .venv/bin/python benchmarks/short_lists.py --approaches ours.dicts,ours.columns --measures MAP
    .venv/bin/python benchmarks/short_lists.py --profile ours.dicts --scale 20k --measures MAP   # cProfile one job
    .venv/bin/python benchmarks/short_lists.py --render benchmarks/results/short_lists-A.json benchmarks/results/short_lists-B.json  # before/after
    .venv/bin/python benchmarks/short_lists.py --list
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS_DIR = HERE / "results"
MARK = "@@SHORT-LISTS@@ "
sys.path.insert(0, str(HERE))
import run as harness  # noqa: E402  (stdlib only: the child-side memory probes, machine information)

# Each measure in each tool's spelling: (ours, pytrec_eval, ranx).
MEASURES = {"MAP": ("AP", "map", "map"), "MRR": ("RR", "recip_rank", "mrr"), "nDCG": ("nDCG", "ndcg", "ndcg")}
SCALES = {"200k": "short-200k", "1m": "short-1m", "20k": "short-20k", "2k": "short-2k"}
NOISY = harness.NOISY


# --------------------------------------------------------------------------- the data, as each tool takes it
def _arrays(ctx):
    import make_data
    return make_data.short_lists(ctx.dataset, ctx.seed)


def _dicts(ctx) -> tuple:
    """The qrels and the run as ``{qid: {docno: value}}`` dicts, built as ranx's notebook builds them: a new str object
    for every id, the run's documents in the order d0 .. d99 (not sorted by score), Python floats and ints."""
    n_rel, grades, scaled = _arrays(ctx)
    scores = (scaled / 10.0 ** _spec(ctx)["score_decimals"]).tolist()   # the values the files' text reads back as
    del scaled
    g, ends = grades.tolist(), (n_rel.cumsum()).tolist()
    qrels = {q: dict(zip(map("d{}".format, range(k)), g[e - k:e]))
             for q, k, e in zip(map("q{}".format, range(len(n_rel))), n_rel.tolist(), ends)}
    run = {q: dict(zip(map("d{}".format, range(len(row))), row)) for q, row in zip(map("q{}".format, range(len(scores))), scores)}
    return qrels, run


def _columns(ctx) -> tuple:
    """The same data as our numpy columns: a `Qrels` and a `Run` (one row per document, in the dicts' order)."""
    import numpy as np
    from rankmetrics_nb import Qrels, Run
    n_rel, grades, scaled = _arrays(ctx)
    n, depth = scaled.shape
    qids = np.char.add(b"q", np.arange(n).astype("S"))
    docs = np.char.add(b"d", np.arange(depth).astype("S"))
    within = np.arange(len(grades)) - np.repeat(n_rel.cumsum() - n_rel, n_rel)
    qrels = Qrels(np.repeat(qids, n_rel), docs[within], grades, source="<columns>")
    run = Run(np.repeat(qids, depth), np.tile(docs, n), scaled.ravel() / 10.0 ** _spec(ctx)["score_decimals"], source="<columns>")
    return qrels, run


def _frames(ctx) -> tuple:
    """The same data as pandas DataFrames whose id columns have pandas' `string` dtype (Arrow strings), as a
    recommender's pipeline often holds them: qrels (query_id, doc_id, relevance), run (query_id, doc_id, score)."""
    import numpy as np
    import pandas as pd
    n_rel, grades, scaled = _arrays(ctx)
    n, depth = scaled.shape
    qids, docs = np.array([f"q{i}" for i in range(n)], object), np.array([f"d{j}" for j in range(depth)], object)
    within = np.arange(len(grades)) - np.repeat(n_rel.cumsum() - n_rel, n_rel)
    ids = lambda a: pd.Series(a, dtype="string[pyarrow]")
    qrels = pd.DataFrame(dict(query_id=ids(np.repeat(qids, n_rel)), doc_id=ids(docs[within]), relevance=grades))
    run = pd.DataFrame(dict(query_id=ids(np.repeat(qids, depth)), doc_id=ids(np.tile(docs, n)),
                            score=scaled.ravel() / 10.0 ** _spec(ctx)["score_decimals"]))
    return qrels, run


def _spec(ctx) -> dict:
    import make_data
    return make_data.DATASETS[ctx.dataset]


def _mean_of(res, key):
    "The mean over queries of one measure from {qid: {measure: value}} (pytrec_eval's and our per-query output)."
    return sum(v[key] for v in res.values()) / len(res)


# --------------------------------------------------------------------------- approaches
# Each is a generator (ctx, measure): untimed setup, `yield` (the clock starts), the timed call, `yield` (it stops),
# then `yield` an info dict: the mean for the cross-check, and the untimed steps' seconds where they matter.
APPROACHES: dict = {}


def approach(name: str, label: str):
    def deco(fn):
        APPROACHES[name] = (label, fn)
        return fn
    return deco


def _ours_evaluate():
    from rankmetrics_nb import evaluate
    return evaluate


def _ours_call(evaluate, q, r, m, ctx):
    res = evaluate(q, r, [m], per_query=ctx.per_query)
    return _mean_of(res, m) if ctx.per_query else res[m]


@approach("pytrec_eval.dicts", "pytrec_eval from the dicts")
def _pt_dicts(ctx, measure):
    import pytrec_eval
    m = MEASURES[measure][1]
    q, r = _dicts(ctx)
    yield
    res = pytrec_eval.RelevanceEvaluator(q, {m}).evaluate(r)
    if not ctx.per_query:
        _mean_of(res, m)                                      # ranx's notebook times pytrec_eval's mean too
    yield
    yield {"mean": _mean_of(res, m), "queries": len(res)}


def _ranx_dicts(ctx, measure, threads):
    """ranx as its notebook times it: Qrels/Run from the dicts and their typed lists (untimed, timed apart), a warm-up
    call with the three metrics, then `evaluate` on the typed lists with `threads` numba threads."""
    import ranx
    m = MEASURES[measure][2]
    q, r = _dicts(ctx)
    t0 = time.perf_counter()
    Q, R = ranx.Qrels(q), ranx.Run(r)
    t1 = time.perf_counter()
    qt, rt = Q.to_typed_list(), R.to_typed_list()
    t2 = time.perf_counter()
    del q, r, Q, R                                                   # it holds the typed lists, as its notebook times them
    gc.collect()
    ranx.evaluate(qt, rt, [v[2] for v in MEASURES.values()], threads=threads)
    t3 = time.perf_counter()
    yield
    res = ranx.evaluate(qt, rt, m, threads=threads, return_mean=not ctx.per_query)
    yield
    yield {"mean": float(res if not ctx.per_query else res.mean()), "conversion_seconds": t1 - t0,
           "typed_list_seconds": t2 - t1, "warmup_seconds": t3 - t2, "threads": threads}


@approach("ranx.dicts.1", "ranx, 1 thread (its conversion excluded; warm)")
def _rx_dicts_1(ctx, measure):
    yield from _ranx_dicts(ctx, measure, 1)


@approach("ranx.dicts.2", "ranx, 2 threads (the same)")
def _rx_dicts_2(ctx, measure):
    yield from _ranx_dicts(ctx, measure, 2)


def _ours_on(inputs):
    "Ours on the inputs `inputs(ctx)` builds in the untimed setup: the timed call converts and evaluates them."
    def job(ctx, measure):
        evaluate = _ours_evaluate()
        q, r = inputs(ctx)
        yield
        mean = _ours_call(evaluate, q, r, MEASURES[measure][0], ctx)
        yield
        yield {"mean": mean}
    return job


approach("ours.dicts", "rankmetrics_nb from the dicts (conversion included)")(_ours_on(_dicts))
approach("ours.frames", "rankmetrics_nb from pandas DataFrames (Arrow string ids; conversion included)")(_ours_on(_frames))


@approach("ours.columns", "rankmetrics_nb, prepare_qrels + a Run of numpy columns (built beforehand, excluded)")
def _ours_columns(ctx, measure):
    from rankmetrics_nb import prepare_qrels
    evaluate = _ours_evaluate()
    m = MEASURES[measure][0]
    t0 = time.perf_counter()
    qrels, run = _columns(ctx)
    t1 = time.perf_counter()
    prepared = prepare_qrels(qrels)
    t2 = time.perf_counter()
    del qrels
    yield
    mean = _ours_call(evaluate, prepared, run, m, ctx)
    yield
    yield {"mean": mean, "columns_seconds": t1 - t0, "prepare_seconds": t2 - t1}


def _ours_prepared(ctx, measure, warm:bool):
    """Ours as ranx is timed: the dicts converted once (`prepare_qrels`, `prepare_run`: read, ordered, hashed and checked;
    untimed, reported apart as ranx's conversion is), the dicts dropped, then (`warm`) a warm-up call with the three
    measures, as ranx's notebook makes one, and the evaluation of the prepared inputs."""
    from rankmetrics_nb import prepare_qrels, prepare_run
    evaluate = _ours_evaluate()
    q, r = _dicts(ctx)
    t0 = time.perf_counter()
    qrels, run = prepare_qrels(q), prepare_run(r)
    t1 = time.perf_counter()
    del q, r
    gc.collect()
    if warm: evaluate(qrels, run, [v[0] for v in MEASURES.values()])
    t2 = time.perf_counter()
    yield
    mean = _ours_call(evaluate, qrels, run, MEASURES[measure][0], ctx)
    yield
    yield {"mean": mean, "conversion_seconds": t1 - t0, "warmup_seconds": t2 - t1}


@approach("ours.prepared", "rankmetrics_nb, prepare_qrels + prepare_run from the dicts (conversion excluded; warm, as ranx)")
def _ours_prepared_warm(ctx, measure):
    yield from _ours_prepared(ctx, measure, True)


@approach("ours.prepared.cold", "rankmetrics_nb, the same, the call alone in a fresh process (no warm-up)")
def _ours_prepared_cold(ctx, measure):
    yield from _ours_prepared(ctx, measure, False)


@approach("ours.files", "rankmetrics_nb from the TREC files (end to end)")
def _ours_files(ctx, measure):
    evaluate = _ours_evaluate()
    m = MEASURES[measure][0]
    yield
    mean = _ours_call(evaluate, str(ctx.qrels), str(ctx.run), m, ctx)
    yield
    yield {"mean": mean}


@approach("pytrec_eval.files", "pytrec_eval from the TREC files (end to end)")
def _pt_files(ctx, measure):
    import pytrec_eval
    m = MEASURES[measure][1]
    yield
    with open(ctx.qrels) as f:
        q = pytrec_eval.parse_qrel(f)
    with open(ctx.run) as f:
        r = pytrec_eval.parse_run(f)
    res = pytrec_eval.RelevanceEvaluator(q, {m}).evaluate(r)
    if not ctx.per_query:
        _mean_of(res, m)
    yield
    yield {"mean": _mean_of(res, m)}


@approach("ranx.files", "ranx from the TREC files (end to end; numba's default threads; warm)")
def _rx_files(ctx, measure):
    import ranx
    m = MEASURES[measure][2]
    harness._ranx_warm(ranx, ctx.qrels, ctx.run)                   # untimed: numba loads its kernels on the files' first lines
    yield
    Q = ranx.Qrels.from_file(str(ctx.qrels), kind="trec")
    R = ranx.Run.from_file(str(ctx.run), kind="trec")
    res = ranx.evaluate(Q, R, m, return_mean=not ctx.per_query)
    yield
    yield {"mean": float(res if not ctx.per_query else res.mean())}


# --------------------------------------------------------------------------- child side
def child_main(ctx) -> int:
    name, measure = ctx.child, ctx.measure
    out = {"approach": name, "measure": measure}
    gen = APPROACHES[name][1](ctx, measure)
    profile = (lambda: _profiling(ctx.profile_out)) if ctx.profile_out else None
    if not harness.timed_stage(gen, out, (ImportError,), profile):    # the setup untimed, then the call alone
        print(MARK + json.dumps(out), flush=True)
        return 0
    out["info"] = next(gen, None) or {}
    gen.close()
    print(MARK + json.dumps(out, default=float), flush=True)
    return 0


def _profiling(path: str):
    "Start `_profiler`; return what stops it and writes the stats to `path`."
    stop = _profiler()
    return lambda: stop().dump_stats(path)


def _profiler():
    """Start cProfile on this thread and on every task a thread pool runs from now on (the reader and the join hand
    work to threads); the returned function stops them and gives their merged stats, the threads' times added up.
    cProfile's own clock (wall time: other work on the machine shows in it; a CPU clock costs a system call per event,
    which inflates functions of many small calls far more)."""
    import cProfile
    import pstats
    from concurrent.futures import thread
    main, workers, run = cProfile.Profile(), [], thread._WorkItem.run

    def profiled(item):
        p = cProfile.Profile()
        workers.append(p)
        p.enable()
        try:
            run(item)
        finally:
            p.disable()
    thread._WorkItem.run = profiled
    main.enable()

    def stop():
        main.disable()
        thread._WorkItem.run = run
        return pstats.Stats(main, *workers)
    return stop


# --------------------------------------------------------------------------- parent side
def run_child(ctx, name: str, measure: str, profile_out: str = None) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", name, "--measures", measure, "--dataset-name",
           ctx.dataset, "--seed", str(ctx.seed), "--qrels", str(ctx.qrels), "--run", str(ctx.run)]
    cmd += ["--per-query"] if ctx.per_query else []
    cmd += ["--profile-out", profile_out] if profile_out else []
    return harness.marked_result(cmd, MARK, {"approach": name, "measure": measure}, ctx.timeout)


def summarise(runs: list[dict]) -> dict:
    "The medians of each (approach, measure) over its repetitions, info values included."
    med = lambda xs: statistics.median(xs) if xs else None
    out = {}
    for r in runs:
        out.setdefault((r["approach"], r["measure"]), []).append(r)
    summary = {}
    for key, rs in out.items():
        ok = [r for r in rs if "seconds" in r]
        s = {"approach": key[0], "measure": key[1], "runs": rs, "n": len(ok)}
        if ok:
            secs = [r["seconds"] for r in ok]
            s.update(seconds=med(secs), cpu_seconds=med([r["cpu_seconds"] for r in ok]), min_seconds=min(secs),
                     max_seconds=max(secs), peak_rss_mb=max(r["peak_rss_mb"] for r in ok),
                     rss_start_mb=med([r["rss_start_mb"] for r in ok]), setup_seconds=med([r["setup_seconds"] for r in ok]),
                     setup_peak_rss_mb=max(r["setup_peak_rss_mb"] for r in ok))
            s["above_start_mb"] = max(r["peak_rss_mb"] - r["rss_start_mb"] for r in ok)
            keys = {k for r in ok for k, v in r.get("info", {}).items() if isinstance(v, (int, float))}
            s["info"] = {k: med([r["info"][k] for r in ok if k in r.get("info", {})]) for k in sorted(keys)}
            s["noisy"] = len(ok) > 1 and (s["max_seconds"] - s["min_seconds"]) / s["seconds"] > NOISY
        else:
            s["error"] = next((r.get("error") or r.get("unavailable") for r in rs), "no result")
        summary[key] = s
    return summary


def _f(x, fmt=".2f"):
    return "—" if x is None else format(x, fmt)


def _cells(summary, name, measures, value):
    return [value(summary.get((name, m))) for m in measures]


def _secs(key="seconds"):
    "A cell's median of `key` (wall or CPU seconds), wall times flagged when their runs spread widely."
    def cell(s):
        if s is None:
            return "—"
        if "error" in s:
            return "failed"
        x = s[key]
        return _f(x, ".3f" if x < 1 else ".2f") + (" (noisy)" if key == "seconds" and s.get("noisy") else "")
    return cell


def _info(key):
    return lambda s: _f((s or {}).get("info", {}).get(key), ".2f")


def table_rows(summary, approaches, measures, key="seconds") -> list[list[str]]:
    """The seconds table: one row per approach, one column per measure; the wall-time table also shows the untimed
    steps the approaches exclude."""
    rows = []
    for name in approaches:
        label = APPROACHES[name][0]
        rows.append([label] + _cells(summary, name, measures, _secs(key)))
        if key != "seconds":
            continue
        if name == "ranx.dicts.1":
            rows.append(["  ranx's conversion, Qrels/Run from the dicts (untimed above)"] + _cells(summary, name, measures, _info("conversion_seconds")))
            rows.append(["  ranx's `to_typed_list` of both (untimed above)"] + _cells(summary, name, measures, _info("typed_list_seconds")))
            rows.append(["  ranx's warm-up call, the three metrics at once (untimed above)"] + _cells(summary, name, measures, _info("warmup_seconds")))
        if name == "ours.columns":
            rows.append(["  building the columns, Qrels + Run (untimed above)"] + _cells(summary, name, measures, _info("columns_seconds")))
            rows.append(["  `prepare_qrels` (untimed above)"] + _cells(summary, name, measures, _info("prepare_seconds")))
        if name == "ours.prepared":
            rows.append(["  our conversion, `prepare_qrels` + `prepare_run` from the dicts (untimed above)"] + _cells(summary, name, measures, _info("conversion_seconds")))
            rows.append(["  our warm-up call, the three measures at once (untimed above)"] + _cells(summary, name, measures, _info("warmup_seconds")))
    return rows


def memory_rows(summary, approaches, measures) -> list[list[str]]:
    mb = lambda s: "—" if not s or "error" in s else f"{s['peak_rss_mb']:,.0f} (+{s['above_start_mb']:,.0f})"
    return [[APPROACHES[name][0]] + _cells(summary, name, measures, mb) for name in approaches]


def target_rows(summary, measures) -> list[dict]:
    "The issue's acceptance, on the medians: (label, value, bound, 'min' or 'max', met)."
    sec = lambda name, m, key="seconds": (summary.get((name, m)) or {}).get(key)
    rows = []
    for m in measures:
        for label, a, b, bound, kind in (
                ("prepared inputs: ours / ranx 1 thread (time)", "ours.prepared", "ranx.dicts.1", 1.0, "max"),
                ("prepared inputs: ours / ranx 2 threads (time; reported, no goal)", "ours.prepared", "ranx.dicts.2", None, "max"),
                ("prepared inputs, ours cold (no warm-up) / ranx 1 thread warm (time; reported)", "ours.prepared.cold", "ranx.dicts.1", None, "max"),
                ("prepared qrels, run as columns: ours / ranx 1 thread (time; reported, no goal)", "ours.columns", "ranx.dicts.1", None, "max"),
                ("from the dicts: pytrec_eval / ours (x faster)", "pytrec_eval.dicts", "ours.dicts", 10.0, "min"),
                ("from the files: pytrec_eval / ours (x faster)", "pytrec_eval.files", "ours.files", 10.0, "min"),
                ("from the files: ranx / ours (x faster)", "ranx.files", "ours.files", 10.0, "min")):
            x, y = sec(a, m), sec(b, m)
            if x is None or y is None:
                continue
            value, cx, cy = x / y, sec(a, m, "cpu_seconds"), sec(b, m, "cpu_seconds")
            met = None if bound is None else (value <= bound if kind == "max" else value >= bound)
            rows.append({"measure": m, "target": label, "value": value, "cpu_value": cx / cy if cx and cy else None,
                         "bound": bound, "kind": kind, "met": met})
    return rows


def cross_check(summary, approaches, measures) -> list[str]:
    "Each measure's mean as every approach computed it: they should agree (ours reads ties as trec_eval does, in float32)."
    lines = []
    for m in measures:
        means = {a: (summary.get((a, m)) or {}).get("info", {}).get("mean") for a in approaches}
        means = {a: v for a, v in means.items() if v is not None}
        if means:
            spread = max(means.values()) - min(means.values())
            lines.append(f"{m}: mean {statistics.median(means.values()):.6f}, largest difference between approaches {spread:.2e}")
    return lines


def render(head: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
                         + ["| " + " | ".join(r) + " |" for r in rows])
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    fmt = lambda r: "  ".join(str(x).ljust(n) if i == 0 else str(x).rjust(n) for i, (x, n) in enumerate(zip(r, w))).rstrip()
    return "\n".join([fmt(head), "  ".join("-" * n for n in w)] + [fmt(r) for r in rows])


def render_targets(rows: list[dict], markdown: bool) -> str:
    body = [[r["target"], r["measure"], _f(r["value"]), _f(r.get("cpu_value")),
             "—" if r["bound"] is None else ("≥ " if r["kind"] == "min" else "≤ ") + f"{r['bound']:g}",
             {True: "yes", False: "**no**" if markdown else "NO", None: "—"}[r["met"]]] for r in rows]
    return render(["target (met: on the wall-time medians)", "measure", "value", "on CPU time", "goal", "met"], body, markdown)


def report(summary, meta, stats, markdown: bool) -> str:
    "The tables of one run: wall seconds (with the excluded steps), CPU seconds, peak memory, the targets, the cross-check."
    approaches, measures = meta["approaches"], meta["measures"]
    n, lines = stats["run_queries"], stats["run_queries"] * 100
    targets = target_rows(summary, measures)
    out = [("# " if markdown else "") + f"Many short lists ({meta['dataset']}: {n:,} queries x 100 documents, {lines:,} run "
           f"entries; {'per-query values' if meta['per_query'] else 'the mean of each measure'})", "",
           f"{meta.get('timestamp', '')}; git {meta.get('git')}; load average {meta.get('load_before')} before, "
           f"{meta.get('load_after')} after; {meta['machine']['cpu']}, {meta['machine']['cores']} cores; "
           + ", ".join(f"{k} {v}" for k, v in (meta.get("versions") or {}).items() if v), "",
           render([f"wall seconds (median of {meta['repeat']})"] + measures, table_rows(summary, approaches, measures), markdown), "",
           render([f"CPU seconds (median of {meta['repeat']})"] + measures,
                  table_rows(summary, approaches, measures, "cpu_seconds"), markdown), "",
           render(["peak MB (+ during the call)"] + measures, memory_rows(summary, approaches, measures), markdown), "",
           render_targets(targets, markdown), ""]
    return "\n".join(out + [("* " if markdown else "") + c for c in cross_check(summary, approaches, measures)])


def before_after(old: dict, new: dict, meta: dict, markdown: bool) -> str:
    "Two runs side by side: each approach's median wall and CPU seconds, before -> after, and how many times faster."
    approaches = [a for a in meta["approaches"] if any((a, m) in old for m in meta["measures"])]
    def cell(name, m):
        a, b = old.get((name, m)) or {}, new.get((name, m)) or {}
        if "seconds" not in a or "seconds" not in b:
            return "—"
        return (f"{a['seconds']:.3g} → {b['seconds']:.3g} s ({a['seconds'] / b['seconds']:.2f}x; "
                f"CPU {a['cpu_seconds']:.3g} → {b['cpu_seconds']:.3g}, {a['cpu_seconds'] / b['cpu_seconds']:.2f}x)")
    rows = [[APPROACHES[a][0]] + [cell(a, m) for m in meta["measures"]] for a in approaches]
    return render(["before → after (x faster)"] + meta["measures"], rows, markdown)


def _loaded(path) -> tuple:
    "A result file's (meta, data, {(approach, measure): summary})."
    d = json.loads(Path(path).read_text())
    return d["meta"], d["data"], {(j["approach"], j["measure"]): j for j in d["jobs"]}


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def profile(ctx, name: str, measure: str, top: int) -> int:
    "Run one job under cProfile (the timed call only) and print where its time goes, by own time and by cumulative time."
    import pstats
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / f"profile-{ctx.dataset}-{name}-{measure}.prof"
    r = run_child(ctx, name, measure, profile_out=str(out))
    if "seconds" not in r:
        print(r.get("error") or r.get("unavailable"))
        return 1
    print(f"{name} {measure} on {ctx.dataset}: {r['seconds']:.3f} s under the profiler ({r['cpu_seconds']:.3f} s of CPU); "
          f"stats in {out.relative_to(REPO)}. The times add up every thread's (wall time); the main thread's waits for "
          "the others show as `acquire` of `_thread.lock`.\n")
    for key in ("tottime", "cumulative"):
        pstats.Stats(str(out)).strip_dirs().sort_stats(key).print_stats(top)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", default="200k", choices=list(SCALES), help="queries x 100 documents (default 200k)")
    ap.add_argument("--quick", action="store_true", help="smoke test: --scale 2k --repeat 1")
    ap.add_argument("--repeat", type=int, default=3, help="fresh-process repetitions per job (median reported)")
    ap.add_argument("--approaches", default=",".join(APPROACHES), help="comma-separated (see --list)")
    ap.add_argument("--measures", default=",".join(MEASURES), help="comma-separated subset of MAP,MRR,nDCG")
    ap.add_argument("--per-query", action="store_true", help="every tool returns per-query values (default: the mean, as ranx's notebook times it)")
    ap.add_argument("--seed", type=int, default=None, help="data seed (default: make_data's)")
    ap.add_argument("--timeout", type=float, default=3600, help="per-job timeout in seconds")
    ap.add_argument("--profile", metavar="APPROACH", help="run this approach once per measure under cProfile and print the profile")
    ap.add_argument("--top", type=int, default=30, help="functions shown per profile listing")
    ap.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/")
    ap.add_argument("--list", action="store_true", help="list the approaches and exit")
    ap.add_argument("--render", nargs="+", metavar="JSON", help="print the tables of a results file; of two: before -> after")
    ap.add_argument("--markdown", action="store_true", help="with --render: markdown tables")
    for hidden in ("--child", "--dataset-name", "--qrels", "--run", "--profile-out"):
        ap.add_argument(hidden, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    measures = [m.strip() for m in a.measures.split(",") if m.strip()]
    if a.child:
        a.dataset, a.measure = a.dataset_name, measures[0]
        return child_main(a)
    if a.list:
        for name, (label, _) in APPROACHES.items():
            print(f"{name:18s} {label}")
        return 0
    if a.render:
        (meta, data, summary), *later = [_loaded(p) for p in a.render]
        print(before_after(summary, later[0][2], meta, a.markdown) if later else report(summary, meta, data["stats"], a.markdown))
        return 0
    approaches = [x.strip() for x in a.approaches.split(",") if x.strip()]
    bad = [x for x in approaches if x not in APPROACHES] + [m for m in measures if m not in MEASURES]
    if bad:
        ap.error(f"unknown approaches or measures: {', '.join(bad)} (see --list; measures: {', '.join(MEASURES)})")

    import make_data
    if a.quick:
        a.scale, a.repeat = "2k", 1
    a.dataset = SCALES[a.scale]
    a.seed = make_data.DEFAULT_SEED if a.seed is None else a.seed
    man = make_data.ensure(a.dataset, a.seed)
    paths = make_data.paths(a.dataset)
    a.qrels, a.run = paths["qrels"], paths["run"]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "rankmetrics_nb")], check=True)
    if a.profile:
        return max(profile(a, a.profile, m, a.top) for m in measures)

    t_start, load_before = time.perf_counter(), _load()
    runs = []
    for rep in range(a.repeat):
        harness._warm_cache(a.qrels, a.run)
        for name in approaches:
            for m in measures:
                r = run_child(a, name, m)
                runs.append(r)
                if "seconds" in r:
                    print(f"[{rep + 1}/{a.repeat}] {name:18s} {m:5s} {r['seconds']:9.3f}s  peak {r['peak_rss_mb']:7.0f} MB "
                          f"(+{r['peak_rss_mb'] - r['rss_start_mb']:.0f})  (process {r['process_seconds']:.1f}s, load {_load()})", flush=True)
                else:
                    print(f"[{rep + 1}/{a.repeat}] {name:18s} {m:5s} SKIP: {r.get('error') or r.get('unavailable')}", flush=True)
    total = time.perf_counter() - t_start
    summary = summarise(runs)
    now = datetime.now(timezone.utc)
    meta = {"timestamp": now.isoformat(timespec="seconds"), "dataset": a.dataset, "seed": a.seed, "repeat": a.repeat,
            "per_query": a.per_query, "measures": measures, "approaches": approaches, "python": sys.version.split()[0],
            "versions": harness._versions(), "git": harness._git_rev(), "load_before": load_before, "load_after": _load(),
            "machine": {"cpu": harness._cpu(), "cores": os.cpu_count()}, "total_seconds": round(total, 1)}
    print("\n" + report(summary, meta, man["stats"], False) + f"\n\nTotal {total:.0f} s.")
    if a.no_write:
        return 0
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    jpath = RESULTS_DIR / f"short_lists-{now.strftime('%Y%m%dT%H%M%SZ')}.json"
    jpath.write_text(json.dumps({"meta": meta, "data": {"files": man["files"], "stats": man["stats"]},
                                 "jobs": list(summary.values()), "targets": target_rows(summary, measures),
                                 "cross_check": cross_check(summary, approaches, measures)}, indent=1, default=str) + "\n")
    md = report(summary, meta, man["stats"], True) + f"\n\nRaw data: `{jpath.relative_to(REPO)}`.\n"
    (RESULTS_DIR / "short_lists.md").write_text(md)
    print(f"wrote {jpath.relative_to(REPO)} and {(RESULTS_DIR / 'short_lists.md').relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
