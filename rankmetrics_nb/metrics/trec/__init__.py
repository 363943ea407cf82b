"""trec_eval's own measures: the kernels of the measures only trec_eval computes, its gain tables, preference and multi-assessor judgements."""
