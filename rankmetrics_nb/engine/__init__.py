"""The engine: reading qrels and runs, checking input, ranking under a tie policy, joining runs to judgements and the result tables, done once for every query."""
