#!/usr/bin/env python
"""Build the rankmetrics_nb documentation site offline, without quarto.

Usage (from the repository root):

    .venv/bin/python tools/build_docs.py [--out _docs] [--nbs nbs] [--jobs 1] [--quiet]

How it works
------------
1. Every `nbs/*.ipynb` not starting with `_` is read and run through nbdev 2's own notebook
   processors (`nbdev.processors.FilterDefaults`, the same list `nbdev_proc_nbs` applies before
   quarto renders). They honour the `#|` directives (hide, export, exports, ...), turn the
   `# Title` + `> summary` cell into front matter, and add + execute `show_doc` for exported
   symbols. Like nbdev, the `exec_show_docs` processor also re-runs exported cells and cells
   containing imports; nothing else is executed, all other outputs are the saved ones.
   By default the notebooks are processed one after the other in this process (each gets a
   fresh IPython shell from nbdev); `--jobs N` spreads them over N spawned worker processes
   like nbdev_proc_nbs does (slower for a handful of notebooks: each worker imports nbdev).
2. Quarto cell options left in the code (`#| echo: false`, `#| output: false|asis`,
   `#| include: false`, `#| code-fold`, `#| code-summary`, `#| fig-cap`, `#| fig-alt`,
   `#| warning: false`) are applied here, since quarto is what would normally read them.
   Pandoc-only markdown (`[txt](url){attrs}` links, `::: {.callout-note}` fenced divs and
   `{#id .class}` heading attributes) is turned into HTML that nbconvert's markdown keeps.
3. nbconvert renders each page with the template in tools/docs_template/ (page.html.j2 +
   site.css). Sidebar, title, description, toc and css come from the top-level `_quarto.yml`
   and settings.ini. Math is left as `$...$` / `$$...$$` by nbconvert's math-aware markdown
   and typeset in the browser by a local MathJax 2 copy (from the jupyter-server-mathjax
   wheel) written to `<out>/mathjax/`. Nothing is loaded from the internet.

4. Reader-facing touches: classes are shown as `class Name(Base):` with their fields
   (tools/docs_showdoc.py patches nbdev's show_doc renderer in this process); the sidebar is
   grouped by `website.sidebar.contents` of `_quarto.yml` (quarto globs, see `sidebar_sections`);
   peer cross-checks (`#| peer`), tests of private helpers and walls of `test_fail` are folded
   into `<details>` (`auto_fold`); tables scroll inside their own box; after all pages are
   written, links to anchors that do not exist (private or undocumented names) become plain
   text and `search-index.js` is written for the offline search box (assets/search.js).

Output: `<out>/<page>.html` (`12_engine.kit.ipynb` -> `engine.kit.html`, `index.ipynb` -> `index.html`),
`<out>/<page>_files/` (figures), `<out>/assets/`, `<out>/mathjax/`, `<out>/search-index.js`, `<out>/sitemap.txt`.
The site is built in a temporary sibling folder (`.<out>.building`) that then replaces the
output folder, so a failed build keeps the previous site. An existing output folder is only
replaced if it is a previous build (of this script or quarto) or empty.
"""
from __future__ import annotations

import argparse, configparser, html, json, multiprocessing, os, re, shutil, sys, time, warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
TEMPLATE_DIR = Path(__file__).resolve().parent / 'docs_template'
MARKER = '.built-by-tools-build_docs'  # marks an output folder this script may delete

# --------------------------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------------------------

def read_settings(root: Path = REPO) -> dict:
    "settings.ini [DEFAULT] section as a dict (empty if missing)"
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(root / 'settings.ini', encoding='utf-8')
    return dict(cp['DEFAULT'])


def read_quarto(root: Path = REPO) -> dict:
    "The site configuration: the top-level `_quarto.yml` (empty if missing)"
    import yaml
    p = root / '_quarto.yml'
    return (yaml.safe_load(p.read_text(encoding='utf-8')) or {}) if p.exists() else {}


def _as_list(x) -> list:
    return [] if x is None else list(x) if isinstance(x, (list, tuple)) else [x]


def html_format(quarto: dict) -> dict:
    fmt = (quarto.get('format') or {}).get('html') or {}
    return fmt if isinstance(fmt, dict) else {}


def notebook_paths(nbs: Path) -> list[Path]:
    "index.ipynb first, then the other notebooks sorted by file name; `_*` files excluded"
    nbs_list = sorted(p for p in nbs.glob('*.ipynb') if not p.name.startswith(('_', '.')))
    return sorted(nbs_list, key=lambda p: (p.name != 'index.ipynb', p.name))


def page_name(nb_path: Path) -> str:
    "Output file name, as nbdev/quarto name it (`12_engine.kit.ipynb` -> `engine.kit.html`)"
    return re.sub(r'^\d+[a-zA-Z0-9]*_', '', nb_path.name.lower())[:-len('.ipynb')] + '.html'

# --------------------------------------------------------------------------------------------
# Step 1: nbdev processors (run in a worker process per notebook)
# --------------------------------------------------------------------------------------------

class DocsBuildError(Exception):
    "A notebook could not be processed; the message says which and why"


def _jsonable(o):
    if isinstance(o, dict): return {str(k): _jsonable(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)): return [_jsonable(v) for v in o]
    if o is None or isinstance(o, (str, int, float, bool)): return o
    return str(o)


_SHOW_MEMBER = re.compile(r"""show_doc\(\s*([A-Za-z_]\w*\.\w+)\s*(?:,\s*name\s*=\s*['"]([\w.]+)['"])?""")


def process_notebook(path: str) -> dict:
    """Run nbdev's docs processors on the notebook at `path`.
    Returns {'cells': [...], 'metadata': {...}, 'frontmatter': {...}, 'warnings': [...]}"""
    os.environ['IN_TEST'] = '1'  # as nbdev.serve_drv does
    from execnb.nbio import read_nb
    from nbdev.processors import FilterDefaults
    tools = str(Path(__file__).resolve().parent)
    if tools not in sys.path: sys.path.insert(0, tools)
    import docs_showdoc
    docs_showdoc.install()  # signatures without docments, a Type / Default / Details table, classes as classes
    nb = read_nb(path)
    # members the notebook documents with a show_doc of their own are left out of their class's member list
    docs_showdoc.EXPLICIT = {m[2] or m[1] for c in nb.cells if c.cell_type == 'code'
                             for m in _SHOW_MEMBER.finditer(c.source or '')}
    argv, sys.argv = sys.argv, sys.argv[:1]  # executed cells must not see this script's options
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try: FilterDefaults()(nb)
        except (Exception, SystemExit) as e:  # one readable message (the worker's traceback is not useful here)
            cause = e.__cause__ or e.__context__
            why = f'{type(cause).__name__}: {cause}' if cause else ''
            raise DocsBuildError(
                f"{Path(path).name}: nbdev's docs processing failed: {why}\n{e}\n"
                "nbdev's exec_show_docs processor re-runs exported cells, import cells and cells that mix "
                "imports with other code (nbdev_docs fails the same way). If the cell above mixes both, move "
                "its imports to an import-only cell (e.g. the notebook's `#| hide` import cell).") from None
        finally: sys.argv = argv
    cells = []
    for c in nb.cells:
        d = {'cell_type': c.cell_type, 'source': c.source or '', 'metadata': _jsonable(dict(c.get('metadata') or {})),
             'directives': _jsonable(dict(getattr(c, 'directives_', None) or {}))}  # nbdev strips `#| flag`s from the source
        if c.cell_type == 'code':
            d['outputs'] = _jsonable(list(c.get('outputs') or []))
            d['execution_count'] = c.get('execution_count')
        if c.get('attachments'): d['attachments'] = _jsonable(dict(c.attachments))
        cells.append(d)
    fm = _jsonable(dict(getattr(nb, 'frontmatter_', None) or {}))
    msgs = [str(w.message) for w in caught]
    return {'cells': cells, 'metadata': _jsonable(dict(nb.get('metadata') or {})), 'frontmatter': fm, 'warnings': msgs}


