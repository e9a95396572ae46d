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
        "L4DC LoG MICCAI MIDL MLSys NAACL NeurIPS RSS SDM SIGIR TMLR TPAMI UAI WACV WSDM WWW arXiv "
        # ACL Anthology venues (its venue ids, https://aclanthology.org/venues/): the series of the old id
        # letters (ACL_ID_LETTERS) and the main ACL conferences that have their own id since 2020
        "AACL ANLP HLT INLG LREC SemEval SIGDIAL TACL"
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
    "semeval": "SemEval",
    "sigdial": "SIGDIAL",
    "lrec-coling": "LREC",
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
    # ACL Anthology booktitles (acl-org/acl-anthology data/xml: ``<meta><booktitle>``); the CoNLL 2019 shared
    # task volume (K19-2) writes the conference's name without "Computational"
    "Conference on Natural Language Learning": "CoNLL",
    "Asia-Pacific Chapter of the Association for Computational Linguistics": "AACL",
    "International Conference on Natural Language Generation": "INLG",
    "International Natural Language Generation Conference": "INLG",
    "Special Interest Group on Discourse and Dialogue": "SIGDIAL",
    "Language Resources and Evaluation Conference": "LREC",
    "International Conference on Language Resources and Evaluation": "LREC",
    "Transactions of the Association for Computational Linguistics": "TACL",
    "International Workshop on Semantic Evaluation": "SemEval",
}
#: ACL Anthology collection ids (acl-org/acl-anthology ``hugo/content/info/ids.md``, "Anthology Identifiers"):
#: since 2020 ``YEAR.VENUE`` (``2021.eacl``: the venue id is the venue's acronym, lower case); before, one
#: letter per venue series and a two-digit year (``K19``: CoNLL 2019; ``P`` was for ACL). ``W`` (workshops)
#: names no one venue: only its year is taken.
ACL_ID_LETTERS = {
    "A": "ANLP",
    "C": "COLING",
    "D": "EMNLP",
    "E": "EACL",
    "H": "HLT",
    "I": "IJCNLP",
    "J": "CL",
    "K": "CoNLL",
    "L": "LREC",
    "N": "NAACL",
    "P": "ACL",
    "Q": "TACL",
    "S": "SemEval",
}
_ACL_NEW_ID = re.compile(r"^(?P<year>(?:19|20)\d\d)\.(?P<venue>[a-z][a-z0-9]*)(?:-[a-z0-9]+)*$")
_ACL_OLD_ID = re.compile(r"^(?P<letter>[A-Z])(?P<year>\d\d)$")
#: Words of file/folder names, headers and venue fields that are not venue acronyms even next to a year
#: (``papers2021/``, ``data_2020``, ``June 2021``, ``conference: main``): the words of the shared listings'
#: paths and of Mini-Conf/papercopilot/ACL repository layouts, months and seasons.
NOT_ACRONYMS = frozenset(
    (
        # what venue/comment fields hold when they name no venue
        "preprint none null nan na tba tbd other others unknown submitted review rejected withdrawn "
        "published journal press forthcoming yes no true false "
        # words of data folders and files
        "summary summaries overview report reports stats analysis collection corpus info metadata meta "
        "sample samples subset top best selected awesome readme misc scrape scraped crawl crawled ids json "
        "csv txt tsv xml yaml yml md bib html src docs doc assets public private local temp cache build dist "
        "out input inputs snapshot latest current history chunk shard split train dev val valid eval "
        "benchmark bench "
        "abstract abstracts accept accepted all archive backup batch blog camera conf conference "
        "content copy data dataset day demo demos draft dump export extra file files final findings "
        "full index issue list lists listing listings main new notes old oral output page pages paper "
        "papers part post posts poster program proceedings raw ready release results schedule session "
        "short site sitedata spotlight static talk talks test tmp track tutorial tutorials update "
        "upload version vol volume web website workshop workshops year "
        "jan january feb february mar march apr april may jun june jul july aug august sep sept "
        "september oct october nov november dec december spring summer fall autumn winter "
    ).split()
)
_ACRONYM = re.compile(r"^[A-Za-z]{2,12}$")
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


