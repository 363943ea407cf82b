"""The cost of starting: what a shell loop over runs pays per call, measured in fresh processes.

Each round runs every command once, in turn (interleaved, so a drift of the machine's speed reaches all of them alike);
the figures are the medians over the rounds of each process's wall time and CPU time (user + sys, from the operating
system's accounting of the finished child), and their ratios to the floor of any numpy tool, `python -c "import numpy"`
in the same interpreter and environment. The package's bytecode is compiled first (as an installed package's is), so
no command pays for compiling.

| command | what a user runs |
|---|---|
| `floor` | `python -c "import numpy"` |
| `import` | `python -c "import rankmetrics_nb"` |
| `trec_eval` | `rankmetrics trec_eval QRELS RUN` on trec_eval's own 10-query test files (`qrels-302.test`, `results-302.test`) |
| `eval` | `rankmetrics eval QRELS RUN -m nDCG@10 AP` on the same files |
| `eval.example` | `rankmetrics eval` on the bundled example collection (36 queries x 50 documents) |
| `trec_eval.binary` | the trec_eval 10 binary on the same files, when the randomized test has built it (its cache folder) |
| `base.*` | with `--baseline DIR`: the same commands on the package of an earlier checkout |

    .venv/bin/python benchmarks/startup.py                 # 11 rounds
    .venv/bin/python benchmarks/startup.py --rounds 21 --baseline ../old-checkout

The targets (printed at the end): `rankmetrics trec_eval` at most 1.5 times the floor, `import rankmetrics_nb` at most 1.3
times, output byte-identical to the binary's when it is there.
"""
from __future__ import annotations
import argparse, json, os, statistics, subprocess, sys, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = Path(os.environ.get("RANKMETRICS_SHARED", REPO.parent / "shared"))
TREC_EVAL_DIR = SHARED / "conformance" / "trec_eval"
QRELS, RUN = TREC_EVAL_DIR / "qrels-302.test", TREC_EVAL_DIR / "results-302.test"
CACHE = Path(os.environ.get("RANKMETRICS_CACHE", Path.home() / ".cache" / "rankmetrics_nb"))
TARGETS = {"trec_eval": 1.5, "import": 1.3}


def _binary() -> Path | None:
    "The trec_eval 10 binary the randomized test builds from the shared archive (tests/test_trec_eval_random.py), if built"
    found = sorted(CACHE.glob("trec_eval-*/trec_eval/trec_eval"))
    return found[-1] if found and os.access(found[-1], os.X_OK) else None


def _script(python: str) -> list:
    "How the `rankmetrics` command runs under `python`: its console script (as a user runs it), else `-m`"
    script = Path(python).parent / "rankmetrics"
    return [str(script)] if script.exists() else [python, "-m", "rankmetrics_nb"]


def commands(python: str, root: Path, tag: str = "") -> dict:
    "{name: (argv, PYTHONPATH)}: the commands timed, each run with `root`'s package first on its path"
    rm = _script(python)
    example = root / "rankmetrics_nb" / "data"
    out = {f"{tag}import": [python, "-c", "import rankmetrics_nb"]}
    if QRELS.exists():
        out[f"{tag}trec_eval"] = rm + ["trec_eval", str(QRELS), str(RUN)]
        out[f"{tag}eval"] = rm + ["eval", str(QRELS), str(RUN), "-m", "nDCG@10", "AP"]
    qrels, run = example / "example.qrels", example / "example-bm25.run"
    if qrels.exists() and run.exists():
        out[f"{tag}eval.example"] = rm + ["eval", str(qrels), str(run), "-m", "nDCG@10", "AP"]
    return {k: (v, str(root)) for k, v in out.items()}


def _timed(argv: list, path: str | None) -> tuple:
    "(wall seconds, cpu seconds, stdout) of one fresh process, run in `path` (so `python -c` imports that checkout's package)"
    env = dict(os.environ, PYTHONHASHSEED="0")
    if path: env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, os.environ.get("PYTHONPATH")]))
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=path or REPO)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0: raise RuntimeError(f"{' '.join(argv)}: exit {p.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, out


def measure(cmds: dict, rounds: int) -> tuple:
    "({name: {'wall': [...], 'cpu': [...]}}, {name: stdout of its first run}): every command once per round, in turn"
    times = {k: {"wall": [], "cpu": []} for k in cmds}
    outputs = {}
    for k, (argv, path) in cmds.items(): outputs[k] = _timed(argv, path)[2]       # a warm-up round, not counted
    for _ in range(rounds):
        for k, (argv, path) in cmds.items():
            wall, cpu, _ = _timed(argv, path)
            times[k]["wall"].append(wall)
            times[k]["cpu"].append(cpu)
    return times, outputs


def summary(times: dict) -> dict:
    "{name: {wall, cpu, wall_ratio, cpu_ratio}}: medians, and their ratio to the floor's"
    med = {k: {m: statistics.median(v[m]) for m in ("wall", "cpu")} for k, v in times.items()}
    floor = med["floor"]
    return {k: dict(v, wall_ratio=v["wall"] / floor["wall"], cpu_ratio=v["cpu"] / floor["cpu"]) for k, v in med.items()}


def report(s: dict, rounds: int) -> str:
    rows = [("command", "wall ms", "cpu ms", "wall / floor", "cpu / floor")]
    rows += [(k, f"{v['wall'] * 1e3:.1f}", f"{v['cpu'] * 1e3:.1f}", f"{v['wall_ratio']:.2f}", f"{v['cpu_ratio']:.2f}") for k, v in s.items()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    line = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    text = [f"fresh processes, medians of {rounds} interleaved rounds; floor = python -c 'import numpy'", line(rows[0]),
            "  ".join("-" * w for w in widths)] + [line(r) for r in rows[1:]]
    for k, goal in TARGETS.items():
        if k in s: text.append(f"target {k}: wall / floor {s[k]['wall_ratio']:.2f} (goal <= {goal}) "
                               f"{'met' if s[k]['wall_ratio'] <= goal else 'NOT met'}")
    return "\n".join(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=11, help="counted rounds (default 11)")
    ap.add_argument("--baseline", type=Path, help="an earlier checkout: its package timed beside this one as base.*")
    ap.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/startup.json")
    a = ap.parse_args(argv)
    python = sys.executable
    roots = [REPO] + ([a.baseline.resolve()] if a.baseline else [])
    for root in roots:
        subprocess.run([python, "-m", "compileall", "-q", str(root / "rankmetrics_nb")], check=True)
    cmds = {"floor": ([python, "-c", "import numpy"], None)}
    cmds |= commands(python, REPO)
    if a.baseline: cmds |= commands(python, roots[1], "base.")
    binary = _binary()
    if binary and QRELS.exists(): cmds["trec_eval.binary"] = ([str(binary), str(QRELS), str(RUN)], None)
    times, outputs = measure(cmds, a.rounds)
    s = summary(times)
    print(report(s, a.rounds))
    if "trec_eval.binary" in outputs:
        same = outputs["trec_eval"] == outputs["trec_eval.binary"]
        print(f"rankmetrics trec_eval output byte-identical to the binary's: {same}")
        if not same: return 1
    else:
        print("the trec_eval binary is not built here (tests/test_trec_eval_random.py builds it): no binary row")
    if not a.no_write:
        (HERE / "results").mkdir(exist_ok=True)
        (HERE / "results" / "startup.json").write_text(json.dumps(dict(rounds=a.rounds, summary=s, times=times), indent=1))
    return 0


if __name__ == "__main__": sys.exit(main())
