"""Other tools' interfaces, value for value: trec_eval's command line and output, ndeval's table and a pytrec_eval drop-in."""
