"""show_doc renderer for the docs: classes shown as classes.

nbdev's `BasicMarkdownRenderer` formats every symbol as a function, so a class reads
`def Batch(**kw)`. `ClassAwareRenderer` keeps nbdev's output for functions and renders a class as

    class Name(Base):
        field:type=default, # docment
        ...

- dataclass: its fields (`dataclasses.fields`), with their trailing `#` comments;
- other classes: the parameters of `__init__` with their docments (none shown for `**kw`-only);
- named tuples: their fields.

nbdev picks a renderer from settings.ini (`renderer = module.Class`); tools/build_docs.py
installs this one in its process (see `install`), so notebooks and settings stay unchanged.
"""
from __future__ import annotations

import dataclasses, inspect, re

from fastcore.docments import docments
from nbdev.showdoc import BasicMarkdownRenderer


def _anno(a) -> str:
    if a is inspect.Parameter.empty or a is dataclasses.MISSING: return ''
    if isinstance(a, str): return a
    return getattr(a, '__name__', None) or inspect.formatannotation(a).replace('typing.', '')


def _default(v) -> str:
    if v is dataclasses.MISSING or v is inspect.Parameter.empty: return ''
    return getattr(v, '__name__', None) or repr(v)


_re_field = re.compile(r'^\s+(\w+)\s*:[^#\n]*#\s*(.+?)\s*$')


def _field_comments(cls) -> dict:
    "Trailing `# comment` of each annotated line in the class body (dataclass fields)"
    try: src = inspect.getsource(cls)
    except (OSError, TypeError): return {}
    return {m[1]: m[2] for line in src.splitlines() if (m := _re_field.match(line))}


def _is_dataclass(cls) -> bool: return '__dataclass_fields__' in cls.__dict__  # decorated itself


def class_fields(cls) -> list[tuple[str, str]]:
    "[(formatted parameter, comment)] of a class: dataclass fields, namedtuple fields or `__init__` params"
    if _is_dataclass(cls):
        notes = {k: v for c in reversed(cls.__mro__[:-1]) for k, v in _field_comments(c).items()}
        out = []
        for f in dataclasses.fields(cls):
            if not f.init or f.name.startswith('_'): continue
            d = _default(f.default) if f.default is not dataclasses.MISSING else \
                (f'{_default(f.default_factory)}()' if f.default_factory is not dataclasses.MISSING else '')
            a = _anno(f.type)
            out.append((f.name + (f':{a}' if a else '') + (f'={d}' if d else ''), notes.get(f.name, '')))
        return out
    if issubclass(cls, tuple) and hasattr(cls, '_fields'):
        notes = _field_comments(cls)
        annos = getattr(cls, '__annotations__', {})
        dflt = getattr(cls, '_field_defaults', {})
        return [(n + (f':{_anno(annos[n])}' if n in annos else '') + (f'={_default(dflt[n])}' if n in dflt else ''),
                 notes.get(n, '')) for n in cls._fields]
    init = cls.__dict__.get('__init__')
    if init is None:  # inherited: show the inherited parameters only if the class defines nothing else
        init = getattr(cls, '__init__', None)
        if init is object.__init__: return []
    try: sig = inspect.signature(init)
    except (TypeError, ValueError): return []
    try: notes = {k: (v or {}).get('docment') or '' for k, v in docments(init, full=True).items()}
    except Exception: notes = {}
    out = []
    for i, (n, p) in enumerate(sig.parameters.items()):
        if i == 0 and n in ('self', 'cls'): continue
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and not notes.get(n): continue  # catch-alls say nothing
        pre = '*' if p.kind is p.VAR_POSITIONAL else '**' if p.kind is p.VAR_KEYWORD else ''
        a, d = _anno(p.annotation), _default(p.default)
        out.append((pre + n + (f':{a}' if a else '') + (f'={d}' if d else ''), notes.get(n) or ''))
    return out


def class_signature(cls, name: str | None = None) -> str:
    "`class Name(Base):` followed by one line per field/parameter (comments as `# ...`)"
    bases = [b for b in cls.__bases__ if b is not object]
    kind = 'dataclass' if _is_dataclass(cls) else ''
    head = ('@dataclass\n' if kind else '') + f"class {name or cls.__name__}" + \
           (f"({', '.join(b.__name__ for b in bases)})" if bases else '') + ':'
    lines = [head]
    for fmt, note in class_fields(cls):
        lines.append(f'    {fmt}' + (f'  # {note}' if note else ''))
    return '\n'.join(lines)


def _markdown(self, base) -> str:
    doc = base(self)
    if not inspect.isclass(self.sym): return doc
    block = f'```python\n{class_signature(self.sym, self.nm)}\n```'
    return re.sub(r'```python\n.*?\n```', lambda m: block, doc, count=1, flags=re.S)


class ClassAwareRenderer(BasicMarkdownRenderer):
    "nbdev's markdown renderer, with classes rendered by `class_signature` (usable as settings.ini `renderer`)"
    def _repr_markdown_(self): return _markdown(self, BasicMarkdownRenderer._repr_markdown_)


def install() -> None:
    "Make nbdev's show_doc (its default renderer) render classes with `class_signature`, in this process"
    import nbdev.showdoc as sd
    if getattr(sd.BasicMarkdownRenderer, '_class_aware', False): return
    base = sd.BasicMarkdownRenderer._repr_markdown_
    sd.BasicMarkdownRenderer._repr_markdown_ = lambda self: _markdown(self, base)
    sd.BasicMarkdownRenderer._class_aware = True
