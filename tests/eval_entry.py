"""The evaluation entry point ``bench/eval_extraction.py`` (``make eval``), loaded by path for the tests.

It lives outside the runtime package (it reads the gold scorer under ``tests/data/gold/``), so tests reach it
through this module: ``from tests.eval_entry import evaluation``.
"""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[1] / "bench" / "eval_extraction.py"


def _load():
    if "eval_extraction" in sys.modules:
        return sys.modules["eval_extraction"]
    spec = importlib.util.spec_from_file_location("eval_extraction", _PATH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["eval_extraction"] = mod
    spec.loader.exec_module(mod)
    return mod


evaluation = _load()
