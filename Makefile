# docgen: two commands on a fresh machine.
#   make demo   set up .venv if needed, install, run the main job on the bundled samples
#   make test   the same set-up, then the whole test suite
# Also: make test-fast (the suite without the tests marked slow: end to end, LibreOffice, the
# browser, killed processes, the wheel, many documents, anything over about 5 s; on every core,
# under 3 minutes on a 2-core machine), make test-lowest (the same at the lowest version of each
# dependency pyproject.toml allows, as CI runs it), make bench (the figures the issues ask for),
# make lint (ruff, then mypy).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JS_STAMP := tools/pdfjs/node_modules/.installed

LOWEST := .venv-lowest
LOWEST_STAMP := $(LOWEST)/.installed

.PHONY: demo test test-fast test-lowest bench lint clean system-deps test-deps

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

test: test-deps $(STAMP) $(JS_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The loop to run while working; `make test` (and .ci/run) still runs everything.
test-fast: test-deps $(STAMP) $(JS_STAMP)
	$(BIN)/python -m pytest -m "not slow" -n auto $(PYTEST_ARGS)

# The floors in pyproject.toml are versions this installs and tests: each direct dependency at
# the lowest version its range allows (uv's lowest-direct resolution), the rest as resolved.
test-lowest: test-deps $(LOWEST_STAMP) $(JS_STAMP)
	$(LOWEST)/bin/python -m pytest -m "not slow" -n auto $(PYTEST_ARGS)

# (uv is named the environment to fill with --python: run as `python -m uv` it would fill the
# interpreter that runs it, .venv.)
$(LOWEST_STAMP): pyproject.toml docgen/__init__.py $(STAMP)
	$(BIN)/uv venv --quiet --allow-existing --python $(PYTHON) $(LOWEST)
	$(BIN)/uv pip install --quiet --python $(LOWEST)/bin/python --resolution lowest-direct -e '.[test]'
	@$(BIN)/uv pip list --quiet --python $(LOWEST)/bin/python 2>/dev/null | grep -iE '^(pydantic|pyyaml|ruamel-yaml|jinja2|typer|rich|weasyprint|python-docx|pypdf|pyhanko|pyhanko-certvalidator|cryptography|jsonschema|referencing) ' >&2
	@touch $(LOWEST_STAMP)

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

# What the suite reads and drives documents with (poppler, qpdf, LibreOffice, chromium, Node):
# installed with apt-get as root, otherwise named with the tests that skip without them.
test-deps:
	@$(PYTHON) tools/check_system.py --for-tests

$(STAMP): pyproject.toml docgen/__init__.py  # the version is read from docgen/__init__.py
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { \
		echo "Could not create $(VENV): on Debian or Ubuntu install python3-venv (apt-get install python3-venv)." >&2; \
		rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,edgar,lint]' uv
	@$(BIN)/python -m compileall -q docgen checks >/dev/null  # as a wheel's install does
	@touch $(STAMP)

# pdf.js for the form tests (tools/pdfjs; outside tests/, so its node_modules never sit among
# the tests): installed when npm is there; the tests say so if not.
$(JS_STAMP): tools/pdfjs/package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --prefix tools/pdfjs --no-audit --no-fund --silent && touch $(JS_STAMP); \
	else echo "Note: the form tests need Node and npm (apt-get install nodejs npm)." >&2; fi

clean:
	rm -rf $(VENV) $(LOWEST) out build dist .pytest_cache .mypy_cache .hypothesis tools/pdfjs/node_modules
