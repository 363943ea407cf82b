"""show_doc renderer for the offline docs: a signature, the docstring and a parameter table.

nbdev 2.4 with fastcore 1.14 renders a symbol as one code block whose parameters carry their
docments as `# comments`; nbdev's link processor then writes Markdown links into that code block,
and a parameter without annotation shows the type of its default (`gain:NoneType=None`).
`DocsRenderer` renders what nbdev's show_doc used to, and what readers of an API reference expect:

    ### name
    ```python
    name(labels, k:int=None, gain=None, ...)->float        # annotations as written, no docments
    ```
    *docstring*

    |  | **Type** | **Default** | **Details** |             # the docments, one row per parameter
    | labels | | | grades in rank order: ... [`Batch`](engine.kit.html#batch) |
    | **Returns** | `float` | | ... |

A class is shown as `class Name(Base)` with its constructor (dataclass fields, named-tuple fields or
`__init__` parameters) in the table. Links to other symbols go into the Details cells, where
Markdown renders them. tools/build_docs.py installs this renderer in its process (`install`), so
notebooks and settings.ini stay unchanged.
"""
from __future__ import annotations

import dataclasses, inspect, re

from fastcore.docments import docments
from nbdev.showdoc import BasicMarkdownRenderer

MAXLINE = 90  # signature lines are wrapped at this width
PACKAGE = 'rankmetrics_nb'   # members inherited from this package's classes are listed with the class's own


def _anno(a) -> str:
    "An annotation as written in the source (`'int|None'` stays a string), '' if there is none"
    if a is inspect.Parameter.empty or a is dataclasses.MISSING or a is inspect.Signature.empty: return ''
    if isinstance(a, str): return a.replace(' ', '')
    if isinstance(a, type): return a.__name__
    return inspect.formatannotation(a).replace('typing.', '').replace(' ', '')


def _default(v) -> str:
    if v is dataclasses.MISSING or v is inspect.Parameter.empty: return ''
    if inspect.isfunction(v) or inspect.isclass(v) or inspect.isbuiltin(v): return v.__name__
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + '...'


_re_field = re.compile(r'^\s+(\w+)\s*:[^#\n]*#\s*(.+?)\s*$')


def _home_module(name: str) -> str | None:
    "The package module that exports `name` (from the package's `_modidx`), or None"
    import importlib
    try: d = importlib.import_module(f'{PACKAGE}._modidx').d
    except ImportError: return None
    return next((mod for mod, syms in d['syms'].items() if f'{mod}.{name}' in syms), None)


def _exported_twin(cls):
    "The package's own class of the same name (show_doc runs on a copy the notebook's cell made, whose source is unknown)"
    import importlib
    mod = _home_module(cls.__qualname__)
    return None if mod is None else getattr(importlib.import_module(mod), cls.__qualname__, None)


def _field_comments(cls) -> dict:
    "Trailing `# comment` of each annotated line in the class body (dataclass and named-tuple fields)"
    try: src = inspect.getsource(cls)
    except (OSError, TypeError):
        twin = _exported_twin(cls)
        if twin is None or twin is cls: return {}
        try: src = inspect.getsource(twin)
        except (OSError, TypeError): return {}
    return {m[1]: m[2] for line in src.splitlines() if (m := _re_field.match(line))}


def _is_dataclass(cls) -> bool: return '__dataclass_fields__' in cls.__dict__  # decorated itself


def _rows_of_function(fn) -> list[dict]:
    "One row per parameter of `fn` (`self`/`cls` and silent `*args`/`**kw` left out) and one for its return"
    try: sig = inspect.signature(fn)
    except (TypeError, ValueError): return []
    try: notes = {k: v or '' for k, v in docments(fn).items()}
    except Exception: notes = {}
    rows = []
    for i, (n, p) in enumerate(sig.parameters.items()):
        if i == 0 and n in ('self', 'cls'): continue
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and not notes.get(n): continue
        pre = '*' if p.kind is p.VAR_POSITIONAL else '**' if p.kind is p.VAR_KEYWORD else ''
        rows.append(dict(name=pre + n, type=_anno(p.annotation), default=_default(p.default), doc=notes.get(n, ''),
                         kw_only=p.kind is p.KEYWORD_ONLY))
    ret, rdoc = _anno(sig.return_annotation), notes.get('return', '')
    if (ret and ret != 'None') or rdoc: rows.append(dict(name='Returns', type=ret, default='', doc=rdoc, returns=True))
    return rows


