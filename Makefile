# Two commands do all the set-up: `make demo` and `make test`.
# Each creates (or reuses) the virtual environment in .venv and installs plies into it.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-plies

.PHONY: demo test lint pytest browser engines drawing clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,learn,distributed,web]'
	touch $(STAMP)

# The web app (plies demo is the terminal tour).
demo: $(STAMP)
	$(BIN)/plies serve

# $(call apt_install,PACKAGE,PURPOSE): Debian's PACKAGE with apt-get when it is missing and we
# are root with apt-get; else a line saying the tests that need it will be skipped.
apt_install = { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $(1) for $(2) (apt-get)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; \
	  else \
	    echo "$(1) is missing and cannot be installed here (needs root and apt-get): $(2) will be skipped"; \
	  fi; }

# The browser tests drive Chromium; the uci agent's tests play Stockfish; the GTP tests GNU Go
# and GRhino (Othello); the gnubg agent's tests GNU Backgammon.
browser:
	@command -v chromium >/dev/null 2>&1 || $(call apt_install,chromium,the browser tests)

engines:
	@command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ] || $(call apt_install,stockfish,the uci agent's tests)
	@command -v gnugo >/dev/null 2>&1 || [ -x /usr/games/gnugo ] || $(call apt_install,gnugo,the GTP games against GNU Go)
	@command -v gtp-rhino >/dev/null 2>&1 || [ -x /usr/games/gtp-rhino ] || $(call apt_install,grhino,the GTP games against GRhino)
	@command -v gnubg >/dev/null 2>&1 || [ -x /usr/games/gnubg ] || $(call apt_install,gnubg,the games against GNU Backgammon)

# The drawing tests render trees with Graphviz's dot.
drawing:
	@command -v dot >/dev/null 2>&1 || $(call apt_install,graphviz,the drawing tests)

test: pytest lint

pytest: $(STAMP) browser engines drawing
	$(BIN)/python -m pytest -q --durations=15

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# Numba caches compiled kernels beside their modules, in __pycache__/*.nbi and *.nbc files keyed
# to each kernel's own file only: clean removes them (and the __pycache__ folders they live in).
clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find src \( -name '*.nbi' -o -name '*.nbc' \) -type f -delete
	find src tests benchmarks -name __pycache__ -type d -prune -exec rm -rf {} +
