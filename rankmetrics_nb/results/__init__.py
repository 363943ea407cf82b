"""Results for people: comparisons of runs, plots, a results store with leaderboards, and the reconciliation of tools' values."""
