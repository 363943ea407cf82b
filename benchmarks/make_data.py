#!/usr/bin/env python
"""Generate seeded, deterministic TREC-format benchmark data.

Datasets (written to ``benchmarks/data/<name>/``):

* ``msmarco``       -- MS MARCO passage dev-small scale: ~7,000 integer qids x 1,000
                       retrieved passages (7M run lines), docnos in [0, 8.8M), ~1.07
                       relevant passages per query (grade 1), ~88% of them retrieved.
* ``msmarco-quick`` -- same recipe with 700 queries (smoke tests, ``run.py --quick``).
* ``msmarco-ties``  -- the ``msmarco`` recipe with one-decimal scores: ~2/3 of each query's documents share their
                       score with another one (long tied stretches), integer docnos.
* ``msmarco-runs20``-- 20 runs (``run.txt``, ``run_01.txt`` .. ``run_19.txt``) of 7,000 queries x 100 documents against
                       one qrels: each run re-scores the same candidates with its own noise (an evaluation sweep).
* ``trec``          -- TREC Web-track scale: 50 queries x 1,000 documents, ~150 graded
                       judgements per query (grades 0..3, mostly 0), ClueWeb12-style
                       docnos (25 bytes), negative Indri-style scores.
* ``short-200k``    -- many short lists, the shape of ranx's efficiency benchmark (its repository's
                       ``dev/efficiency_test.ipynb``): queries ``q0``, ``q1``, ... x 100 documents ``d0`` .. ``d99`` with
                       uniform scores in [0, 1), 1-9 relevant documents per query (``d0`` .. ``d{k-1}``, grades 1-5).
                       Also ``short-1m`` (ranx's own 1,000,000 queries), ``short-20k`` (profiles) and ``short-2k``
                       (smoke tests).  ``short_lists`` rebuilds the same data as dicts and numpy columns.

Each dataset directory holds ``qrels.txt`` (``qid iter docno rel``), ``run.txt``
(``qid Q0 docno rank score tag``) and ``manifest.json`` (seed, recipe, line counts,
byte sizes, sha256, a few statistics).  Generation is skipped when the manifest
matches the requested seed/recipe and the files still have the recorded sizes and
line counts; ``--force`` regenerates.

Text is assembled as a byte matrix (one row per line, fixed-width NUL-padded field
slots) and compacted by dropping the NULs, so no per-line Python code runs.

Usage::

    .venv/bin/python benchmarks/make_data.py                 # all datasets
    .venv/bin/python benchmarks/make_data.py --datasets trec --force
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import zlib
from pathlib import Path

import numpy as np

GENERATOR_VERSION = 1  # bump when the recipe changes: invalidates existing manifests
DEFAULT_SEED = 20240607
DATA_DIR = Path(__file__).resolve().parent / "data"

DATASETS: dict[str, dict] = {
    "msmarco": dict(
        kind="msmarco",
        n_queries=7000,        # queries in the run (and, separately, in the qrels)
        depth=1000,            # retrieved documents per query
        n_docs=8_841_823,      # docnos are integers in [0, n_docs)
        n_extra=5,             # run-only queries and qrels-only queries (each)
        rel_count_p=[0.94, 0.05, 0.01],  # P(1, 2, 3 relevant docs)
        p_retrieved=0.88,      # P(a relevant doc appears in the run)
        decimals=5,            # score decimals (~1 tied pair per query on average)
        chunk_queries=500,     # queries formatted per write
    ),
    "msmarco-quick": dict(
        kind="msmarco", n_queries=700, depth=1000, n_docs=8_841_823, n_extra=3,
        rel_count_p=[0.94, 0.05, 0.01], p_retrieved=0.88, decimals=5, chunk_queries=500,
    ),
    "msmarco-ties": dict(      # few-digit scores: many ties within a query (and integer docnos, as in msmarco)
        kind="msmarco", n_queries=7000, depth=1000, n_docs=8_841_823, n_extra=5,
        rel_count_p=[0.94, 0.05, 0.01], p_retrieved=0.88, decimals=1, chunk_queries=500,
    ),
    "msmarco-runs20": dict(    # 20 runs of the same 7,000 queries (depth 100) against one qrels: an evaluation sweep
        kind="msmarco_runs", n_queries=7000, depth=100, n_docs=8_841_823, n_extra=5,
        rel_count_p=[0.94, 0.05, 0.01], p_retrieved=0.88, decimals=5, chunk_queries=1000, n_runs=20,
    ),
    "trec": dict(
        kind="trec",
        n_queries=50,
        first_qid=201,
        depth=1000,
        judged_mean=150,       # judgements per query (varies +-50)
        frac_judged_in_run=0.7,
        decimals=4,
        zero_query=True,       # one query whose judgements are all grade 0
    ),
}

# Many short lists: ranx's efficiency benchmark (ECIR 2022; its notebook dev/efficiency_test.ipynb) at several scales.
_SHORT = dict(kind="short_lists",
              depth=100,             # documents per query: d0 .. d99, each with a uniform score in [0, 1)
              max_rel=9,             # relevant documents per query: uniform in 1..max_rel (they are d0 .. d{k-1})
              max_grade=5,           # their grades: uniform in 1..max_grade
              score_decimals=9,      # scores are multiples of 10**-9, so the files' text reads back as the dicts' values
              chunk_queries=20_000)  # queries formatted per write
for _name, _n in (("short-200k", 200_000), ("short-1m", 1_000_000), ("short-20k", 20_000), ("short-2k", 2_000)):
    DATASETS[_name] = dict(_SHORT, n_queries=_n)


# --------------------------------------------------------------------------- bytes
def _const(s: str, n: int) -> np.ndarray:
    return np.broadcast_to(np.frombuffer(s.encode(), dtype=np.uint8), (n, len(s)))


def _int_field(v, width: int, min_digits: int = 1) -> np.ndarray:
    """Non-negative ints -> (n, width) uint8 decimal digits, right-aligned, NUL-padded.

    ``min_digits`` > 1 zero-pads (like ``str.zfill``)."""
    v = np.asarray(v, dtype=np.int64)
    if v.size and (v.min() < 0 or v.max() >= 10**width):
        raise ValueError(f"value out of range for width {width}")
    pw = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    out = ((v[:, None] // pw) % 10 + 48).astype(np.uint8)
    ndig = np.maximum((v[:, None] >= pw[:-1]).sum(1) + 1, min_digits)
    out[np.arange(width)[None, :] < (width - ndig)[:, None]] = 0
    return out


def _score_field(scaled: np.ndarray, decimals: int, int_width: int = 6) -> np.ndarray:
    """Scores given as ints (score * 10**decimals) -> fixed-point text, e.g. -12.3450."""
    scaled = np.asarray(scaled, dtype=np.int64)
    neg = scaled < 0
    a = np.abs(scaled)
    sign = np.where(neg, ord("-"), 0).astype(np.uint8)[:, None]
    ip = _int_field(a // 10**decimals, int_width)
    fp = _int_field(a % 10**decimals, decimals, min_digits=decimals)
    # move the sign next to the first digit: put it in the slot just before it
    ndig = (ip != 0).sum(1)
    full = np.concatenate([np.zeros((len(a), 1), np.uint8), ip], axis=1)
    full[np.arange(len(a)), int_width - ndig] = sign[:, 0]
    return np.concatenate([full, _const(".", len(a)), fp], axis=1)


def _compact(*fields: np.ndarray) -> bytes:
    m = np.concatenate(fields, axis=1)
    return m[m != 0].tobytes()


def _run_bytes(qid_f, doc_f, rank, score_scaled, decimals, tag="bench") -> bytes:
    n = len(rank)
    return _compact(qid_f, _const(" Q0 ", n), doc_f, _const(" ", n),
                    _int_field(rank, 4), _const(" ", n),
                    _score_field(score_scaled, decimals), _const(f" {tag}\n", n))


def _qrels_bytes(qid_f, doc_f, rel) -> bytes:
    n = len(rel)
    return _compact(qid_f, _const(" 0 ", n), doc_f, _const(" ", n), _int_field(rel, 1),
                    _const("\n", n))


# --------------------------------------------------------------------------- helpers
def _distinct_rows(rng, n_rows, k, high, dtype=np.int64):
    """(n_rows, k) ints in [0, high), distinct within each row (resample rows with dups)."""
    a = rng.integers(0, high, size=(n_rows, k), dtype=dtype)
    while True:
        s = np.sort(a, axis=1)
        bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(1))
        if not len(bad):
            return a
        a[bad] = rng.integers(0, high, size=(len(bad), k), dtype=dtype)


def _sorted_scores(rng, n_rows, k, decimals, lo, scale, negative=False):
    """Per-row scaled-int scores, plus a within-row order: score desc, ties in random order.

    Returns (scores_sorted, order) where order[i] permutes row i's columns."""
    raw = lo[:, None] + scale[:, None] * rng.exponential(1.0, size=(n_rows, k))
    if negative:
        raw = -(lo[:, None] + 12.0) + (raw - lo[:, None])  # shift below zero, keep shape
    scaled = np.round(raw * 10**decimals).astype(np.int64)
    # sort each row by (score desc, random tie-break): tied scores land in random order,
    # not in docno order, so the consumer's tie handling is actually exercised
    tieb = rng.random((n_rows, k))
    key = -scaled.astype(np.float64) + tieb * 0.5  # |tieb*0.5| < 1 keeps distinct scores apart
    order = np.argsort(key, axis=1, kind="stable")
    return np.take_along_axis(scaled, order, axis=1), order


