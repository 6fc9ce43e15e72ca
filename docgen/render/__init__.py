"""Rendering: a document spec and the facts to HTML, then PDF and DOCX, and reading them back.

Nothing here is imported on the path that only checks facts: weasyprint and python-docx load
when a PDF or DOCX is made.
"""