def process_all(paths: list[Path], jobs: int, meanwhile=None) -> list[dict]:
    """Process notebooks in spawned workers (one notebook per task), results in input order.
    `meanwhile()` (if given) runs in this process while the workers are busy."""
    if jobs <= 1 or len(paths) <= 1:
        if meanwhile: meanwhile()
        return [process_notebook(str(p)) for p in paths]
    # the worker function must be importable by name in the spawned children (not `__main__`)
    if str(Path(__file__).resolve().parent) not in sys.path: sys.path.insert(0, str(Path(__file__).resolve().parent))
    import build_docs
    ctx = multiprocessing.get_context('spawn')
    with ProcessPoolExecutor(max_workers=min(jobs, len(paths)), mp_context=ctx) as ex:
        futures = [ex.submit(build_docs.process_notebook, str(p)) for p in paths]
        if meanwhile: meanwhile()
        try: return [f.result() for f in futures]
        except build_docs.DocsBuildError as e:
            for f in futures: f.cancel()
            raise DocsBuildError(str(e)) from None

# --------------------------------------------------------------------------------------------
# Step 2: quarto cell options and pandoc markdown
# --------------------------------------------------------------------------------------------

_re_qopt = re.compile(r'^\s*#\|\s*([\w.-]+)\s*:\s*(.*?)\s*$')


_re_flag = re.compile(r'^\s*#\|\s*([\w.-]+)\s*$')


def split_cell_options(src: str) -> tuple[dict, str]:
    """Split leading `#| key: value` quarto options and `#| flag` directives (nbdev test flags
    such as `#| peer`, which nbdev's processors leave in) off a code cell's source.
    Flags come back as options with the value True."""
    import yaml
    lines, opts = src.splitlines(), {}
    i = 0
    while i < len(lines):
        if (m := _re_qopt.match(lines[i])):
            try: val = yaml.safe_load(m[2]) if m[2] else None
            except yaml.YAMLError: val = m[2]
            opts[m[1]] = val
        elif (m := _re_flag.match(lines[i])): opts.setdefault(m[1], True)
        else: break
        i += 1
    return opts, '\n'.join(lines[i:]).strip('\n')


_re_private_call = re.compile(r'(?<![\w.])_[A-Za-z]\w*\s*\(')
_re_test_call = re.compile(r'\b(?:test_\w+|assert)\b')
FOLD_TEST_FAILS = 3    # a cell with at least this many `test_fail` calls is folded
FOLD_LONG_TESTS = 30   # a test cell longer than this many lines is folded


def auto_fold(src: str, opts: dict) -> str | None:
    """Summary line for a code cell the reader should see folded (a `<details>`), or None:
    cross-checks against peer tools (`#| peer`), tests of private helpers, walls of `test_fail`
    and long test cells. The code stays on the page, one click away."""
    lines = [l for l in src.splitlines() if l.strip()]
    if opts.get('peer') is True: return 'Cross-check against other evaluation tools'
    if not _re_test_call.search(src): return None
    if _re_private_call.search(src) and not re.search(r'^(?:def|class)\s', src, flags=re.M):
        return 'Tests of internal helpers'
    if (n := src.count('test_fail(')) >= FOLD_TEST_FAILS: return f'Error cases ({n} checks)'
    if len(lines) > FOLD_LONG_TESTS: return f'More tests ({len(lines)} lines)'
    return None


def _falsy(v) -> bool: return v is False or str(v).lower() in ('false', 'no', '0')


_re_attr_token = re.compile(r'''(#[\w:.-]+|\.[\w:-]+)|([\w:-]+)=("[^"]*"|'[^']*'|[^\s"']+)''')  # ids may hold dots


def pandoc_attrs(s: str) -> dict:
    "Parse a pandoc attribute string `#id .cls key=val` into HTML attributes"
    attrs, classes = {}, []
    for cls_or_id, key, val in _re_attr_token.findall(s):
        if cls_or_id.startswith('.'): classes.append(cls_or_id[1:])
        elif cls_or_id.startswith('#'): attrs['id'] = cls_or_id[1:]
        else: attrs[key] = val[1:-1] if val[:1] in '"\'' else val
    if classes: attrs['class'] = ' '.join(classes)
    return attrs


def _attr_str(attrs: dict) -> str:
    return ''.join(f' {k}="{html.escape(v)}"' for k, v in attrs.items())


_re_attr_link = re.compile(r'(!?)\[([^\]\n]*)\]\(([^()\s]+)(?:\s+"([^"\n]*)")?\)\{([^}\n]*)\}')
_re_fence_open = re.compile(r'^\s*:{3,}\s*(?:\{([^}]*)\}|([\w-]+))\s*$')
_re_fence_close = re.compile(r'^\s*:{3,}\s*$')
_re_code_fence = re.compile(r'^\s*(```|~~~)')
_re_heading_attrs = re.compile(r'^(#{1,6}\s+.*?)\s+\{([^{}\n]*)\}\s*$')


def _heading_html_md(m: re.Match) -> str:
    "`## Title {#id .cls}` -> `## Title` (+ comments carrying the id and classes, applied by `postprocess`)"
    a = pandoc_attrs(m[2])
    return m[1] + (f" <!--docs-id:{a['id']}-->" if a.get('id') else '') + (f" <!--docs-class:{a['class']}-->" if a.get('class') else '')


def _link_html(m: re.Match) -> str:
    bang, text, url, title, attrs = m.groups()
    a = pandoc_attrs(attrs)
    if title: a['title'] = title
    if bang:
        return f'<img src="{html.escape(url)}" alt="{html.escape(text)}"{_attr_str(a)}>'
    return f'<a href="{html.escape(url)}"{_attr_str(a)}>{text}</a>'


# code spans, display math and inline math (same delimiters as nbconvert's math-aware markdown)
_re_keep = re.compile(r'(`+)[\s\S]*?\1|(?<!\\)\$\$[\s\S]*?(?<!\\)\$\$|(?<![$\\])\$[\s\S]+?(?<![$\\])\$')


def _escape_dollars(text: str) -> str:
    r"""`\$` outside math and code -> `\\$`, so the HTML keeps `\$` and MathJax (processEscapes)
    shows a literal dollar instead of pairing it with the next one as a math delimiter.
    A display formula on lines of its own that lists several equations is laid out as a row
    of formulas that wraps (`math_row`)."""
    res, pos = [], 0
    for m in _re_keep.finditer(text):
        own_lines = m[0].startswith('$$') and (m.start() == 0 or text[m.start() - 1] == '\n') \
            and (m.end() == len(text) or text[m.end()] == '\n')
        res += [text[pos:m.start()].replace('\\$', '\\\\$'), math_row(m[0]) if own_lines else m[0]]
        pos = m.end()
    return ''.join(res + [text[pos:].replace('\\$', '\\\\$')])


