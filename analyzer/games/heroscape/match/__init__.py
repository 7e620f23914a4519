"""Heroscape AI-vs-AI matches: ``ENGINE`` implements ``analyzer.match.contract.MatchEngine``.

Modules: ``layout`` (array columns and codes), ``scenario`` (battlefield files, hex
geometry, line of sight), ``compile`` (options, armies into arrays), ``match_nb`` (the
numba kernels), ``trace`` (play-by-play), ``sandbox`` (hand-built positions for rule
tests), ``render`` (PNG maps), ``engine`` (the contract).
"""
