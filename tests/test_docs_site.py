"""Browser check of the offline docs site built by tools/build_docs.py.

Serves the built site (`_docs/`, built first if `_docs/index.html` is missing; or the folder
in the DOCS_SITE environment variable) on 127.0.0.1 and opens every page in headless Chromium,
driven over the DevTools protocol with the `websocket-client` package. Per page it checks that

- MathJax loaded, finished, reported no errors, and left no raw TeX (`$$`, `$...$`, `\\(`,
  `\\[`, `\\begin{`) in the visible text (code blocks excluded);
- every <img> loaded (complete, naturalWidth > 0) and no request failed (HTTP >= 400);
- no show_doc source is visible, no JavaScript error was thrown;
- the page has a title (document title and the h1 header);
- every link inside the site answers HTTP 200 and every `#anchor` it names exists on the target
  page (each linked page is checked in turn);
- the page is no wider than the window (1280 px): wide tables and code scroll inside their own box;
- no raw Markdown link in the text, no `/tmp/` path, no `NoneType` or Markdown link in a rendered
  signature, every figure has an alt text that says what it shows, the page links to the previous
  and next page, and the sidebar shows the current page.

Further tests: every page at 390 px (`check_narrow`); the API page links every public name to an
existing section, and every public function's section has a parameter table; search puts the
defining section of "ties", "map", "mrr", "alpha", "ndcg", "bpref", "wilcoxon" first, with snippets
free of TeX and test code (`check_search_first`), and leaves names outside `__all__` out of its
index; Getting started shows its figure; the pages that fold their tests (`FOLDED_PAGES`) show no
test block longer than 15 lines.

Besides, `check_search` types "nDCG" and "bpref" into the offline search box and follows the
result to its page, and `banned_words` lists pages that mention the project's private working
material ("seed 00x", "peer case", "fact N", paths into ../shared).

`check_site(url)` returns the list of problems, so the second test can show that it fails on
a broken copy of the site (no mathjax/ folder, a missing figure).

Skips when `chromium` is not on PATH (Debian: `apt-get install -y chromium`).
"""
from __future__ import annotations

import contextlib, functools, http.server, json, os, re, shutil, signal, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.parse, urllib.request
from pathlib import Path

import pytest

websocket = pytest.importorskip('websocket', reason='websocket-client is needed to drive chromium')

REPO = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get('DOCS_SITE') or REPO / '_docs')
CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')
PAGE_TIMEOUT = 30      # seconds for one page to load and typeset
STARTUP_TIMEOUT = 30   # seconds for chromium to open its DevTools port

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason='chromium is not on PATH (Debian: apt-get install -y chromium)')

_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 never goes through a proxy

# --------------------------------------------------------------------------------------------
# HTTP server
# --------------------------------------------------------------------------------------------

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass


@contextlib.contextmanager
def serve(directory: Path):
    "Serve `directory` on 127.0.0.1 (ephemeral port) in a thread; yields the base URL"
    handler = functools.partial(_QuietHandler, directory=str(directory))
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, name='docs-http', daemon=True)
    t.start()
    try: yield f'http://127.0.0.1:{srv.server_address[1]}/'
    finally:
        srv.shutdown(); srv.server_close(); t.join(10)

# --------------------------------------------------------------------------------------------
# Chromium over the DevTools protocol
# --------------------------------------------------------------------------------------------

class Chromium:
    "Headless Chromium with one page, driven over the DevTools protocol"
    FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
             '--disable-background-networking', '--disable-component-update', '--disable-sync',
             '--disable-extensions', '--mute-audio', '--no-proxy-server', '--window-size=1280,900']

    def __init__(self, binary: str = CHROMIUM):
        self.tmp = tempfile.mkdtemp(prefix='docs-chromium-')
        self.proc = subprocess.Popen(
            [binary, *self.FLAGS, '--remote-debugging-port=0', f'--user-data-dir={self.tmp}', 'about:blank'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.ws, self._id, self.events = None, 0, []
        try:
            port = self._devtools_port()
            targets = json.load(_LOCAL.open(f'http://127.0.0.1:{port}/json/list', timeout=10))
            page = next((t for t in targets if t.get('type') == 'page'), None)
            if page is None:
                req = urllib.request.Request(f'http://127.0.0.1:{port}/json/new?about:blank', method='PUT')
                page = json.load(_LOCAL.open(req, timeout=10))
            self.ws = websocket.create_connection(page['webSocketDebuggerUrl'], timeout=PAGE_TIMEOUT, suppress_origin=True)
            for domain in ('Page', 'Runtime', 'Network'): self.call(f'{domain}.enable')
            self.call('Emulation.setDeviceMetricsOverride', width=1280, height=900, deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close(); raise

    def _devtools_port(self) -> int:
        f = Path(self.tmp) / 'DevToolsActivePort'
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None: raise RuntimeError(f'chromium exited with code {self.proc.returncode}')
            if f.exists() and (lines := f.read_text().split()): return int(lines[0])
            time.sleep(0.1)
        raise TimeoutError(f'chromium did not open a DevTools port within {STARTUP_TIMEOUT}s')

    def _recv(self, deadline: float) -> dict:
        remaining = deadline - time.monotonic()
        if remaining <= 0: raise TimeoutError('DevTools: no answer in time')
        self.ws.settimeout(remaining)
        try: return json.loads(self.ws.recv())
        except websocket.WebSocketTimeoutException: raise TimeoutError('DevTools: no answer in time') from None

    def call(self, method: str, timeout: float = PAGE_TIMEOUT, **params) -> dict:
        self._id += 1
        mid = self._id
        self.ws.send(json.dumps({'id': mid, 'method': method, 'params': params}))
        deadline = time.monotonic() + timeout
        while True:
            msg = self._recv(deadline)
            if msg.get('id') == mid:
                if 'error' in msg: raise RuntimeError(f'{method}: {msg["error"]}')
                return msg.get('result', {})
            if 'method' in msg: self.events.append(msg)

    def wait_event(self, name: str, deadline: float) -> dict | None:
        "Wait for the event `name` (also looks at events already received); None on timeout"
        seen = 0
        while True:
            for ev in self.events[seen:]:
                if ev['method'] == name: return ev
            seen = len(self.events)
            try: msg = self._recv(deadline)
            except TimeoutError: return None
            if 'method' in msg: self.events.append(msg)

    def evaluate(self, expression: str):
        res = self.call('Runtime.evaluate', expression=expression, returnByValue=True, awaitPromise=True)
        if 'exceptionDetails' in res: raise RuntimeError(f'page script failed: {res["exceptionDetails"]}')
        return res['result'].get('value')

    def close(self):
        with contextlib.suppress(Exception):
            if self.ws: self.ws.close()
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError): os.killpg(self.proc.pid, signal.SIGTERM)
            try: self.proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError): os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self): return self
    def __exit__(self, *exc): self.close()