def _factory_default(factory) -> str:
    "A dataclass field's default_factory as a default: `list()`, or the value a lambda makes (`array([], ...)`)"
    if getattr(factory, '__name__', '') != '<lambda>': return f'{_default(factory)}()'
    try: return _default(factory())
    except Exception: return '...'


def _rows_of_class(cls) -> list[dict]:
    "The constructor's parameters: dataclass fields, named-tuple fields or `__init__`'s parameters"
    if _is_dataclass(cls):
        notes = {k: v for c in reversed(cls.__mro__[:-1]) for k, v in _field_comments(c).items()}
        rows = []
        for f in dataclasses.fields(cls):
            if not f.init or f.name.startswith('_'): continue
            d = _default(f.default) if f.default is not dataclasses.MISSING else \
                _factory_default(f.default_factory) if f.default_factory is not dataclasses.MISSING else ''
            rows.append(dict(name=f.name, type=_anno(f.type), default=d, doc=notes.get(f.name, ''),
                             kw_only=bool(getattr(f, 'kw_only', False))))
        return rows
    if issubclass(cls, tuple) and hasattr(cls, '_fields'):
        notes, annos, dflt = _field_comments(cls), getattr(cls, '__annotations__', {}), getattr(cls, '_field_defaults', {})
        return [dict(name=n, type=_anno(annos.get(n, inspect.Parameter.empty)),
                     default=_default(dflt[n]) if n in dflt else '', doc=notes.get(n, '')) for n in cls._fields]
    init = cls.__dict__.get('__init__')
    if init is None:  # inherited: shown only when it is not object's or an exception's catch-all
        init = getattr(cls, '__init__', None)
        if init is object.__init__ or issubclass(cls, BaseException): return []
    return [r for r in _rows_of_function(init) if not r.get('returns')]


def _signature(name: str, rows: list[dict], prefix: str = '') -> str:
    "`name(a, b:int=1, *, c=None)->float`, wrapped at MAXLINE with continuation lines indented"
    params, star = [], False
    for r in rows:
        if r.get('returns'): continue
        if r.get('kw_only') and not star and not r['name'].startswith('*'):
            params.append('*'); star = True
        params.append(r['name'] + (f":{r['type']}" if r['type'] else '') + (f"={r['default']}" if r['default'] else ''))
    ret = next((f"->{r['type']}" for r in rows if r.get('returns') and r['type']), '')
    head, lines, cur = f'{prefix}{name}(', [], ''
    for i, p in enumerate(params):
        piece = p + (', ' if i < len(params) - 1 else '')
        if cur and len(head if not lines else '    ') + len(cur) + len(piece) > MAXLINE:
            lines.append(cur.rstrip()); cur = ''
        cur += piece
    lines.append(cur)
    return head + '\n    '.join(lines) + ')' + ret


def _cell(s: str) -> str:
    "Text for a Markdown table cell: pipes escaped, newlines as <br>"
    return re.sub(r'(?<!\\)\|', r'\\|', str(s)).replace('\n', '<br>')


def _code_cell(s: str) -> str:
    """Code in a table cell: a backtick span, or (when it holds a `|`, which a Markdown table would split on and an
    escape would show as `\\|`) an HTML <code> with the pipe as an entity"""
    s = str(s)
    if '|' not in s: return f"`{_cell(s)}`"
    import html
    return '<code>' + html.escape(s).replace('|', '&#124;').replace('\n', ' ') + '</code>'


