"""Measure names: each measure declared once (its parameters, defaults and the function that computes it), trec_eval's names and forms, and the conventions presets of other tools."""
