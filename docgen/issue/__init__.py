"""Issuing: atomic folders, the batch over a process pool, one document, the manifest, verify."""