# --------------------------------------------------------------------------------------------
# The check
# --------------------------------------------------------------------------------------------

# Runs in the page: collects what the checks need; returns a JSON string.
PROBE_JS = r"""
(() => {
  const MACHINE_PATH = /(?<![\w.\/~-])(?:\/(?:work|home|Users|root|builds|runner|mnt|srv)\/[^\s'"<>]{1,80}|[A-Za-z]:\\Users\\[^\s'"<>]{1,80})|[^\s'"<>]*site-packages\/[^\s'"<>]*/g;
  const PLUMBING = /RANKMETRICS_SHARED|Path\('\.\.'\)|skipped: [^\n]{0,80}?not found/g;
  const d = window.__docs || {};
  const hasMJ = !!(window.MathJax && window.MathJax.Hub);
  const skip = 'pre,code,script,style,textarea,noscript,.MathJax,.MathJax_Display,.MathJax_Preview,.MJX_Assistive_MathML';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let n; (n = walker.nextNode());) {
    const p = n.parentElement;
    if (p && !p.closest(skip)) text += n.nodeValue + '\n';
  }
  const texRes = [/\$\$[\s\S]{0,60}/g, /\\\[[\s\S]{0,60}/g, /\\\([\s\S]{0,60}/g, /\\begin\{[\s\S]{0,60}/g,
                  /\$[^\s$](?:[^$\n]{0,200}?[^\s$\\])?\$(?!\d)/g];
  const rawTex = [];
  for (const re of texRes) for (const m of text.matchAll(re)) rawTex.push(m[0].replace(/\s+/g, ' '));
  return JSON.stringify({
    readyState: document.readyState,
    title: document.title.trim(),
    h1: ((document.querySelector('h1.title') || {}).textContent || '').trim(),
    mathjax: hasMJ,
    mathDone: !!d.mathDone,
    mathErrors: (d.mathErrors || []).slice(0, 10),
    mathElems: document.querySelectorAll('.MathJax, .MathJax_Display').length,
    merrors: [...document.querySelectorAll('.merror, .MathJax_Error')].map(e => e.textContent.trim()).slice(0, 10),
    rawTex: rawTex.slice(0, 10),
    showDocVisible: document.body.innerText.includes('show_doc('),
    imgs: [...document.images].map(i => ({src: i.getAttribute('src') || '', url: i.currentSrc || i.src,
                                          complete: i.complete, w: i.naturalWidth, alt: i.getAttribute('alt') || ''})),
    rawLinks: [...text.matchAll(/\[[^\]\n]{1,80}\]\([^)\s]{1,160}\)/g)].map(m => m[0]).slice(0, 10),
    tmpPaths: [...document.body.textContent.matchAll(/\/tmp\/[^\s'"<]{0,60}/g)].map(m => m[0]).slice(0, 5),
    docSymbols: [...document.querySelectorAll('h3.doc-symbol, h4.doc-symbol')].map(h => {
      const box = h.closest('.output-markdown') || h.parentElement;
      const sig = box.querySelector('pre');
      return {id: h.id, name: h.textContent.replace(/#$/, '').trim(), table: !!box.querySelector('table.params'),
              sig: sig ? sig.textContent : ''};
    }),
    pageNav: {prev: !!document.querySelector('nav.page-nav a[rel=prev]'), next: !!document.querySelector('nav.page-nav a[rel=next]')},
    navInFold: (() => {
      const n = document.querySelector('nav.page-nav');
      return !!(n && (n.closest('details') || n.getBoundingClientRect().height === 0));
    })(),
    machinePaths: [...document.body.textContent.matchAll(MACHINE_PATH)].map(m => m[0]).slice(0, 5),
    mathCut: [...document.querySelectorAll('#content .MathJax_Display')].filter(d => !d.closest('table, details:not([open])'))
               .map(d => { const m = d.querySelector('.MathJax'); return m ? Math.round(m.getBoundingClientRect().width - d.clientWidth) : 0; })
               .filter(x => x > 1),
    plumbing: (() => {   // conformance plumbing in the text a reader sees (closed folds left out, their summary line kept)
      const main = document.querySelector('main'), out = [];
      const w = document.createTreeWalker(main || document.body, NodeFilter.SHOW_TEXT);
      for (let n; (n = w.nextNode());) {
        let hidden = false;
        for (let e = n.parentElement; e && !hidden; e = e.parentElement) {
          if (e.tagName !== 'DETAILS' || e.open) continue;
          const sum = e.querySelector(':scope > summary');
          hidden = !(sum && sum.contains(n));
        }
        if (!hidden) for (const m of n.nodeValue.matchAll(PLUMBING)) out.push(m[0]);
      }
      return out.slice(0, 5);
    })(),
    sheetRows: [...document.querySelectorAll('table.cheat-sheet tbody tr')].map(r => {
      const a = r.querySelector('td:first-child a[href]');
      return {id: r.id, href: a ? a.href : ''};
    }),
    sidebarActive: (() => {
      const nav = document.querySelector('nav.sidebar'), a = nav && nav.querySelector('a.active');
      if (!a) return null;
      const r = a.getBoundingClientRect(), n = nav.getBoundingClientRect();
      return r.top >= n.top - 1 && r.bottom <= n.bottom + 1;
    })(),
    codeBlocks: [...document.querySelectorAll('main .cell-input')].filter(c => !c.closest('details:not([open])')).map(c => {
      const src = c.textContent, lines = src.split('\n').filter(l => l.trim()).length;
      return {lines, tests: /\btest_\w+\(|\bassert\b/.test(src), defines: /^\s*(def|class)\s/m.test(src)};
    }).filter(b => b.lines > 15),
    sidebar: [...document.querySelectorAll('nav.sidebar a[href]')].map(a => ({href: a.href, text: a.textContent.trim()})),
    links: [...document.querySelectorAll('a[href]')].filter(a => !a.closest('nav.sidebar'))
             .map(a => ({href: a.href, text: a.textContent.trim().slice(0, 40)})),
    ids: [...document.querySelectorAll('[id]')].map(e => e.id),
    width: {scroll: document.documentElement.scrollWidth, window: window.innerWidth},
    wide: [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
             && !e.closest('.table-wrap, pre, .output-html, .MathJax_Display, details:not([open])'))
             .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '')),
    text: document.body.innerText,
  });
})()
"""


