"""``python -m analyzer.experiments SPEC.yaml [options]``: same as ``analyzer sweep``."""

from analyzer.experiments.cli import main

if __name__ == "__main__":
    main()