def _tie_stats(scores_sorted):
    ties = scores_sorted[:, 1:] == scores_sorted[:, :-1]
    return {"tied_adjacent_pairs": int(ties.sum()),
            "queries_with_ties": int(ties.any(1).sum())}


# --------------------------------------------------------------------------- recipes
def _gen_msmarco(spec, rng, qrels_path: Path, run_path: Path) -> dict:
    nq, depth, n_extra = spec["n_queries"], spec["depth"], spec["n_extra"]
    # integer, non-contiguous qids (MS MARCO dev qids go up to ~1.1M)
    all_q = rng.choice(1_200_000, size=nq + n_extra, replace=False).astype(np.int64)
    shared, run_only, qrels_only = all_q[: nq - n_extra], all_q[nq - n_extra: nq], all_q[nq:]
    run_q = rng.permutation(np.concatenate([shared, run_only]))   # run in "query file" order
    n_run = len(run_q)

    docs = _distinct_rows(rng, n_run, depth, spec["n_docs"])
    lo = rng.uniform(4.0, 9.0, n_run)
    scale = rng.uniform(1.5, 3.0, n_run)
    scores, _ = _sorted_scores(rng, n_run, depth, spec["decimals"], lo, scale)
    # docs[i] is already in rank order (they were random): rank r <-> column r-1

    # relevant documents for the shared + qrels-only queries
    qrel_q = np.concatenate([shared, qrels_only])
    nrel = rng.choice(len(spec["rel_count_p"]), size=len(qrel_q), p=spec["rel_count_p"]) + 1
    row_of = {int(q): i for i, q in enumerate(run_q)}  # 7k entries: fine
    rel_rows_q, rel_docs = [], []
    n_found = 0
    logmax = np.log(depth)
    for qi, (q, k) in enumerate(zip(qrel_q.tolist(), nrel.tolist())):
        row = row_of.get(q)
        found = rng.random(k) < spec["p_retrieved"] if row is not None else np.zeros(k, bool)
        picked: list[int] = []
        if found.any():
            # log-uniform rank in [1, depth]: ~10% at rank 1, long tail
            ranks = np.unique(np.minimum(np.exp(rng.random(int(found.sum())) * logmax)
                                         .astype(np.int64), depth) - 1)
            picked += docs[row, ranks].tolist()
            n_found += len(ranks)
        have = set(docs[row].tolist()) if row is not None else set()
        while len(picked) < k:  # unretrieved relevant docs: not in the run for this query
            d = int(rng.integers(0, spec["n_docs"]))
            if d not in have and d not in picked:
                picked.append(d)
        rel_rows_q += [q] * k
        rel_docs += picked
    rel_rows_q = np.array(rel_rows_q, np.int64)
    rel_docs = np.array(rel_docs, np.int64)
    # qrels in an order unrelated to the run (dev qrels are not sorted either)
    qperm = rng.permutation(qrel_q)
    pos = {int(q): i for i, q in enumerate(qperm)}
    o = np.argsort(np.array([pos[int(q)] for q in rel_rows_q]), kind="stable")
    rel_rows_q, rel_docs = rel_rows_q[o], rel_docs[o]
    qrels_bytes = _qrels_bytes(_int_field(rel_rows_q, 7), _int_field(rel_docs, 7),
                               np.ones(len(rel_docs), np.int64))
    qrels_path.write_bytes(qrels_bytes)

    chunk = spec["chunk_queries"]
    rank = np.tile(np.arange(1, depth + 1), chunk)
    with open(run_path, "wb") as f:
        for s in range(0, n_run, chunk):
            e = min(n_run, s + chunk)
            m = (e - s) * depth
            f.write(_run_bytes(_int_field(np.repeat(run_q[s:e], depth), 7),
                               _int_field(docs[s:e].ravel(), 7), rank[:m],
                               scores[s:e].ravel(), spec["decimals"]))
    return {"run_queries": n_run, "qrels_queries": len(qrel_q), "shared_queries": len(shared),
            "qrels_lines": len(rel_docs), "relevant_retrieved": n_found,
            **_tie_stats(scores)}