def _ready(f: dict) -> bool:
    return (f['readyState'] == 'complete' and (not f['mathjax'] or f['mathDone'])
            and all(i['complete'] for i in f['imgs']))


def inspect_page(browser: Chromium, url: str, timeout: float = PAGE_TIMEOUT) -> dict:
    "Load `url` and return the probe's facts plus network failures and JS errors"
    browser.events.clear()
    deadline = time.monotonic() + timeout
    browser.call('Page.navigate', url=url)
    loaded = browser.wait_event('Page.loadEventFired', deadline) is not None
    facts = json.loads(browser.evaluate(PROBE_JS))
    while not _ready(facts) and time.monotonic() < deadline:
        time.sleep(0.1)
        facts = json.loads(browser.evaluate(PROBE_JS))
    facts['loaded'], facts['timed_out'] = loaded, not _ready(facts)
    urls, failed, js_errors = {}, [], []
    for ev in browser.events:
        m, p = ev['method'], ev.get('params', {})
        if m == 'Network.requestWillBeSent': urls[p['requestId']] = p['request']['url']
        elif m == 'Network.responseReceived' and p['response']['status'] >= 400:
            failed.append(f"HTTP {p['response']['status']} for {p['response']['url']}")
        elif m == 'Network.loadingFailed' and not p.get('canceled'):
            u = urls.get(p['requestId'], '?')
            # MathJax 2 probes web fonts with an about:blank font url: not a real resource
            if not u.startswith(('about:', 'data:')): failed.append(f"{p.get('errorText', 'failed')} for {u}")
        elif m == 'Runtime.exceptionThrown':
            det = p.get('exceptionDetails', {})
            js_errors.append((det.get('exception') or {}).get('description') or det.get('text', '?'))
    facts['failed_requests'], facts['js_errors'] = sorted(set(failed)), js_errors
    return facts


def page_problems(name: str, f: dict) -> list[str]:
    "Turn one page's facts into problem strings"
    p = []
    if not f['loaded']: p.append('page did not fire its load event in time')
    if not f['title']: p.append('no document title')
    if not f['h1']: p.append('no page title header (h1.title)')
    if not f['mathjax']: p.append('MathJax did not load (missing mathjax/ folder?)')
    elif not f['mathDone']: p.append('MathJax did not finish typesetting in time')
    if f['rawTex']: p.append(f"untypeset TeX in visible text: {f['rawTex'][:3]}")
    if f['mathErrors'] or f['merrors']: p.append(f"MathJax errors: {(f['mathErrors'] + f['merrors'])[:3]}")
    for i in f['imgs']:
        if not (i['complete'] and i['w'] > 0): p.append(f"image did not load: {i['src'][:80]}")
    if f['showDocVisible']: p.append('show_doc source is visible')
    if not f['sidebar']: p.append('no sidebar links')
    if f['rawLinks']: p.append(f"raw Markdown links in the text: {f['rawLinks'][:3]}")
    if f['tmpPaths']: p.append(f"temporary paths in the page: {f['tmpPaths'][:3]}")
    for d in f['docSymbols']:
        if 'NoneType' in d['sig'] or '](' in d['sig']:
            p.append(f"signature of {d['name']} shows NoneType or a Markdown link: {d['sig'][:120]!r}")
    for i in f['imgs']:
        if i['alt'].strip() in ('', 'Figure output', 'Plot'): p.append(f"figure without an alt text saying what it shows: {i['src'][:60]}")
    if name != 'index.html' and not (f['pageNav']['prev'] or f['pageNav']['next']): p.append('no previous/next page links')
    if f['navInFold']: p.append('the previous/next links are inside a fold (hidden until it is opened)')
    if f['machinePaths']: p.append(f"build-machine paths in the page: {f['machinePaths'][:3]}")
    if f['mathCut']: p.append(f"display formulas wider than their column (cut or scrolling): {len(f['mathCut'])}, by {f['mathCut'][:3]} px")
    if name in PLUMBING_FOLDED and f['plumbing']: p.append(f"conformance plumbing in the open: {f['plumbing'][:3]}")
    if (missing := [r['id'] for r in f['sheetRows'] if not r['href']]): p.append(f"cheat-sheet rows without a link: {missing[:5]}")
    if f['sidebarActive'] is False: p.append('the sidebar does not show the current page')
    if f['width']['scroll'] > f['width']['window']:
        p.append(f"page is wider than the window: {f['width']['scroll']} px > {f['width']['window']} px "
                 f"(elements past the edge: {f['wide']})")
    p += [f'request failed: {r}' for r in f['failed_requests']]
    p += [f'JavaScript error: {e[:200]}' for e in f['js_errors']]
    return [f'{name}: {x}' for x in p]


def _http_status(url: str) -> int:
    try:
        with _LOCAL.open(url, timeout=10) as r: return r.status
    except urllib.error.HTTPError as e: return e.code
    except OSError: return 0


def _page_of(url: str) -> str:
    u = url.split('#')[0]
    return u + 'index.html' if u.endswith('/') else u


def check_site(base_url: str, start: str = 'index.html', facts: dict | None = None,
               chromium: str | None = CHROMIUM) -> list[str]:
    """Open `start` and every page of the site reachable through its links in headless Chromium.
    Returns a list of problems (empty = all good): per-page problems (`page_problems`), then
    links inside the site that answer an HTTP error or name an anchor the target page lacks.
    Per-page facts go into `facts` (keyed by the page's path in the site) if given."""
    facts = {} if facts is None else facts
    problems, status_cache = [], {}
    todo, seen = [urllib.parse.urljoin(base_url, start)], set()

    def status(u):
        if u not in status_cache: status_cache[u] = _http_status(u)
        return status_cache[u]

    with Chromium(chromium) as browser:
        while todo:
            url = todo.pop(0)
            if url in seen: continue
            seen.add(url)
            name = url[len(base_url):] if url.startswith(base_url) else url
            try: f = inspect_page(browser, url)
            except (TimeoutError, RuntimeError) as e:
                problems.append(f'{name}: could not inspect page: {e}'); continue
            facts[name] = f
            problems += page_problems(name, f)
            for link in f['sidebar'] + f['links']:
                target = _page_of(link['href'])
                if not target.startswith(base_url): continue  # only pages of this site
                if status(target) != 200:
                    problems.append(f"{name}: link {link['text']!r} -> {target[len(base_url):]} answered HTTP {status(target)}")
                elif target.endswith('.html') and target not in seen: todo.append(target)
    # anchors, once every page's ids are known
    for name, f in facts.items():
        for link in f['sidebar'] + f['links']:
            target, _, frag = link['href'].partition('#')
            target = _page_of(target)
            if not frag or not target.startswith(base_url): continue
            page = target[len(base_url):]
            frag = urllib.parse.unquote(frag)
            if page in facts and frag not in facts[page]['ids']:
                problems.append(f"{name}: link {link['text']!r} -> {page}#{frag}: no such anchor")
    return problems


