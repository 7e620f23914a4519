"""d20 skirmish AI-vs-AI matches: ``ENGINE`` implements ``analyzer.match.contract.MatchEngine``.

Modules: ``layout`` (array columns and codes), ``compile`` (scenario files, options,
compilation), ``match_nb`` (the numba kernels), ``trace`` (play-by-play), ``sandbox``
(hand-built positions for rule tests), ``engine`` (the contract).
"""
