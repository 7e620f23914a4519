"""rapture rules."""
