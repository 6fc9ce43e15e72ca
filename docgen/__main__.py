"""`python -m docgen`: the same command line as the `docgen` script."""

from docgen.cli import entry

if __name__ == "__main__":
    entry()
