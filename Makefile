# docgen: two commands on a fresh machine.
#   make demo   set up .venv if needed, install, run the main job on the bundled samples
#   make test   the same set-up, then the whole test suite
# Also: make test-fast (the suite without the tests marked slow: end to end, LibreOffice, the
# browser, killed processes, the wheel, many documents; on every core, under a minute), make bench (the figures
# the issues ask for), make lint (ruff, then mypy).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JS_STAMP := tools/pdfjs/node_modules/.installed

.PHONY: demo test test-fast bench lint clean system-deps

demo: $(STAMP) system-deps
	$(BIN)/docgen validate samples/director-grant-2026.yaml
	$(BIN)/docgen check samples/director-grant-2026.yaml --as-of 2026-06-23
	$(BIN)/docgen batch samples/director-grant-2026.yaml --out out --stage grant --as-of 2026-06-23
	$(BIN)/docgen validate samples/rrp-2026.yaml
	$(BIN)/docgen check samples/rrp-2026.yaml --as-of 2025-12-01
	$(BIN)/docgen batch samples/rrp-2026.yaml --out out --as-of 2025-12-01
	$(BIN)/docgen check samples/rrp-2026-year.yaml --as-of 2026-12-31
	$(BIN)/docgen batch samples/rrp-2026-roster.yaml --out out/roster --as-of 2025-12-01
	@echo "Open out/2026-annual/grant/jsmith/notice.pdf, or review out/2026-annual/grant/check-report.html;"
	@echo "the RRP forms are in out/rrp-2026/enrollment/, and out/roster/ has those of samples/participants.csv."

test: $(STAMP) $(JS_STAMP) system-deps
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The loop to run while working; `make test` (and .ci/run) still runs everything.
test-fast: $(STAMP) $(JS_STAMP) system-deps
	$(BIN)/python -m pytest -m "not slow" -n auto $(PYTEST_ARGS)

bench: $(STAMP) system-deps
	@for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

# ruff, then mypy over docgen/ and checks/ (its settings: [tool.mypy] in pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check docgen checks tests bench tools
	$(BIN)/ruff format --check docgen checks tests bench tools
	$(BIN)/mypy

# WeasyPrint needs Pango from the system. Install it where we can (root with apt-get),
# otherwise say exactly which Debian package is missing instead of failing with a traceback.
system-deps:
	@$(PYTHON) tools/check_system.py

$(STAMP): pyproject.toml docgen/__init__.py  # the version is read from docgen/__init__.py
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { \
		echo "Could not create $(VENV): on Debian or Ubuntu install python3-venv (apt-get install python3-venv)." >&2; \
		rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@$(BIN)/python -m compileall -q docgen checks >/dev/null  # as a wheel's install does: no cold start compiles docgen
	@touch $(STAMP)

# pdf.js for the form tests (tools/pdfjs; outside tests/, so its node_modules never sit among
# the tests): installed when npm is there; the tests say so if not.
$(JS_STAMP): tools/pdfjs/package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --prefix tools/pdfjs --no-audit --no-fund --silent && touch $(JS_STAMP); \
	else echo "Note: the form tests need Node and npm (apt-get install nodejs npm)." >&2; fi

clean:
	rm -rf $(VENV) out build dist .pytest_cache .mypy_cache .hypothesis tools/pdfjs/node_modules