def split_equations(tex: str) -> list[str]:
    r"""The equations of a display formula that lists several, separated at the top level (outside
    braces, `\left...\right` and environments) by `\qquad`, or by `\quad` after a comma:
    `a = 1, \qquad b = 2` -> `['a = 1,', 'b = 2']`. One item when there is nothing to split."""
    parts, depth, start, i = [], 0, 0, 0
    sep = re.compile(r'\\qquad(?![a-zA-Z])|(?<=,)\s*\\quad(?![a-zA-Z])')
    while i < len(tex):
        c = tex[i]
        if c == '\\':
            if (m := re.match(r'\\(begin|end|left|right)(?![a-zA-Z])', tex[i:])):
                depth += 1 if m[1] in ('begin', 'left') else -1
                i += len(m[0]); continue
            if depth == 0 and (m := sep.match(tex, i)):
                parts.append(tex[start:i]); i = start = m.end(); continue
            i += 2; continue
        if c == '{': depth += 1
        elif c == '}': depth -= 1
        elif c == ',' and depth == 0 and (m := sep.match(tex, i + 1)):
            parts.append(tex[start:i + 1]); i = start = m.end(); continue
        i += 1
    parts.append(tex[start:])
    parts = [x.strip() for x in parts if x.strip()]
    return parts if len(parts) > 1 else [tex.strip()]


def math_row(display: str) -> str:
    """A `$$...$$` formula listing several equations as an HTML block of one display formula per
    equation, in a row that wraps onto more lines where the column is narrow (site.css `.math-row`);
    the formula unchanged when it holds one equation."""
    eqs = split_equations(display[2:-2])
    if len(eqs) == 1: return display
    pieces = ''.join(f'<div class="math-piece">$${html.escape(e, quote=False)}$$</div>' for e in eqs)
    return f'\n\n<div class="math-row">{pieces}</div>\n\n'


def pandoc_to_html_md(md: str) -> str:
    r"""Rewrite the pandoc-only parts of a markdown string for nbconvert's markdown renderer:
    `[txt](url){attrs}`, `::: {.class}` fenced divs, `{...}` heading attributes, `\$`.
    Fenced code blocks are left alone; math is untouched (nothing here matches TeX)."""
    out, in_code, div_depth = [], False, 0   # out: (is_code, line)
    for line in md.split('\n'):
        if _re_code_fence.match(line):
            in_code = not in_code
            out.append((True, line)); continue
        if in_code:
            out.append((True, line)); continue
        if (m := _re_fence_open.match(line)):
            a = pandoc_attrs(m[1] or '.' + m[2])
            cls = a.get('class', '')
            callout = next((c for c in cls.split() if c.startswith('callout-')), None)
            if callout: a['class'] = f'callout {cls}'
            title = f'<div class="callout-title">{callout[8:].capitalize()}</div>' if callout else ''
            out += [(True, ''), (True, f'<div{_attr_str(a)}>{title}'), (True, '')]
            div_depth += 1; continue
        if div_depth and _re_fence_close.match(line):
            out += [(True, ''), (True, '</div>'), (True, '')]
            div_depth -= 1; continue
        line = _re_heading_attrs.sub(_heading_html_md, line)
        out.append((False, _re_attr_link.sub(_link_html, line)))
    out += [(True, ''), (True, '</div>')] * div_depth
    # join runs of text lines (math may span lines) and protect escaped dollars in them
    res, chunk = [], []
    for is_code, line in out + [(True, None)]:
        if not is_code: chunk.append(line); continue
        if chunk: res.append(_escape_dollars('\n'.join(chunk))); chunk = []
        if line is not None: res.append(line)
    return '\n'.join(res)


# `<file>.py:<line>: SomeWarning: message` + the echoed source line, as Python prints a warning
_re_warning = re.compile(r'^[^\n]*?\.py:\d+: (\w+(?:Warning|Error)): ([^\n]*)\n(?:[ \t]+[^\n]*\n)?', re.M)
# a file in a temporary folder: /tmp/tmpab12cd/bom.txt, /tmp/ipykernel_123/456.py, /var/folders/.../T/tmpx/f
_re_temp_path = re.compile(r'(?:/tmp|/var/folders/[\w/]+?/T|[A-Za-z]:\\[^\s:]*?\\Temp)[/\\](?:[\w.-]+[/\\])*([\w.-]+)')


def _drop_warning_sources(text: str) -> str:
    "The source line Python echoes under a warning whose message runs over several lines (`  code`), left out"
    lines, out, in_warning = text.split('\n'), [], False
    for line in lines:
        if _re_warning_head.match(line): in_warning = True
        elif in_warning and line.startswith('  ') and line[2:3].strip():
            in_warning = False; continue
        elif in_warning and (not line or line[:1].isspace()): in_warning = False
        out.append(line)
    return '\n'.join(out)


_re_warning_head = re.compile(r'^[^\n]*?\.py:\d+: \w+(?:Warning|Error): ')


def clean_output_text(text: str) -> str:
    """Outputs as a reader should see them: a warning as `Category: message` (not the kernel's temporary
    cell file or the module's path, line number and source line), and a file in a temporary folder by its name only."""
    return _re_temp_path.sub(r'\1', _re_warning.sub(r'\1: \2\n', _drop_warning_sources(text)))


def _clean_output(o: dict) -> None:
    for key in ('text',):
        if key in o: o[key] = clean_output_text(''.join(o[key]) if isinstance(o[key], list) else o[key])
    if 'traceback' in o: o['traceback'] = [clean_output_text(t) for t in o['traceback']]
    data = o.get('data') or {}
    if 'text/plain' in data:
        t = data['text/plain']
        data['text/plain'] = clean_output_text(''.join(t) if isinstance(t, list) else t)


_re_plot_text = {k: re.compile(rf"""(?:{pat})\s*\(?\s*[fFrR]{{0,2}}([\'"])(.+?)\1""") for k, pat in
                 [('title', r'set_title|suptitle|\btitle\s*=|plt\.title'), ('x', r'set_xlabel|\bxlabel\s*=|plt\.xlabel'),
                  ('y', r'set_ylabel|\bylabel\s*=|plt\.ylabel')]}


_GREEK = dict(alpha='α', beta='β', gamma='γ', delta='δ', epsilon='ε', lambda_='λ', mu='μ', pi='π', rho='ρ',
              sigma='σ', tau='τ', phi='φ', ell='ℓ', infty='∞', le='≤', ge='≥', times='×', cdot='·', approx='≈')


def _greek(tex: str) -> str:
    "The TeX commands for Greek letters and a few symbols as Unicode characters"
    return re.sub(r'\\([a-zA-Z]+)', lambda m: _GREEK.get(m[1], _GREEK.get(m[1] + '_', m[0])), tex)


def _plain(md: str) -> str:
    "Markdown or TeX-bearing text as plain words (for alt texts)"
    t = re.sub(r'\$\$.*?\$\$', ' ', md, flags=re.S)
    t = re.sub(r'\$([^$]*)\$', lambda m: re.sub(r'\\[a-zA-Z]+|[{}^_\\]', ' ', _greek(m[1])), t)
    t = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', t)
    t = re.sub(r'[`*#>|]', '', t)
    return re.sub(r'\s+', ' ', t).strip()


