"""Loading and validating user-edited YAML files."""
