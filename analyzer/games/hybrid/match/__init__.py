"""Hybrid AI-vs-AI matches on the shared match framework (``engine.ENGINE``)."""
