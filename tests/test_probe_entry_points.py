"""The probe suite: every public entry point given each class of bad input (wrong types and shapes, NaN and inf,
empty inputs, repeated ids, out-of-range parameters, damaged files, bad JSON) answers with one `EvalInputError`
naming what is wrong, never a raw numpy, JSON or OS error and never a silent value. The CLI's side (one line, status 2)
is probed in tests/test_hardening_probe.py, the store's in tests/test_store_hardening.py, the batch API's in
tests/test_batch_refusals.py and the drop-in's in tests/test_dropin_pytrec_eval.py."""
import warnings
import numpy as np
import pytest
import rankmetrics_nb as R
from rankmetrics_nb import EvalInputError, PerQueryValues

Q, RUN = {'q1': {'a': 1, 'b': 0}}, {'q1': {'a': 0.5, 'b': 0.2}}
LIST_FUNCTIONS = ['precision', 'recall', 'f_measure', 'r_precision', 'success', 'fall_out', 'recall_at_fixed_precision',
                  'precision_recall_curve', 'reciprocal_rank', 'mean_reciprocal_rank',
                  'average_relevance_position', 'average_precision', 'mean_average_precision', 'cumulative_gain', 'dcg',
                  'ndcg', 'pwa', 'err', 'mean_err', 'rank_correlation', 'accuracy', 'auroc', 'compat',
                  'ordered_pair_accuracy', 'rbp']
# (booleans read as relevance flags and negative grades as judged non-relevant documents: both are labels, not refused)
BAD_LABELS = {'NaN': [1, float('nan'), 0], 'inf': [1, float('inf')], 'text': ['a', 'b'], 'None': None, 'a dict': {'a': 1},
              '3-D': np.zeros((2, 2, 2)), 'ragged rows': [[1, 0], [1]], 'objects': np.array([object(), object()]), 'complex': [1 + 2j, 0]}
BAD_RUNS = {'a NaN score': {'q1': {'a': float('nan')}}, 'a text score': {'q1': {'a': 'x'}}, 'a None score': {'q1': {'a': None}},
            'a list': [1, 2], 'None': None, 'a flat dict': {'q1': 0.5}, 'no queries': {}, 'an empty query': {'q1': {}},
            'an inf score': {'q1': {'a': float('inf')}}, 'pairs, not a dict': {'q1': [('a', 0.5)]}}
BAD_QRELS = {'a NaN grade': {'q1': {'a': float('nan')}}, 'a text grade': {'q1': {'a': 'x'}},
             'a fractional grade': {'q1': {'a': 0.5}}, 'None': None, 'no queries': {}, 'a flat dict': {'q1': 1}}
BAD_MEASURES = ['', 'nDCG@0', 'nDCG@-1', 'nDCG@x', 'P(rel=x)@5', 'nope', None, 3, ['AP', 3], [], 'AP@1.5']
BAD_OPTIONS = [dict(ties='nope'), dict(queries='all'), dict(depth=0), dict(depth=-3), dict(depth=1.5), dict(empty='x'),
               dict(conventions='nope'), dict(warn_ties=-1), dict(warn_ties=float('nan')), dict(block_bytes=0),
               dict(block_bytes=-5), dict(block_bytes=100)]


def _refused(call):
    "the message of the `EvalInputError` that `call` raises (any other outcome fails the test)"
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with pytest.raises(EvalInputError) as e: call()
    assert str(e.value).strip(), 'an error must say what is wrong'
    return str(e.value)


@pytest.mark.parametrize('name', LIST_FUNCTIONS)
@pytest.mark.parametrize('bad', list(BAD_LABELS))
def test_single_list_functions_refuse_bad_labels(name, bad):
    _refused(lambda: getattr(R, name)(BAD_LABELS[bad]))


@pytest.mark.parametrize('bad', list(BAD_RUNS))
@pytest.mark.parametrize('call', ['evaluate', 'join', 'compare', 'prepare_run', 'diagnose'])
def test_bad_runs_are_refused_everywhere(call, bad):
    run = BAD_RUNS[bad]
    calls = dict(evaluate=lambda: R.evaluate(Q, run, 'AP'), join=lambda: R.join(Q, run),
                 compare=lambda: R.compare(Q, {'a': RUN, 'b': run}, 'AP'), prepare_run=lambda: R.prepare_run(run),
                 diagnose=lambda: R.diagnose(Q, run, 'AP'))
    _refused(calls[call])