def _path_components(name: str) -> list[str]:
    """The file name without its extension (``.gz`` too), then each folder name, nearest first; dates
    (``2022-01-11``: a post's publication date, not the conference's year) removed from each."""
    parts = list(PurePosixPath(name).parts)
    if not parts:
        return []
    stem = parts[-1]
    if stem.lower().endswith(".gz"):
        stem = stem[:-3]
    head, dot, ext = stem.rpartition(".")
    if dot and head and ext.isalnum() and not ext.isdigit():
        stem = head
    return [_DATE.sub(" ", c) for c in (stem, *reversed(parts[:-1]))]


_DATE = re.compile(r"(?<!\d)(?:19|20)\d\d-[01]\d-[0-3]\d(?!\d)")
_PATH_SPLIT = re.compile(r"[\s_\-.,()\[\]]+")


def venue_year_from_path(
    name: str, today: _dt.date | None = None
) -> tuple[str | None, int | None, str | None]:
    """Venue and year from the file name and the folder names of ``name`` (POSIX path), nearest first.

    Returns ``(venue, year, where)``: the canonical venue of the nearest component naming a known venue
    (``nips_2016.txt``, ``iclr2017.json``, ``cvpr19.txt``, ``2021.eacl.xml``, folder ``icml2025/`` or
    ``ECCV/``), the year glued to it or else the nearest 4-digit year component (``ECCV/2022/list.txt``), each
    ``None`` when no component says; ``where`` names the component(s) used, for the run log. Only the last
    extension is dropped (``2021.eacl.xml`` → ``2021.eacl``), and dates (``2022-01-11-post.md``: a
    publication date) are not years. When no component names a known venue, an acronym outside the table
    glued to a year (``pldi2021/``, ``PLDI-2021``: :func:`acronym_venue`) is the venue, as written.
    """
    components = _path_components(name)
    venue = year = where_v = where_y = None
    for comp in components:
        for tok in _PATH_SPLIT.split(comp):
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
    if venue is None:
        for comp in components:
            if (found := _acronym_year(comp)) is not None:
                # the year next to the acronym is the venue's (``pldi2021/papers_2020.csv``); a joint
                # event's folder (``sigdialinlg2023/``) gives its year only
                if found[0] is not None:
                    venue, where_v = found[0], comp
                if found[0] is not None or year is None:
                    year, where_y = found[1], comp
                break
    where = None
    if venue is not None or year is not None:
        where = " and ".join(dict.fromkeys(w.strip() for w in (where_v, where_y) if w))
    return venue, year, where


def _acronym_year(comp: str) -> tuple[str | None, int] | None:
    """``(acronym, year)`` of a path component holding an acronym outside the table glued to a 4-digit year
    (``pldi2021``) or next to one (``PLDI-2021``, ``2021_pldi``); ``(None, year)`` when the glued letters
    are several known venues (``sigdialinlg2023``: :func:`several_venues`); else ``None``."""
    tokens = [t for t in _PATH_SPLIT.split(comp) if t]
    for i, tok in enumerate(tokens):
        glued = _GLUED.match(tok)
        if glued and _YEAR4.match(glued["year"]):
            if a := acronym_venue(glued["venue"]):
                return a, int(glued["year"])
            if several_venues(glued["venue"]):
                return None, int(glued["year"])
        if _YEAR4.match(tok):
            for nb in (tokens[i + 1 : i + 2] + tokens[max(0, i - 1) : i])[:2]:
                if a := acronym_venue(nb):
                    return a, int(tok)
    return None


def several_venues(token: str) -> list[str] | None:
    """The canonical venues of a token that is two or more known venues written together (``sigdialinlg`` →
    ``["SIGDIAL", "INLG"]``, a joint event's folder), each part at least 3 letters; else ``None``. Such a
    token names no single venue, so it is no acronym (:func:`acronym_venue`)."""
    low = token.strip().lower()
    best: dict[int, list[str]] = {0: []}
    for end in range(3, len(low) + 1):
        for start in sorted(best):
            if end - start >= 3 and (v := KNOWN_VENUES.get(low[start:end])) is not None:
                best.setdefault(end, best[start] + [v])
    parts = best.get(len(low))
    return parts if parts is not None and len(parts) >= 2 else None


