"""docgen: plan facts in, compliant director RSU and Retirement Restoration Plan paperwork out."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("docgen")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

__all__ = ["__version__"]
