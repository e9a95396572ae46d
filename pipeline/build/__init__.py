"""Build: the table rules only, duplicate clusters and stable paper ids, and the published tables from
per-listing rows (pure functions of rows). The dataset step that runs them in batches of (venue, year)
partitions and writes the run's build files is :mod:`pipeline.release.dataset`.

Stage 3 of the flow; imports from earlier stages and :mod:`pipeline.runtime` only. Where each rule lives:
docs/design.md, "Where each rule lives" ("Why this layout" says why the dataset step is in release/).
"""