def param_table(rows: list[dict]) -> str:
    "The Type / Default / Details table of `rows` (Markdown), '' when there is nothing to list"
    if not rows: return ''
    out = ['|  | **Type** | **Default** | **Details** |', '|---|---|---|---|']
    for r in rows:
        name = '**Returns**' if r.get('returns') else _cell(r['name'])
        typ = _code_cell(r['type']) if r['type'] else ''
        dflt = _code_cell(r['default']) if r['default'] else ''
        out.append(f"| {name} | {typ} | {dflt} | {_cell(r['doc'])} |")
    return '\n'.join(out)


def _property_rows(prop: property) -> list[dict]:
    "A property's one row: what it returns (the getter's return annotation and docment)"
    return [r for r in _rows_of_function(prop.fget) if r.get('returns')] if prop.fget else []


def doc_parts(sym, name: str | None = None) -> tuple[str, str, list[dict]]:
    "(signature, docstring, rows) of a function, property or class"
    name = name or getattr(sym, '__name__', str(sym))
    doc = inspect.getdoc(sym) or ''
    if isinstance(sym, property):
        rows = _property_rows(sym)
        typ = next((r['type'] for r in rows if r['type']), '')
        return f"property {name}" + (f": {typ}" if typ else ''), doc, rows
    if inspect.isclass(sym):
        # private bases (mixins that carry shared methods) and the dataclass decorator are plumbing: not shown
        bases = [b.__name__ for b in sym.__bases__ if b is not object and not b.__name__.startswith('_')]
        rows = _rows_of_class(sym)
        sig = f"class {name}" + (f"({', '.join(bases)})" if bases else '')
        if rows: sig += '\n' + _signature(name, rows)   # how to make one
        return sig, doc, rows
    rows = _rows_of_function(sym)
    return _signature(name, rows), doc, rows


EXPLICIT: set[str] = set()   # `Class.member` names the notebook being rendered documents with a show_doc of their own


def public_members(cls) -> list[tuple[str, object]]:
    """The public methods and properties of `cls` a reader calls: its own and those of the package's classes it
    inherits from (mixins included), in definition order; object's, tuple's and dataclass machinery left out"""
    seen, out = set(), []
    for klass in cls.__mro__:
        if klass is object or not (klass.__module__ == cls.__module__ or klass.__module__.startswith(PACKAGE)): continue
        for m, v in vars(klass).items():
            if m.startswith('_') or m in seen: continue
            if isinstance(v, (property, staticmethod, classmethod)) or inspect.isfunction(v):
                seen.add(m)
                out.append((m, v if isinstance(v, property) else getattr(cls, m)))
    return out


def _member_markdown(cls_name: str, member: str, sym, level: int) -> str:
    "One member's entry: heading (id `Class.member`), signature, docstring and table"
    name = f'{cls_name}.{member}'
    sig, doc, rows = doc_parts(sym, name)
    out = f"{'#' * level} {name} {{#{name} .doc-symbol}}\n\n```python\n{sig}\n```\n\n"
    if doc: out += re.sub(r'^(\s*)(.+)', r'\1*\2*', doc, count=1) + '\n\n'
    return out + param_table(rows) + '\n\n'


def members_markdown(cls, cls_name: str, level: int = 4) -> str:
    "Entries of the public members of `cls` not documented on their own (`EXPLICIT`), under a small heading"
    ms = [(m, v) for m, v in public_members(cls) if f'{cls_name}.{m}' not in EXPLICIT]
    if not ms or issubclass(cls, BaseException): return ''
    return '\n\n' + ''.join(_member_markdown(cls_name, m, v, level) for m, v in ms)


# neighbours in other modules, for names whose module exports no other public name (or whose closest kin live elsewhere)
NEIGHBOURS = {'evaluate': ('evaluation', 'evaluate_batch', 'evaluate_runs', 'compare', 'Evaluation', 'diagnose'),
              'evaluate_runs': ('evaluate', 'compare', 'Store'), 'sort_run': ('read_run', 'evaluate'),
              'rbp': ('err', 'ndcg', 'average_precision'), 'prepare_run': ('read_run', 'evaluate', 'evaluate_batch'),
              'trec_eval': ('TrecEvalResult', 'evaluate', 'compat'), 'adjust_pvalues': ('compare', 'Comparison'),
              'Leaderboard': ('Store', 'compare'), 'evaluate_batch': ('evaluate', 'BatchEvaluation', 'ndcg'),
              'compare': ('evaluate', 'reconcile_measures', 'Store'), 'reconcile_measures': ('compare', 'Reconciliation')}


