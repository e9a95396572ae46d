"""Build: duplicate clusters and stable paper ids, the published tables, and the dataset step that builds them
in batches of (venue, year) partitions.

Stage 3 of the flow; imports from earlier stages, :mod:`pipeline.release` build files and
:mod:`pipeline.runtime`. Where each rule lives: docs/design.md, "Where each rule lives".
"""
