"""degenesis rules."""
