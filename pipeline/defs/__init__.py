"""Dagster wiring only: assets, checks, partitions, sensor, schedule, automation, work files. The rules live
in the stage packages: docs/design.md, "Where each rule lives"; operating it: docs/operations.md."""
