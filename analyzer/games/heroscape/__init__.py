"""heroscape rules."""
