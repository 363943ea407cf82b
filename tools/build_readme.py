#!/usr/bin/env python
"""Write README.md from nbs/index.ipynb without quarto (what `nbdev_readme` does with quarto).

Usage (from the repository root):

    .venv/bin/python tools/build_readme.py            # write README.md
    .venv/bin/python tools/build_readme.py --check    # exit 1 if README.md is out of date

The notebook goes through nbdev 2's own processors (same step as tools/build_docs.py), then:
`# <title>`, `> <description>`, and the remaining cells as GitHub markdown. Code cells become
```python fences, their text outputs plain ``` fences, `show_doc`/asis markdown outputs are inlined,
HTML outputs are kept as HTML. Hidden cells and the quarto options `echo`/`output`/`include`
are honoured. Relative links to docs pages (`engine.kit.html`) point to the published site
(doc_host + doc_baseurl from settings.ini), since they would be broken on GitHub. Image outputs are left out (a note is printed): keep plots out of index.ipynb or
link to the docs site.
"""
from __future__ import annotations

import argparse, difflib, os, re, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_docs as bd  # noqa: E402

_re_ansi = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')
_re_md_attr_link = re.compile(r'(!?\[[^\]\n]*\]\([^()\s]+(?:\s+"[^"\n]*")?\))\{[^}\n]*\}')
_re_page_link = re.compile(r'(\]\()(?![a-z][\w+.-]*:|[#/])([^()\s]+?\.(?:html|ipynb))((?:#[^()\s]*)?\))')


def _text(x) -> str: return ''.join(x) if isinstance(x, list) else (x or '')


def _fence(text: str, lang: str = '') -> str:
    text = _re_ansi.sub('', text).rstrip('\n')
    ticks = '```' if '```' not in text else '````'
    return f'{ticks}{lang}\n{text}\n{ticks}' if text.strip() else ''


def gfm(md: str, site_url: str = '') -> str:
    """Pandoc-only markdown -> GitHub markdown: drop `{...}` link/heading attributes and `:::` div
    fences; relative links to docs pages (`engine.kit.html`, `12_engine.kit.ipynb`) -> the published site"""
    out, in_code = [], False
    for line in md.split('\n'):
        if bd._re_code_fence.match(line): in_code = not in_code
        elif not in_code:
            if bd._re_fence_open.match(line) or bd._re_fence_close.match(line): continue
            line = _re_md_attr_link.sub(r'\1', bd._re_heading_attrs.sub(r'\1', line))
            if site_url: line = _re_page_link.sub(lambda m: f'{m[1]}{site_url}/{_page(m[2])}{m[3]}', line)
        out.append(line)
    return '\n'.join(out).strip()


def _page(target: str) -> str: return bd.page_name(Path(target)) if target.endswith('.ipynb') else target


def readme_text(nb_path: Path) -> str:
    cfg = bd.read_settings(bd.REPO)
    site_url = (cfg.get('doc_host', '').rstrip('/') + cfg.get('doc_baseurl', '')).rstrip('/')
    proc = bd.process_notebook(str(nb_path))
    fm, parts = proc['frontmatter'], []
    if fm.get('title'): parts.append(f"# {fm['title']}")
    if fm.get('description'): parts.append(f"> {fm['description']}")
    for i, c in enumerate(proc['cells']):
        if c['cell_type'] == 'markdown': parts.append(gfm(c['source'], site_url)); continue
        if c['cell_type'] != 'code': continue  # raw cells: the front matter
        opts, src = bd.split_cell_options(c['source'])
        if bd._falsy(opts.get('include', True)): continue
        if not bd._falsy(opts.get('echo', True)) and src.strip():
            parts.append(_fence(src, c['metadata'].get('language', 'python')))
        if bd._falsy(opts.get('output', True)): continue
        for o in c.get('outputs') or []:
            ot, data = o.get('output_type'), o.get('data') or {}
            if ot == 'stream':
                if o.get('name') == 'stderr' and bd._falsy(opts.get('warning', True)): continue
                parts.append(_fence(_text(o.get('text'))))
            elif ot == 'error': parts.append(_fence('\n'.join(o.get('traceback') or [])))
            elif 'text/markdown' in data: parts.append(gfm(_text(data['text/markdown']), site_url))
            elif 'text/html' in data: parts.append(_text(data['text/html']).strip())
            elif 'text/plain' in data and not any(k.startswith('image/') for k in data):
                parts.append(_fence(_text(data['text/plain'])))
            elif any(k.startswith('image/') for k in data):
                print(f'build_readme: note: image output of cell {i} left out of the README', file=sys.stderr)
    return '\n\n'.join(p for p in parts if p.strip()) + '\n'


def main(argv=None):
    cfg = bd.read_settings(bd.REPO)
    ap = argparse.ArgumentParser(description='Write README.md from the index notebook, without quarto.')
    ap.add_argument('--nb', default=None, help='notebook (default: <nbs_path>/<readme_nb> from settings.ini)')
    ap.add_argument('--out', default=None, help='README file (default: README.md in the repo root)')
    ap.add_argument('--check', action='store_true', help='do not write; exit 1 if the README differs')
    args = ap.parse_args(argv)
    nb = Path(args.nb).resolve() if args.nb else bd.REPO / cfg.get('nbs_path', 'nbs') / cfg.get('readme_nb', 'index.ipynb')
    out = Path(args.out).resolve() if args.out else bd.REPO / 'README.md'
    if not nb.exists(): sys.exit(f'build_readme: error: {nb} not found')
    os.chdir(bd.REPO)  # nbdev finds settings.ini from the working directory
    try: text = readme_text(nb)
    except bd.DocsBuildError as e: sys.exit(f'build_readme: error: {e}')
    rel = os.path.relpath(out, bd.REPO)
    if args.check:
        old = out.read_text(encoding='utf-8') if out.exists() else ''
        if old == text:
            print(f'{rel} is up to date with {nb.name}')
            return
        diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(), f'{rel} (current)', f'{rel} (from {nb.name})', lineterm='', n=1))
        print('\n'.join(diff[:60] + ([f'... ({len(diff) - 60} more diff lines)'] if len(diff) > 60 else [])))
        sys.exit(f'build_readme: {rel} is out of date with {nb.name}: run `.venv/bin/python tools/build_readme.py`')
    out.write_text(text, encoding='utf-8')
    print(f'Wrote {rel} from {nb.name}')


if __name__ == '__main__':
    main()
