"""The TREC reader against a plain reference splitter, on hypothesis-generated files.

Random qrels and run texts (ASCII and UTF-8 ids, spaces and tabs, LF and CRLF line ends, blank and
comment lines, numbers spelled in many ways, some of them invalid) are read by `parse_text` (the
fast reader, falling back to the line reader) and by `reference` below, written independently from
the rules stated on the reader's page. Either both give the same columns, bit for bit, or the reader
raises an `EvalInputError` naming the line the reference finds bad."""
import math, re
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from rankmetrics_nb.engine.checks import EvalInputError
from rankmetrics_nb.engine.reader import parse_text, parse_file

INT_RE = re.compile(r'[+-]?[0-9]{1,18}\Z')
FLOAT_RE = re.compile(r'[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z')
COLUMNS = dict(qrels=4, run=6)

def reference(text: bytes, layout: str):
    "(columns, None) or (None, number of the first bad line), by the rules: fields split on spaces and tabs only."
    qid, docno, value = [], [], []
    for no, raw in enumerate(text.split(b'\n'), 1):
        line = raw[:-1] if raw.endswith(b'\r') else raw
        if b'\0' in line: return None, no                      # a NUL byte: refused on any line, comment lines too
        if line.startswith(b'#'): continue
        fields = [f for f in line.replace(b'\t', b' ').split(b' ') if f != b'']
        if not fields: continue
        n = COLUMNS[layout]
        if len(fields) < n or (layout == 'qrels' and len(fields) > n): return None, no
        if any(b < 32 for f in fields for b in f): return None, no          # (DEL, 0x7f, is an id byte)
        v = fields[3] if layout == 'qrels' else fields[4]
        s = v.decode('latin-1')
        if layout == 'qrels':
            if not INT_RE.match(s) or abs(int(s)) >= 2**53: return None, no   # grades as in dicts: |g| < 2**53
            value.append(int(s))
        else:
            if not FLOAT_RE.match(s) or not math.isfinite(float(s)): return None, no
            value.append(float(s))
        qid.append(fields[0]); docno.append(fields[2])
    if not qid: return None, 0
    return dict(qid=qid, docno=docno, value=value), None

ascii_id = st.text(alphabet='abcxyz0189_-.:/#', min_size=1, max_size=20)
utf8_id = st.text(alphabet='aéà東京ĠŠą†\u00a0\u0085\u2028x', min_size=1, max_size=8)
an_id = st.one_of(ascii_id, utf8_id).map(lambda s: s.encode('utf-8'))
good_int = st.integers(-10**6, 10**6).map(lambda i: str(i).encode())
odd_int = st.sampled_from([b'1_000', b'1.5', b'+7', b'007', b'1e3', b'x', b'12345678901234567890', b'\xd9\xa1',
                          b'9007199254740993', b'-9007199254740992', b'9007199254740991'])
good_float = st.one_of(st.floats(-1e6, 1e6, allow_nan=False).map(lambda f: repr(f).encode()),
                       st.integers(-999, 999).map(lambda i: f'{i / 8:.3f}'.encode()),
                       st.sampled_from([b'5.', b'.5', b'-0', b'+1.25', b'1E-3', b'-2.5e+2']))
odd_float = st.sampled_from([b'nan', b'inf', b'-Infinity', b'1_0', b'0x10', b'1e999', b'1.2.3', b'--1', b'\xef\xbc\x91'])
space = st.sampled_from([b' ', b'\t', b'  ', b' \t'])

@st.composite
def a_file(draw, layout):
    lines = []
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(['data'] * 8 + ['blank', 'comment', 'short', 'ctrl']))
        if kind == 'blank': lines.append(draw(st.sampled_from([b'', b' ', b'\t']))); continue
        if kind == 'comment': lines.append(b'#' + draw(an_id) + draw(st.sampled_from([b''] * 5 + [b'\x00', b'\x7f']))); continue
        value = draw(st.one_of(good_int, odd_int) if layout == 'qrels' else st.one_of(good_float, odd_float)) \
            if draw(st.integers(0, 9)) == 0 else draw(good_int if layout == 'qrels' else good_float)
        fields = [draw(an_id), b'0' if layout == 'qrels' else b'Q0', draw(an_id)]
        fields += [value] if layout == 'qrels' else [b'1', value, b'tag'] + [b'extra'] * draw(st.integers(0, 1))
        if kind == 'short': fields = fields[:-2]
        if kind == 'ctrl': fields[2] = fields[2] + draw(st.sampled_from([b'\x0b', b'\x0c', b'\x1c', b'\x00', b'\r', b'\x7f']))
        sep = draw(space)
        lines.append(draw(st.sampled_from([b'', b' '])) + sep.join(fields) + draw(st.sampled_from([b'', b' ', b'\t'])))
    end = draw(st.sampled_from([b'\n', b'\r\n']))
    return end.join(lines) + draw(st.sampled_from([b'', end]))

def check(text, layout):
    want, bad = reference(text, layout)
    if want is None:
        with pytest.raises(EvalInputError) as e: parse_text(text, 'f.txt', layout)
        if bad: assert f'f.txt, line {bad}:' in str(e.value), (str(e.value), bad)
        else: assert 'no data lines' in str(e.value)
        return
    got = parse_text(text, 'f.txt', layout)
    assert [bytes(x) for x in got['qid']] == want['qid'] and [bytes(x) for x in got['docno']] == want['docno']
    v = got['rel' if layout == 'qrels' else 'score']
    assert v.tolist() == want['value']
    if layout == 'run': assert np.signbit(v).tolist() == [math.copysign(1, x) < 0 for x in want['value']]

@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(a_file('run'))
def test_run_files_read_as_the_reference_splits_them(text):
    check(text, 'run')

@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(a_file('qrels'))
def test_qrels_files_read_as_the_reference_splits_them(text):
    check(text, 'qrels')

def test_utf8_ids_are_never_split(tmp_path):
    "Bytes 0x85 and 0xA0 inside UTF-8 characters are parts of ids, not separators (a file and a text alike)."
    text = 'q1 Q0 Déjà_vu 50 1.0 r\nq1 Q0 a\u00a0b 51 0.5 r\nq1 Q0 東京 52 0.25 r\n'.encode()
    (tmp_path / 'run.txt').write_bytes(text)
    for cols in (parse_text(text, 'run.txt', 'run'), parse_file(tmp_path / 'run.txt', 'run')):
        assert [d.decode() for d in cols['docno']] == ['Déjà_vu', 'a\u00a0b', '東京']
        assert cols['score'].tolist() == [1.0, 0.5, 0.25]

def test_byte_order_mark_is_skipped_and_said(tmp_path, capfd):
    (tmp_path / 'q.txt').write_bytes(b'\xef\xbb\xbfq1 0 d1 1\nq1 0 d2 0\n')
    cols = parse_file(tmp_path / 'q.txt', 'qrels')
    assert cols['qid'].tolist() == [b'q1', b'q1']
    assert 'byte order mark' in capfd.readouterr().err
