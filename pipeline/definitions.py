"""The code location: assembles assets, checks, jobs, sensor and schedule (nothing else lives here)."""

import dagster as dg

from pipeline.defs.assets import abstracts, dataset_tables, listing_records, release_asset
from pipeline.defs.automation import daily_refresh_schedule, listing_job, publish_job, raw_listings_sensor

defs = dg.Definitions(
    assets=[listing_records, abstracts, dataset_tables, release_asset],
    jobs=[listing_job, publish_job],
    sensors=[raw_listings_sensor],
    schedules=[daily_refresh_schedule],
)
