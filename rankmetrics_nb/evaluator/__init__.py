"""Evaluating runs: the in-memory evaluation, batches of score matrices, streamed and Dask evaluation, the one `evaluate`, tie ranges, provenance and diagnosis."""
