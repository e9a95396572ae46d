"""Listings of ML-conference abstracts -> versioned, validated, deduplicated Parquet releases.

One package per stage, in the order data moves (a module imports only from its own stage, earlier stages and
``runtime``): ``runtime`` -> ``ingest`` -> ``analyse`` -> ``build`` -> ``card`` -> ``release`` -> ``defs`` ->
``cli``; ``definitions`` assembles the Dagster definitions. Where each rule lives, what each package decides
and where its tests are: docs/design.md, "Where each rule lives" (the one map; "Why this layout" beside it).
"""
