# rankmetrics_nb tasks. The two README commands are `make example` and `make test`; both create
# the virtual environment .venv with the pinned toolchain first (requirements/constraints.txt).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup example test checks nbtest pytest docs serve-docs readme notebooks hooks bench bench-peers chromium clean

$(STAMP): settings.ini setup.py requirements/constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt pip setuptools wheel
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## the main job: evaluate the bundled example collection
example: $(STAMP)
	$(BIN)/rankmetrics example

## every check, in the order CI runs them
test: $(STAMP) chromium
	$(BIN)/python tools/check_sync.py
	$(BIN)/nbdev_test --flags peer --n_workers 2
	$(BIN)/python tools/build_docs.py
	$(BIN)/python -m pytest tests -q

checks: $(STAMP)
	$(BIN)/python tools/check_sync.py

nbtest: $(STAMP)
	$(BIN)/nbdev_test --flags peer --n_workers 2

pytest: $(STAMP)
	$(BIN)/python -m pytest tests -q

## the docs site in _docs/ (quarto when installed, else the offline renderer)
docs: $(STAMP)
	if command -v quarto >/dev/null; then $(BIN)/nbdev_docs; else $(BIN)/python tools/build_docs.py; fi

serve-docs: docs
	$(BIN)/python -m http.server 8000 --bind 127.0.0.1 --directory _docs

readme: $(STAMP)
	$(BIN)/python tools/build_readme.py

## re-execute every notebook in place (refreshes saved outputs and plots), then clean and export
notebooks: $(STAMP)
	cd nbs && for nb in [0-9]*.ipynb index.ipynb; do ../$(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; done
	$(BIN)/nbdev_clean && $(BIN)/nbdev_export && $(BIN)/python tools/build_readme.py

hooks: $(STAMP)
	$(BIN)/nbdev_install_hooks

bench: $(STAMP)
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/diversity.py
	$(BIN)/python benchmarks/compare.py
	$(BIN)/python benchmarks/inference.py
	$(BIN)/python benchmarks/scale.py
	$(BIN)/python benchmarks/rank_correlation.py
	$(BIN)/python benchmarks/short_lists.py
	$(BIN)/python benchmarks/reconcile.py
	$(BIN)/python benchmarks/ltr_batches.py

## the peers of benchmarks/ltr_batches.py in their own environment (never the project's): torch (PyPI's build brings
## CUDA libraries, about 3 GB, and runs on the CPU without a GPU), torchmetrics, JAX, Rax; the versions measured
bench-peers:
	test -x benchmarks/.peers-venv/bin/python || $(PYTHON) -m venv benchmarks/.peers-venv
	benchmarks/.peers-venv/bin/pip install --quiet torch==2.14.1 torchmetrics==1.9.0 jax==0.10.2 jaxlib==0.10.2 rax==0.4.0

## headless Chromium for the docs browser check (installed when missing and possible)
chromium:
	@bash tools/ensure_chromium.sh

clean:
	rm -rf _docs _proc build dist *.egg-info