def acronym_venue(token: str, capitals: bool = False) -> str | None:
    """A venue missing from the table as written (``pldi``, ``PLDI``, ``ClinicalNLP``) → its published
    spelling, else ``None``.

    An acronym is 2-12 ASCII letters, not a word of :data:`NOT_ACRONYMS` (``papers``, ``june``, ``preprint``)
    nor a capitalised word (``Preprint``); with ``capitals`` (a header line) it must hold at least two
    capitals. Returned in capitals when written in one case (``pldi`` → ``PLDI``), as written when its
    case is mixed inside (``ClinicalNLP``). A known venue returns its canonical spelling."""
    token = token.strip()
    if (known := canonical_venue(token)) is not None:
        return known
    if several_venues(token) is not None:
        return None  # two venues written together (``sigdialinlg``) are not one
    if not _ACRONYM.match(token) or token.lower() in NOT_ACRONYMS or token.istitle():
        return None  # a capitalised word (``Preprint``, ``Pldi``) is a word
    if capitals and sum(c.isupper() for c in token) < 2:
        return None
    mixed = any(c.isupper() for c in token[1:]) and any(c.islower() for c in token)
    return token if mixed else token.upper()


def acl_anthology_id(text: str | None, today: _dt.date | None = None) -> tuple[str | None, int] | None:
    """``(venue, year)`` of an ACL Anthology collection or volume id (:data:`ACL_ID_LETTERS`): ``2021.eacl``
    → ``("EACL", 2021)``, ``2021.eacl-main`` too, ``K19`` → ``("CoNLL", 2019)``; a workshop id (``W19``,
    ``2020.findings``) gives ``(None, year)``; anything else ``None``."""
    text = (text or "").strip()
    if m := _ACL_NEW_ID.match(text):
        token = m["venue"]
        venue = None if token.lower() in NOT_ACRONYMS or token == "ws" else acronym_venue(token)
        return venue, int(m["year"])
    if m := _ACL_OLD_ID.match(text):
        return ACL_ID_LETTERS.get(m["letter"]), expand_year(m["year"], today)
    return None


_YEAR_IN_TEXT = re.compile(r"(?<!\d)((?:19[89]|20\d)\d)(?!\d)")


def venue_year_of_text(
    text: str | None, today: _dt.date | None = None, field: bool = False
) -> tuple[str | None, int | None]:
    """Venue and year named by one text: a header line, or (``field``) a record's venue field (``booktitle``,
    ``venue``, ``conference``, ``event``). Either may be ``None``.

    In order: a header of a known venue (:func:`parse_header`); a known venue next to a year
    (:func:`venue_year_in_text`); a known venue's name or acronym without a year after it
    (:func:`venue_named`), with the text's one year if it names exactly one; an acronym outside the table
    at the start of a header (``PLDI 2021``, in capitals: :func:`acronym_venue`) or, in a field, glued to a
    year (``pldi2021``) or the field's whole value (``event: pldi``); else no venue, and the text's one year
    if it names exactly one (a year found without a venue is kept)."""
    if not text or not text.strip():
        return None, None
    parsed = parse_header(text)
    if parsed and (v := canonical_venue(parsed[0])):
        return v, parsed[1]
    if found := venue_year_in_text(text, today):
        return found
    years = set(_YEAR_IN_TEXT.findall(text))
    one_year = int(years.pop()) if len(years) == 1 else None
    if v := venue_named(text):
        return v, one_year
    if parsed and (a := acronym_venue(parsed[0], capitals=True)):
        return a, parsed[1]
    if field:
        words = _TOKEN.findall(text)
        if len(words) == 1 and (a := acronym_venue(words[0])):
            return a, one_year
        for w in words:
            glued = _GLUED.match(w)
            if glued and _YEAR4.match(glued["year"]) and (a := acronym_venue(glued["venue"])):
                return a, int(glued["year"])
    return None, one_year


def venue_year_from_filename(name: str) -> tuple[str, int] | None:
    """``(venue, year)`` from a ``<venue>_<year>`` file name (venue as written), else ``None``."""
    m = FILENAME_RE.match(PurePosixPath(name).name)
    if not m or not m["venue"]:
        return None
    return m["venue"], int(m["year"])


def plausible_year(year: int, today: _dt.date | None = None) -> bool:
    """``MIN_YEAR <= year <= next year``."""
    return MIN_YEAR <= year <= (today or _dt.date.today()).year + 1
