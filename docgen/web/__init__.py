"""`docgen serve`: the local web workspace, a view over docgen.api (DESIGN.md A25).

Each route parses the request, calls one ``docgen.api`` function and renders a page of
templates/web/ through the documents' sandboxed environment, as each command of docgen/cli.py
does: the workspace holds no logic the command line lacks. It imports docgen.api and nothing
else of docgen (tests/test_architecture.py).
"""
