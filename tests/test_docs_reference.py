"""The reference as scikit-learn readers expect it, measured on the built site (tools/docs_reference.py reads its HTML).

On every entry of the site (every show_doc section, public or not): parameter rows with a description >= 98 % and a type
>= 90 %, Returns rows with a meaning >= 90 %. Of the package's public functions: a Returns row >= 90 %, an example with an
output right under the entry >= 90 %, and so of the public classes. Of the public methods and properties of public classes: an entry >= 90 %. Of the
code a reader sees (closed folds left out): test lines (asserts, `test_*` calls) <= 10 %.

Uses the site in `_docs/` (or DOCS_SITE), built by tools/build_docs.py first if missing, like tests/test_docs_site.py.
"""
import os, subprocess, sys
from pathlib import Path

import pytest

pytest.importorskip('bs4')
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / 'tools'))
import docs_reference as ref  # noqa: E402

SITE = Path(os.environ.get('DOCS_SITE') or REPO / '_docs')


@pytest.fixture(scope='module')
def report():
    if not (SITE / 'index.html').exists():
        if 'DOCS_SITE' in os.environ: pytest.fail(f'DOCS_SITE={SITE} has no index.html')
        r = subprocess.run([sys.executable, str(REPO / 'tools' / 'build_docs.py'), '--quiet'], cwd=REPO,
                           capture_output=True, text=True, timeout=900)
        if r.returncode: pytest.fail(f'tools/build_docs.py failed (exit {r.returncode}):\n{r.stderr[-4000:]}', pytrace=False)
    return ref.report(SITE)


def _share(missing: list, total: int) -> float: return 1 - len(missing) / max(total, 1)


def test_parameter_rows_are_described_and_typed(report):
    assert _share(report['undescribed'], report['rows']) >= 0.98, report['undescribed']
    assert _share(report['untyped'], report['rows']) >= 0.90, report['untyped']


def test_returns_rows_say_what_comes_back(report):
    assert _share(report['returns_undescribed'], report['returns']) >= 0.90, report['returns_undescribed']
    assert _share(report['no_returns'], len(report['functions'])) >= 0.90, report['no_returns']


def test_public_functions_have_an_example_with_output(report):
    assert _share(report['no_example'], len(report['functions'])) >= 0.90, report['no_example']
    assert report['no_entry'] == []


def test_public_classes_have_an_example_with_output(report):
    assert _share(report['classes_no_example'], len(report['classes'])) >= 0.90, report['classes_no_example']


def test_public_methods_and_properties_have_entries(report):
    assert _share(report['no_member_entry'], len(report['members'])) >= 0.90, report['no_member_entry']


def test_visible_code_is_mostly_not_tests(report):
    worst = sorted(((t / n, p) for p, (n, t) in report['per_page'].items() if n), reverse=True)[:8]
    assert report['test_lines'] <= 0.10 * report['visible'], f"{report['test_lines']} of {report['visible']} lines; worst pages {worst}"


# ---- the measure itself, on a page made up for the purpose: it must see what is missing --------------------------

_PAGE = """<html><body><main id="content">
<div class="cell code"><div class="cell-output"><div class="output-markdown">
<h3 class="doc-symbol" id="f">f</h3><div class="table-wrap"><table class="params"><tbody>
<tr><td>a</td><td><code>int</code></td><td></td><td>the a</td></tr>
<tr><td>b</td><td></td><td></td><td></td></tr>
<tr><td>Returns</td><td><code>float</code></td><td></td><td></td></tr></tbody></table></div>
</div></div></div>
<div class="cell markdown"><p>Worked example:</p></div>
<div class="cell code"><div class="cell-input"><pre>test_eq(f(1), 2.0)
assert f(2) == 3.0</pre></div></div>
<div class="cell code"><div class="cell-output"><div class="output-markdown">
<h3 class="doc-symbol" id="g">g</h3></div></div></div>
<div class="cell code"><div class="cell-input"><pre>g(1)
x = 2</pre></div><div class="cell-output"><pre>3</pre></div></div>
<details class="fold-section"><div class="cell code"><div class="cell-input"><pre>test_eq(g(1), 3)</pre></div></div></details>
</main></body></html>"""


def test_the_measure_sees_what_is_missing(tmp_path):
    (tmp_path / 'p.html').write_text(_PAGE, encoding='utf-8')
    E = ref.entries(tmp_path)
    f, g = E['f'][0], E['g'][0]
    assert [r[0] for r in f['rows'] if not r[2]] == ['b', 'Returns'] and [r[0] for r in f['rows'] if not r[1]] == ['b']
    assert f['example'] == dict(output=False, lines=2, tests=2)      # assertions are not an example
    assert g['example'] == dict(output=True, lines=2, tests=0)
    assert ref.visible_code(tmp_path) == {'p.html': [4, 2]}          # the folded check is out of sight


def test_code_lines_counts_test_statements_whole():
    src = "x = f(1)\ntest_eq(x,\n        2)\nwith ExceptionExpected(ValueError):\n    f(-1)\nfor k in (1, 2): assert f(k) > 0\n# note\n"
    assert ref.code_lines(src) == (6, 5)
