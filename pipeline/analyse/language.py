"""Language of an abstract (docs/design.md, "Language"): seeded langdetect, gated by evidence.

``detect_language(clean_text) -> (language, score)``: an ISO 639-1 code or ``"und"``, and a score in 0..1.
Never raises. Deterministic in every process: the seed is set when this module is imported (so a worker
process that imports it, forked or spawned, is seeded) and is re-asserted on every call, and langdetect
re-seeds its random generator at the start of each detection, so the answer does not depend on call order.
"""

from __future__ import annotations

import re
import threading

from langdetect import DetectorFactory
from langdetect import detector_factory as _df
from langdetect.lang_detect_exception import LangDetectException

RULES_VERSION = "1"  # bump when outputs change (docs/execution.md)

#: langdetect samples n-grams at random; with a fixed seed each text always gets the same answer
#: (Mimino666/langdetect#3). Set at import time, in every process that imports this module.
SEED = 0
DetectorFactory.seed = SEED

#: Evidence gates (measured on the dev corpus: a 4-word title comes out as ``de``, short
#: math-stripped English as ``ca``/``vi``): fewer than MIN_WORDS words of 2+ letters (after URLs, math,
#: digits are removed) and fewer than MIN_CJK Han/kana characters -> ``und``; a best probability below
#: MIN_PROBABILITY -> ``und``.
MIN_WORDS = 8
MIN_CJK = 10
MIN_PROBABILITY = 0.80
#: Han characters are ``zh`` without asking langdetect when there is no kana or Hangul (langdetect labels
#: short Chinese as ``ko``) and Han is at least HAN_SHARE of the evidence (Han chars vs. words).
HAN_SHARE = 0.5
#: langdetect reads at most this many characters of the stripped text. Measured by bench/corpus_profile.py on
#: 2,000 dev-corpus abstracts: 0 labels differ from reading the full text, and it is faster
#: (langdetect's own limit is 10,000).
MAX_CHARS = 600
#: English shortcut ("langdetect only where needed"): a text of at least EN_MIN_WORDS words, at most
#: EN_MAX_NON_ASCII of them with non-ASCII letters, of which at least EN_MIN_SHARE are these English function
#: words (the most frequent English words of any text, e.g. the top of the Brown corpus list) is ``en`` with
#: score 1.0 without running langdetect. Measured by bench/language_shortcut.py on all 58,671 dev-corpus
#: abstracts: the rule fires on 95.0 %, 0 labels change (langdetect says ``en`` on every one), 22 scores
#: differ (langdetect's 0.9999x instead of 1.0); on the 100 gold abstracts it fires on 81, 0 labels and 0
#: scores change. The time saved is in docs/benchmarks.md ("Speed and memory").
EN_FUNCTION_WORDS = frozenset(
    "the of and to in a is for that we on with by this are as an be from our which can these it its at or "
    "has have their than".split()
)
EN_MIN_WORDS = 30
EN_MAX_NON_ASCII = 0.02
EN_MIN_SHARE = 0.25

