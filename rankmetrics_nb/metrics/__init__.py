"""The metrics: one short function per metric over a rank-ordered label matrix (queries x ranks), and the same function on one ranked list."""
