"""``python -m analyzer`` runs the command line."""

from analyzer.cli import main

main()
