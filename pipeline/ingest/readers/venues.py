"""Venue and year of a listing: known venues and aliases (a table), headers, free text, file and folder names.

Resolution order (the caller, :func:`pipeline.ingest.readers.read_listing`, applies it):

1. the settings file's ``venue`` / ``year`` (pipeline.ingest.settings);
2. the file's own words: its header line(s) (``ICML 2026 论文列表``, ``NeurIPS Datasets &
   Benchmarks 2025 论文列表``,
   ``arXiv 2026 papers``) or a record's own field (``comment: Accepted to ICML 2026``, a proceedings line
   ``(Eds.): ICCV 2021, LNCS``); a later header line switches venue/year for the records after it;
3. the file name, then each folder name on its path, nearest first (``iclr2017.json``, ``cvpr19.txt``,
   ``nips_2016.txt``, ``icml2025/oral.csv``, ``ECCV/2022/list.txt``);
4. otherwise ``venue="unknown"``, ``year=0`` and a warning.

Aliases (old or informal names → canonical spelling) and two-digit years are resolved by :data:`VENUE_ALIASES`
and :func:`expand_year`. Pure functions.
"""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import PurePosixPath

#: Venue token: ASCII letters, digits, ``-`` and ``_``, so that it is a safe Hive partition value
#: (docs/design.md, "Published tables": "ASCII, never-null partition values"). A leading digit is allowed for
#: venues such as ``3DV``.
VENUE_RE = r"[A-Za-z0-9][A-Za-z0-9_\-]{0,31}"
#: A header line: venue, a year (not followed by another digit: ``ICML 2026论文列表`` is a header), then free
#: words in any script. Longer lines are prose, not headers.
HEADER_RE = re.compile(rf"^\s*(?P<venue>{VENUE_RE}?)[\s_\-]+(?P<year>\d{{4}})(?!\d)(?P<rest>.*)$")
HEADER_MAX_CHARS = 120
#: File names such as ``neurips_2024.txt`` or ``ICML-2026-extra.txt`` give venue and year when there is no
#: header.
FILENAME_RE = re.compile(rf"^(?P<venue>{VENUE_RE}?)[_\-\s](?P<year>\d{{4}})(?!\d)")
#: Years outside MIN_YEAR..(current year + 1) are not believed (NeurIPS 1987 is the oldest listing in the
#: dev corpus).
MIN_YEAR = 1980

UNKNOWN_VENUE = "unknown"
UNKNOWN_YEAR = 0

