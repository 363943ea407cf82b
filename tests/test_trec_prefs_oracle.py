"""`rankmetrics trec_eval -R prefs / -R qrels_prefs -m all_prefs` against trec_eval 10.0 itself on seeded random cases.

trec_eval is built from its source archive in the shared oracles folder into a temporary folder (gcc, a few seconds);
the tests skip, saying why, where the archive or gcc is absent. The cases cover several judgement groups, several
subgroups (partial orders closed under transitivity), repeated lines, tied scores, unretrieved judged documents,
`-M` and `-c`. Levels are not negative: with a negative lowest level, trec_eval's `prefs_avgjg_Rnonrel` can read
past the end of that level (see the trec_prefs page), so those cases are left out rather than copied."""
import io, shutil, subprocess, tarfile
from pathlib import Path
import numpy as np
import pytest
from rankmetrics_nb.interop.trec_eval import trec_eval_main as main
from conftest import SHARED

ARCHIVE = SHARED / 'oracles' / 'trec_eval-f425365.tar.gz'

@pytest.fixture(scope='module')
def trec_eval_bin(tmp_path_factory):
    "Path of a trec_eval 10.0 binary built from the shared source archive."
    if not ARCHIVE.is_file(): pytest.skip(f"trec_eval source archive not found at {ARCHIVE} (set RANKMETRICS_SHARED)")
    if shutil.which('gcc') is None or shutil.which('make') is None: pytest.skip("gcc/make not found: cannot build trec_eval")
    folder = tmp_path_factory.mktemp('trec_eval_src')
    with tarfile.open(ARCHIVE) as t: t.extractall(folder, filter='data')
    r = subprocess.run(['make', '-C', str(folder / 'trec_eval')], capture_output=True, text=True, timeout=300)
    if r.returncode != 0: pytest.skip(f"building trec_eval failed: {r.stderr[-300:]}")
    return folder / 'trec_eval' / 'trec_eval'

def _prefs_case(seed:int)->tuple:
    "A random consistent prefs file and a run (every judged query has results) as text."
    rng = np.random.default_rng(seed)
    lines, run = [], []
    for q in range(rng.integers(1, 5)):
        docs = list(dict.fromkeys(f'd{rng.integers(0, 30)}' for _ in range(rng.integers(2, 14))))
        for g in range(rng.integers(1, 4)):
            score = rng.random(len(docs))                     # the group's hidden order: subgroups never contradict it
            nonrel = score < rng.random() * 0.6
            nsub = rng.integers(1, 4) if rng.random() < 0.5 else 1
            for s in range(nsub):
                levels = rng.integers(2, 5)
                for i in rng.choice(len(docs), rng.integers(1, len(docs) + 1), replace=False):
                    lv = 0 if nonrel[i] else 1 + int(score[i] * levels)
                    lines += [f'q{q} g{g} s{s} {docs[i]} {lv}'] * (2 if nsub == 1 and rng.random() < 0.05 else 1)
        rd = list(dict.fromkeys(f'd{rng.integers(0, 30)}' for _ in range(rng.integers(1, 15))))
        sc = rng.integers(0, 5, len(rd)) if rng.random() < 0.5 else rng.random(len(rd)).round(3)
        run += [f'q{q} Q0 {d} 0 {s} r' for d, s in zip(rd, sc)]
    return '\n'.join(lines) + '\n', '\n'.join(run) + '\n'

def _qrels_case(seed:int)->tuple:
    "A random graded qrels file (the iter column as one or two groups) and a run."
    rng = np.random.default_rng(seed)
    lines, run = [], []
    for q in range(rng.integers(1, 5)):
        docs = list(dict.fromkeys(f'd{rng.integers(0, 40)}' for _ in range(rng.integers(2, 25))))
        for g in range(rng.integers(1, 3)):
            lines += [f'q{q} {g} {d} {rng.integers(0, 4)}' for d in docs if rng.random() < 0.8]
        rd = list(dict.fromkeys(f'd{rng.integers(0, 40)}' for _ in range(rng.integers(1, 20))))
        run += [f'q{q} Q0 {d} 0 {s} r' for d, s in zip(rd, rng.integers(0, 4, len(rd)))]
    return '\n'.join(lines) + '\n', '\n'.join(run) + '\n'

def _compare(binary, tmp_path, fmt, rel, res, flags):
    (tmp_path / 'rel').write_text(rel); (tmp_path / 'res').write_text(res)
    argv = ['-q', '-m', 'all_prefs', '-R', fmt] + flags + [str(tmp_path / 'rel'), str(tmp_path / 'res')]
    want = subprocess.run([str(binary)] + argv, capture_output=True, text=True, timeout=60)
    assert want.returncode == 0, want.stderr
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, out, err) == 0, err.getvalue()
    assert out.getvalue() == want.stdout

@pytest.mark.parametrize('seed', range(40))
def test_prefs_random_cases_match_trec_eval(trec_eval_bin, tmp_path, seed):
    rel, res = _prefs_case(seed)
    for flags in ([], ['-M3']): _compare(trec_eval_bin, tmp_path, 'prefs', rel, res, flags)
    _compare(trec_eval_bin, tmp_path, 'prefs', rel + 'zz g0 s0 d1 2\nzz g0 s0 d2 0\n', res, ['-c'])   # judged, no results

@pytest.mark.parametrize('seed', range(25))
def test_qrels_prefs_random_cases_match_trec_eval(trec_eval_bin, tmp_path, seed):
    rel, res = _qrels_case(seed)
    for flags in ([], ['-M4']): _compare(trec_eval_bin, tmp_path, 'qrels_prefs', rel, res, flags)
