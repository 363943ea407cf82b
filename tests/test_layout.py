"""The package's layout, read from the files of a checkout: subpackages along the floors of the architecture, each
notebook named after the module it exports, one home for every name, and imports that never run in a circle, between
modules or between subpackages."""
import ast, json, re
from pathlib import Path
import pytest
import rankmetrics_nb

ROOT = Path(__file__).resolve().parents[1]
PKG, NBS = ROOT / 'rankmetrics_nb', ROOT / 'nbs'
MAX_MODULES, MIN_SUBPACKAGES, MAX_ROOT_NAMES = 12, 5, 110
# The package root and the entry point are the two modules a reader does not look for by their file name: their pages
# are named for what they hold (the API, `python -m`), and `nbs/99___init__.ipynb` would help nobody.
NAMED_FOR_WHAT_THEY_HOLD = {'__init__': 'api', '__main__': 'main'}
_re_nb = re.compile(r'^(\d{2})([a-z]?)_(.+)\.ipynb$')


def _module_name(p: Path) -> str:
    "`rankmetrics_nb/engine/kit.py` -> `engine.kit`; a package's `__init__.py` -> the package (`engine`), the root's -> `__init__`"
    parts = p.relative_to(PKG).with_suffix('').parts
    if parts[-1] == '__init__': parts = parts[:-1] or ('__init__',)
    return '.'.join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob('*.py')) if p.name != '_modidx.py'}
SUBPACKAGES = sorted(m for m, p in MODULES.items() if p.name == '__init__.py' and m != '__init__')


def _parent(m: str) -> str: return m.rpartition('.')[0]


def _package_of(m: str) -> str:
    "the (sub)package a module sits in: '' for the root's modules"
    return m if m in SUBPACKAGES else _parent(m)


def _imports(m: str) -> set:
    "the package's modules that module `m` imports (relative or absolute, at any depth of the file)"
    here = m if m in SUBPACKAGES or m == '__init__' else _parent(m)
    here = '' if here == '__init__' else here
    out = set()
    for node in ast.walk(ast.parse(MODULES[m].read_text(encoding='utf-8'))):
        if not isinstance(node, ast.ImportFrom): continue
        if node.level:
            base = here.split('.') if here else []
            base = base[:len(base) - (node.level - 1)]
            target = '.'.join(base + ([node.module] if node.module else []))
        elif node.module and node.module.split('.')[0] == 'rankmetrics_nb': target = node.module.partition('.')[2]
        else: continue
        for alias in node.names:                       # `from . import keys` imports the module keys
            sub = f'{target}.{alias.name}' if target else alias.name
            out.add(sub if sub in MODULES else target or '__init__')
    return {t for t in out if t in MODULES and t != m}


GRAPH = {m: _imports(m) for m in MODULES}


def _cycle(graph: dict) -> list:
    "one import circle of `graph` ({node: nodes it imports}), or [] when there is none"
    state, stack = {}, []
    def visit(n):
        state[n] = 'open'; stack.append(n)
        for d in sorted(graph.get(n, ())):
            if state.get(d) == 'open': return stack[stack.index(d):] + [d]
            if d not in state and (found := visit(d)): return found
        state[n] = 'done'; stack.pop()
        return []
    for n in sorted(graph):
        if n not in state and (found := visit(n)): return found
    return []


def _exporting_notebooks() -> dict:
    "{notebook file name: the module its `#| default_exp` names}"
    out = {}
    for p in sorted(NBS.glob('*.ipynb')):
        cells = json.loads(p.read_text(encoding='utf-8'))['cells']
        first = ''.join(cells[0]['source']) if cells else ''
        if first.startswith('#| default_exp'): out[p.name] = first.split()[-1]
    return out


def test_the_layout_reads_the_files_it_checks():
    assert {'engine.kit', 'metrics.dcg', 'cli', '__init__'} <= set(MODULES) and 'engine' in SUBPACKAGES
    assert GRAPH['metrics.dcg'] >= {'engine.kit', 'engine.checks'} and GRAPH['engine.order'] >= {'engine.keys'}


def test_subpackages_are_many_and_small():
    assert len(SUBPACKAGES) >= MIN_SUBPACKAGES, SUBPACKAGES
    sizes = {s: sorted(m for m in MODULES if _parent(m) == s and m not in SUBPACKAGES) for s in SUBPACKAGES}
    assert {s: len(ms) for s, ms in sizes.items() if len(ms) > MAX_MODULES} == {}
    assert all(sizes.values()), {s for s, ms in sizes.items() if not ms}


