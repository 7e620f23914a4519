"""d20 rules."""