#: Known venues, canonical spelling: the 23 venues of the dev corpus plus the other main ML/CV/NLP venues,
#: journals and arXiv. Matching is case-insensitive (``neurips`` -> ``NeurIPS``).
KNOWN_VENUES = {
    v.lower(): v
    for v in (
        "3DV AAAI AAMAS ACCV ACL ACML AISTATS ALT AutoML-Conf BMVC COLING COLM COLT CVPR CoLLAs CoNLL CoRL "
        "EACL ECAI ECCV ECML EMNLP ICASSP ICCV ICDM ICLR ICML ICRA IJCAI IJCNLP Interspeech IROS JMLR KDD "
        "L4DC LoG MICCAI MIDL MLSys NAACL NeurIPS RSS SDM SIGIR TMLR TPAMI UAI WACV WSDM WWW arXiv"
    ).split()
}
#: Aliases: other names of a known venue → its canonical spelling (case-insensitive keys).
VENUE_ALIASES = {
    "nips": "NeurIPS",
    "neurips-datasets": "NeurIPS",
    "the-web-conf": "WWW",
    "thewebconf": "WWW",
    "automl": "AutoML-Conf",
    "automl-conf": "AutoML-Conf",
    "arxiv.org": "arXiv",
    "corr": "arXiv",
    "mlsys-conf": "MLSys",
    "sysml": "MLSys",
    "pami": "TPAMI",
}
KNOWN_VENUES |= VENUE_ALIASES
#: Full names of known venues, as written in proceedings/booktitle/venue fields (Semantic Scholar, DBLP,
#: ACL Anthology, OpenReview exports), → canonical spelling. Matched case-insensitively as whole words, the
#: longest first; ``Findings of the ...`` is left alone (its venue is the one named after it).
VENUE_NAMES = {
    "Advances in Neural Information Processing Systems": "NeurIPS",
    "Neural Information Processing Systems": "NeurIPS",
    "Conference on Neural Information Processing Systems": "NeurIPS",
    "International Conference on Machine Learning": "ICML",
    "International Conference on Learning Representations": "ICLR",
    "Conference on Computer Vision and Pattern Recognition": "CVPR",
    "Computer Vision and Pattern Recognition": "CVPR",
    "International Conference on Computer Vision": "ICCV",
    "European Conference on Computer Vision": "ECCV",
    "Asian Conference on Computer Vision": "ACCV",
    "Winter Conference on Applications of Computer Vision": "WACV",
    "British Machine Vision Conference": "BMVC",
    "Annual Meeting of the Association for Computational Linguistics": "ACL",
    "North American Chapter of the Association for Computational Linguistics": "NAACL",
    "European Chapter of the Association for Computational Linguistics": "EACL",
    "Empirical Methods in Natural Language Processing": "EMNLP",
    "International Conference on Computational Linguistics": "COLING",
    "Conference on Computational Natural Language Learning": "CoNLL",
    "AAAI Conference on Artificial Intelligence": "AAAI",
    "International Joint Conference on Artificial Intelligence": "IJCAI",
    "International Conference on Artificial Intelligence and Statistics": "AISTATS",
    "Conference on Uncertainty in Artificial Intelligence": "UAI",
    "Uncertainty in Artificial Intelligence": "UAI",
    "Conference on Learning Theory": "COLT",
    "Algorithmic Learning Theory": "ALT",
    "Conference on Robot Learning": "CoRL",
    "Conference on Language Modeling": "COLM",
    "Knowledge Discovery and Data Mining": "KDD",
    "International Conference on Robotics and Automation": "ICRA",
    "International Conference on Intelligent Robots and Systems": "IROS",
    "Robotics: Science and Systems": "RSS",
    "Transactions on Machine Learning Research": "TMLR",
    "Journal of Machine Learning Research": "JMLR",
    "Transactions on Pattern Analysis and Machine Intelligence": "TPAMI",
    "Medical Image Computing and Computer Assisted Intervention": "MICCAI",
    "Medical Image Computing and Computer-Assisted Intervention": "MICCAI",
    "International Conference on Acoustics, Speech and Signal Processing": "ICASSP",
    "International Conference on 3D Vision": "3DV",
    "Conference on Machine Learning and Systems": "MLSys",
    "Learning on Graphs Conference": "LoG",
    "Conference on Lifelong Learning Agents": "CoLLAs",
    "Learning for Dynamics and Control": "L4DC",
    "International Conference on Autonomous Agents and Multiagent Systems": "AAMAS",
    "The Web Conference": "WWW",
    "Web Search and Data Mining": "WSDM",
    "Research and Development in Information Retrieval": "SIGIR",
}
_NAMES = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in sorted(VENUE_NAMES, key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)
_NAME_KEY = {re.sub(r"\s+", " ", n.lower()): v for n, v in VENUE_NAMES.items()}
#: Venue names that are also ordinary lower-case words; in free text they count only as written in capitals
#: (``ALT 2024``, not ``alt``) or glued to a year (``log2023``).
_COMMON_WORDS = {"alt", "log", "www", "rss", "acl", "sdm"}
#: A word of a header or a path component: letters/digits/-/_ runs (``NeurIPS``, ``cvpr19``, ``2022``).
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-_.'’]*[A-Za-z0-9]|[A-Za-z0-9]")
#: A known venue glued to a 4- or 2-digit year (``iclr2017``, ``cvpr19``, ``NeurIPS-2023``, ``nips_2016``).
_GLUED = re.compile(r"^(?P<venue>[A-Za-z][A-Za-z0-9\-]*?[A-Za-z])[\-_.'’]?(?P<year>\d{4}|\d{2})$")
_YEAR4 = re.compile(r"^(?:19[89]\d|20\d\d)$")
#: Words a header may carry besides venue and year without being prose (``Datasets &
#: Benchmarks``, ``论文列表``).
_HEADER_MAX_WORDS = 10


def abbreviate_names(text: str) -> str:
    """``text`` with every full venue name of :data:`VENUE_NAMES` replaced by its canonical spelling
    (``Advances in Neural Information Processing Systems 35`` → ``NeurIPS 35``)."""
    return _NAMES.sub(lambda m: _NAME_KEY[re.sub(r"\s+", " ", m[0].lower())], text)


def venue_named(text: str | None) -> str | None:
    """The canonical venue of a field that is a venue name without a year (``NeurIPS``, ``Neural Information
    Processing Systems``, ``Proceedings of the AAAI Conference on Artificial Intelligence``), else ``None``:
    the first known venue token after the full names are abbreviated (common-word venues only in capitals)."""
    if not text:
        return None
    for tok in _TOKEN.findall(abbreviate_names(text)):
        venue = canonical_venue(tok)
        if venue is not None and not (tok.lower() in _COMMON_WORDS and not tok.isupper()):
            return venue
    return None


def canonical_venue(token: str) -> str | None:
    """Canonical spelling of a known venue or alias (case-insensitive, ``nips`` -> ``NeurIPS``), else
    ``None``."""
    return KNOWN_VENUES.get(token.strip().lower())


def expand_year(text: str, today: _dt.date | None = None) -> int:
    """A year as written: 4 digits as is; 2 digits ``yy`` → 20yy when 20yy <= next year, else 19yy
    (``cvpr19`` → 2019, ``nips98`` → 1998)."""
    y = int(text)
    if len(text) == 4:
        return y
    limit = (today or _dt.date.today()).year + 1
    return 2000 + y if 2000 + y <= limit else 1900 + y


