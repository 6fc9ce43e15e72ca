"""The engine's core: dates, formats, citations, findings, rules, documents, parameters, errors."""
