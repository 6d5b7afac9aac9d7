"""Runs: batches of games executed on local processes and stored in an SQLite file, so
that long runs survive interruption and can be queried and compared later."""
