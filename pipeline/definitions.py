"""The code location: assembles assets, checks, jobs, sensors, schedule and executor (nothing else lives
here).

The executor applies to runs launched by ``dagster dev``/the daemon, ``dg launch`` and ``dagster asset
materialize``: Dagster's multiprocess executor (one process per step) with ``max_concurrent`` from
``PIPELINE_MAX_CONCURRENT`` (pipeline.runtime.config.max_concurrent_steps), or Celery workers with
``PIPELINE_EXECUTOR=celery`` (pipeline.runtime.scaleout). ``python -m pipeline run`` executes in-process and
ignores
                             it.
"""

import dagster as dg

from pipeline.defs.assets import abstracts, dataset_tables, listing_records, release_asset
from pipeline.defs.automation import (
    automation_sensor,
    daily_refresh,
    listing_job,
    main_job,
    publish_job,
    raw_listings_sensor,
)
from pipeline.defs.partitions import raw_listing
from pipeline.runtime import config, scaleout

defs = dg.Definitions(
    assets=[raw_listing, listing_records, abstracts, dataset_tables, release_asset],
    jobs=[listing_job, publish_job, main_job],
    sensors=[raw_listings_sensor, automation_sensor],
    schedules=[daily_refresh],
    executor=scaleout.executor(config.max_concurrent_steps()),
)
