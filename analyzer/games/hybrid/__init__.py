"""hybrid rules."""