def figure_alt(src: str, context: str) -> str:
    """Alt text for a figure a code cell draws: its titles and axis labels as written in the code
    (f-string fields left out; a title with several fields is skipped), else the last sentence of the
    text before it."""
    found = {k: [m[2] for m in rx.finditer(src) if m[2].count('{') <= 1] for k, rx in _re_plot_text.items()}
    clean = lambda xs: [re.sub(r'\s+', ' ', re.sub(r'\{[^}]*\}', '', _plain(x))).strip(' :,') for x in xs]
    titles, xs, ys = (list(dict.fromkeys(x for x in clean(found[k]) if x)) for k in ('title', 'x', 'y'))
    axes = '; '.join(p for p in (f"x axis: {', '.join(xs)}" if xs else '', f"y axis: {', '.join(ys)}" if ys else '') if p)
    if titles: return 'Plot: ' + '; '.join(titles) + (f' ({axes})' if axes else '')
    sentences = [x for x in re.split(r'(?<=[.:!?])\s+', _plain(context)) if len(x) > 20]
    if sentences: return 'Plot: ' + sentences[-1].rstrip(':.') + (f' ({axes})' if axes else '')
    return 'Plot' + (f' ({axes})' if axes else '')


def prepare_cells(proc: dict) -> list[dict]:
    "Apply quarto cell options and the markdown rewrites to nbdev-processed cells"
    cells, context = [], ''
    for c in proc['cells']:

        ct = c['cell_type']
        if ct == 'raw':
            src = c['source'].strip()
            if src.startswith('---') and src.rstrip().endswith('---'): continue  # nbdev front matter
            cells.append(c); continue
        if ct == 'markdown':
            if not c['source'].strip(): continue
            if re.fullmatch(r'\s*<!--.*?-->\s*', c['source'], flags=re.S):  # e.g. nbdev's autogenerated warning
                cells.append({'cell_type': 'raw', 'source': c['source'].strip(), 'metadata': {'raw_mimetype': 'text/html'}})
                continue
            context = c['source']
            c['source'] = pandoc_to_html_md(c['source'])
            cells.append(c); continue
        if ct != 'code': continue
        opts, src = split_cell_options(c['source'])
        for k, v in (c.get('directives') or {}).items():  # nbdev test flags (`#| peer`) it took out of the source
            if not k.endswith(':') and not v: opts.setdefault(k, True)
        if _falsy(opts.get('include', True)): continue
        docs = {}
        outputs = c.get('outputs') or []
        if _falsy(opts.get('output', True)): outputs = []
        if str(opts.get('output', '')).lower() == 'asis': docs['asis'] = True
        if _falsy(opts.get('warning', True)):
            outputs = [o for o in outputs if not (o.get('output_type') == 'stream' and o.get('name') == 'stderr')]
        for o in outputs:
            _clean_output(o)
            md = (o.get('data') or {}).get('text/markdown')
            if md is not None:
                md = ''.join(md) if isinstance(md, list) else md
                o['data']['text/markdown'] = pandoc_to_html_md(md)
        show_src = not _falsy(opts.get('echo', True)) and bool(src.strip())
        if not show_src and not outputs: continue
        fold = opts.get('code-fold')
        if fold is True or str(fold).lower() in ('true', 'show'):
            docs['fold'] = 'show' if str(fold).lower() == 'show' else 'hide'
            docs['summary'] = str(opts.get('code-summary') or 'Code')
        elif show_src and fold is None and (summary := auto_fold(src, opts)):
            docs['fold'], docs['summary'], docs['fold_all'] = 'hide', summary, True
        if opts.get('fig-cap'): docs['cap'] = str(opts['fig-cap'])
        if opts.get('fig-alt'): docs['alt'] = str(opts['fig-alt'])
        elif any(k.startswith('image/') for o in outputs for k in (o.get('data') or {})):
            docs['alt'] = str(opts.get('fig-cap') or figure_alt(src, context))
        md = dict(c.get('metadata') or {})
        md['docs'] = docs
        if not show_src: md['transient'] = {'remove_source': True}
        c.update(source=src, outputs=outputs, metadata=md)
        cells.append(c)
    return cells


def to_notebook_node(cells: list[dict], metadata: dict):
    "Build an nbformat v4 NotebookNode (multi-line lists joined) from plain cell dicts"
    import nbformat
    nbd = {'nbformat': 4, 'nbformat_minor': 5, 'metadata': metadata, 'cells': []}
    for i, c in enumerate(cells):
        c = dict(c)
        c['id'] = f'cell-{i}'
        if c['cell_type'] == 'code':
            c.setdefault('execution_count', None)
            outs = []
            for o in c.get('outputs') or []:
                o = dict(o)
                if o.get('output_type') in ('execute_result', 'display_data'):
                    o.setdefault('metadata', {}); o.setdefault('data', {})
                    if o['output_type'] == 'execute_result': o.setdefault('execution_count', None)
                outs.append(o)
            c['outputs'] = outs
        nbd['cells'].append(c)
    return nbformat.reads(json.dumps(nbd), as_version=4)

# --------------------------------------------------------------------------------------------
# Step 3: HTML
# --------------------------------------------------------------------------------------------

def make_exporter():
    from nbconvert import HTMLExporter
    from traitlets.config import Config
    c = Config()
    c.HTMLExporter.extra_template_basedirs = [str(TEMPLATE_DIR.parent)]
    c.HTMLExporter.template_name = TEMPLATE_DIR.name
    c.HTMLExporter.template_file = 'page.html.j2'
    c.HTMLExporter.exclude_anchor_links = True  # heading ids are added by `postprocess`
    c.ExtractOutputPreprocessor.enabled = True
    c.ExtractOutputPreprocessor.output_filename_template = 'figure-{cell_index}-{index}{extension}'
    return HTMLExporter(config=c)


def slugify(text: str) -> str:
    "Heading id like pandoc/quarto: lower case, punctuation except `_-.` dropped, spaces to `-`"
    s = re.sub(r'[^\w\s.-]', '', text.strip().lower())
    s = re.sub(r'\s+', '-', s).lstrip('0123456789.-')
    return s or 'section'


