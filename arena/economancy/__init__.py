"""Economancy's arena: the referee for player programs, its trace and replay, and
tournaments. It plays on :mod:`engine.economancy` only."""
