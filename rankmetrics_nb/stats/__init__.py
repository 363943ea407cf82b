"""Statistics over per-query values: significance tests and corrections, risk, topic-set sizes and power, discriminative power and agreement."""