def see_also(name: str, most: int = 6) -> str:
    """For a name of the package's public API: its neighbours, the other public names its module exports, as linked
    code (`a`, `b`); '' for anything else"""
    import importlib
    try: root = importlib.import_module(PACKAGE)
    except ImportError: return ''
    public = set(getattr(root, '__all__', ()))
    if name not in public or (mod := _home_module(name)) is None: return ''
    names = [n for n in getattr(importlib.import_module(mod), '__all__', ()) if n in public and n != name]
    names += [n for n in NEIGHBOURS.get(name, ()) if n in public and n not in names]
    return ', '.join(f'`{n}`' for n in names[:most])


def _as_property(sym):
    "nbdev hands a property's getter to the renderer: the property again (its class's attribute), else `sym`"
    import sys
    owner, _, attr = getattr(sym, '__qualname__', '').rpartition('.')
    cls = getattr(sys.modules.get(getattr(sym, '__module__', None) or ''), owner, None) if owner and '.' not in owner else None
    prop = vars(cls).get(attr) if inspect.isclass(cls) else None
    return prop if isinstance(prop, property) and prop.fget is sym else sym


def _markdown(self) -> str:
    "What the renderer displays: rule, source link, heading, signature, docstring, parameter table"
    from nbdev.doclinks import NbdevLookup
    out = '---\n\n'
    src = NbdevLookup().code(self.fn)
    if src: src = re.sub(r'#LNone$', '', src)   # (a property's getter: nbdev finds no line)
    if src: out += f'[source]({src}){{target="_blank" .doc-source style="float:right; font-size:smaller"}}\n\n'
    out += f"{'#' * self.title_level} {self.nm} {{#{self.nm} .doc-symbol}}\n\n"  # id: the exact name (the page adds nbdev's lower-case one)
    try: sig, doc, rows = doc_parts(_as_property(self.sym), self.nm)
    except Exception: return out + f'```python\n{self.dm}\n```' + (f'\n\n*{self.docs}*' if self.docs else '')
    out += f'```python\n{sig}\n```\n\n'
    if doc: out += re.sub(r'^(\s*)(.+)', r'\1*\2*', doc, count=1) + '\n\n'
    out += param_table(rows)
    if (also := see_also(self.nm)): out += f'\n\n*See also:* {also}'
    if inspect.isclass(self.sym): out += members_markdown(self.sym, self.nm, min(self.title_level + 1, 6))
    return out


class DocsRenderer(BasicMarkdownRenderer):
    "nbdev's markdown renderer with a parameter table (usable as settings.ini `renderer`)"
    def _repr_markdown_(self): return _markdown(self)


_re_md_link = re.compile(r'\[[^\[\]\n]*\]\([^()\s]*\)')


def _link_line_outside_links(base):
    "nbdev's `link_line`, leaving backticks that already sit in a link's text alone (no link inside a link)"
    def link_line(self, l):
        out, pos = [], 0
        for m in _re_md_link.finditer(l):
            out += [base(self, l[pos:m.start()]), m[0]]
            pos = m.end()
        return ''.join(out + [base(self, l[pos:])])
    return link_line


def install() -> None:
    "Make nbdev's show_doc (its default renderer) render with `DocsRenderer`, and its linker skip link texts, in this process"
    import nbdev.showdoc as sd
    from nbdev.doclinks import NbdevLookup
    if getattr(sd.BasicMarkdownRenderer, '_docs_table', False): return
    sd.BasicMarkdownRenderer._repr_markdown_ = _markdown
    sd.BasicMarkdownRenderer._docs_table = True
    NbdevLookup.link_line = _link_line_outside_links(NbdevLookup.link_line)
