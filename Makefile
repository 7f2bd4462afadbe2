# Two commands do all the set-up on a fresh Debian 12 machine:
#   make run    set up, migrate, load the demo on an empty database, serve with gunicorn on port 8000
#   make test   set up (with the test tools and the system packages the tests need), run every test
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: run test lint bench

# The Debian packages first (python3-venv makes the venv), then the locked Python packages.
$(VENV)/.installed-run: requirements/run.txt requirements/uv.txt scripts/system-packages.sh
	bash scripts/system-packages.sh run
	PYTHON=$(PYTHON) bash scripts/python-packages.sh
	touch $@

$(VENV)/.installed-test: requirements/test.txt requirements/uv.txt scripts/system-packages.sh
	bash scripts/system-packages.sh
	PYTHON=$(PYTHON) bash scripts/python-packages.sh test
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(PY) manage.py compilemessages --ignore=.venv -v 0
	$(PY) manage.py migrate --no-input -v 0
	$(PY) manage.py setup_hall --port $(PORT)
	$(PY) manage.py collectstatic --no-input -v 0
	PORT=$(PORT) $(VENV)/bin/gunicorn -c gunicorn.conf.py

test: $(VENV)/.installed-test
	bash scripts/system-packages.sh
	bash scripts/npm-packages.sh
	$(PY) manage.py compilemessages --ignore=.venv -v 0
	$(PY) -m ruff check .
	bash scripts/test.sh

lint: $(VENV)/.installed-test
	$(PY) -m ruff check .

bench: $(VENV)/.installed-test
	$(PY) bench/seating.py
	$(PY) bench/seating_replan.py
	$(PY) bench/seating_baseline.py
	$(PY) bench/pdf.py
	$(PY) bench/load.py
