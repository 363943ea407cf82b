"""DataFrame id columns read from their storage (Arrow strings, categories) give the ids, values and errors of the general
path, which reads each id as a Python object; seeded random ids with the edge cases the id rule names."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from rankmetrics_nb import read_run, read_qrels, evaluate, EvalInputError
from rankmetrics_nb.engine.ids import ID_LIMIT
from rankmetrics_nb.engine.inputs import _arrow_ids, _category_ids

ID = st.one_of(st.text(st.characters(min_codepoint=32, blacklist_categories=['Cs']), min_size=1, max_size=12),
               st.sampled_from(['q1', 'é', '日本', 'x' * (ID_LIMIT + 5), 'y' * ID_LIMIT, 'a b', '#']))


def frames(ids:list, scores:list)->dict:
    "The same run in every storage a DataFrame id column can have."
    obj = pd.DataFrame(dict(query_id=pd.Series(ids, dtype=object), doc_id=pd.Series(ids[::-1], dtype=object), score=scores))
    out = dict(object=obj)
    for name, dtype in [('string', pd.StringDtype('pyarrow')), ('large_string', pd.ArrowDtype(pa.large_string())),
                        ('arrow_string', pd.ArrowDtype(pa.string())), ('category', 'category')]:
        out[name] = obj.astype({'query_id': dtype, 'doc_id': dtype})
    chunked = pa.chunked_array([pa.array(ids[:len(ids) // 2], pa.string()), pa.array(ids[len(ids) // 2:], pa.string())])
    out['chunked'] = obj.assign(query_id=pd.Series(pd.arrays.ArrowExtensionArray(chunked)))
    out['sliced'] = out['string'].iloc[1:].reset_index(drop=True)
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(ID, min_size=2, max_size=40))
def test_every_storage_reads_the_ids_of_the_general_path(ids):
    scores = list(np.linspace(0, 1, len(ids)))
    fs = frames(ids, scores)
    expect = read_run(fs['object'])
    for name, df in fs.items():
        got, ref = read_run(df), (expect if name != 'sliced' else read_run(fs['object'].iloc[1:].reset_index(drop=True)))
        np.testing.assert_array_equal(got.qid, ref.qid, err_msg=name)
        np.testing.assert_array_equal(got.docno, ref.docno, err_msg=name)
        assert got.qid.dtype == ref.qid.dtype and got.docno.dtype == ref.docno.dtype, name


@pytest.mark.parametrize('bad', [None, '', 'a\tb', 'a\nb', 'nul\x00'])
@pytest.mark.parametrize('dtype', [pd.StringDtype('pyarrow'), 'category'])
def test_a_bad_id_gets_the_general_paths_error(bad, dtype):
    ids = ['q1', bad, 'q3']
    df = pd.DataFrame(dict(query_id=pd.Series(ids, dtype=object), doc_id=['a', 'b', 'c'], score=[1.0, 2.0, 3.0]))
    with pytest.raises(EvalInputError) as general: read_run(df)
    with pytest.raises(EvalInputError) as stored: read_run(df.astype({'query_id': dtype}))
    assert str(stored.value) == str(general.value)


def test_storage_readers_decline_what_they_do_not_hold():
    assert _arrow_ids(pd.Series(['a', 'b'], dtype=object)) is None
    assert _arrow_ids(pd.Series([1, 2], dtype=pd.ArrowDtype(pa.int64()))) is None     # integers: the general path's rule
    assert _category_ids(pd.Series(['a', 'b'])) is None
    assert _category_ids(pd.Series(['a', None], dtype='category')) is None            # a missing id: the general path says so
    np.testing.assert_array_equal(_category_ids(pd.Series([3, 1, 3], dtype='category')), np.array([b'3', b'1', b'3']))
    np.testing.assert_array_equal(_arrow_ids(pd.Series([], dtype=pd.StringDtype('pyarrow'))), np.zeros(0, 'S1'))


def test_a_frame_of_arrow_strings_evaluates_as_its_object_copy():
    rng = np.random.default_rng(5)
    q = [f'q{i}' for i in rng.integers(0, 50, 400)]
    run = pd.DataFrame(dict(query_id=q, doc_id=[f'd{i}' for i in range(400)], score=rng.random(400).round(2)))
    qrels = pd.DataFrame(dict(query_id=q[::3], doc_id=[f'd{i}' for i in range(0, 400, 3)], relevance=rng.integers(0, 3, 134)))
    arrow = lambda df: df.astype({'query_id': pd.StringDtype('pyarrow'), 'doc_id': pd.StringDtype('pyarrow')})
    assert evaluate(arrow(qrels), arrow(run), ['AP', 'nDCG@5'], per_query=True, warn_ties=None) == \
        evaluate(qrels.astype(object), run.astype({'query_id': object, 'doc_id': object}), ['AP', 'nDCG@5'], per_query=True,
                 warn_ties=None)
    assert read_qrels(arrow(qrels)).qid.dtype.kind == 'S'
