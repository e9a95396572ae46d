"""The executor of the code location.

It applies to runs launched by ``dagster dev``/the daemon, ``dg launch`` and ``dagster asset materialize``:
Dagster's multiprocess executor (one process per step) with ``max_concurrent`` from
``PIPELINE_MAX_CONCURRENT`` (pipeline.runtime.config.max_concurrent_steps), or Celery workers with
``PIPELINE_EXECUTOR=celery`` (pipeline.runtime.scaleout). ``python -m pipeline run`` executes in-process and
ignores it.
"""

import dagster as dg

from pipeline.runtime import config, scaleout


@dg.definitions
def executor() -> dg.Definitions:
    """The executor (pipeline.runtime.scaleout.executor), its settings read from the environment when the
    code location loads."""
    return dg.Definitions(executor=scaleout.executor(config.max_concurrent_steps()))
