"""The LaTeX tables compile: every result object's `to_latex()` in one document, through pdflatex.

Skips (saying so) where pdflatex is absent; on Debian: apt-get install texlive-latex-base texlive-latex-recommended
(booktabs). `RANKMETRICS_LATEX_PDF=path` keeps the PDF there, to look at it."""
import os, shutil, subprocess, warnings
from pathlib import Path
import pytest
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.data import example_paths
from rankmetrics_nb.evaluator.memory import evaluation
from rankmetrics_nb.results.compare import compare
from rankmetrics_nb.interop.trec_eval import trec_eval
from rankmetrics_nb.interop.ndeval import diversity_table
from rankmetrics_nb.results.store import Store
from rankmetrics_nb.engine.tables import latex_escape
from conftest import DIVERSITY

PDFLATEX = shutil.which('pdflatex')
pytestmark = pytest.mark.skipif(PDFLATEX is None, reason='pdflatex is not on PATH (Debian: apt-get install texlive-latex-base '
                                                         'texlive-latex-recommended) : the LaTeX tables were not compiled')

def _tables(tmp_path)->list:
    "(title, LaTeX) of every result object's table: the bundled example, and the TREC Web 2012 runs where present."
    p = example_paths()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', QueryMismatchWarning)
        runs = {'bm25_base': p['bm25'], 'rerank & co': p['rerank']}             # names that need escaping
        out = [('compare, every pair', compare(p['qrels'], runs, ['nDCG@10', 'AP', 'P(rel=2)@5', 'RR']).to_latex(label='tab:pairs', second=True)),
               ('compare, a baseline, Wilcoxon', compare(p['qrels'], runs, ['nDCG@10', 'AP'], baseline='bm25_base', test='wilcoxon',
                                                         correction='bonferroni').to_latex(label='tab:base', against='bm25_base')),
               ('evaluation', evaluation(p['qrels'], p['bm25'], ['nDCG@10', 'AP', 'NumRelRet']).to_latex(label='tab:eval')),
               ('trec_eval', trec_eval(p['qrels'], p['rerank'], ['map', 'P.5,10', 'ndcg']).to_latex(label='tab:trec'))]
        with Store(tmp_path / 'r.db') as st:
            for name, r in runs.items(): st.evaluate(p['qrels'], r, ['nDCG@10', 'AP'], collection='example', name=name)
            out.append(('leaderboard', st.leaderboard().to_latex(label='tab:lb', second=True)))
        if DIVERSITY.is_dir():
            q, rs = DIVERSITY / 'qrels', sorted((DIVERSITY / 'runs').glob('wt2012.baseline.*.txt'))
            names = {r.name.replace('wt2012.baseline.', '').replace('-filtered.txt', ''): r for r in rs}
            out.append(('TREC Web 2012', compare(q / 'wt2012.qrels.adhoc.txt', names, ['nDCG@10', 'nDCG@20', 'ERR@20', 'AP', 'P@10', 'RR'],
                                                 baseline='ql.cata').to_latex(label='tab:web2012', second=True)))
            out.append(('ndeval', diversity_table(q / 'wt2012.qrels-for-ndeval.txt', rs[0], ties='traditional').to_latex(label='tab:ndeval')))
    return out

def test_every_latex_table_compiles_with_pdflatex(tmp_path):
    tables = _tables(tmp_path)
    for _, tex in tables:
        assert r'\toprule' in tex and r'\midrule' in tex and r'\bottomrule' in tex and r'\hline' not in tex
        assert r'\caption{' in tex and r'\label{tab:' in tex
    body = '\n\n'.join(f'\\section*{{{latex_escape(title)}}}\n{tex}\n\\clearpage' for title, tex in tables)
    doc = tmp_path / 'tables.tex'
    doc.write_text('\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n\\usepackage[margin=2cm]{geometry}\n'
                   '\\begin{document}\n' + body + '\n\\end{document}\n')
    res = subprocess.run([PDFLATEX, '-interaction=nonstopmode', '-halt-on-error', doc.name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=180)
    log = (tmp_path / 'tables.log').read_text(errors='replace')
    assert res.returncode == 0, res.stdout[-3000:]
    assert '! ' not in log and 'Undefined control sequence' not in log, log[-3000:]
    assert 'Overfull \\hbox' not in log, [l for l in log.splitlines() if 'Overfull' in l]
    assert (tmp_path / 'tables.pdf').stat().st_size > 1000
    if os.environ.get('RANKMETRICS_LATEX_PDF'): shutil.copy(tmp_path / 'tables.pdf', os.environ['RANKMETRICS_LATEX_PDF'])