# pages whose conformance plumbing (the data folder's variable, its default path, the "skipped" line) sits in folds
PLUMBING_FOLDED = ('interop.ndeval.html', 'registry.trec_catalog.html')


# Words a page must not contain: the project speaks of itself, never of its private working material.
BANNED = [(re.compile(r'seed 00', re.I), '"seed 00"'), (re.compile(r'peer case', re.I), '"peer case"'),
          (re.compile(r'\bfact \d', re.I), '"fact" + number'), (re.compile(r'\.\./shared|/work/shared'), 'a path into ../shared'),
          (re.compile(r'peer_cases\.md|peer-conventions'), 'private notes (peer_cases.md, peer-conventions)'),
          (re.compile(r'names from the issue', re.I), '"the names from the issue"'),
          (re.compile(r'\bCase \d{2,}\b'), 'a peer test case by number ("Case 41")')]


def banned_words(facts: dict) -> dict:
    "{page: [what, excerpt]} for pages whose visible text contains a banned phrase"
    found = {}
    for name, f in sorted(facts.items()):
        for rx, what in BANNED:
            for m in rx.finditer(f['text']):
                ctx = f['text'][max(0, m.start() - 30):m.end() + 30].replace('\n', ' ')
                found.setdefault(name, []).append(f'{what}: ...{ctx}...')
    return found


SEARCH_CASES = {'nDCG': 'metrics.dcg.html', 'bpref': 'metrics.trec.measures.html'}
# the first result of each query: the section (or page) that defines the term
SEARCH_FIRST = {'ties': 'choosing_a_metric.html#ties-the-default-rule', 'map': 'metrics.average_precision.html',
                'mrr': 'metrics.reciprocal_rank.html', 'alpha': 'metrics.diversity.html', 'ndcg': 'metrics.dcg.html',
                'bpref': 'metrics.trec.measures.html#bpref-and-infap-measures-for-incomplete-judgements',
                'wilcoxon': 'stats.significance.html#wilcoxons-signed-rank-test'}
_SNIPPET_TEX = re.compile(r'\\[a-zA-Z]+|\$|\btest_\w+\(|\bassert\b')


def check_search_first(base_url: str, cases: dict = SEARCH_FIRST, chromium: str | None = CHROMIUM) -> list[str]:
    """Type each query into the search box of the home page: the first result must be the expected section,
    and no snippet may show TeX or test code."""
    problems = []
    with Chromium(chromium) as browser:
        inspect_page(browser, urllib.parse.urljoin(base_url, 'index.html'))
        for query, first in cases.items():
            q = json.dumps(query)
            got = browser.evaluate(f'JSON.stringify(window.__docs && window.__docs.searchSnippets ? '
                                   f'[window.__docs.search({q}), window.__docs.searchSnippets({q})] : null)')
            if json.loads(got) is None: problems.append('search: no search box or index on index.html'); break
            hrefs, snippets = json.loads(got)
            if not hrefs or hrefs[0] != first: problems.append(f'search {query!r}: first result {hrefs[:1]}, expected {first}')
            bad = [x for x in snippets if _SNIPPET_TEX.search(x)]
            if bad: problems.append(f'search {query!r}: snippets with TeX or test code: {bad[:2]}')
    return problems


NARROW = 390   # a phone's width


# Runs in a page at a phone's width: tables and formulas that stick out of the window or of their column
# without a scrolling box of their own that fits the window; parameter tables not laid out one block per row.
NARROW_JS = r"""
(() => {
  const W = window.innerWidth;
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const box = el => { for (let e = el; e && e.tagName !== 'MAIN'; e = e.parentElement) if (scrolls(e)) return e; return null; };
  const name = e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '');
  const out = [];
  for (const el of document.querySelectorAll('main table, main .MathJax_Display, main span.MathJax')) {
    if (el.closest('details:not([open])') || (el.matches('span.MathJax') && el.closest('.MathJax_Display'))) continue;
    const r = el.getBoundingClientRect();
    const inner = el.matches('.MathJax_Display') ? el.querySelector('.MathJax') : null;
    const over = r.right > W + 1 || r.left < -1 || (inner && inner.getBoundingClientRect().width > el.clientWidth + 1);
    if (!over) continue;
    const b = box(el), br = b && b.getBoundingClientRect();
    if (!b || br.right > W + 1 || br.left < -1) out.push(name(el) + ' ' + Math.round(r.width) + ' px');
  }
  const params = [...document.querySelectorAll('main table.params')];
  const flat = params.filter(t => { const tr = t.querySelector('tbody tr'); return tr && getComputedStyle(tr).display !== 'block'; });
  return JSON.stringify({sticking: out.slice(0, 5), n_sticking: out.length, params: params.length, flat: flat.length});
})()
"""


def check_narrow(base_url: str, pages: list[str], width: int = NARROW, chromium: str | None = CHROMIUM,
                 facts: dict | None = None) -> list[str]:
    """Open every page at `width` px: none may be wider than the window (top bar, formulas and tables
    scroll inside their own boxes or wrap); no table or formula sticks out of the window except inside a
    scrolling box of its own that fits it; every parameter table is stacked (one block per parameter)."""
    problems, facts = [], {} if facts is None else facts
    with Chromium(chromium) as browser:
        browser.call('Emulation.setDeviceMetricsOverride', width=width, height=844, deviceScaleFactor=1, mobile=False)
        for page in pages:
            try: f = inspect_page(browser, urllib.parse.urljoin(base_url, page))
            except (TimeoutError, RuntimeError) as e:
                problems.append(f'{page} at {width} px: could not inspect page: {e}'); continue
            if f['width']['scroll'] > f['width']['window']:
                problems.append(f"{page} at {width} px: page is wider than the window: {f['width']['scroll']} px "
                                f"(elements past the edge: {f['wide']})")
            n = facts[page] = json.loads(browser.evaluate(NARROW_JS))
            if n['n_sticking']:
                problems.append(f"{page} at {width} px: {n['n_sticking']} tables or formulas stick out without a scrolling box "
                                f"of their own: {n['sticking'][:3]}")
            if n['flat']: problems.append(f"{page} at {width} px: {n['flat']} of {n['params']} parameter tables not stacked")
    return problems