def postprocess(page_html: str, site: dict, page: dict, nbs: Path, out: Path):
    "Heading ids + anchors, folded sections, toc, local links, and copying of local assets referenced by the page (returns the soup)"
    from bs4 import BeautifulSoup, Comment
    soup = BeautifulSoup(page_html, 'html.parser')
    main = soup.find('main', id='content')
    used = {t['id'] for t in soup.find_all(id=True)}
    toc = []
    headings = [h for h in main.find_all(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']) if 'title' not in (h.get('class') or [])]
    for h in headings:  # ids and classes written in the source (`{#id .cls}`) first: a symbol's id beats a slug
        for c in h.find_all(string=lambda x: isinstance(x, Comment) and x.startswith(('docs-id:', 'docs-class:'))):
            key, _, val = c.partition(':')
            if key == 'docs-class': h['class'] = (h.get('class') or []) + val.split()
            elif not h.get('id') and val.strip() not in used: h['id'] = val.strip(); used.add(h['id'])
            c.extract()
    for h in headings:  # a documented symbol (id: its exact name) also answers to nbdev's lower-case link anchor
        if 'doc-symbol' in (h.get('class') or []) and h.get('id') and (low := h['id'].lower()) not in used:
            h.insert(0, soup.new_tag('span', attrs={'id': low, 'class': 'anchor-alias'}))
            used.add(low)
    for h in headings:
        if not h.get('id'):
            base = slugify(h.get_text()); hid, n = base, 1
            while hid in used: n += 1; hid = f'{base}-{n}'
            used.add(hid); h['id'] = hid
        a = soup.new_tag('a', href='#' + h['id'], attrs={'class': 'anchor', 'aria-hidden': 'true'})
        a.string = '#'
        h.append(a)
        if h.name in ('h2', 'h3'): toc.append((h.name, h['id'], h.get_text()[:-1].strip()))
    # links: absolute links into the published site -> relative; notebook links -> pages
    site_url = site.get('site_url', '').rstrip('/')
    nb_pages = site['nb_to_page']
    for a in soup.find_all('a', href=True):
        href = a['href']
        if site_url and (href == site_url or href.startswith(site_url + '/')):
            rel = href[len(site_url):].lstrip('/') or 'index.html'
            if rel.split('#')[0] in site['page_files']: a['href'] = href = rel
        path, _, frag = href.partition('#')
        if path in nb_pages: a['href'] = nb_pages[path] + ('#' + frag if frag else '')
    fold_sections(soup, main)
    if checks := folds_to_end(soup, main, used):
        order = {h['id']: i for i, h in enumerate(main.find_all(['h2', 'h3'])) if h.get('id')}
        toc = [t for t in toc if t[1] in order] + [('h2', checks, 'Checks and cross-checks')]
        toc.sort(key=lambda t: order.get(t[1], len(order)))
    # wide tables scroll inside their own box instead of widening the page
    for t in main.find_all('table'):
        if [th.get_text(strip=True) for th in t.find_all('th')][1:4] == ['Type', 'Default', 'Details']:
            t['class'] = (t.get('class') or []) + ['params']  # a show_doc parameter table
        if t.parent.name == 'div' and 'table-wrap' in (t.parent.get('class') or []): continue
        t.wrap(soup.new_tag('div', attrs={'class': 'table-wrap'}))
        if max((len(c.get_text(' ', strip=True)) for c in t.find_all(['td', 'th'])), default=0) > 50:
            t['class'] = (t.get('class') or []) + ['prose']  # columns of sentences: keep them readable
    # local files referenced from markdown (images etc.) are copied next to the page
    for tag in soup.find_all(['img', 'source', 'video', 'audio'], src=True):
        src = tag['src']
        if urlsplit(src).scheme or src.startswith(('/', '#', 'data:')): continue
        f = (nbs / src).resolve()
        if f.is_file() and (out / src).resolve() != f:
            (out / src).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, out / src)
    marker = soup.find(string=lambda x: isinstance(x, Comment) and x.strip() == 'DOCS-TOC')
    if marker is not None:
        items = ''.join(f'<li class="toc-{lvl}"><a href="#{hid}">{html.escape(txt)}</a></li>' for lvl, hid, txt in toc)
        block = f'<h2 id="toc-title">On this page</h2>\n<ul>{items}</ul>' if toc and page['toc'] else ''
        marker.replace_with(BeautifulSoup(block, 'html.parser'))
    return soup


_HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']


def _is_cell(el) -> bool:
    "A notebook cell of the page (a `div.cell`, or a section already folded), not the page's own parts"
    cls = el.get('class') or []
    return (el.name == 'div' and 'cell' in cls) or (el.name == 'details' and 'fold-section' in cls)


def fold_sections(soup, main) -> None:
    """A heading with the class `fold` (`## Tests and cross-checks {.fold}` in a notebook) starts a section
    shown closed: it and everything after it, up to the next markdown cell with a heading of the same
    or a higher level, go into a <details> whose summary is the heading. The later cells of the heading's
    own markdown cell go in with it; the cells before it stay where they are."""
    for h in main.find_all(_HEADINGS, class_='fold'):
        cell = h.find_parent('div', class_='cell')
        if cell is None or cell.parent is not main: continue
        level = int(h.name[1])
        details = soup.new_tag('details', attrs={'class': 'fold-section', 'id': f"fold-{h.get('id', '')}"})
        summary = soup.new_tag('summary')
        details.append(summary)
        rest = soup.new_tag('div', attrs={'class': 'cell markdown'})
        for sib in list(h.next_siblings): rest.append(sib.extract())
        cell.insert_after(details)
        summary.append(h.extract())
        if rest.get_text(strip=True): details.append(rest)
        nxt = details.next_sibling
        while nxt is not None:
            after = nxt.next_sibling
            if getattr(nxt, 'name', None) == 'div' and 'markdown' in (nxt.get('class') or []) and \
                    any(int(x.name[1]) <= level for x in nxt.find_all(_HEADINGS)):
                break
            if getattr(nxt, 'name', None) and not _is_cell(nxt): break   # the page's own parts (previous / next links) stay out
            details.append(nxt.extract())
            nxt = after
        if not cell.get_text(strip=True): cell.decompose()
        for inner in details.find_all('details', class_='auto-fold'):  # already folded: no second click
            inner.summary.decompose()
            inner.unwrap()


def folds_to_end(soup, main, used: set) -> str | None:
    """The folded sections (properties, edge cases, cross-checks) moved after the page's explanation and examples, in
    their order, under one heading "Checks and cross-checks": that heading's id; None when the page folds nothing."""
    from bs4 import BeautifulSoup
    kids = [k for k in main.children if getattr(k, 'name', None)]
    is_fold = lambda k: k.name == 'details' and 'fold-section' in (k.get('class') or [])
    is_body = lambda k: is_fold(k) or (k.name == 'div' and 'cell' in (k.get('class') or []))
    body = [k for k in kids if is_body(k)]
    folds = [k for k in body if is_fold(k)]
    if not folds: return None
    last = body[-1]
    hid = 'checks' if 'checks' not in used else next(f'checks-{n}' for n in range(2, 99) if f'checks-{n}' not in used)
    used.add(hid)
    head = BeautifulSoup(f'<div class="cell markdown"><h2 id="{hid}">Checks and cross-checks<a class="anchor" aria-hidden="true" '
                         f'href="#{hid}">#</a></h2><p>What the examples above are held to: properties, edge cases, bad input '
                         f'and agreement with other tools, each folded; open one to read it.</p></div>', 'html.parser').div.extract()
    last.insert_after(head)
    at = head
    for d in folds: at.insert_after(d.extract()); at = d
    return hid


_SKIP_TEXT = {'cell-input', 'anchor', 'highlight', 'doc-source'}   # code, heading anchors and source links are not searched
_KEEP_OUTPUT = {'output-markdown', 'output-html'}   # outputs that are prose: show_doc, generated tables


def _searchable(el) -> bool:
    "A text node a reader would search: prose, show_doc text and generated tables; not code, outputs of code or scripts"
    if type(el).__name__ == 'Comment': return False
    in_output = False
    for p in el.parents:
        if not p.name: continue
        if p.name in ('script', 'style', 'pre', 'summary'): return False
        cls = set(p.get('class') or [])
        if cls & _SKIP_TEXT: return False
        if cls & _KEEP_OUTPUT: return True
        if 'cell-output' in cls: in_output = True
    return not in_output


_re_display_math = re.compile(r'(?<!\\)\$\$.*?(?<!\\)\$\$|\\\[.*?\\\]', re.S)
_re_inline_math = re.compile(r'(?<![\\$])\$([^$]+?)(?<![\\$])\$|\\\((.*?)\\\)', re.S)


# TeX commands read as text in search snippets; commands not listed are dropped (their arguments kept)
_TEX_SYMBOLS = dict(
    alpha='α', beta='β', gamma='γ', delta='δ', epsilon='ε', varepsilon='ε', zeta='ζ', eta='η', theta='θ', kappa='κ',
    lambda_='λ', mu='μ', nu='ν', xi='ξ', pi='π', rho='ρ', sigma='σ', tau='τ', phi='φ', varphi='φ', chi='χ', psi='ψ',
    omega='ω', Gamma='Γ', Delta='Δ', Theta='Θ', Lambda='Λ', Pi='Π', Sigma='Σ', Phi='Φ', Psi='Ψ', Omega='Ω', ell='ℓ',
    sum='Σ', prod='∏', int='∫', infty='∞', le='≤', leq='≤', ge='≥', geq='≥', ne='≠', neq='≠', approx='≈', sim='∼',
    cdot='·', times='×', pm='±', to='→', rightarrow='→', leftarrow='←', Rightarrow='⇒', mapsto='↦', in_='∈', notin='∉',
    cup='∪', cap='∩', setminus='∖', subseteq='⊆', subset='⊂', emptyset='∅', forall='∀', exists='∃', neg='¬',
    land='∧', lor='∨', partial='∂', propto='∝', ldots='…', dots='…', cdots='⋯', lfloor='⌊', rfloor='⌋', lceil='⌈',
    rceil='⌉', langle='⟨', rangle='⟩', lvert='|', rvert='|', vert='|', mid='|', lVert='‖', rVert='‖', prime='′',
    ast='*', star='⋆', log='log', ln='ln', exp='exp', max='max', min='min', arg='arg', lim='lim', sgn='sgn')
_TEX_SPACE = {',', ';', ':', '!', ' ', 'quad', 'qquad', 'enspace', 'thinspace'}
_TEX_DROP = {'left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'bigl', 'bigr', 'Bigl', 'Bigr', 'biggl', 'biggr',
             'displaystyle', 'textstyle', 'limits', 'nolimits', 'middle'}
_SUB = dict(zip('0123456789+-=()aehijklmnoprstuvx', '₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ'))
_SUP = dict(zip('0123456789+-=()abcdefghijklmnoprstuvwxyz', '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ'))


def _tex_group(tex: str, i: int) -> tuple[str, int]:
    "The argument of a TeX command at `tex[i:]`, `{...}` or one character, and the index after it"
    while i < len(tex) and tex[i] == ' ': i += 1
    if i >= len(tex): return '', i
    if tex[i] != '{':
        if tex[i] == '\\' and (m := re.match(r'\\([a-zA-Z]+|.)', tex[i:])): return m[0], i + len(m[0])
        return tex[i], i + 1
    depth = 0
    for j in range(i, len(tex)):
        depth += {'{': 1, '}': -1}.get(tex[j], 0)
        if depth == 0: return tex[i + 1:j], j + 1
    return tex[i + 1:], len(tex)


def _script(text: str, marks: dict, sign: str) -> str:
    "A sub- or superscript: Unicode when every character has a form, else `_x` / `^(...)`"
    t = text.replace(' ', '')
    if t and all(c in marks for c in t): return ''.join(marks[c] for c in t)
    return sign + (t if len(t) == 1 else f'({t})')


def tex_text(tex: str) -> str:
    r"""A TeX formula as text a reader can read in a search snippet: `\frac{a}{b}` as `a/b`, Greek letters
    and operators as Unicode, `\mathrm{DCG}` as `DCG`, sub- and superscripts as Unicode where they
    exist (`\ell_i` -> `ℓᵢ`); no backslash, `$` or brace is left."""
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == '\\':
            m = re.match(r'\\([a-zA-Z]+|.)', tex[i:])
            if not m: i += 1; continue
            name, i = m[1], i + len(m[0])
            if name in ('frac', 'tfrac', 'dfrac', 'cfrac'):
                a, i = _tex_group(tex, i)
                b, i = _tex_group(tex, i)
                a, b = tex_text(a), tex_text(b)
                wrap = lambda x: x if re.fullmatch(r'[\w.·′ℓ@]+|\(.*\)', x) else f'({x})'
                out.append(f'{wrap(a)}/{wrap(b)}')
            elif name == 'sqrt':
                a, i = _tex_group(tex, i)
                out.append(f'√({tex_text(a)})')
            elif name in ('mathrm', 'text', 'textrm', 'textit', 'textbf', 'texttt', 'mathit', 'mathbf', 'mathsf', 'mathtt',
                          'mathcal', 'mathbb', 'operatorname', 'boldsymbol', 'bar', 'hat', 'tilde', 'overline', 'vec', 'mbox'):
                a, i = _tex_group(tex, i)
                out.append(a.replace('\\_', '_') if name.startswith('text') or name == 'mbox' else tex_text(a))
            elif name in ('begin', 'end'):
                _, i = _tex_group(tex, i)
                out.append(' ')
            elif name in _TEX_SPACE: out.append(' ')
            elif name in _TEX_DROP: pass
            elif name == '\\': out.append('; ')
            elif name in '{}_%#&$|': out.append(name)
            else: out.append(_TEX_SYMBOLS.get(name, _TEX_SYMBOLS.get(name + '_', '')))
            if re.fullmatch(r'[a-zA-Z]+', name) and name not in _TEX_SPACE and i < len(tex) and tex[i] == ' ' and \
                    _TEX_SYMBOLS.get(name, '').isalpha() and len(_TEX_SYMBOLS.get(name, '')) > 1:
                out.append(' ')     # `\log x` keeps its space
        elif c in '_^':
            a, i = _tex_group(tex, i + 1)
            out.append(_script(tex_text(a), _SUB if c == '_' else _SUP, c))
        elif c in '{}': i += 1
        elif c == '&': out.append(' '); i += 1
        elif c == '~': out.append(' '); i += 1
        else: out.append(c); i += 1
    return re.sub(r'\s+', ' ', ''.join(out)).strip()


def search_text(parts: list[str]) -> str:
    "Text for the search index: display math left out, inline math as readable text (`tex_text`)"
    t = re.sub(r'\s+', ' ', ' '.join(parts))
    t = _re_display_math.sub(' ', t)
    t = _re_inline_math.sub(lambda m: tex_text(m[1] or m[2] or ''), t)
    return re.sub(r'\s+', ' ', t).strip()


def _section_text(h) -> str:
    "Searchable text from heading `h` to the next heading of any level"
    parts = []
    for el in h.next_elements:
        if getattr(el, 'name', None) in _HEADINGS: break
        if isinstance(el, str) and h not in el.parents and _searchable(el): parts.append(el)
    return search_text(parts)


SEARCH_TEXT_CHARS = 3000  # text kept per section in the search index


def _public_names(root: Path = REPO) -> set | None:
    "The package's `__all__` (None if it cannot be imported): sections of other names stay out of the search"
    import importlib
    try: return set(importlib.import_module(read_settings(root).get('lib_name', '')).__all__)
    except Exception: return None


def search_entries(href: str, title: str, description: str, main, public: set | None) -> list[dict]:
    """The page's entries for search-index.js: the page itself (title, description, text before the first
    heading), then one per heading. A show_doc section of a name outside the package's `__all__` is left out."""
    header = main.find('header', class_='page-header')
    first = main.find(_HEADINGS[1:4])
    intro = []
    if header:  # text before the first heading
        for el in header.next_elements:
            if el is first: break
            if isinstance(el, str) and not el.find_parent('header') and _searchable(el): intro.append(el)
    title, description = search_text([title]), search_text([description])
    entries = [{'p': title, 'h': '', 'u': href, 'd': description, 'x': search_text(intro)[:SEARCH_TEXT_CHARS]}]
    for h in main.find_all(_HEADINGS[1:4]):
        if not h.get('id'): continue
        htxt = search_text([h.get_text(' ', strip=True).rstrip('#').strip()])   # a heading's math as text too
        if 'doc-symbol' in (h.get('class') or []) and public is not None and htxt.split('.')[0] not in public: continue
        entries.append({'p': title, 'h': htxt, 'u': f"{href}#{h['id']}", 'd': '', 'x': _section_text(h)[:SEARCH_TEXT_CHARS]})
    return entries


def finish_site(out: Path, pages: list[dict]) -> dict:
    """Second pass over the pages (`pg['soup']`), once every page's ids are known; writes them:
    - a link to a page of the site whose anchor does not exist (a private or undocumented name
      that nbdev linked, a renamed section) is replaced by its text;
    - the search index `search-index.js` (one entry per page section: page title, heading,
      url, description, text) is written for assets/search.js.
    Returns {'unlinked': [(page, href)], 'entries': n}."""
    soups = {pg['href']: pg.pop('soup') for pg in pages}
    ids = {href: {t['id'] for t in soup.find_all(id=True)} for href, soup in soups.items()}
    unlinked, index, public = [], [], _public_names()
    for pg in pages:
        href, soup = pg['href'], soups[pg['href']]
        main = soup.find('main', id='content')
        for a in main.find_all('a', href=True):
            u = a['href']
            if urlsplit(u).scheme or u.startswith(('/', 'mailto:')): continue
            path, _, frag = u.partition('#')
            target = path or href
            if target in ids and frag and frag not in ids[target]:
                unlinked.append((href, u))
                a.unwrap()
        (out / href).write_text(str(soup), encoding='utf-8')
        index += search_entries(href, pg['title'], pg['description'], main, public)
    (out / 'search-index.js').write_text(
        '// Generated by tools/build_docs.py: one entry per page section (p page, h heading, u url, d description, x text)\n'
        'window.__searchIndex = ' + json.dumps(index, ensure_ascii=False, separators=(',', ':')) + ';\n', encoding='utf-8')
    return {'unlinked': unlinked, 'entries': len(index)}


def inline_md(text: str) -> tuple[str, str]:
    "(html, plain text) of a one-line markdown string such as a title or description"
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    h = markdown2html_mistune(pandoc_to_html_md(text)).strip()
    if h.startswith('<p>') and h.endswith('</p>') and h.count('<p>') == 1: h = h[3:-4]
    return h, html.unescape(re.sub(r'<[^>]+>', '', h))


def pygments_css() -> str:
    from pygments.formatters import HtmlFormatter
    return HtmlFormatter(style='default').get_style_defs('.highlight')


def copy_mathjax(dest: Path) -> None:
    "Copy the MathJax 2 files the pages need from the jupyter-server-mathjax wheel"
    import importlib.util
    spec = importlib.util.find_spec('jupyter_server_mathjax')  # located, not imported (slow import)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit('jupyter-server-mathjax is not installed (it provides the local MathJax copy)')
    src = Path(list(spec.submodule_search_locations)[0]) / 'static'
    if not (src / 'MathJax.js').exists(): raise SystemExit(f'MathJax not found in {src}')
    dest.mkdir(parents=True)
    for name in ('MathJax.js', 'LICENSE'): shutil.copy2(src / name, dest / name)
    for name in ('config', 'extensions', 'jax', 'fonts'): shutil.copytree(src / name, dest / name)
    if (src / 'localization' / 'en').exists(): shutil.copytree(src / 'localization' / 'en', dest / 'localization' / 'en')


def check_out(out: Path) -> None:
    "Refuse to replace a folder that is not a docs build"
    if not out.exists(): return
    if not out.is_dir(): raise SystemExit(f'{out} exists and is not a directory')
    ours = (out / MARKER).exists() or (out / 'site_libs').is_dir()  # this script's or quarto's output
    if any(out.iterdir()) and not ours:
        raise SystemExit(f'Refusing to replace {out}: it is not empty and is not a docs build (no {MARKER})')


def _glob_match(name: str, pattern: str) -> bool:
    "quarto-style glob on a notebook file name (a leading `/` means the project folder; no sub-folders here)"
    import fnmatch
    return fnmatch.fnmatchcase(name, pattern.lstrip('/'))


def sidebar_sections(sidebar: dict | list | None, names: list[str]) -> list[dict]:
    """Group notebook file names by `website.sidebar.contents` of `_quarto.yml`:
    `[{'title': section or '', 'files': [names]}]`. Entries are file names or quarto globs
    (`/0[2-8]*.ipynb`), sections are `{section: title, contents: [...] or 'glob'}`,
    `{href: file, text: ...}` items are accepted. Each file goes to the first entry matching it;
    names matching nothing land in a last section "More" (with a warning); entries matching no
    file are skipped, so the grouping can name notebooks that do not exist yet."""
    if isinstance(sidebar, list): sidebar = sidebar[0] if sidebar else {}
    contents = (sidebar or {}).get('contents')
    if not contents or contents == 'auto': return [{'title': '', 'files': list(names)}]
    placed, sections = set(), []

    def take(entry) -> list[str]:
        if isinstance(entry, dict): entry = entry.get('href') or entry.get('file') or ''
        got = [n for n in names if n not in placed and _glob_match(n, str(entry))]
        placed.update(got)
        return got

    loose = []
    for item in _as_list(contents):
        if isinstance(item, dict) and 'section' in item:
            files = [f for e in _as_list(item.get('contents')) for f in take(e)]
            if files: sections.append({'title': str(item['section']), 'files': files})
        else:
            loose += take(item)
    if loose: sections.insert(0, {'title': '', 'files': loose})
    if (rest := [n for n in names if n not in placed]):
        print(f'warning: notebooks not in the sidebar of _quarto.yml: {rest} (shown under "More")', file=sys.stderr)
        sections.append({'title': 'More', 'files': rest})
    return sections


def site_config(root: Path, nbs: Path) -> dict:
    cfg, quarto = read_settings(root), read_quarto(root)
    fmt = html_format(quarto)
    website = quarto.get('website') or {}
    git_url = cfg.get('git_url', '').rstrip('/')
    css = []
    for c in _as_list(fmt.get('css')):
        dirs = (nbs, root / cfg.get('nbs_path', 'nbs'), root)
        f = next((d / c for d in dirs if (d / c).is_file()), None)
        if f is None: print(f'warning: css file {c!r} from _quarto.yml not found', file=sys.stderr)
        else: css.append(f)
    if fmt.get('html-math-method', 'mathjax') not in ('mathjax', None):
        print(f"warning: html-math-method {fmt['html-math-method']!r} not supported, using local MathJax", file=sys.stderr)
    title = website.get('title') or cfg.get('title') or cfg.get('lib_name') or 'Documentation'
    lang = quarto.get('lang') or 'en'
    return {
        'title': title, 'description': website.get('description') or cfg.get('description', ''),
        'lang': lang, 'toc': bool(fmt.get('toc', False)), 'css_files': css,
        'open_graph': bool(website.get('open-graph')), 'git_url': git_url,
        'issue_url': f'{git_url}/issues/new' if git_url and 'issue' in _as_list(website.get('repo-actions')) else '',
        'site_url': cfg.get('doc_host', '').rstrip('/') + cfg.get('doc_baseurl', ''),
        'footer': cfg.get('copyright', ''), 'mathjax': 'mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full',
        'sidebar': website.get('sidebar'),
        'search': bool((website.get('navbar') or {}).get('search') or (_first(website.get('sidebar')) or {}).get('search')),
    }


def _first(x):
    return (x[0] if x else None) if isinstance(x, list) else x


def build(nbs: Path, out: Path, root: Path = REPO, jobs: int = 1, quiet: bool = False,
          only: list[str] | None = None) -> list[Path]:
    """Build the site into a temporary sibling folder, then replace `out` with it (so a failed
    build leaves the previous site in place). Returns the pages written."""
    t0 = time.time()
    paths = notebook_paths(nbs)
    if only: paths = [p for p in paths if any(o in p.name for o in only)]
    if not paths: raise SystemExit(f'No notebooks found in {nbs}')
    check_out(out)
    site = site_config(root, nbs)
    tmp = out.parent / f'.{out.name}.building'
    shutil.rmtree(tmp, ignore_errors=True)
    state = {}

    def setup():  # static files and the exporter, done while the workers run nbdev's processors
        tmp.mkdir(parents=True)
        (tmp / MARKER).write_text('Made by tools/build_docs.py; deleted and rebuilt on every run.\n')
        (tmp / 'assets').mkdir()
        shutil.copy2(TEMPLATE_DIR / 'site.css', tmp / 'assets' / 'site.css')
        shutil.copy2(TEMPLATE_DIR / 'search.js', tmp / 'assets' / 'search.js')
        (tmp / 'assets' / 'pygments.css').write_text(pygments_css(), encoding='utf-8')
        site['css'] = []
        for f in site['css_files']:
            shutil.copy2(f, tmp / f.name)
            site['css'].append(f.name)
        copy_mathjax(tmp / 'mathjax')
        state['exporter'] = make_exporter()

    try:
        procs = process_all(paths, jobs or os.cpu_count() or 1, meanwhile=setup)
        t1 = time.time()
        pages = render_pages(paths, procs, site, nbs, tmp, state['exporter'], quiet)
        fin = finish_site(tmp, pages)
        (tmp / 'sitemap.txt').write_text(''.join(pg['href'] + '\n' for pg in pages), encoding='utf-8')
        if out.exists(): shutil.rmtree(out)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not quiet:
        for pg in pages: print(f"  {pg['nb'].name:<28} -> {pg['href']:<24} {pg['title']}")
        if fin['unlinked']:
            print(f"  {len(fin['unlinked'])} links to names without a documented anchor kept as text: "
                  + ', '.join(sorted({u.split('#')[1] for _, u in fin['unlinked']})))
        print(f"  search index: {fin['entries']} sections")
        print(f'Wrote {len(pages)} pages to {out} in {time.time()-t0:.1f}s '
              f'(setup + nbdev processing {t1-t0:.1f}s, rendering {time.time()-t1:.1f}s)')
    return [out / pg['href'] for pg in pages]


def render_pages(paths, procs, site, nbs, out, exporter, quiet) -> list[dict]:
    "Write one HTML page per processed notebook (plus a generated home page if there is no index)"
    pages = []
    for p, proc in zip(paths, procs):
        fm = proc['frontmatter']
        pages.append({'nb': p, 'href': page_name(p), 'title': str(fm.get('title') or p.stem),
                      'description': str(fm.get('description') or ''), 'fm': fm})
    if pages[0]['nb'].name == 'index.ipynb':
        if not pages[0]['description']: pages[0]['description'] = site['description']
    else:  # no index.ipynb (yet): a generated home page listing the others
        print(f'warning: no index.ipynb in {nbs}; writing a generated index.html', file=sys.stderr)
        lst = ''.join(f"- [{pg['title']}]({pg['href']})" + (f": {pg['description']}" if pg['description'] else '') + '\n'
                      for pg in pages)
        pages.insert(0, {'nb': Path('(generated)'), 'href': 'index.html', 'title': site['title'],
                         'description': site['description'], 'fm': {}})
        procs = [{'cells': [{'cell_type': 'markdown', 'source': lst, 'metadata': {}}], 'metadata': {},
                  'frontmatter': {}, 'warnings': []}] + list(procs)
    for pg in pages:  # titles and descriptions are markdown: html for the page header, text elsewhere
        pg['title_html'], pg['title'] = inline_md(pg['title'])
        pg['description_html'], pg['description'] = inline_md(pg['description'])
    site['pages'] = [{'href': pg['href'], 'title': pg['title']} for pg in pages]
    by_nb = {pg['nb'].name: {'href': pg['href'], 'title': pg['title']} for pg in pages}
    site['nav'] = [{'title': sec['title'], 'pages': [by_nb[f] for f in sec['files']]}
                   for sec in sidebar_sections(site.get('sidebar'), list(by_nb))]
    order = [p for sec in site['nav'] for p in sec['pages']]  # reading order: the sidebar's
    site['page_files'] = {pg['href'] for pg in pages}
    site['nb_to_page'] = {pg['nb'].name: pg['href'] for pg in pages}

    seen = set()
    for pg, proc in zip(pages, procs):
        for w in proc['warnings']:  # warnings from nbdev/executed cells, shortened; repeats printed once
            lines = [l for l in w.strip().splitlines() if l.strip() and l.strip() != '---']
            msg = lines[0] + (f' [cell: {lines[1].strip()[:60]}]' if len(lines) > 1 else '')
            if not quiet and msg not in seen: print(f"  note ({pg['nb'].name}): {msg}", file=sys.stderr)
            seen.add(msg)
        nb = to_notebook_node(prepare_cells(proc), proc['metadata'])
        stem = pg['href'][:-len('.html')]
        fm = pg['fm']
        doc_title = pg['title'] if pg['title'] == site['title'] else f"{pg['title']} – {site['title']}"
        page = {'title': pg['title'], 'description': pg['description'], 'href': pg['href'], 'doc_title': doc_title,
                'title_html': pg['title_html'], 'description_html': pg['description_html'],
                'toc': bool(fm['toc']) if 'toc' in fm else site['toc']}
        at = next((i for i, p in enumerate(order) if p['href'] == pg['href']), None)
        if at is not None:
            page['prev'] = order[at - 1] if at > 0 else None
            page['next'] = order[at + 1] if at + 1 < len(order) else None
        resources = {'site': site, 'page': page, 'output_files_dir': f'{stem}_files',
                     'unique_key': stem, 'metadata': {'path': str(nbs), 'name': stem}}
        body, res = exporter.from_notebook_node(nb, resources=resources)
        for fname, data in sorted((res.get('outputs') or {}).items()):
            (out / fname).parent.mkdir(parents=True, exist_ok=True)
            (out / fname).write_bytes(data)
        pg['soup'] = postprocess(body, site, page, nbs, out)   # written by finish_site
    return pages


def main(argv=None):
    ap = argparse.ArgumentParser(description='Build the docs site offline (nbdev processors + nbconvert).')
    ap.add_argument('--nbs', default=None, help='notebook folder (default: nbs_path from settings.ini, i.e. nbs)')
    ap.add_argument('--out', default=None, help='output folder (default: doc_path from settings.ini, i.e. _docs)')
    ap.add_argument('--jobs', type=int, default=1, help='processes for the nbdev step: 1 (default, fastest for a few '
                    'notebooks) runs it in this process; N > 1 uses N spawned workers, as nbdev_proc_nbs does')
    ap.add_argument('--quiet', action='store_true', help='print only errors')
    ap.add_argument('--only', nargs='+', default=None, metavar='NAME',
                    help='build only the notebooks whose file name contains one of these strings (a draft of some pages)')
    args = ap.parse_args(argv)
    cfg = read_settings(REPO)
    nbs = Path(args.nbs).resolve() if args.nbs else REPO / cfg.get('nbs_path', 'nbs')
    out = Path(args.out).resolve() if args.out else REPO / cfg.get('doc_path', '_docs')
    os.chdir(REPO)  # nbdev finds settings.ini from the working directory
    try: build(nbs, out, REPO, jobs=args.jobs, quiet=args.quiet, only=args.only)
    except DocsBuildError as e: sys.exit(f'build_docs: error: {e}')


if __name__ == '__main__':
    main()
