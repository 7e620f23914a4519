"""Turning results into tables, files, charts and reports."""
