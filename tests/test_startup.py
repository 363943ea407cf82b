"""What starting costs: `import rankmetrics_nb` imports nothing of the package until a name is used, and the command
line imports what its subcommand needs. Each check runs in a fresh interpreter and reads `sys.modules`; none is timed
(the start-up benchmark, `benchmarks/startup.py`, measures the time)."""
import json, os, pickle, subprocess, sys
from pathlib import Path
import pytest
import rankmetrics_nb

ROOT = Path(__file__).resolve().parents[1]
TREC_EVAL = Path(os.environ.get('RANKMETRICS_SHARED', ROOT.parent / 'shared')) / 'conformance' / 'trec_eval'
FRONT_ENDS = ('rankmetrics_nb.results', 'rankmetrics_nb.stats')          # compare, store, reconcile, plots; statistics
HEAVY = ('pandas', 'matplotlib', 'sqlite3', 'dask', 'distributed', 'scipy', 'importlib.metadata')


def _loaded(code: str) -> list:
    "The modules a fresh interpreter holds after running `code` (the package first on its path)"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get('PYTHONPATH', ''))
    code += "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def _ours(mods: list) -> list: return [m for m in mods if m.startswith('rankmetrics_nb.')]


def test_import_loads_nothing_of_ours_nor_numpy():
    mods = _loaded('import rankmetrics_nb')
    assert _ours(mods) == [] and 'numpy' not in mods and not set(HEAVY) & set(mods)


def test_a_name_loads_its_modules_alone():
    "`ndcg` needs the metric and the engine's kit, not the registry, the evaluator or any front end"
    mods = _ours(_loaded('import rankmetrics_nb; rankmetrics_nb.ndcg([3, 2, 1])'))
    assert 'rankmetrics_nb.metrics.dcg' in mods
    assert not [m for m in mods if m.startswith(FRONT_ENDS + ('rankmetrics_nb.evaluator', 'rankmetrics_nb.registry'))], mods


def test_evaluate_loads_no_front_end():
    mods = _loaded("from rankmetrics_nb import evaluate\n"
                   "evaluate({'q': {'a': 1, 'b': 0}}, {'q': {'a': 2.0, 'b': 1.0}}, ['nDCG@10', 'AP'])")
    assert 'rankmetrics_nb.evaluator.memory' in mods
    assert not [m for m in _ours(mods) if m.startswith(FRONT_ENDS)] and not set(HEAVY) & set(mods)


def test_the_cli_module_loads_the_engine_alone():
    "the entry point of `rankmetrics` reads files and joins; every subcommand imports the rest when it runs"
    ours = _ours(_loaded('import rankmetrics_nb.cli'))
    assert 'rankmetrics_nb.engine.joins' in ours and all(m.startswith(('rankmetrics_nb.engine', 'rankmetrics_nb.cli')) for m in ours), ours


def _cli(args: list) -> list:
    return _loaded("import io, contextlib\nfrom rankmetrics_nb.cli import main\n"
                   f"with contextlib.redirect_stdout(io.StringIO()): assert main({args!r}) == 0")


@pytest.mark.skipif(not (TREC_EVAL / 'qrels.test').exists(), reason='trec_eval test files not found (the shared conformance folder)')
def test_trec_eval_command_loads_reader_join_measures_and_printer_only():
    mods = _cli(['trec_eval', str(TREC_EVAL / 'qrels.test'), str(TREC_EVAL / 'results.test')])
    ours = _ours(mods)
    assert {'rankmetrics_nb.interop.trec_eval', 'rankmetrics_nb.interop.trec_output', 'rankmetrics_nb.engine.joins'} <= set(ours)
    assert not [m for m in ours if m.startswith(FRONT_ENDS + ('rankmetrics_nb.evaluator',))], ours
    assert not set(HEAVY + ('tempfile', 'concurrent.futures', 'logging')) & set(mods)


def test_eval_command_loads_no_front_end_but_its_printer():
    p = rankmetrics_nb.example_paths()
    mods = _cli(['eval', str(p['qrels']), str(p['bm25']), '-m', 'nDCG@10', 'AP'])
    front = [m for m in _ours(mods) if m.startswith(FRONT_ENDS)]
    assert front == ['rankmetrics_nb.results', 'rankmetrics_nb.results.formats'] and not set(HEAVY) & set(mods)


def test_help_lists_every_subcommand_without_importing_them():
    code = ("import io, contextlib\nfrom rankmetrics_nb.cli import main\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out): main(['--help'])\nprint(out.getvalue())")
    mods = _loaded(code)
    assert not [m for m in _ours(mods) if m.startswith(FRONT_ENDS + ('rankmetrics_nb.registry', 'rankmetrics_nb.evaluator'))]
    r = subprocess.run([sys.executable, '-m', 'rankmetrics_nb', '--help'], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    for sub in ('example', 'summary', 'eval', 'sort-run', 'compare', 'leaderboard', 'power', 'trec_eval', 'reconcile'):
        assert sub in r.stdout, sub


@pytest.mark.parametrize('command', ['eval', 'compare', 'power', 'reconcile', 'leaderboard', 'summary', 'sort-run'])
def test_each_subcommand_help_builds_its_options(command):
    r = subprocess.run([sys.executable, '-m', 'rankmetrics_nb', command, '--help'], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0 and f'usage: rankmetrics {command}' in r.stdout and '--' in r.stdout, r.stderr


def test_every_public_name_resolves_and_is_listed():
    fresh = _loaded("import rankmetrics_nb\nnames = dir(rankmetrics_nb)\n"
                    "assert set(rankmetrics_nb.__all__) <= set(names), set(rankmetrics_nb.__all__) - set(names)\n"
                    "for n in rankmetrics_nb.__all__: getattr(rankmetrics_nb, n)\n"
                    "ns = {}\nexec('from rankmetrics_nb import *', ns)\n"
                    "assert sorted(k for k in ns if not k.startswith('__')) == sorted(rankmetrics_nb.__all__)")
    assert 'rankmetrics_nb.results.store' in fresh              # every name resolved: every module was imported
    for name in rankmetrics_nb.__all__:
        obj = getattr(rankmetrics_nb, name)
        assert obj is vars(rankmetrics_nb)[name]            # kept after the first use: no second import, no wrapper


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'nope'"): rankmetrics_nb.nope
    assert not hasattr(rankmetrics_nb, 'label_matrix')      # a module's name, not the package's


def test_lazily_loaded_objects_pickle():
    e = rankmetrics_nb.evaluation({'q': {'a': 1, 'b': 0}}, {'q': {'a': 2.0, 'b': 1.0}}, ['AP', 'nDCG@10'])
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is rankmetrics_nb.Evaluation and back.means() == e.means()
    assert pickle.loads(pickle.dumps(rankmetrics_nb.ndcg)) is rankmetrics_nb.ndcg
