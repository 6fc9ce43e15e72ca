"""docgen: plan facts in, compliant director RSU and Retirement Restoration Plan paperwork out."""

# The one place the version is written: pyproject.toml reads it from here (hatch's version
# source), and every command has it without importing importlib.metadata (38 ms of each start).
__version__ = "0.1.0"

__all__ = ["__version__"]
