"""Listings of ML-conference abstracts -> versioned, validated, deduplicated Parquet releases.

One package per stage, in the order data moves (a module imports only from its own stage, earlier stages and
``runtime``): ``runtime`` -> ``ingest`` -> ``analyse`` -> ``build`` -> ``card`` -> ``release`` -> ``defs`` ->
``cli``; ``definitions`` assembles the Dagster definitions. Where each rule lives, what each package decides
and where its tests are: docs/design.md, "Where each rule lives" (the one map; "Why this layout" beside it).
"""

import warnings

# pandera imports pyspark.pandas whenever pyspark is installed (the dev extra has it for
# tests/release/test_spark.py), and pyspark 4.x warns there about pandas 3 on every import: a warning about
# a library the pipeline never calls, printed by every process. Only that message is silenced.
warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