def _clueweb(rng, ids):
    """ClueWeb12-style docnos, 25 bytes: clueweb12-SSSSwb-DD-FFFFF (from int ids)."""
    n = len(ids)
    seg, rest = ids // 10_000_000, ids % 10_000_000
    return np.concatenate([_const("clueweb12-", n), _int_field(seg, 4, 4), _const("wb-", n),
                           _int_field(rest // 100_000, 2, 2), _const("-", n),
                           _int_field(rest % 100_000, 5, 5)], axis=1)


def _gen_trec(spec, rng, qrels_path: Path, run_path: Path) -> dict:
    nq, depth = spec["n_queries"], spec["depth"]
    qids = np.arange(spec["first_qid"], spec["first_qid"] + nq, dtype=np.int64)
    high = 1914 * 10_000_000  # segments 0000..1913
    njudged = rng.integers(spec["judged_mean"] - 50, spec["judged_mean"] + 51, nq)
    n_out = np.round(njudged * (1 - spec["frac_judged_in_run"])).astype(np.int64)
    # draw run docs and the unretrieved judged docs together so they are distinct per query
    width = depth + int(n_out.max())
    ids = _distinct_rows(rng, nq, width, high)
    docs = ids[:, :depth]
    lo = rng.uniform(3.0, 6.0, nq)
    scale = rng.uniform(0.8, 1.6, nq)
    scores, _ = _sorted_scores(rng, nq, depth, spec["decimals"], lo, scale, negative=True)

    q_rows, d_rows, g_rows = [], [], []
    grade_p = np.array([0.55, 0.30, 0.15])
    zero_q = int(rng.integers(nq)) if spec["zero_query"] else -1
    for i in range(nq):
        n_in = int(njudged[i] - n_out[i])
        w = 1.0 / np.sqrt(np.arange(1, depth + 1))          # pool favours top ranks
        ranks = rng.choice(depth, size=n_in, replace=False, p=w / w.sum())
        p_rel_in = 0.1 + 0.6 * np.exp(-ranks / 200.0)
        jd = np.concatenate([docs[i, ranks], ids[i, depth: depth + n_out[i]]])
        p_rel = np.concatenate([p_rel_in, np.full(n_out[i], 0.25)])
        g = np.where(rng.random(len(jd)) < p_rel,
                     rng.choice(3, size=len(jd), p=grade_p) + 1, 0)
        if i == zero_q:
            g[:] = 0
        q_rows.append(np.full(len(jd), qids[i]))
        d_rows.append(jd)
        g_rows.append(g)
    q_rows, d_rows, g_rows = (np.concatenate(x) for x in (q_rows, d_rows, g_rows))
    o = np.lexsort((d_rows, q_rows))  # qrels sorted by qid, docno (as distributed by NIST)
    q_rows, d_rows, g_rows = q_rows[o], d_rows[o], g_rows[o]
    qrels_path.write_bytes(_qrels_bytes(_int_field(q_rows, 3), _clueweb(rng, d_rows), g_rows))

    with open(run_path, "wb") as f:
        f.write(_run_bytes(_int_field(np.repeat(qids, depth), 3), _clueweb(rng, docs.ravel()),
                           np.tile(np.arange(1, depth + 1), nq), scores.ravel(),
                           spec["decimals"], tag="indri"))
    return {"run_queries": nq, "qrels_queries": nq, "qrels_lines": len(g_rows),
            "grade_counts": {int(k): int(v) for k, v in zip(*np.unique(g_rows, return_counts=True))},
            "all_zero_query": int(qids[zero_q]) if zero_q >= 0 else None,
            **_tie_stats(scores)}


def _gen_msmarco_runs(spec, rng, qrels_path: Path, run_path: Path) -> dict:
    """The msmarco recipe at depth ``depth``, then ``n_runs - 1`` more runs: run k re-scores each query's documents with
    seeded noise (half of the score's spread) and re-sorts them, so the runs differ in order but share candidates."""
    stats = _gen_msmarco(spec, rng, qrels_path, run_path)
    text = run_path.read_bytes()
    lines = np.frombuffer(text, np.uint8)
    ends = np.flatnonzero(lines == 10)
    starts = np.r_[0, ends[:-1] + 1]
    depth = spec["depth"]
    n = len(starts) // depth
    order_in = np.arange(len(starts)).reshape(n, depth)
    extra, fields = [], _columns_of(text, starts, ends)
    for k in range(1, spec["n_runs"]):
        noise = rng.normal(size=(n, depth))
        base = -np.arange(depth)[None, :] / depth          # the original order, as a score in [-1, 0]
        key = base + 0.5 * noise
        o = np.take_along_axis(order_in, np.argsort(-key, axis=1, kind="stable"), axis=1).ravel()
        # the k-th run: the same lines in the new order, rank and score columns rewritten
        score = np.round((10.0 - np.arange(depth)[None, :].repeat(n, 0) * 0.005) * 10**spec["decimals"]).astype(np.int64)
        p = _kth_run_path(run_path, k)
        tmp = p.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            chunk = spec["chunk_queries"] * depth
            rank = np.tile(np.arange(1, depth + 1), n)
            for s in range(0, len(o), chunk):
                sel = o[s: s + chunk]
                f.write(_compact(fields["qid"][sel], _const(" Q0 ", len(sel)), fields["doc"][sel], _const(" ", len(sel)),
                                 _int_field(rank[s: s + chunk], 4), _const(" ", len(sel)),
                                 _score_field(score.ravel()[s: s + chunk], spec["decimals"]), _const(f" run{k:02d}\n", len(sel))))
        os.replace(tmp, p)
        extra.append({"path": p.name, "bytes": p.stat().st_size})
    stats["extra_runs"] = extra
    return stats


def _columns_of(text: bytes, starts: np.ndarray, ends: np.ndarray) -> dict:
    """The qid and docno fields of run lines as NUL-padded byte matrices (fixed width 7: the msmarco recipe's ids)."""
    b = np.frombuffer(text, np.uint8)
    out = {}
    sp = np.flatnonzero(b == 32)                           # spaces: 5 per line (qid Q0 docno rank score tag)
    sp = sp.reshape(len(starts), 5)
    for name, lo, hi in (("qid", starts, sp[:, 0]), ("doc", sp[:, 1] + 1, sp[:, 2])):
        width = 7
        m = np.zeros((len(starts), width), np.uint8)
        n = hi - lo
        for j in range(width):                            # right-aligned, as _int_field writes them
            ok = j >= width - n
            m[ok, j] = b[(lo + j - (width - n))[ok]]
        out[name] = m
    return out


def _short_arrays(spec, rng) -> tuple:
    """The data of a ``short_lists`` dataset, drawn first from the dataset's generator (so the files and
    ``short_lists`` agree): (relevant documents per query, their grades in query order, the scores as integer
    multiples of 10**-score_decimals, one row per query, columns d0 .. d{depth-1})."""
    n, depth = spec["n_queries"], spec["depth"]
    n_rel = rng.integers(1, spec["max_rel"] + 1, n)
    grades = rng.integers(1, spec["max_grade"] + 1, int(n_rel.sum()))
    scaled = rng.integers(0, 10 ** spec["score_decimals"], (n, depth))
    return n_rel, grades, scaled


def short_lists(name: str, seed: int = DEFAULT_SEED) -> tuple:
    """A ``short_lists`` dataset's arrays, as ``_short_arrays`` gives them (no file is read or written)."""
    return _short_arrays(DATASETS[name], _rng(name, seed))


def _gen_short_lists(spec, rng, qrels_path: Path, run_path: Path) -> dict:
    """ranx's shape as TREC files: the qrels in query order, each query's run lines in descending score order (ranks
    1..depth, ties in random order), scores written with ``score_decimals`` decimals."""
    n_rel, grades, scaled = _short_arrays(spec, rng)
    n, depth, dec = spec["n_queries"], spec["depth"], spec["score_decimals"]
    qw, dw = len(str(n - 1)), len(str(depth - 1))
    first = np.cumsum(n_rel) - n_rel
    doc = np.arange(len(grades)) - np.repeat(first, n_rel)            # d0 .. d{k-1} in each query
    qrels_path.write_bytes(_compact(_const("q", len(doc)), _int_field(np.repeat(np.arange(n), n_rel), qw), _const(" 0 d", len(doc)),
                                    _int_field(doc, dw), _const(" ", len(doc)), _int_field(grades, 1), _const("\n", len(doc))))
    ties = 0
    with open(run_path, "wb") as f:
        for s in range(0, n, spec["chunk_queries"]):
            block = scaled[s: s + spec["chunk_queries"]]
            order = np.lexsort((rng.random(block.shape), -block), axis=-1)   # score descending, ties in random order
            sc = np.take_along_axis(block, order, axis=1)
            ties += int((sc[:, 1:] == sc[:, :-1]).sum())
            m = sc.size
            f.write(_compact(_const("q", m), _int_field(np.repeat(np.arange(s, s + len(block)), depth), qw), _const(" Q0 d", m),
                             _int_field(order.ravel(), dw), _const(" ", m), _int_field(np.tile(np.arange(1, depth + 1), len(block)), 3),
                             _const(" ", m), _score_field(sc.ravel(), dec, int_width=1), _const(" short\n", m)))
    return {"run_queries": n, "qrels_queries": n, "qrels_lines": len(grades), "relevant_retrieved": len(grades),
            "relevant_per_query": float(n_rel.mean()), "tied_adjacent_pairs": ties}


def _kth_run_path(run_path: Path, k: int) -> Path:
    return run_path if k == 0 else run_path.with_name(f"run_{k:02d}.txt")


def run_paths(name: str, data_dir: Path = None) -> list[Path]:
    """Every run file of a dataset (one, or ``n_runs``)."""
    p = paths(name, data_dir or DATA_DIR)["run"]
    return [_kth_run_path(p, k) for k in range(DATASETS[name].get("n_runs", 1))]


GENERATORS = {"msmarco": _gen_msmarco, "trec": _gen_trec, "msmarco_runs": _gen_msmarco_runs, "short_lists": _gen_short_lists}


# --------------------------------------------------------------------------- files
def _count_lines(path: Path) -> int:
    n = 0
    with open(path, "rb", buffering=0) as f:
        while b := f.read(1 << 24):
            n += b.count(b"\n")
    return n


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb", buffering=0) as f:
        while b := f.read(1 << 24):
            h.update(b)
    return h.hexdigest()


def paths(name: str, data_dir: Path = DATA_DIR) -> dict[str, Path]:
    d = data_dir / name
    return {"dir": d, "qrels": d / "qrels.txt", "run": d / "run.txt", "manifest": d / "manifest.json"}


def _manifest_ok(name: str, seed: int, data_dir: Path, verify_hash: bool = False) -> dict | None:
    p = paths(name, data_dir)
    try:
        man = json.loads(p["manifest"].read_text())
    except (OSError, ValueError):
        return None
    if (man.get("generator_version") != GENERATOR_VERSION or man.get("seed") != seed
            or man.get("spec") != DATASETS[name]):
        return None
    for kind in ("qrels", "run"):
        f = man["files"][kind]
        path = p[kind]
        if not path.exists() or path.stat().st_size != f["bytes"]:
            return None
        if _count_lines(path) != f["lines"]:
            return None
        if verify_hash and _sha256(path) != f["sha256"]:
            return None
    for f in man.get("stats", {}).get("extra_runs", []):
        path = p["dir"] / f["path"]
        if not path.exists() or path.stat().st_size != f["bytes"]:
            return None
    return man


def _rng(name: str, seed: int) -> np.random.Generator:
    "The generator of dataset `name`: the seed and the name's CRC, so each dataset has its own stream."
    return np.random.default_rng(np.random.SeedSequence([seed, zlib.crc32(name.encode())]))


def ensure(name: str, seed: int = DEFAULT_SEED, force: bool = False,
           data_dir: Path = DATA_DIR, verify_hash: bool = False, log=print) -> dict:
    """Make sure dataset ``name`` exists; return its manifest (generating if needed)."""
    if name not in DATASETS:
        raise KeyError(f"unknown dataset {name!r}; known: {', '.join(DATASETS)}")
    if not force:
        man = _manifest_ok(name, seed, data_dir, verify_hash)
        if man is not None:
            log(f"[make_data] {name}: up to date ({man['files']['run']['lines']:,} run lines)")
            return man
    spec = DATASETS[name]
    p = paths(name, data_dir)
    p["dir"].mkdir(parents=True, exist_ok=True)
    p["manifest"].unlink(missing_ok=True)
    rng = _rng(name, seed)
    tmp_q, tmp_r = p["qrels"].with_suffix(".tmp"), p["run"].with_suffix(".tmp")
    t0 = time.perf_counter()
    stats = GENERATORS[spec["kind"]](spec, rng, tmp_q, tmp_r)
    gen_s = time.perf_counter() - t0
    os.replace(tmp_q, p["qrels"])
    os.replace(tmp_r, p["run"])
    files = {k: {"path": str(p[k].relative_to(data_dir)), "bytes": p[k].stat().st_size,
                 "lines": _count_lines(p[k]), "sha256": _sha256(p[k])} for k in ("qrels", "run")}
    man = {"name": name, "generator_version": GENERATOR_VERSION, "seed": seed, "spec": spec,
           "numpy": np.__version__, "generation_seconds": round(gen_s, 3),
           "files": files, "stats": stats}
    p["manifest"].write_text(json.dumps(man, indent=2) + "\n")
    log(f"[make_data] {name}: generated in {gen_s:.1f}s -- run {files['run']['lines']:,} lines "
        f"({files['run']['bytes'] / 1e6:.1f} MB), qrels {files['qrels']['lines']:,} lines "
        f"({files['qrels']['bytes'] / 1e6:.2f} MB)")
    return man


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="msmarco,msmarco-quick,msmarco-ties,msmarco-runs20,trec",
                    help=f"comma-separated subset of: {', '.join(DATASETS)}")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--force", action="store_true", help="regenerate even if up to date")
    ap.add_argument("--verify", action="store_true", help="also check sha256 of existing files")
    ap.add_argument("--data-dir", type=Path, default=DATA_DIR)
    a = ap.parse_args(argv)
    for name in [s.strip() for s in a.datasets.split(",") if s.strip()]:
        ensure(name, a.seed, a.force, a.data_dir, a.verify)
    return 0


if __name__ == "__main__":
    sys.exit(main())
