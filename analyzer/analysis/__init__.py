"""Analyses built on the engines: duels between cards, point-efficiency tables."""