_URL = re.compile(r"(?:https?://|ftp://|www\.)\S+|\b[\w.-]+\.(?:com|org|io|net|ai|science|edu|cc)/\S*")
_MATH = re.compile(r"\$[^$]*\$|\\[A-Za-z]+|[^\s]*[=^_{}\\][^\s]*")
#: A character every _MATH match holds: a text without one has no math token to remove.
_MATH_CHAR = re.compile(r"[$=^_{}\\]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_TOKEN = re.compile(r"[^\W\d_]+")  # a run of letters (a word character that is no digit, no underscore)

_lock = threading.Lock()


def _factory():
    """langdetect's shared factory, loaded once per process, with our seed."""
    if _df._factory is None:
        with _lock:
            _df.init_factory()
    _df._factory.seed = SEED
    return _df._factory


def load_profiles() -> None:
    """Load langdetect's profiles now (once per process) rather than at the first detection
    (pipeline.analyse.abstracts.warm_up runs it in the warm helper processes)."""
    _factory()


def is_plainly_english(text: str) -> bool:
    """The English shortcut: True when ``text`` (evidence text) is long, ASCII and rich in English function
    words (see EN_FUNCTION_WORDS for the rule and its measurement)."""
    tokens = _TOKEN.findall(text)
    if len(tokens) < EN_MIN_WORDS:
        return False
    # an ASCII text has no non-ASCII token; the counts run as C loops (map), not generator expressions
    non_ascii = 0 if text.isascii() else len(tokens) - sum(map(str.isascii, tokens))
    if non_ascii > EN_MAX_NON_ASCII * len(tokens):
        return False
    return sum(map(EN_FUNCTION_WORDS.__contains__, map(str.lower, tokens))) >= EN_MIN_SHARE * len(tokens)


def evidence_text(text: str) -> str:
    """The text langdetect sees: URLs, TeX/math tokens, digits and punctuation removed, spaces collapsed.

    URLs and math tokens become spaces; what remains is kept as its runs of letters joined by single spaces
    (every digit, underscore, punctuation mark or space separates two runs). Each pattern runs only on a text
    that can hold a match of it: a URL holds ``/`` or ``www.``, a math token one of ``$=^_{}\\``."""
    t = text or ""
    if "/" in t or "www." in t:
        t = _URL.sub(" ", t)
    if _MATH_CHAR.search(t):
        t = _MATH.sub(" ", t)
    return " ".join(_TOKEN.findall(t))


def detect_language(text: str) -> tuple[str, float]:
    """Detect the language of one clean abstract; return ``(code, score)``.

    Args:
        text: the clean abstract (``cleaning.clean_text`` output); any str (``None`` is treated as "").

    Returns:
        ``(code, score)``: ``code`` is ISO 639-1 (``zh-cn``/``zh-tw`` -> ``zh``) or ``"und"``; ``score`` is
        langdetect's probability of that code rounded to 4 places, 1.0 for the Han-script rule, 0.0 for
        ``und`` without a detection, or the (too low) best probability for a low-confidence ``und``.

    Rules (docs/design.md, "Language"): on :func:`evidence_text`; fewer than MIN_WORDS words and fewer than
    MIN_CJK CJK characters -> ``und``; Han without kana/Hangul making up at least HAN_SHARE of the evidence ->
    ``zh``; otherwise seeded langdetect on the first MAX_CHARS characters, ``und`` below MIN_PROBABILITY or on
    any langdetect error. Never raises.
    """
    try:
        return _detect(text)
    except Exception:  # never an exception; langdetect errors are handled in _detect
        return "und", 0.0


def _detect(text: str) -> tuple[str, float]:
    stripped = evidence_text(text)
    if not stripped:
        return "und", 0.0
    ascii_only = stripped.isascii()  # no Han, kana or Hangul: the CJK counts are 0
    n_han = 0 if ascii_only else len(_HAN.findall(stripped))
    n_kana = 0 if ascii_only else len(_KANA.findall(stripped))
    letters = _HAN.sub(" ", stripped) if n_han else stripped
    n_words = len(_WORD.findall(_KANA.sub(" ", letters) if n_kana else letters))
    if n_han + n_kana < MIN_CJK and n_words < MIN_WORDS:
        return "und", 0.0
    if (
        n_han >= MIN_CJK
        and not n_kana
        and not _HANGUL.search(stripped)
        and n_han >= HAN_SHARE * (n_han + n_words)
    ):
        return "zh", 1.0
    if is_plainly_english(stripped):
        return "en", 1.0
    try:
        detector = _factory().create()
        detector.append(stripped[:MAX_CHARS])
        best = detector.get_probabilities()[0]
    except (LangDetectException, IndexError):
        return "und", 0.0
    if best.prob < MIN_PROBABILITY:
        return "und", round(best.prob, 4)
    return best.lang.split("-")[0], round(best.prob, 4)
