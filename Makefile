# Two commands do all the set-up: `make demo` and `make test`.
# Each creates (or reuses) the virtual environment in .venv and installs plies into it.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-plies

.PHONY: demo test lint pytest browser engines clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,learn,distributed,web]'
	touch $(STAMP)

# The web app (plies demo is the terminal tour).
demo: $(STAMP)
	$(BIN)/plies serve

# The browser tests drive Debian's Chromium: installed with apt-get where missing and possible.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Chromium for the browser tests (apt-get)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "Chromium is missing and cannot be installed here (needs root and apt-get): the browser tests will be skipped"; \
	  fi; }

# The uci agent's tests play Debian's Stockfish: installed with apt-get where missing and possible.
engines:
	@command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Stockfish for the uci agent's tests (apt-get)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish >/dev/null; \
	  else \
	    echo "Stockfish is missing and cannot be installed here (needs root and apt-get): its test will be skipped"; \
	  fi; }

test: pytest lint

pytest: $(STAMP) browser engines
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