def check_search(base_url: str, cases: dict = SEARCH_CASES, chromium: str | None = CHROMIUM) -> list[str]:
    """Type each query into the search box of the home page; the target page must be among the
    first three results, and following the first result to that page must load it."""
    problems = []
    with Chromium(chromium) as browser:
        f = inspect_page(browser, urllib.parse.urljoin(base_url, 'index.html'))
        if f['js_errors']: problems.append(f'index.html: JavaScript errors: {f["js_errors"][:2]}')
        for query, page in cases.items():
            hrefs = browser.evaluate(f'JSON.stringify((window.__docs && window.__docs.search) ? window.__docs.search({json.dumps(query)}) : null)')
            hrefs = json.loads(hrefs)
            if hrefs is None: problems.append('search: no search box or index on index.html'); break
            top = [h.split('#')[0] for h in hrefs[:3]]
            if page not in top:
                problems.append(f'search {query!r}: {page} not among the first results {hrefs[:3]}'); continue
            hit = urllib.parse.urljoin(base_url, hrefs[top.index(page)])
            g = inspect_page(browser, hit)
            if not g['loaded'] or not g['h1']: problems.append(f'search {query!r}: result {hit} did not load')
            frag = hit.partition('#')[2]
            if frag and frag not in g['ids']: problems.append(f'search {query!r}: result {hit}: no such anchor')
    return problems

# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def site() -> Path:
    if not (SITE / 'index.html').exists():
        if 'DOCS_SITE' in os.environ: pytest.fail(f'DOCS_SITE={SITE} has no index.html')
        r = subprocess.run([sys.executable, str(REPO / 'tools' / 'build_docs.py'), '--quiet'], cwd=REPO,
                           capture_output=True, text=True, timeout=900)
        if r.returncode: pytest.fail(f'tools/build_docs.py failed (exit {r.returncode}):\n{r.stderr[-4000:]}', pytrace=False)
    return SITE


@pytest.fixture(scope='module')
def site_check(site):
    facts = {}
    with serve(site) as url: problems = check_site(url, facts=facts)
    return problems, facts


def test_docs_site_in_browser(site, site_check):
    problems, facts = site_check
    pages = [l.strip() for l in (site / 'sitemap.txt').read_text().splitlines() if l.strip()] \
        if (site / 'sitemap.txt').exists() else []
    assert problems == [], 'docs site problems:\n' + '\n'.join(problems)
    assert 'index.html' in facts
    missing = sorted(set(pages) - set(facts))
    assert not missing, f'pages in sitemap.txt not reachable from the sidebar: {missing}'


def test_docs_search_finds_pages(site):
    "The offline search (search-index.js + assets/search.js) finds nDCG and bpref and leads to their pages"
    with serve(site) as url: problems = check_search(url)
    assert problems == [], 'search problems:\n' + '\n'.join(problems)


def _sitemap(site: Path) -> list[str]:
    return [l.strip() for l in (site / 'sitemap.txt').read_text().splitlines() if l.strip()]


def test_docs_pages_fit_a_phone(site):
    """At 390 px no page is wider than the window: the top bar fits, formulas and tables fit or scroll inside
    their own boxes, and every parameter table is stacked"""
    facts = {}
    with serve(site) as url: problems = check_narrow(url, _sitemap(site), facts=facts)
    assert problems == [], 'pages wider than a phone:\n' + '\n'.join(problems)
    assert sum(f['params'] for f in facts.values()) > 300       # the parameter tables were there to be checked


def landing_problems(facts: dict) -> list[str]:
    """The landing page: says how to install (clone + `make example`, or `pip install -e .`) before its quick start,
    names what users come for with a link each, and links to the Performance page, which holds the benchmark tables."""
    f, p = facts['index.html'], []
    text = f['text']
    for line in ('git clone', 'make example', 'pip install -e .'):
        if line not in text: p.append(f'index.html: no install line {line!r}')
    at = {h: text.find(h) for h in ('Install', 'Quick start', 'Pages')}
    if not 0 <= at['Install'] < at['Quick start'] < at['Pages']: p.append(f'index.html: sections not in the order install, quick start, pages: {at}')
    hrefs = {l['href'].rsplit('/', 1)[-1].split('#')[0] for l in f['links']}
    for page in ('performance.html', 'evaluator.evaluate.html', 'results.compare.html', 'results.reconcile.html',
                 'evaluator.batches.html', 'results.store.html', 'stats.inference.html'):
        if page not in hrefs: p.append(f'index.html: no link to {page}')
    for word in ('evaluate_batch', 'reconcile', 'compare', 'Store', 'discriminative_power'):
        if word not in text: p.append(f'index.html: does not name {word}')
    if 'MS MARCO-scale' in text: p.append('index.html: the benchmark tables are still on the landing page')
    if 'performance.html' in facts and 'MS MARCO-scale' not in facts['performance.html']['text']:
        p.append('performance.html: no benchmark tables')
    return p


def test_docs_landing_page_is_a_way_in(site_check):
    "The landing page: install, quick start, what users come for, the page list; the benchmarks on their own page"
    _, facts = site_check
    assert landing_problems(facts) == []


