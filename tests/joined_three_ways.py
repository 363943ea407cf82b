"""The same qrels and run joined three ways, for tests that hold the counting join to the general one: from the dicts,
from read arrays, and with the counting join switched off; optionally with `keys`' blockwise passes 64 rows at a time."""
import warnings
from rankmetrics_nb.engine import joins, keys
from rankmetrics_nb.engine.checks import QueryMismatchWarning
from rankmetrics_nb.engine.joins import join
from rankmetrics_nb.engine.inputs import read_qrels, read_run

def joined_three_ways(qrels:dict, run:dict, small_blocks:bool=False, **how)->tuple:
    "(from the dicts, from read arrays, by the general join) of `join(qrels, run, **how)`; small_blocks: blocks of 64 rows."
    block, keys.BLOCK = keys.BLOCK, (64 if small_blocks else keys.BLOCK)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', QueryMismatchWarning)
            fast, arrays = join(qrels, run, **how), join(read_qrels(qrels), read_run(run), **how)
            joins._COUNT_RANKS = False
            try: general = join(qrels, run, **how)
            finally: joins._COUNT_RANKS = True
    finally: keys.BLOCK = block
    return fast, arrays, general
