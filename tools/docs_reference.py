"""How complete the reference of the built docs site is, read from its HTML (no browser needed).

    .venv/bin/python tools/docs_reference.py [_docs]            # the site's totals
    .venv/bin/python tools/docs_reference.py [_docs] -v         # ... and every name that falls short
    .venv/bin/python tools/docs_reference.py DRAFT --pages      # per page: what each entry still lacks

An entry is a show_doc section (`h3`/`h4.doc-symbol`). Measured: parameter rows with a description and a type;
functions with a Returns row; functions whose entry is followed, before the next entry or section, by a visible
code cell with an output that is not only assertions (an example); public methods and properties of public classes
with an entry; the share of visible code lines that are tests (`assert`, `test_*(...)` calls and `with` blocks of
them, counted statement by statement). tests/test_docs_reference.py holds the site to its thresholds.
"""
import ast, inspect, re, sys, json
from pathlib import Path
from bs4 import BeautifulSoup
import rankmetrics_nb as pkg
sys.path.insert(0, str(Path(__file__).resolve().parent))   # docs_showdoc, beside this file

_TEST_CALL = re.compile(r'^(test_\w+|test_fail|assert_\w+)$')
_TEST_CTX = re.compile(r'ExceptionExpected|\braises\b|\bwarns\b')


def _is_test(stmt) -> bool:
    if isinstance(stmt, ast.Assert): return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        f = stmt.value.func
        n = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ''
        return bool(_TEST_CALL.match(n))
    if isinstance(stmt, ast.With):
        return any(_TEST_CTX.search(ast.unparse(i.context_expr)) for i in stmt.items) or all(map(_is_test, stmt.body))
    if isinstance(stmt, (ast.For, ast.If)):
        return all(map(_is_test, stmt.body)) and all(map(_is_test, stmt.orelse))
    return False


def code_lines(src: str) -> tuple[int, int]:
    "(non-blank lines, lines of test statements) of a cell's code"
    lines = src.splitlines()
    nonblank = {i + 1 for i, l in enumerate(lines) if l.strip() and not l.strip().startswith('#')}
    try: tree = ast.parse('\n'.join(l if not l.lstrip().startswith(('%', '!')) else '' for l in lines))
    except SyntaxError:
        return len(nonblank), sum(bool(re.match(r'\s*(test_\w+\(|assert\b)', lines[i - 1])) for i in nonblank)
    test = set()
    for s in tree.body:
        if _is_test(s): test |= set(range(s.lineno, s.end_lineno + 1))
    return len(nonblank), len(test & nonblank)


def closed(el) -> bool:
    return any(p.name == 'details' and not p.has_attr('open') for p in el.parents)


def _table_after(h):
    for sib in h.find_next_siblings():
        if sib.name in ('h2', 'h3', 'h4', 'hr'): return None
        t = sib if sib.name == 'table' else sib.find('table', class_='params')
        if t is not None and 'params' in (t.get('class') or []): return t
    return None


def _pages(site: Path):
    "(page file, its <main id=content>) of every page of the site that has one"
    for f in sorted(site.glob('*.html')):
        main = BeautifulSoup(f.read_text(encoding='utf-8'), 'html.parser').find('main', id='content')
        if main is not None: yield f, main


def entries(site: Path) -> dict:
    "{name: [entry facts]} for every show_doc heading of the site"
    out = {}
    for f, main in _pages(site):
        cells = main.find_all('div', class_='cell', recursive=False)
        for i, c in enumerate(cells):
            for h in c.select('h3.doc-symbol, h4.doc-symbol'):
                name = h.get_text().replace('#', '').strip()
                t = _table_after(h)
                rows = []
                for tr in (t.select('tbody tr') if t else []):
                    td = tr.find_all('td')
                    rows.append((td[0].get_text(strip=True), td[1].get_text(strip=True), td[-1].get_text(strip=True)))
                ex = None
                for c2 in cells[i + 1:]:
                    if c2.select('h3.doc-symbol, h4.doc-symbol') or c2.find('h2'): break
                    if 'code' not in (c2.get('class') or []) or closed(c2) or c2.find('details', class_='code-fold'): continue
                    inp = c2.find(class_='cell-input')
                    if inp is None: continue
                    n, t_ = code_lines(inp.get_text())
                    ex = dict(output=c2.find(class_='cell-output') is not None, lines=n, tests=t_)
                    break
                pre = h.find_next('pre')
                is_class = bool(pre and pre.get_text().lstrip().startswith('class '))
                out.setdefault(name, []).append(dict(page=f.name, id=h.get('id'), rows=rows, example=ex, is_class=is_class,
                                                     member=h.name == 'h4' and '.' in name))
    return out


def visible_code(site: Path) -> dict:
    "{page: [visible code lines, of which test lines]}"
    per = {}
    for f, main in _pages(site):
        p = per.setdefault(f.name, [0, 0])
        for inp in main.select('.cell-input'):
            if closed(inp): continue
            n, t = code_lines(inp.get_text())
            p[0] += n; p[1] += t
    return per