@pytest.mark.parametrize('bad', list(BAD_QRELS))
@pytest.mark.parametrize('call', ['evaluate', 'prepare_qrels', 'reconcile'])
def test_bad_qrels_are_refused_everywhere(call, bad):
    qrels = BAD_QRELS[bad]
    calls = dict(evaluate=lambda: R.evaluate(qrels, RUN, 'AP'), prepare_qrels=lambda: R.prepare_qrels(qrels),
                 reconcile=lambda: R.reconcile(qrels, RUN, 'AP'))
    _refused(calls[call])


@pytest.mark.parametrize('measure', BAD_MEASURES, ids=repr)
def test_bad_measure_names_are_refused(measure):
    _refused(lambda: R.evaluate(Q, RUN, measure))


@pytest.mark.parametrize('options', BAD_OPTIONS, ids=repr)
def test_out_of_range_options_are_refused(options):
    _refused(lambda: R.evaluate(Q, RUN, 'AP', **options))


@pytest.mark.parametrize('text', ['', 'not json', '{}', '[]', 'null', '{"type": "nope"}', '{"type": "Evaluation"}'])
def test_from_json_refuses_what_to_json_did_not_write(text):
    _refused(lambda: PerQueryValues.from_json(text))


@pytest.mark.parametrize('options', [dict(test='nope'), dict(alpha=0), dict(alpha=1.5), dict(n_resamples=0),
                                     dict(baseline='zzz'), dict(correction='nope')], ids=repr)
def test_compare_refuses_bad_options(options):
    _refused(lambda: R.compare(Q, {'a': RUN, 'b': RUN}, 'AP', **options))


def test_compare_needs_two_runs():
    _refused(lambda: R.compare(Q, {'a': RUN}, 'AP'))


@pytest.mark.parametrize('text', ['q1 Q0 a 1 x run\n', 'q1 Q0 a 1 nan run\n', 'q1 Q0 a\n',
                                  'q1 Q0 a 1 1 r\nq1 Q0 a 2 0.5 r\n', '\x00\x01\x02', ''],
                         ids=['bad score', 'NaN score', 'short line', 'repeated document', 'binary', 'empty file'])
def test_bad_run_files_are_refused_with_their_name(tmp_path, text):
    (tmp_path / 'q.txt').write_text('q1 0 a 1\n')
    (tmp_path / 'r.txt').write_text(text)
    assert 'r.txt' in _refused(lambda: R.evaluate(tmp_path / 'q.txt', tmp_path / 'r.txt', 'AP'))


def test_missing_files_and_folders_are_refused(tmp_path):
    (tmp_path / 'r.txt').write_text('q1 Q0 a 1 1 r\n')
    for qrels in (tmp_path / 'none.txt', tmp_path):
        try: R.evaluate(qrels, tmp_path / 'r.txt', 'AP')
        except (EvalInputError, OSError) as e: assert str(qrels) in str(e) or qrels.name in str(e)   # the CLI prints an OSError's file
        else: pytest.fail(f'{qrels} was read')


def test_the_rest_of_the_public_surface():
    j = R.join(Q, RUN)
    for call in (lambda: R.diagnose(Q, RUN, 'nope'), lambda: R.tie_range(j, 'nope'),
                 lambda: R.reconcile(Q, RUN, 'AP', tools=['nope']), lambda: R.reconcile(Q, RUN, 'zz'),
                 lambda: R.evaluate_runs(Q, {}, 'AP'), lambda: R.evaluate_runs(Q, [], 'AP'),
                 lambda: R.adjust_pvalues([0.1], 'nope'), lambda: R.win_tie_loss([1, 2], [1]),
                 lambda: R.win_tie_loss(np.zeros((2, 3, 1)), [(0, 2)]), lambda: R.win_tie_loss(np.zeros((2, 3, 1)), [(0, 1)], tol=-1),
                 lambda: R.parse_measure(5), lambda: R.convention('nope'), lambda: R.measure('nope'),
                 lambda: R.prepare_qrels({'q': {'a': 'x'}}), lambda: R.alpha_ndcg(np.ones((3, 2)), alpha=2),
                 lambda: R.trec_eval({'q1': {'a': 1}}, RUN, measures=['nope'])):
        _refused(call)
