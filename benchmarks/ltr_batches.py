#!/usr/bin/env python
"""Learning-to-rank batches: nDCG@10, MAP and MRR on (queries x candidates) score and label matrices, rankmetrics_nb's
`evaluate_batch` against scikit-learn's `ndcg_score`, torchmetrics (CPU) and Rax (CPU, JAX).

Also the floor of a batch path (`np.argsort` + `np.take_along_axis` of the score matrix: one sort and one gather) and
ours on JAX (CPU) arrays under `jax.jit` (the batch kernels in JAX's namespace; JAX is a dev dependency of the project).
The targets printed at the end: nDCG@10 within 2x of the floor and no slower than scikit-learn's `ignore_ties=True`.
What ours spends beyond the floor on untied scores: a finiteness pass over the scores, a gather of the top 11 sort keys
to check for ties (the rows with one are sorted again, stably), the gather of the top 10 labels, and the ideal ranking,
counted grade by grade for integer labels (the floor gathers every column; ours only those the measures read).

Two sizes: 8,000 x 40 (the batch of torchmetrics issue 2287, where a user reports 2 s against about 50 ms in TF-Ranking)
and 1,000,000 x 100. Scores are seeded float32 uniform in (0, 1); labels are grades 0-4 (70 % of them 0). Each job (a
tool, a measure, a size) runs in a fresh process that loads the matrices and builds the tool's inputs untimed, then
times the call alone (wall and CPU seconds) and the peak memory during it (VmHWM, reset after the setup; the inputs
themselves are in the resident memory before the call). Rax is jit-compiled on the same shapes before the clock starts
(the compile time is reported apart). Every tool's mean is printed beside ours as a cross-check: they compute the same
numbers here (linear gain, every candidate judged, no tied scores that matter).

torch, torchmetrics, JAX and Rax are not dependencies of the project: they live in a separate virtual environment
(`make bench-peers` makes it at benchmarks/.peers-venv: torch 2.14.1 from PyPI, whose CUDA libraries are installed but
unused here, torchmetrics 1.9.0, jax and jaxlib 0.10.2, rax 0.4.0). A tool that cannot be imported is reported absent.

    .venv/bin/python benchmarks/ltr_batches.py                      # both sizes, every tool present
    .venv/bin/python benchmarks/ltr_batches.py --sizes 8k --repeat 3
    .venv/bin/python benchmarks/ltr_batches.py --peers-python /path/to/python --timeout 1800
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "data"
RESULTS = HERE / "results"
MARK = "@@LTR-BATCHES@@ "
sys.path.insert(0, str(HERE))
import run as harness  # noqa: E402  (stdlib only: the memory probes and the timed-stage driver)

SIZES = {"8k": (8_000, 40), "200k": (200_000, 100), "1m": (1_000_000, 100)}
MEASURES = ("nDCG@10", "MAP", "MRR")
TOOLS = {  # tool: (label, which interpreter, measures it computes)
    "ours": ("rankmetrics_nb evaluate_batch", "project", MEASURES),
    "ours.all3": ("rankmetrics_nb, the three measures in one call", "project", ("all3",)),
    "sklearn": ("scikit-learn ndcg_score (ignore_ties=False, its default)", "project", ("nDCG@10",)),
    "sklearn.noties": ("scikit-learn ndcg_score(ignore_ties=True)", "project", ("nDCG@10",)),
    "floor": ("np.argsort + np.take_along_axis of the score matrix (the batch path's floor)", "project", ("nDCG@10",)),
    "ours.jax": ("rankmetrics_nb evaluate_batch on JAX (CPU) arrays, under jax.jit", "project", MEASURES),
    "ours.torch": ("rankmetrics_nb evaluate_batch on torch (CPU) tensors, in torch's namespace", "peers", MEASURES),
    "torchmetrics": ("torchmetrics Retrieval* modules (CPU, indexes)", "peers", MEASURES),
    "rax": ("Rax metrics, jax.jit on the CPU", "peers", MEASURES),
}


# --------------------------------------------------------------------------- data
def data_paths(size: str) -> tuple:
    return DATA / f"ltr-{size}" / "scores.npy", DATA / f"ltr-{size}" / "labels.npy"


def make_data(size: str, seed: int = 28) -> None:
    "Seeded float32 scores and int8 grades 0-4, written once as .npy files (gitignored)."
    import numpy as np
    s_path, l_path = data_paths(size)
    if s_path.exists() and l_path.exists(): return
    s_path.parent.mkdir(parents=True, exist_ok=True)
    q, n = SIZES[size]
    rng = np.random.default_rng(seed)
    np.save(s_path, rng.random((q, n), dtype=np.float32))
    np.save(l_path, rng.choice(np.arange(5, dtype=np.int8), (q, n), p=[0.70, 0.12, 0.08, 0.06, 0.04]))


# --------------------------------------------------------------------------- jobs (run in the child)
def job(tool: str, measure: str, size: str):
    """A generator: untimed setup, `yield`, the timed call, `yield`, then `yield` an info dict (the mean)."""
    import numpy as np
    s_path, l_path = data_paths(size)
    scores, labels = np.load(s_path), np.load(l_path)
    if tool in ("ours", "ours.all3"):
        from rankmetrics_nb.evaluator.batches import evaluate_batch
        names = {"nDCG@10": ["nDCG@10"], "MAP": ["AP"], "MRR": ["RR"], "all3": ["nDCG@10", "AP", "RR"]}[measure]
        evaluate_batch(scores[:2], labels[:2], names)                      # imports and first calls, untimed
        yield
        e = evaluate_batch(scores, labels, names)
        yield
        yield {"mean": [float(v) for v in e.means().values()]}
    elif tool == "ours.jax":
        import jax, jax.numpy as jnp
        jax.config.update("jax_platforms", "cpu"); jax.config.update("jax_enable_x64", True)
        from rankmetrics_nb.evaluator.batches import evaluate_batch
        names = {"nDCG@10": ["nDCG@10"], "MAP": ["AP"], "MRR": ["RR"]}[measure]
        f = jax.jit(lambda s, l: evaluate_batch(s, l, names).mean_values())
        s, y = jnp.asarray(scores), jnp.asarray(labels)
        t0 = time.perf_counter()
        f(s, y).block_until_ready()                                        # compile on these shapes, untimed
        compile_s = time.perf_counter() - t0
        yield
        v = f(s, y).block_until_ready()
        yield
        yield {"mean": [float(x) for x in v], "compile_seconds": compile_s}
    elif tool == "ours.torch":
        import torch
        sys.path.insert(0, str(REPO))                                      # the peers' interpreter imports this checkout
        from rankmetrics_nb.evaluator.batches import evaluate_batch
        torch.set_num_threads(os.cpu_count() or 1)
        names = {"nDCG@10": ["nDCG@10"], "MAP": ["AP"], "MRR": ["RR"]}[measure]
        s, y = torch.from_numpy(scores), torch.from_numpy(labels)
        evaluate_batch(s[:2], y[:2], names)                                # imports and first calls, untimed
        yield
        e = evaluate_batch(s, y, names)
        yield
        assert type(e.values).__module__.startswith("torch"), type(e.values)   # computed on torch, not copied to numpy
        yield {"mean": [float(v) for v in e.mean_values()]}
    elif tool == "floor":
        yield
        g = np.take_along_axis(labels, np.argsort(-scores, axis=1), axis=1)
        yield
        yield {"mean": [float("nan")]}
    elif tool.startswith("sklearn"):
        from sklearn.metrics import ndcg_score
        yield
        v = ndcg_score(labels, scores, k=10, ignore_ties=tool.endswith("noties"))
        yield
        yield {"mean": [float(v)]}
    elif tool == "torchmetrics":
        import torch
        from torchmetrics.retrieval import RetrievalNormalizedDCG, RetrievalMAP, RetrievalMRR
        torch.set_num_threads(os.cpu_count() or 1)
        metric = {"nDCG@10": lambda: RetrievalNormalizedDCG(top_k=10), "MAP": RetrievalMAP, "MRR": RetrievalMRR}[measure]()
        preds, target = torch.from_numpy(scores).reshape(-1), torch.from_numpy(labels.astype(np.int64)).reshape(-1)
        if measure != "nDCG@10": target = target >= 1
        indexes = torch.arange(scores.shape[0]).repeat_interleave(scores.shape[1])
        yield
        metric.update(preds, target, indexes=indexes)
        v = metric.compute()
        yield
        yield {"mean": [float(v)]}
    elif tool == "rax":
        import jax, jax.numpy as jnp, rax
        jax.config.update("jax_platforms", "cpu")
        f = {"nDCG@10": lambda s, y: rax.ndcg_metric(s, y, topn=10, gain_fn=lambda l: l),
             "MAP": lambda s, y: rax.ap_metric(s, y), "MRR": lambda s, y: rax.mrr_metric(s, y)}[measure]
        f = jax.jit(f)
        s, y = jnp.asarray(scores), jnp.asarray(labels.astype(np.float32))
        t0 = time.perf_counter()
        f(s, y).block_until_ready()                                        # compile on these shapes, untimed
        compile_s = time.perf_counter() - t0
        yield
        v = f(s, y).block_until_ready()
        yield
        yield {"mean": [float(v)], "compile_seconds": compile_s}
    else:
        raise SystemExit(f"unknown tool {tool}")


def child(tool: str, measure: str, size: str) -> int:
    out = {"tool": tool, "measure": measure, "size": size}
    try:
        gen = job(tool, measure, size)
        harness.timed_stage(gen, out, unavailable=(ImportError,))
        if "unavailable" not in out: out.update(next(gen))
    except MemoryError as e:
        out["error"] = f"MemoryError: {e}"
    print(MARK + json.dumps(out), flush=True)
    return 0


# --------------------------------------------------------------------------- the parent
def run_job(python: str, tool: str, measure: str, size: str, timeout: float) -> dict:
    cmd = [python, str(Path(__file__).resolve()), "--child", tool, measure, size]
    return harness.marked_result(cmd, MARK, {"tool": tool, "measure": measure, "size": size}, timeout, tail=1)


def peers_python(given: str | None) -> str | None:
    for p in (given, os.environ.get("LTR_PEERS_PYTHON"), str(HERE / ".peers-venv" / "bin" / "python")):
        if p and Path(p).exists(): return p
    return None


def fmt_time(s):
    return "—" if s is None else f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def table(results: list, sizes: list) -> str:
    rows = ["| size | measure | tool | time (median) | CPU | peak memory during the call | mean | ours faster by |",
            "|---|---|---|---|---|---|---|---|"]
    for size in sizes:
        for measure in MEASURES + ("all3",):
            base = next((r for r in results if r["tool"] in ("ours", "ours.all3") and r["measure"] == measure and r["size"] == size and "seconds" in r), None)
            for r in (r for r in results if r["measure"] == measure and r["size"] == size):
                if "seconds" not in r:
                    rows.append(f"| {size} | {measure} | {r['tool']} | {r.get('unavailable') or r.get('error')} | | | | |")
                    continue
                ratio = f"{r['seconds'] / base['seconds']:.1f}x" if base and r is not base else ""
                mem = f"{r['peak_rss_mb']:.0f} MB (+{r['peak_rss_mb'] - r['rss_start_mb']:.0f})" if r.get("rss_start_mb") else f"{r.get('peak_rss_mb', 0):.0f} MB"
                extra = f" (+ {r['compile_seconds']:.1f} s compile)" if "compile_seconds" in r else ""
                rows.append(f"| {size} | {measure} | {r['tool']} | {fmt_time(r['seconds'])}{extra} | {fmt_time(r['cpu_seconds'])} | {mem} | "
                            f"{', '.join(f'{v:.5f}' for v in r['mean'])} | {ratio} |")
    return "\n".join(rows)


def targets(results: list, sizes: list) -> list:
    """The targets: at least 20x faster than torchmetrics, at least as fast as scikit-learn's ndcg_score (both ways), and
    nDCG@10 within 2x of the floor (argsort + take_along_axis of the same matrix)."""
    out = []
    for size in sizes:
        ours = next((r for r in results if r["tool"] == "ours" and r["measure"] == "nDCG@10" and r["size"] == size and "seconds" in r), None)
        for tool, limit in (("floor", 2.0), ("sklearn.noties", 1.0)):
            peer = next((r for r in results if r["tool"] == tool and r["size"] == size and "seconds" in r), None)
            if ours is None or peer is None: continue
            ratio = ours["seconds"] / peer["seconds"]
            out.append(f"{size} nDCG@10 vs {tool}: ours takes {ratio:.2f}x its time (target at most {limit:g}x): {'met' if ratio <= limit else 'MISSED'}")
        for measure in MEASURES:
            ours = next((r for r in results if r["tool"] == "ours" and r["measure"] == measure and r["size"] == size and "seconds" in r), None)
            for tool, factor in (("torchmetrics", 20), ("sklearn", 1)):
                peer = next((r for r in results if r["tool"] == tool and r["measure"] == measure and r["size"] == size), None)
                if ours is None or peer is None: continue
                if "seconds" not in peer:
                    out.append(f"{size} {measure} vs {tool}: {peer.get('unavailable') or peer.get('error')} (ours {fmt_time(ours['seconds'])})")
                    continue
                ratio = peer["seconds"] / ours["seconds"]
                out.append(f"{size} {measure} vs {tool}: {ratio:.1f}x faster (target {factor}x): {'met' if ratio >= factor else 'MISSED'}")
            on_torch = next((r for r in results if r["tool"] == "ours.torch" and r["measure"] == measure and r["size"] == size and "seconds" in r), None)
            peer = next((r for r in results if r["tool"] == "torchmetrics" and r["measure"] == measure and r["size"] == size and "seconds" in r), None)
            if on_torch and peer:                                            # the same tensors, in torch's namespace
                ratio = peer["seconds"] / on_torch["seconds"]
                out.append(f"{size} {measure} ours on torch tensors vs torchmetrics: {ratio:.1f}x faster (target 20x): {'met' if ratio >= 20 else 'MISSED'}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--child", nargs=3, metavar=("TOOL", "MEASURE", "SIZE"))
    ap.add_argument("--sizes", default="8k,1m")
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--measures", default=",".join(MEASURES), help="of nDCG@10, MAP, MRR (ours.all3 runs when any is asked)")
    ap.add_argument("--tool-measures", action="append", default=[], metavar="TOOL=M1+M2",
                    help="a tool's own measures, narrower than --measures (e.g. torchmetrics=nDCG@10 at 1m)")
    ap.add_argument("--render", metavar="JSON", help="print the table and the targets of a results file, and exit")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions at 8k (1m: once)")
    ap.add_argument("--peers-python", default=None, help="the interpreter with torch, torchmetrics, jax and rax")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per job")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    if a.child: return child(*a.child)
    if a.render:
        results = json.loads(Path(a.render).read_text())["results"]
        sizes = [z for z in SIZES if any(r["size"] == z for r in results)]
        print(table(results, sizes), "", "\n".join(targets(results, sizes)), sep="\n")
        return 0
    sizes, tools = a.sizes.split(","), a.tools.split(",")
    peers = peers_python(a.peers_python)
    wanted = a.measures.split(",")
    own = dict(t.split("=", 1) for t in a.tool_measures)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    results = []
    for size in sizes:
        make_data(size)
        for tool in tools:
            label, where, measures = TOOLS[tool]
            python = sys.executable if where == "project" else peers
            for measure in (m for m in measures if m == "all3" or (m in wanted and m in own.get(tool, m).split("+"))):
                if python is None:
                    results.append({"tool": tool, "measure": measure, "size": size, "unavailable": "absent (no peers' environment: make bench-peers)"})
                    continue
                runs = [run_job(python, tool, measure, size, a.timeout) for _ in range(a.repeat if size == "8k" else 1)]
                ok = [r for r in runs if "seconds" in r]
                r = dict(ok[0] if ok else runs[0])
                if ok:
                    r["seconds"] = statistics.median(x["seconds"] for x in ok)
                    r["cpu_seconds"] = statistics.median(x["cpu_seconds"] for x in ok)
                    r["peak_rss_mb"] = max(x["peak_rss_mb"] for x in ok)
                results.append(r)
                print(f"{size} {tool} {measure}: {fmt_time(r.get('seconds')) if ok else r.get('unavailable') or r.get('error')}", flush=True)
                if not a.no_write: write(results, stamp)
    print()
    print(table(results, sizes))
    print()
    print("\n".join(targets(results, sizes)))
    return 0


def write(results: list, stamp: str) -> None:
    "The results so far to benchmarks/results/ltr_batches-<stamp>.json (rewritten after every job)."
    RESULTS.mkdir(exist_ok=True)
    machine = dict(platform=__import__("platform").platform(), cpus=os.cpu_count(), load=os.getloadavg())
    (RESULTS / f"ltr_batches-{stamp}.json").write_text(json.dumps(dict(results=results, machine=machine), indent=1))


if __name__ == "__main__":
    sys.exit(main())
