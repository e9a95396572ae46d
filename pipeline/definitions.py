"""The code location: every definition of the ``pipeline/defs/`` folder, loaded the ``dg`` way
(``dagster.load_from_defs_folder``; ``[tool.dg.project] root_module = "pipeline"`` in pyproject.toml).
Nothing else lives here.

What the folder holds: the assets (pipeline.defs.assets) and the raw listings' external asset
(pipeline.defs.partitions) as module-level objects; the jobs, sensors and the daily schedule
(pipeline.defs.automation) and the executor (pipeline.defs.executor) from ``@dg.definitions`` functions,
so the environment they read (schedule cron and time zone, executor kind and concurrency) is read when
the code location loads, not when a module is imported.

``workspace.yaml`` and ``dg`` load this module's ``defs``.
"""

from pathlib import Path

import dagster as dg

defs = dg.load_from_defs_folder(path_within_project=Path(__file__).parent)