def test_docs_getting_started_starts_from_the_install_line(site):
    "Getting started: the install line first, its imports visible (none hidden), no catch_warnings, links to the guide, cheat sheet and API"
    from bs4 import BeautifulSoup
    main = BeautifulSoup((site / 'getting_started.html').read_text(encoding='utf-8'), 'html.parser').find('main', id='content')
    code = [c.get_text() for c in main.select('.cell-input')]
    assert 'pip install -e' in main.get_text() and main.get_text().index('pip install -e') < main.get_text().index('evaluate(')
    assert code and 'from rankmetrics_nb import' in code[0] and 'import numpy as np' in code[0]
    assert not any('catch_warnings' in c for c in code)
    nb = json.loads((REPO / 'nbs' / '01_getting_started.ipynb').read_text(encoding='utf-8'))
    hidden = [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code' and ''.join(c['source']).startswith('#| hide')]
    assert not any(re.search(r'^\s*(import|from)\s', h, flags=re.M) for h in hidden[:-1]), hidden   # (the last: nbdev_export)
    hrefs = [a['href'].split('#')[0] for a in main.find_all('a', href=True)]
    end = hrefs[hrefs.index('choosing_a_metric.html', len(hrefs) - 12):] if 'choosing_a_metric.html' in hrefs[-12:] else []
    assert {'choosing_a_metric.html', 'cheat_sheet.html', 'api.html'} <= set(end), hrefs[-12:]


def test_docs_cheat_sheet_rows_link_to_their_pages(site_check):
    "Every row of the cheat sheet links to a page of the site (the anchor checked by the link check)"
    _, facts = site_check
    rows = facts['cheat_sheet.html']['sheetRows']
    assert len(rows) >= 80 and all(r['href'] for r in rows), [r['id'] for r in rows if not r['href']]
    pages = {r['href'].split('#')[0].rsplit('/', 1)[-1] for r in rows}
    assert pages <= set(facts) and len(pages) >= 8, pages


# TeX as formulas write it (a LaTeX command named in prose, such as `\\usepackage`, is not a formula)
_RAW_TEX = re.compile(r'\\(?:frac|tfrac|dfrac|sum|prod|int|sqrt|mathrm|mathbf|mathit|mathcal|operatorname|text|left|right|big|Big|'
                      r'log|ln|exp|max|min|le|leq|ge|geq|ne|neq|cdot|times|infty|ell|alpha|beta|gamma|delta|epsilon|lambda|'
                      r'mu|pi|rho|sigma|tau|phi|varphi|in|cup|cap|lfloor|rfloor|lvert|rvert|ldots|dots|cdots|quad|qquad|begin|end)'
                      r'(?![a-zA-Z])|\$[^$\s][^$]*\$|[_^]\{|\\[(\[]')


def search_index_problems(index: list[dict]) -> list[str]:
    "Entries of the search index whose page title, heading, description or text show raw TeX"
    return [f"{e['u']} ({k}): {m[0]!r} in ...{e[k][max(0, m.start() - 30):m.end() + 30]}..."
            for e in index for k in ('p', 'h', 'd', 'x') if (m := _RAW_TEX.search(e.get(k) or ''))]


def _search_index(site: Path) -> list[dict]:
    return json.loads((site / 'search-index.js').read_text(encoding='utf-8').split('=', 1)[1].strip().rstrip(';'))


def test_docs_search_index_has_no_raw_tex(site):
    "Search snippets and titles show formulas as text (ℓᵢ, Σ, a/b), never raw TeX"
    problems = search_index_problems(_search_index(site))
    assert problems == [], 'raw TeX in the search index:\n' + '\n'.join(problems[:20])



def test_docs_search_puts_definitions_first(site):
    "Search by words ranks the defining section of each term first; snippets show prose, not TeX or test code"
    with serve(site) as url: problems = check_search_first(url)
    assert problems == [], 'search problems:\n' + '\n'.join(problems)


def _public():
    import rankmetrics_nb
    return rankmetrics_nb, list(rankmetrics_nb.__all__)


def _api_links(facts) -> dict:
    "{public name: the url its entry on the API page links to} (the first link showing the name)"
    links = {}
    for l in facts['api.html']['links']: links.setdefault(l['text'].removesuffix('()'), l['href'])
    return links


def test_docs_api_page_links_every_public_name(site_check):
    "The API page names every public name as a link, and every such link lands on an existing section"
    _, facts = site_check
    pkg, public = _public()
    links = _api_links(facts)
    assert sorted(set(public) - set(links)) == []
    for name in public:
        page, _, frag = links[name].partition('#')
        page = page.rsplit('/', 1)[-1] or 'api.html'
        assert page in facts, f'{name}: link to {links[name]}: page not in the site'
        assert frag in facts[page]['ids'], f'{name}: link to {links[name]}: no such anchor'


def test_docs_public_functions_have_parameter_tables(site_check):
    "Every public function's section shows a Type / Default / Details table"
    import inspect
    _, facts = site_check
    pkg, public = _public()
    sections = {(page, d['id']): d for page, f in facts.items() for d in f['docSymbols']}
    links = _api_links(facts)
    missing = []
    for name in public:
        if not inspect.isfunction(getattr(pkg, name)): continue
        page, _, frag = links[name].rsplit('/', 1)[-1].partition('#')
        d = sections.get((page, frag))
        if d is None or not d['table']: missing.append(f'{name} ({page}#{frag})')
    assert missing == [], f'public functions without a parameter table: {missing}'


def test_docs_every_page_has_previous_and_next(site_check):
    "Every page links to the previous and the next page in the sidebar's order (the first and last to one)"
    _, facts = site_check
    pages = {n: f['pageNav'] for n, f in facts.items() if n.endswith('.html')}
    assert [n for n, nav in pages.items() if not nav['prev']] == ['index.html']
    assert len([n for n, nav in pages.items() if not nav['next']]) == 1
    assert all(nav['prev'] or nav['next'] for nav in pages.values())


def test_docs_getting_started_shows_its_figure(site_check):
    _, facts = site_check
    imgs = facts['getting_started.html']['imgs']
    assert imgs and all(i['complete'] and i['w'] > 0 for i in imgs)
    assert 'scatter' in imgs[0]['alt']


# the metric and front-end pages: their tests, edge cases and cross-checks sit under folded headings
FOLDED_PAGES = ('metrics.precision.html', 'metrics.reciprocal_rank.html', 'metrics.average_precision.html', 'metrics.dcg.html', 'metrics.err.html',
                'metrics.diversity.html', 'interop.ndeval.html', 'metrics.rank_correlation.html', 'metrics.cwl.html', 'metrics.trec.measures.html',
                'metrics.trec.gains.html', 'metrics.trec.prefs.html', 'metrics.trec.qrels_jg.html', 'registry.measures.html', 'registry.conventions.html',
                'evaluator.memory.html', 'interop.trec_eval.html', 'stats.significance.html', 'results.compare.html', 'stats.topic_sets.html',
                'stats.inference.html', 'evaluator.scale.html', 'results.plots.html', 'results.store.html', 'cli.html')
TEST_WALL_LINES = 15


def test_docs_no_visible_test_walls(site_check):
    "On the pages that fold their tests, no visible code block of more than 15 lines is tests"
    _, facts = site_check
    walls = {p: b for p in FOLDED_PAGES for b in facts[p]['codeBlocks'] if b['tests'] and not b['defines']}
    assert walls == {}, f'visible test blocks over {TEST_WALL_LINES} lines: {walls}'


def test_docs_folded_sections_at_the_end(site):
    "On the pages that fold their tests, the folded sections come last, after every explanation and example"
    from bs4 import BeautifulSoup
    late, checked = {}, []
    for p in FOLDED_PAGES:
        main = BeautifulSoup((site / p).read_text(encoding='utf-8'), 'html.parser').find('main', id='content')
        kids = [k for k in main.children if getattr(k, 'name', None) in ('div', 'details')]
        folds = [i for i, k in enumerate(kids) if k.name == 'details' and 'fold-section' in (k.get('class') or [])]
        if not folds: continue                  # (a page whose checks are all folded cell by cell)
        checked.append(p)
        head = kids[folds[0] - 1].find('h2')
        assert head is not None and head.get_text().startswith('Checks and cross-checks'), f'{p}: no heading over the checks'
        if after := [k.get_text(' ', strip=True)[:60] for k in kids[folds[0]:] if k.name != 'details']: late[p] = after
    assert late == {}, f'content after the folded checks: {late}'
    assert len(checked) >= 18, checked


def test_docs_search_index_leaves_out_private_names(site, site_check):
    "Sections documenting names outside the package's __all__ are not in the search index"
    _, facts = site_check
    _, public = _public()
    index = json.loads((site / 'search-index.js').read_text(encoding='utf-8').split('=', 1)[1].strip().rstrip(';'))
    urls = {e['u'] for e in index}
    private = [f"{p}#{d['id']}" for p, f in facts.items() for d in f['docSymbols'] if d['name'].split('.')[0] not in public]
    assert private, 'expected some documented names outside __all__ (helpers documented on their pages)'
    assert sorted(urls & set(private)) == []
    assert not [e['h'] for e in index if e['h'].startswith('_')]


def test_docs_prose_speaks_of_itself(site_check):
    "No page mentions the project's private working material (seed numbers, peer cases, facts, shared paths)"
    _, facts = site_check
    found = banned_words(facts)
    report = '\n'.join(f'{page}:\n  ' + '\n  '.join(hits[:8]) + (f'\n  ... {len(hits) - 8} more' if len(hits) > 8 else '')
                       for page, hits in found.items())
    assert not found, 'pages mention private working material:\n' + report


_INJECT = '<p id="checker-probe">Injected probe: $x_i$ and $$\\sum_{i=1}^k x_i$$</p>' \
          '<img id="checker-img" src="no-such-figure.png" alt="missing">'


def test_checker_can_fail(site, site_check, tmp_path):
    "The checker must report untypeset math and broken images on a damaged copy of the site"
    _, facts = site_check
    broken = tmp_path / 'site'
    shutil.copytree(site, broken)
    shutil.rmtree(broken / 'mathjax')
    math_pages = sorted(p for p, f in facts.items() if f['mathElems'] > 0)
    img_page = next((p for p, f in sorted(facts.items())
                     for i in f['imgs'] if i['src'] and not i['src'].startswith(('data:', 'http'))), None)
    if img_page:  # delete a real figure
        src = next(i['src'] for i in facts[img_page]['imgs'] if i['src'] and not i['src'].startswith(('data:', 'http')))
        (broken / src).unlink()
    if not math_pages or not img_page:  # site without math/figures: inject them into the home page
        idx = broken / 'index.html'
        idx.write_text(idx.read_text(encoding='utf-8').replace('</main>', _INJECT + '</main>', 1), encoding='utf-8')
        math_pages = math_pages or ['index.html']
        img_page = img_page or 'index.html'
    # a link to a missing anchor, an element wider than the window, a banned phrase, a raw link, a temp path
    idx = broken / 'index.html'
    idx.write_text(idx.read_text(encoding='utf-8').replace(
        '</main>', '<p><a href="index.html#no-such-anchor">dangling</a></p><div style="width:3000px">wide</div>'
        '<p>as in seed 003 and peer case 74</p><p>see [compare](results.compare.html) in /tmp/ipykernel_1/2.py</p></main>', 1),
        encoding='utf-8')
    # the previous/next links inside a fold, a machine's path, a display formula wider than its column, a table
    # sticking out of a phone's window, a parameter table laid out as a table on a phone
    h = idx.read_text(encoding='utf-8')
    at = re.search(r'<nav[^>]*class="page-nav"', h).start()
    end = h.index('</nav>', at) + len('</nav>')
    h = h[:at] + '<details><summary>more</summary>' + h[at:end] + '</details>' + h[end:]
    h = h.replace('</main>', '<p>read from /home/builder/rankmetrics_nb/data/example.qrels</p>'
                  '<div class="MathJax_Display"><span class="MathJax" style="display:inline-block;width:1500px">x</span></div>'
                  '<div><table id="probe-wide" style="width:900px"><tr><td>wide</td></tr></table></div>'
                  '<table class="params" id="probe-params"><tbody><tr style="display:table-row"><td>k</td><td>int</td></tr></tbody></table>'
                  '</main>', 1)
    idx.write_text(h, encoding='utf-8')
    nd = broken / 'interop.ndeval.html'          # conformance plumbing left open
    nd.write_text(nd.read_text(encoding='utf-8').replace('</main>', "<pre>shared = os.environ['RANKMETRICS_SHARED']</pre></main>", 1),
                  encoding='utf-8')
    cs = broken / 'cheat_sheet.html'              # a cheat-sheet row without its link
    cs.write_text(re.sub(r'(<tr id="measure-[^"]+"><td>)<a href="[^"]*">', r'\1', cs.read_text(encoding='utf-8'), count=1),
                  encoding='utf-8')
    broken_facts = {}
    with serve(broken) as url:
        problems = check_site(url, facts=broken_facts)
        narrow = check_narrow(url, ['index.html'])
    text = '\n'.join(problems)
    assert 'index.html: the previous/next links are inside a fold' in text, text
    assert "index.html: build-machine paths in the page: ['/home/builder/rankmetrics_nb/data/example.qrels" in text, text
    assert 'index.html: display formulas wider than their column (cut or scrolling): 1' in text, text
    assert "interop.ndeval.html: conformance plumbing in the open: ['RANKMETRICS_SHARED']" in text, text
    assert "cheat_sheet.html: cheat-sheet rows without a link: ['measure-P']" in text, text
    assert any('index.html at 390 px: ' in x and 'stick out without a scrolling box' in x and 'table 900 px' in x for x in narrow), narrow
    assert any(x.startswith('index.html at 390 px: 1 of ') and x.endswith('parameter tables not stacked') for x in narrow), narrow
    # the landing page without its install line, its link to the Performance page, with the benchmark tables
    landing = dict(broken_facts['index.html'])
    landing['text'] = landing['text'].replace('pip install -e .', 'pip install') + '\nMS MARCO-scale'
    landing['links'] = [l for l in landing['links'] if 'performance.html' not in l['href']]
    got = landing_problems({**broken_facts, 'index.html': landing})
    assert {"index.html: no install line 'pip install -e .'", 'index.html: no link to performance.html',
            'index.html: the benchmark tables are still on the landing page'} <= set(got), got
    # raw TeX in the search index
    assert len(search_index_problems([{'u': 'x.html', 'p': 'P', 'h': 'AP under $m_1 = 6$', 'd': '', 'x': r'weights 1/\log_2(i+1)'}])) == 2
    assert "index.html: link 'dangling' -> index.html#no-such-anchor: no such anchor" in text, text
    assert 'index.html: page is wider than the window' in text, text
    assert "index.html: raw Markdown links in the text: ['[compare](results.compare.html)']" in text, text
    assert "index.html: temporary paths in the page: ['/tmp/ipykernel_1/2.py" in text, text
    assert [h.split(':')[0] for h in banned_words(broken_facts).get('index.html', [])][:2] == ['"seed 00"', '"peer case"']
    for page in math_pages:
        assert any(p.startswith(f'{page}: untypeset TeX') for p in problems), f'{page}: untypeset math not reported:\n{text}'
        assert f'{page}: MathJax did not load' in text
    assert any(p.startswith(f'{img_page}: image did not load') for p in problems), f'broken image not reported:\n{text}'
    assert 'request failed: HTTP 404' in text


# Runs in the results page: what the rich displays of the result objects rendered, and whether a folded block opens.
RESULTS_JS = r"""
(() => {
  const tables = [...document.querySelectorAll('.rankmetrics-table table')];
  const details = [...document.querySelectorAll('.rankmetrics-table + details')];   // the folded per-query values
  const first = details[0];
  const closed = first ? first.getBoundingClientRect().height : -1;   // the summary line only
  if (first) first.open = true;
  const b = document.querySelector('.rankmetrics-table td b');
  return JSON.stringify({
    captions: tables.map(t => ((t.querySelector('caption') || {}).textContent || '').trim()),
    headers: tables.map(t => [...t.querySelectorAll('thead th')].map(th => th.textContent)),
    bold: [...document.querySelectorAll('.rankmetrics-table td b')].map(e => e.textContent),
    sup: [...document.querySelectorAll('.rankmetrics-table td sup')].map(e => e.textContent),
    details: details.length, closedHeight: closed, openHeight: first ? first.getBoundingClientRect().height : -1,
    boldWeight: b ? getComputedStyle(b).fontWeight : '',
    figures: [...document.images].filter(i => i.complete && i.naturalWidth > 0 && /\.png$/.test(i.getAttribute('src') || '')).length,
    latex: [...document.querySelectorAll('pre')].map(p => p.textContent).filter(t => t.includes('\\toprule')).length,
  });
})()
"""


def test_results_page_shows_the_result_objects(site):
    "The page that displays each result object (Evaluation, Comparison, DiversityTable, TrecEvalResult, Leaderboard) renders their tables"
    with serve(site) as url, Chromium() as browser:
        f = inspect_page(browser, urllib.parse.urljoin(url, 'results.html'))
        assert page_problems('results.html', f) == []
        r = json.loads(browser.evaluate(RESULTS_JS))
    caps = r['captions']
    for start in ('36 queries evaluated (36 in the run)', 'Means of 4 runs over 35 queries', 'Queries won / tied / lost, of 35',
                  'Run rerank: means over', 'trec_eval 10: run rerank', 'Stored means of 4 runs'):
        assert any(c.startswith(start) for c in caps), (start, caps)
    assert ['measure', '@5', '@10', '@20', 'all ranks'] in r['headers'], r['headers']     # ndeval's grid
    assert ['', 'run', 'nDCG@10', 'nDCG@20', 'AP', 'P@10', 'RR', 'R@100'] in r['headers']
    assert len(r['bold']) >= 6 and int(r['boldWeight']) >= 600, (r['bold'], r['boldWeight'])   # the best of each measure, in bold
    assert 'a' in r['sup']                                                                    # significantly better than run a
    assert r['details'] >= 4 and 0 < r['closedHeight'] < 40 < r['openHeight'] - r['closedHeight']   # folded, and opens
    assert r['figures'] >= 3 and r['latex'] == 1                                             # forest, differences, PR curves; the LaTeX


def _build_docs():
    sys.path.insert(0, str(REPO / 'tools'))
    import build_docs
    return build_docs


def test_search_text_reads_formulas():
    "Inline math in the search index reads as text: the operators and sub- and superscripts kept, no TeX"
    bd = _build_docs()
    assert bd.search_text([r'grades $\ell_1, \ell_2, \ldots, \ell_n$ (rank 1 first)']) == 'grades ℓ₁, ℓ₂, …, ℓₙ (rank 1 first)'
    assert bd.search_text([r'weights $1/\log_2(i+1)$ and $\mathrm{DCG@}k = \sum_{i=1}^{k} G(\ell_i)\, w_i$']) == \
        'weights 1/log₂(i+1) and DCG@k = Σᵢ₌₁ᵏ G(ℓᵢ) wᵢ'
    assert bd.search_text([r'$E[\mathrm{DCG@}2] = \frac{4}{3}\left(1 + \frac{1}{\log_2 3}\right)$']) == 'E[DCG@2] = 4/3(1 + 1/(log₂ 3))'
    assert bd.search_text(['text $$x = 1$$ more']) == 'text more'                 # display math is left out


def test_display_formula_lists_become_rows():
    "A display formula that lists equations (split at top-level \\qquad) becomes a row of formulas that wraps"
    bd = _build_docs()
    assert bd.split_equations(r'a = 1, \qquad b = \frac{1}{2}, \quad c') == ['a = 1,', r'b = \frac{1}{2},', 'c']
    assert bd.split_equations(r'\begin{cases} a & \qquad b \end{cases}') == [r'\begin{cases} a & \qquad b \end{cases}']
    assert bd.split_equations(r'\left( x \qquad y \right) \quad z') == [r'\left( x \qquad y \right) \quad z']
    md = bd.pandoc_to_html_md('Text:\n\n$$u < v, \\qquad w = 1$$\n\nand $$x$$ inline.')
    assert '<div class="math-row"><div class="math-piece">$$u &lt; v,$$</div><div class="math-piece">$$w = 1$$</div></div>' in md
    assert 'and $$x$$ inline.' in md


def test_warnings_in_outputs_lose_paths_and_source_lines():
    "A warning in a saved output reads `Category: message`, also when the message runs over several lines"
    bd = _build_docs()
    out = ("/home/u/pkg/memory.py:168: QueryMismatchWarning: 36 queries evaluated\n1 query in the run but not the qrels: 199\n"
           "  if needs == {'batch'}: return join(qrels, run)\n/home/u/pkg/evaluate.py:49: TieWarning: ties could move nDCG@10\n"
           "  e = evaluation(qrels, run)\n")
    assert bd.clean_output_text(out) == ('QueryMismatchWarning: 36 queries evaluated\n1 query in the run but not the qrels: 199\n'
                                          'TieWarning: ties could move nDCG@10\n')
