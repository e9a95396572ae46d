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

RULES_VERSION = "2"  # bump when outputs change (docs/execution.md)

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
#: EN_MAX_NON_ASCII of them with non-ASCII letters other than Greek and mathematical ones (symbols of
#: formulas: ``λ``, ``ϵ``, ``𝒩``; a text in Greek has no English function words), of which at least
#: EN_MIN_SHARE are these English function words (the most frequent English words of any text, e.g. the top
#: of the Brown corpus list) is ``en`` with score 1.0 without running langdetect. In French, Spanish,
#: Italian, German or Dutch prose the words of the list that are also words there ("a", "in", "on", "is",
#: "an", "as") make well under a tenth of the words; English abstracts dense in technical nouns go down to
#: a fifth (the 1st percentile of the dev corpus abstracts langdetect calls ``en``: 0.185). Measured by
#: bench/language_shortcut.py on all 58,671 dev-corpus abstracts: the rule fires on 99.2 % (95.0 % with a
#: share of 0.25, Greek letters counted as non-ASCII and no EN_DISTINCT_WORDS rule), 0 labels change
#: (langdetect says ``en`` on every one), 25 scores differ (langdetect's 0.9999x instead of 1.0); on the 100
#: gold abstracts it fires on 99, 0 labels and 0 scores change. CPU 0.16 ms per abstract with it, 3.84
#: without. The time saved is in docs/benchmarks.md ("Speed and memory").
EN_FUNCTION_WORDS = frozenset(
    "the of and to in a is for that we on with by this are as an be from our which can these it its at or "
    "has have their than".split()
)
#: ... and at least EN_MIN_DISTINCT_SHARE of the words are those of EN_DISTINCT_WORDS, function words that
#: are no words of another language written in Latin letters (Dutch prose reaches a share of 0.14 of
#: EN_FUNCTION_WORDS with "in", "is", "we", but 0 of these). On the dev corpus abstracts the share rule takes,
#: the 0.1st percentile of this share is 0.062; 4 of 58,200 are below 0.04 and are left to langdetect.
EN_DISTINCT_WORDS = frozenset("the of and that which with this these their from have has than".split())
EN_MIN_WORDS = 30
EN_MAX_NON_ASCII = 0.02
EN_MIN_SHARE = 0.20
EN_MIN_DISTINCT_SHARE = 0.04

_URL = re.compile(r"(?:https?://|ftp://|www\.)\S+|\b[\w.-]+\.(?:com|org|io|net|ai|science|edu|cc)/\S*")
_MATH = re.compile(r"\$[^$]*\$|\\[A-Za-z]+|[^\s]*[=^_{}\\][^\s]*")
#: A character every _MATH match holds: a text without one has no math token to remove.
_MATH_CHAR = re.compile(r"[$=^_{}\\]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_TOKEN = re.compile(r"[^\W\d_]+")  # a run of letters (a word character that is no digit, no underscore)
#: A character that makes a token non-ASCII for the English shortcut: not ASCII, not Greek (U+0370-U+03FF,
#: U+1F00-U+1FFF), not a mathematical alphanumeric symbol (U+1D400-U+1D7FF).
_FOREIGN_LETTER = re.compile(r"[^\x00-\x7f\u0370-\u03ff\u1f00-\u1fff\U0001d400-\U0001d7ff]")

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


def is_plainly_english(text: str, tokens: list[str] | None = None) -> bool:
    """The English shortcut: True when ``text`` (evidence text) is long, ASCII and rich in English function
    words (see EN_FUNCTION_WORDS and EN_DISTINCT_WORDS for the rule and its measurement). ``tokens``: the
    words of ``text`` when the caller has them (:func:`_evidence_tokens`), so it is not split again."""
    if tokens is None:
        tokens = _TOKEN.findall(text)
    if len(tokens) < EN_MIN_WORDS:
        return False
    # an ASCII text has no non-ASCII token; the counts run as C loops (map), not generator expressions
    non_ascii = 0 if text.isascii() else sum(map(bool, map(_FOREIGN_LETTER.search, tokens)))
    if non_ascii > EN_MAX_NON_ASCII * len(tokens):
        return False
    lower = list(map(str.lower, tokens))
    return sum(map(EN_FUNCTION_WORDS.__contains__, lower)) >= EN_MIN_SHARE * len(tokens) and sum(
        map(EN_DISTINCT_WORDS.__contains__, lower)
    ) >= EN_MIN_DISTINCT_SHARE * len(tokens)


def evidence_text(text: str) -> str:
    """The text langdetect sees: URLs, TeX/math tokens, digits and punctuation removed, spaces collapsed.

    URLs and math tokens become spaces; what remains is kept as its runs of letters joined by single spaces
    (every digit, underscore, punctuation mark or space separates two runs). Each pattern runs only on a text
    that can hold a match of it: a URL holds ``/`` or ``www.``, a math token one of ``$=^_{}\\``."""
    return " ".join(_evidence_tokens(text))


def _evidence_tokens(text: str) -> list[str]:
    """The words of :func:`evidence_text` (its runs of letters), which it joins by single spaces."""
    t = text or ""
    if "/" in t or "www." in t:
        t = _URL.sub(" ", t)
    if _MATH_CHAR.search(t):
        t = _MATH.sub(" ", t)
    return _TOKEN.findall(t)


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
    tokens = _evidence_tokens(text)
    if not tokens:
        return "und", 0.0
    stripped = " ".join(tokens)
    if stripped.isascii():
        # no Han, kana or Hangul: the CJK counts are 0, and the words of _WORD are the tokens of 2+ letters
        n_han = n_kana = 0
        n_words = len(tokens) - list(map(len, tokens)).count(1)
    else:
        n_han = len(_HAN.findall(stripped))
        n_kana = len(_KANA.findall(stripped))
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
    if is_plainly_english(stripped, tokens):
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
