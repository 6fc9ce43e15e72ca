"""What the command line prints, and how a command ends, one idea to a module:

- ``terminal``: the two consoles (stdout, stderr), which read nothing a user typed as markup;
- ``options``: the options several commands share (FILE, ``--as-of``, ``--format``, ``-o``),
  declared once, and the dates they are given in;
- ``output``: a command's result written to stdout, or to ``-o PATH`` atomically;
- ``printers``: what each command reports, in the secretary's words, and the progress bar;
- ``process``: a docgen error as its message and exit code (one decorator on every command),
  signals, the top-level handler that never shows a traceback, and the quick exit.

The modules import the terminal and the api, not each other (tests/test_architecture.py).
"""