def public_members() -> list[tuple[str, str]]:
    "(class, member) for the public methods and properties of the package's public classes"
    from docs_showdoc import public_members as members   # the renderer's own rule for which members an entry lists
    return sorted((n, m) for n in pkg.__all__ if inspect.isclass(o := getattr(pkg, n)) and not issubclass(o, BaseException)
                  for m, _ in members(o))


def report(site: Path) -> dict:
    E = entries(site)
    funcs = [n for n in pkg.__all__ if inspect.isfunction(getattr(pkg, n))]
    classes = [n for n in pkg.__all__ if inspect.isclass(getattr(pkg, n))]
    mem = public_members()
    rows = [(n, r) for n, es in E.items() for e in es for r in e['rows'] if r[0] != 'Returns']
    returns = [(n, r) for n, es in E.items() for e in es for r in e['rows'] if r[0] == 'Returns']
    good_ex = lambda e: e['example'] and e['example']['output'] and e['example']['tests'] < e['example']['lines']
    per = visible_code(site)
    tot, tst = sum(v[0] for v in per.values()), sum(v[1] for v in per.values())
    return dict(
        rows=len(rows), returns=len(returns), returns_undescribed=[n for n, r in returns if not r[2]], undescribed=[f'{n}:{r[0]}' for n, r in rows if not r[2]], untyped=[f'{n}:{r[0]}' for n, r in rows if not r[1]],
        functions=funcs, classes=classes, no_entry=[n for n in pkg.__all__ if n not in E],
        no_returns=[n for n in funcs if not any(r[0] == 'Returns' for e in E.get(n, []) for r in e['rows'])],
        no_example=[n for n in funcs if not any(good_ex(e) for e in E.get(n, []))],
        classes_no_example=[n for n in classes if not any(good_ex(e) for e in E.get(n, []))],
        members=[f'{a}.{b}' for a, b in mem], no_member_entry=[f'{a}.{b}' for a, b in mem if f'{a}.{b}' not in E],
        visible=tot, test_lines=tst, per_page=per)


def _main():
    site = Path(sys.argv[1] if len(sys.argv) > 1 else "_docs")
    r = report(site)
    print(f"param rows {r['rows']}: described {1 - len(r['undescribed']) / r['rows']:.3f}, typed {1 - len(r['untyped']) / r['rows']:.3f}; "
          f"Returns rows {r['returns']}: described {1 - len(r['returns_undescribed']) / max(r['returns'], 1):.3f}")
    nf = len(r['functions'])
    print(f"functions {nf}: Returns {1 - len(r['no_returns']) / nf:.3f}, example {1 - len(r['no_example']) / nf:.3f}; no entry {r['no_entry']}")
    print(f"members {len(r['members'])}: with entry {1 - len(r['no_member_entry']) / len(r['members']):.3f}")
    print(f"visible code lines {r['visible']}, tests {r['test_lines']} = {r['test_lines'] / r['visible']:.3f}")
    if '-v' in sys.argv:
        for k in ('no_returns', 'no_example', 'classes_no_example', 'no_member_entry', 'undescribed', 'untyped', 'returns_undescribed'): print(k, r[k])
        print(sorted(((v[1], k, v[0]) for k, v in r['per_page'].items()), reverse=True))


def page_report(site: Path) -> None:
    "For a draft site of a few pages: what each page still lacks"
    E = entries(site)
    per = visible_code(site)
    mem = public_members()
    for page in sorted(per):
        if page == 'index.html' and len(per) > 1: continue
        here = {n: [e for e in es if e['page'] == page] for n, es in E.items()}
        here = {n: es for n, es in here.items() if es}
        print(f'== {page}: visible code {per[page][0]} lines, tests {per[page][1]} '
              f'({per[page][1] / max(per[page][0], 1):.0%}; aim <= 8%)')
        for n, es in here.items():
            e = es[0]
            obj = getattr(pkg, n.split('.')[0], None)
            kind = 'member' if e['member'] else 'class' if inspect.isclass(obj) or e.get('is_class') else \
                'table' if n.isupper() else 'function'
            probs = [f'no description: {r[0]}' for r in e['rows'] if not r[2]]
            probs += [f'no type: {r[0]}' for r in e['rows'] if not r[1] and r[0] != 'Returns']
            if kind in ('function', 'member') and not any(r[0] == 'Returns' for r in e['rows']): probs.append('no Returns row')
            ex = e['example']
            if kind == 'function' and not (ex and ex['output'] and ex['tests'] < ex['lines']):
                probs.append('no example with printed output right under the entry')
            if probs: print(f'  {n} ({kind}{", public" if n.split(".")[0] in pkg.__all__ else ""}): ' + '; '.join(probs))
        cls_here = [n for n in here if n in pkg.__all__ and inspect.isclass(getattr(pkg, n))]
        missing = [f'{a}.{b}' for a, b in mem if a in cls_here and f'{a}.{b}' not in E]
        if missing: print(f'  members without an entry: {missing}')


if __name__ == '__main__':
    if '--pages' in sys.argv: page_report(Path(sys.argv[1]))
    else: _main()
