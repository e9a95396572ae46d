# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run   - create .venv, install the project, run the main job over raw/ into warehouse/
#   make test  - the same set-up with the dev extra, then the whole test suite
# `make` alone (or `make help`) lists every target with one line each: the `## ` comment after the target.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
# The exact versions of every package (base, dev and scaleout extras) the tests ran with; `make lock` refreshes it.
LOCK := requirements.lock
UV_VERSION := 0.13.9
export DAGSTER_HOME ?= $(CURDIR)/.dagster_home

.PHONY: help run test test-fast lint lock dev verify releases diff rollback show clean clean-releases versions-golden
.DEFAULT_GOAL := help

help: ## list the targets with one line each (the default goal)
	@awk 'BEGIN {FS = ":[^#]*## "} /^[a-zA-Z][a-zA-Z_-]*:[^=]*## / {printf "  make %-16s %s\n", $$1, $$2}' \
		$(MAKEFILE_LIST)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# -c $(LOCK): every package at its locked version (the release ids and the analysis cache depend on them)
$(VENV)/.installed: $(VENV)/bin/python pyproject.toml $(LOCK)
	$(PY) -m pip install -q -c $(LOCK) -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/bin/python pyproject.toml $(LOCK)
	$(PY) -m pip install -q -c $(LOCK) -e '.[dev]'
	touch $@ $(VENV)/.installed

# make run ALLOW_REMOVAL=1: publish even when the release removes more than half of the latest release's papers
run: $(VENV)/.installed ## the main job over raw/ into warehouse/ (ALLOW_REMOVAL=1: allow a big removal)
	$(PY) -m pipeline run $(if $(ALLOW_REMOVAL),--allow-removal)

# Every test (about 10 minutes on the 2-core machine; the scale-out tests skip without PostgreSQL/redis).
test: $(VENV)/.installed-dev ## every test, about 10 minutes (set-up with the dev extra first)
	$(PY) -m pytest

# The pure modules only: no full job, no command line, no extra processes (markers in pyproject.toml).
test-fast: $(VENV)/.installed-dev ## the pure modules only, under a minute
	$(PY) -m pytest -q -m "not slow and not integration"

# Rewrite tests/data/versions/golden.json (what each rule set outputs on fixed real inputs) after bumping a
# RULES_VERSION or upgrading a library that changes outputs; docs/execution.md "Caching and versions". ~30 s.
versions-golden: $(VENV)/.installed-dev ## rewrite tests/data/versions/golden.json after a RULES_VERSION bump
	$(PY) -m tests.versions_golden --write

# ruff lint (rules in pyproject.toml [tool.ruff]), the format check and mypy on pipeline/ and schemas/
# ([tool.mypy]; the modules its override names are not reported yet); `.ci/run` runs it before the tests.
lint: $(VENV)/.installed-dev ## ruff check, ruff format --check and mypy (what .ci/run runs first)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Re-resolve $(LOCK) after a change of pyproject.toml's dependencies: base + dev + scaleout, Python 3.11, every
# platform (uv pip compile --universal), keeping each locked version that still fits; UPGRADE=1 moves every
# package to the newest version pyproject.toml allows. Needs PyPI; commit the lock with the change.
lock: $(VENV)/bin/python ## re-resolve requirements.lock (UPGRADE=1: newest allowed versions; needs PyPI)
	$(PY) -m pip install -q uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --extra scaleout --universal --python-version 3.11 \
		--annotation-style line $(if $(UPGRADE),--upgrade) -o $(LOCK)

# The Dagster UI on 127.0.0.1 with the project-local DAGSTER_HOME (its dagster.yaml sets the publish pool limit and
# the run queue); the raw-folder sensor, the daily schedule and the automation sensor start RUNNING.
dev: $(VENV)/.installed ## the Dagster UI on 127.0.0.1:3000 with sensor, schedule and automation running
	$(PY) -c 'from pipeline.runtime.config import ensure_dagster_home; ensure_dagster_home()'
	env $$($(PY) -c 'from pipeline.runtime.config import dagster_env_defaults; print(dagster_env_defaults())') \
		$(VENV)/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p $${DAGSTER_PORT:-3000}

verify: $(VENV)/.installed ## re-check the latest release (RELEASE=N: release N) against its manifest
	$(PY) -m pipeline verify $(RELEASE)

releases: $(VENV)/.installed ## one line per release: number, created, parent, papers, changes, LATEST
	$(PY) -m pipeline releases

diff: $(VENV)/.installed ## papers added, removed and changed from release A to release B (A=1 B=2)
	$(PY) -m pipeline diff $(A) $(B)

# Under the publish lock: release N verified, then LATEST replaced atomically (docs/releases.md, "Rollback").
rollback: $(VENV)/.installed ## make release N the latest (RELEASE=N); newer releases stay
	$(PY) -m pipeline rollback $(RELEASE)

