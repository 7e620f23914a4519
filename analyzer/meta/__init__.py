"""The meta of a system's army lists: Nash equilibria of the round robin's score matrix,
its transitive and cyclic parts, replicator dynamics, a list builder and joint costs.

Everything here is system-neutral: it reads a compare folder's pair counts or plays
matches through :mod:`analyzer.match` for any registered engine (see docs/meta.md).
"""
