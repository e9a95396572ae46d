"""Benchmarks and evaluations of the pipeline (``make eval``, ``make bench``, ...): run each as
``python -m bench.<name>`` (or ``python bench/<name>.py``); tests import them as ``from bench import <name>``."""