def test_the_top_level_holds_only_the_front_door():
    "the package root, the command line, `python -m` and the bundled example; everything else is in a subpackage"
    assert sorted(m for m in MODULES if '.' not in m and m not in SUBPACKAGES) == ['__init__', '__main__', 'cli', 'data']


def test_subpackage_init_files_define_nothing():
    "a subpackage's `__init__.py` holds its one-line job and nothing else: a name has one home, in a module"
    for s in SUBPACKAGES:
        body = ast.parse(MODULES[s].read_text(encoding='utf-8')).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), s


def test_every_module_has_one_notebook_named_after_it():
    exported = _exporting_notebooks()
    assert sorted(exported.values()) == sorted(m for m in MODULES if m not in SUBPACKAGES)
    for name, module in exported.items():
        m = _re_nb.match(name)
        assert m, f'{name}: a notebook is named NN_<module>.ipynb, with at most one letter after the number'
        assert m[3] == NAMED_FOR_WHAT_THEY_HOLD.get(module, module), f'{name} exports {module}'


def test_notebook_numbers_keep_a_range_per_subpackage_and_the_import_order():
    "a subpackage's notebooks are numbered together, and each notebook's exported code imports only earlier ones"
    exported = _exporting_notebooks()
    number = {module: int(_re_nb.match(name)[1]) for name, module in exported.items()}
    for s in SUBPACKAGES:
        own = sorted(n for m, n in number.items() if _package_of(m) == s)
        others = [n for m, n in number.items() if _package_of(m) != s and own[0] <= n <= own[-1]]
        assert others == [], f'{s}: another subpackage numbered inside its range {own[0]}-{own[-1]}'
    late = {m: sorted(d for d in GRAPH[m] if d in number and number[d] >= number[m]) for m in number if m != '__init__'}
    assert {m: ds for m, ds in late.items() if ds} == {}


def test_no_import_circle_between_modules():
    assert _cycle(GRAPH) == []


def test_no_import_circle_between_subpackages():
    between = {}
    for m, ds in GRAPH.items():
        if m == '__init__': continue                     # the root re-exports every subpackage's public names
        for d in ds:
            if _package_of(d) != _package_of(m): between.setdefault(_package_of(m), set()).add(_package_of(d))
    assert _cycle(between) == [], between


def test_a_name_has_one_home():
    "no name is in two modules' `__all__`: the package root alone hands on names defined elsewhere"
    homes = {}
    for m, p in MODULES.items():
        if m == '__init__': continue
        for node in ast.parse(p.read_text(encoding='utf-8')).body:
            if isinstance(node, ast.Assign) and any(getattr(t, 'id', None) == '__all__' for t in node.targets):
                for name in ast.literal_eval(node.value): homes.setdefault(name, []).append(m)
    assert {n: ms for n, ms in homes.items() if len(ms) > 1} == {}


def test_a_module_lists_only_names_it_defines():
    "a module's `__all__` is what it defines, never what it imports"
    for m in MODULES:
        if m in SUBPACKAGES or m == '__init__': continue
        mod = __import__(f'rankmetrics_nb.{m}', fromlist=['_'])
        foreign = [n for n in getattr(mod, '__all__', []) if getattr(getattr(mod, n), '__module__', mod.__name__) not in
                   (mod.__name__, None) and callable(getattr(mod, n)) and not hasattr(getattr(mod, n), 'definition')]
        assert foreign == [], (m, foreign)


def test_the_root_is_small_and_keeps_no_aliases():
    assert len(rankmetrics_nb.__all__) == len(set(rankmetrics_nb.__all__)) <= MAX_ROOT_NAMES
    src = MODULES['__init__'].read_text(encoding='utf-8')
    assert 'DeprecationWarning' not in src and '_MOVED' not in src
    with pytest.raises(AttributeError): rankmetrics_nb.label_matrix     # a name of the last cut: its module's alone


def test_one_public_evaluate():
    "`evaluate` is one function, the one the package root gives; the in-memory core is `evaluation`"
    homes = [m for m in MODULES if m != '__init__' and 'evaluate' in getattr(
        __import__(f'rankmetrics_nb.{m}', fromlist=['_']), '__all__', [])]
    assert homes == ['evaluator.evaluate'] and rankmetrics_nb.evaluate.__module__ == 'rankmetrics_nb.evaluator.evaluate'
