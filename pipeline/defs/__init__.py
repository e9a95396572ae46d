"""Dagster wiring only: assets, checks, sensor, schedule. The rules live in the modules of ``pipeline``."""
