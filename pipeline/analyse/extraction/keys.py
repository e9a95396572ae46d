"""Grouping keys for names as written: ``dataset_key`` and ``metric_key``.

Rule (the same for both, so a user can group rows whatever the spelling):
1. Unicode NFKC, then case-folded ("ＣＩＦＡＲ" -> "cifar", "MS-COCO" -> "ms-coco").
2. A trailing head word that only says what kind of name it is is dropped: "dataset", "data set",
   "benchmark", "corpus", "split", "set" for datasets; "score", "metric", "value" for metrics
   ("MSCOCO dataset" -> "mscoco", "F1 score" -> "f1").
3. A leading "the" is dropped.
4. Every character that is not a letter or a digit is dropped (hyphens, spaces, dots, underscores,
   apostrophes): "CIFAR-10", "CIFAR10" and "cifar-10" -> "cifar10"; "MS COCO" -> "mscoco"; "F_1" -> "f1".
   ``@`` is kept in metric keys ("pass@1", "Hits@10").
5. Metric plurals of the vocabulary are made singular ("accuracies" -> "accuracy", "error rates" -> "errorrate").
An empty result (or no name) gives None.
"""

from __future__ import annotations

import re
import unicodedata

_DATASET_HEAD = re.compile(r"\s+(?:datasets?|data\s+sets?|benchmarks?|corpus|corpora|splits?|sets?)$")
_METRIC_HEAD = re.compile(r"\s+(?:scores?|metrics?|values?)$")
_PLURALS = {
    "accuracies": "accuracy",
    "rates": "rate",
    "errors": "error",
    "latencies": "latency",
    "perplexities": "perplexity",
    "speedups": "speedup",
    "rewards": "reward",
    "returns": "return",
    "margins": "margin",
    "costs": "cost",
    "slopes": "slope",
    "correlations": "correlation",
}


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def dataset_key(name: str | None) -> str | None:
    """Grouping key of a dataset name (rule in the module docstring); None for None or an empty key."""
    if not name:
        return None
    s = _DATASET_HEAD.sub("", _fold(name))
    s = re.sub(r"^the\s+", "", s)
    key = re.sub(r"[\W_]+", "", s)
    return key or None


def metric_key(name: str | None) -> str | None:
    """Grouping key of a metric name (rule in the module docstring); None for None or an empty key."""
    if not name:
        return None
    s = _fold(name)
    if " " in s:
        s = _METRIC_HEAD.sub("", s)
    s = re.sub(r"^the\s+", "", s)
    words = s.split()
    if words:
        words[-1] = _PLURALS.get(words[-1], words[-1])
    key = re.sub(r"[^\w@]+|_", "", " ".join(words))
    return key or None