def parse_header(line: str) -> tuple[str, int] | None:
    """``(venue, year)`` when ``line`` is a listing header such as ``ICML 2026 论文列表``, else ``None``.

    A header is at most HEADER_MAX_CHARS characters and does not end like a sentence of prose (``.`` after
    more than five words). Either it starts with a venue token and a 4-digit year (the venue may be unknown;
    it is returned as written, see :func:`canonical_venue`), or it starts with a known venue and names a
    4-digit year within its first _HEADER_MAX_WORDS words (``NeurIPS Datasets & Benchmarks
    2025 论文列表``). The year is not range-checked here.
    """
    stripped = line.strip().lstrip("\ufeff")
    if not stripped or len(stripped) > HEADER_MAX_CHARS:
        return None
    if stripped.endswith(".") and len(stripped.split()) > 5:
        return None
    m = HEADER_RE.match(stripped)
    if m and m["venue"]:
        return m["venue"], int(m["year"])
    words = stripped.split()
    if not words or canonical_venue(words[0]) is None or len(words) > _HEADER_MAX_WORDS:
        return None
    year = next((int(y) for w in words[1:] for y in re.findall(r"(?<!\d)(\d{4})(?!\d)", w)), None)
    return (words[0], year) if year is not None and _YEAR4.match(str(year)) else None


def venue_year_in_text(text: str, today: _dt.date | None = None) -> tuple[str, int] | None:
    """``(canonical venue, year)`` named in free text such as ``Accepted to ICML 2026``, ``(Eds.): ICCV 2021,
    LNCS`` or ``NeurIPS 2023 (Spotlight)``, else ``None``.

    A known venue (or alias) followed within three words by a 4-digit year, or glued to a 2/4-digit year
    (``CVPR'19``, ``iclr2017``). Venues that are also common words (_COMMON_WORDS) count only in capitals.
    The first such pair in the text wins. Full venue names (:data:`VENUE_NAMES`) count as their canonical
    spelling."""
    tokens = _TOKEN.findall(abbreviate_names(text))
    for i, tok in enumerate(tokens):
        glued = _GLUED.match(tok)
        if (
            glued
            and (venue := canonical_venue(glued["venue"]))
            and (len(glued["year"]) == 2 or _YEAR4.match(glued["year"]))
            and not (glued["venue"].lower() in _COMMON_WORDS and glued["venue"].islower())
        ):
            return venue, expand_year(glued["year"], today)
        venue = canonical_venue(tok)
        if venue is None or (tok.lower() in _COMMON_WORDS and not tok.isupper()):
            continue
        for nxt in tokens[i + 1 : i + 4]:
            if _YEAR4.match(nxt):
                return venue, int(nxt)
    return None


def venue_year_from_path(
    name: str, today: _dt.date | None = None
) -> tuple[str | None, int | None, str | None]:
    """Venue and year from the file name and the folder names of ``name`` (POSIX path), nearest first.

    Returns ``(venue, year, where)``: the canonical venue of the nearest component naming a known venue
    (``nips_2016.txt``, ``iclr2017.json``, ``cvpr19.txt``, folder ``icml2025/`` or ``ECCV/``), the year glued
    to it or else the nearest 4-digit year component (``ECCV/2022/list.txt``), each ``None`` when no component
    says; ``where`` names the component(s) used, for the run log.
    """
    parts = list(PurePosixPath(name).parts)
    if not parts:
        return None, None, None
    stem = parts[-1]
    while "." in stem and not stem.startswith("."):
        stem, ext = stem.rsplit(".", 1)
        if not ext.isalpha() and ext != "gz":
            stem = f"{stem}.{ext}"
            break
    components = [stem, *reversed(parts[:-1])]
    venue = year = where_v = where_y = None
    for comp in components:
        tokens = re.split(r"[\s_\-.,()\[\]]+", comp)
        for tok in tokens:
            if not tok:
                continue
            glued = _GLUED.match(tok)
            if venue is None and glued and (v := canonical_venue(glued["venue"])):
                if len(glued["year"]) == 2 or _YEAR4.match(glued["year"]):
                    venue, where_v = v, comp
                    if year is None:
                        year, where_y = expand_year(glued["year"], today), comp
                    continue
            if (
                venue is None
                and (v := canonical_venue(tok))
                and not (tok.lower() in _COMMON_WORDS and not tok.isupper())
            ):
                venue, where_v = v, comp
            elif year is None and _YEAR4.match(tok):
                year, where_y = int(tok), comp
        if venue is not None and year is not None:
            break
    where = None
    if venue is not None or year is not None:
        where = " and ".join(dict.fromkeys(w for w in (where_v, where_y) if w))
    return venue, year, where


def venue_year_from_filename(name: str) -> tuple[str, int] | None:
    """``(venue, year)`` from a ``<venue>_<year>`` file name (venue as written), else ``None``."""
    m = FILENAME_RE.match(PurePosixPath(name).name)
    if not m or not m["venue"]:
        return None
    return m["venue"], int(m["year"])


def plausible_year(year: int, today: _dt.date | None = None) -> bool:
    """``MIN_YEAR <= year <= next year``."""
    return MIN_YEAR <= year <= (today or _dt.date.today()).year + 1