show: $(VENV)/.installed ## one paper: row, URLs, metrics, lineage, releases (PAPER=p0123456789abcdef)
	$(PY) -m pipeline show $(PAPER)

# Work files only: the per-listing work files, an unfinished publish and Dagster's instance. Releases stay.
clean: ## delete the work files and .dagster_home; releases stay
	rm -rf warehouse/_work warehouse/_staging warehouse/_trash .dagster_home

# Deletes EVERY release of the dataset (release=N folders, LATEST, releases.json) and the work files.
clean-releases: clean ## delete EVERY release and the work files
	rm -rf warehouse/release=* warehouse/LATEST warehouse/releases.json warehouse/.publish.lock

# Extraction quality: score URLs/metrics on tests/data/gold/gold_dev.jsonl through the pipeline
# (temp raw/warehouse/DAGSTER_HOME) and directly, plus fixtures and cost per abstract. docs/extraction.md, "Evaluation".
.PHONY: eval
eval: $(VENV)/.installed ## extraction quality on the gold abstracts, also through the pipeline
	$(PY) -m bench.eval_extraction

# Near-duplicate benchmark: precision/recall of the clusters on the dev corpus with injected variants,
# and the dedup step's time at 10k/20k/40k abstracts. Needs ../shared/corpus (says so when absent).
.PHONY: bench-dedup
bench-dedup: $(VENV)/.installed ## near-duplicate precision/recall and dedup time (needs ../shared/corpus)
	$(PY) -m bench.dedup.bench_dedup

# Speed and memory: the whole pipeline from an empty warehouse against the naive script, on 500-abstract
# listings built from ../shared/corpus (says so when absent), plus one added listing and a run with nothing
# changed; wall and CPU per step and per stage, the fixed cost, cores busy (docs/benchmarks.md); about 4 minutes.
# `make bench ARGS=--scale`: the 120,000- and 1,000,000-abstract builds instead (bench/scale_bench.py).
.PHONY: bench bench-language
bench: $(VENV)/.installed ## speed and memory against a naive script, about 4 min (needs ../shared/corpus)
	$(PY) -m bench.pipeline_bench $(ARGS)

# Accuracy cost of the English shortcut before langdetect on the dev corpus and the gold abstracts.
bench-language: $(VENV)/.installed ## accuracy cost of the English shortcut before langdetect
	$(PY) -m bench.language_shortcut

# How listing files would be read (reader, coverage, runner-up, records, venue/year, quarantine); writes
# nothing. make inspect FILES="raw/a.txt raw/b.csv" (docs/inputs.md).
.PHONY: inspect
inspect: $(VENV)/.installed ## how listing FILES="a b" would be read (reader, coverage, records), writing nothing
	$(PY) -m pipeline inspect $(FILES)

# Listing readers on real files: per file precision / recall / title accuracy / venue-year against the
# dev corpus or truth.jsonl, over ../shared/listings (says so when absent). docs/inputs.md.
.PHONY: eval-listings
eval-listings: $(VENV)/.installed ## the listing readers on real files (needs ../shared/listings)
	$(PY) -m bench.eval_listings $(LISTINGS)

# What the quarantine gates quarantine on the dev corpus and every shared listing (docs/gates.md);
# `make bench-gates ARGS="--base main"` also lists what changed since a revision. About 10 min (20 with --base).
.PHONY: bench-gates
bench-gates: $(VENV)/.installed ## quarantine reasons over the dev corpus and shared listings, with examples
	$(PY) -m bench.gates $(ARGS)

# Reliability trial (docs/operations.md, "Reliability"): hostile raw entries, kill -9 of runs, concurrent first runs, a full
# disk under DAGSTER_HOME (the last needs root for a small tmpfs); real processes, about 5 minutes.
# Read time against file size per reader (BibTeX 50k -> 100k entries, JSON 100k -> 200k records, markdown);
# docs/benchmarks.md "Reader scaling". Synthetic files, no corpus needed; about 1 min.
.PHONY: bench-readers
bench-readers: $(VENV)/.installed ## read time of BibTeX/JSON/markdown listings at a size and twice it, ~1 min
	$(PY) -m bench.reader_scaling $(ARGS)

.PHONY: reliability
reliability: $(VENV)/.installed ## hostile raw entries, kill -9, concurrent runs, full disk, hostile listings, faults, memory; ~15 min
	$(PY) -m bench.reliability

# Scale (docs/scale-out.md): a 120,000- and a 1,000,000-abstract build made of distinct variants of the dev
# corpus abstracts, each followed by one 500-abstract listing added; peak RSS per step, +1/full ratio against
# the targets. ARGS="--abstracts 250000": other sizes. Needs ../shared/corpus. About half an hour.
.PHONY: bench-scale
bench-scale: $(VENV)/.installed ## 120k and 1M-abstract builds, one listing added to each; about half an hour
	$(PY) -m bench.scale_bench $(ARGS)
