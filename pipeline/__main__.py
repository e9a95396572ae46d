"""``python -m pipeline``: see pipeline.cli.

Garbage-collector settings for this short-lived batch process (measured on a +1-listing run over the 58k
dev corpus, docs/benchmarks.md "Speed and memory"): Dagster, SQLAlchemy, pandera and langdetect's profiles
leave ~300,000 long-lived tracked objects that every full collection walks again (docs/execution.md,
"Garbage collector").
A first generation of 50,000 objects instead of 700 keeps full collections out of the run; at the end the
survivors are frozen, so the interpreter's final collection skips them and the OS frees them. The tables live
in polars/Arrow buffers, not Python objects, so memory does not grow with the threshold.
"""

import gc
import sys

from pipeline.cli import main

gc.set_threshold(50_000, 20, 20)
status = main()
gc.freeze()
sys.exit(status)
