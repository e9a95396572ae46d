"""URLs in an abstract: find, trim, normalise, classify (the paper_urls table; the gold labelling guidelines,
section "URLs", define the canonical form and the kinds).

Pure functions: text in, rows out. Nothing here imports Dagster.

Recipe (measurements showed that urlextract/linkify keep
trailing punctuation, merge ``a/b,https://c/d`` and treat ``train.py`` as a URL, so a strict regex is used):

1. Read the RAW text (``abstract_raw``): LaTeX conversion would turn ``~`` into a space and cut at ``%``.
2. Targets of ``\\url{…}``, ``\\href{url}{text}`` and markdown ``[text](url)`` first; their spans are then
   skipped by the bare-URL scan.
3. Bare URLs need a scheme or ``www.``; schemeless matches are allowed only for an allow-list of well-known
   hosts (:data:`BARE_HOSTS`), so file names such as ``train.py``/``README.md`` never match.
   ``arXiv:<id>`` and ``doi:<doi>`` identifiers become arxiv.org / doi.org URLs.
4. A URL broken over two lines is joined only when the first part is structurally incomplete (ends in ``-``
   or ``_``, or is ``<code host>/<owner>/`` or ``…/r/``) AND the next line's first token looks like a path
   part (lowercase/digit start, or contains ``-``/``_``/digits); ``https://example.org/\\nWe`` is not joined.
5. The tail is trimmed: sentence punctuation ``.,;:!?``, quotes, ``*``, ``…``, superscript footnote marks
   and closing brackets that are unbalanced inside the URL (``wiki/Foo_(bar)`` keeps its ``)``).
   Zero-width characters and soft hyphens inside a URL are dropped; ``,http`` splits two URLs.
6. Normalised with ``url_normalize`` (lower-case scheme/host, IDNA, default ports, ``https://`` for
   schemeless input) plus per-host rules (:func:`normalize_url`).
7. Classified by host (:func:`host_kind`), then the words that introduce the URL in its sentence or its
   link text may override the host (:func:`classify`): GUIDELINES "the sentence wins".
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from url_normalize import url_normalize

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.rows import UrlRow

RULES_VERSION = "4"  # bump when outputs change (docs/execution.md)

#: Keys of every row returned by :func:`extract_urls`, in column order.
URL_FIELDS = ("url", "url_raw", "kind", "host", "repo", "start", "end")

#: Allowed values of ``kind`` (schemas/models.py).
URL_KINDS = ("code", "anonymous_code", "project_page", "dataset", "model", "demo", "paper", "other")

# Zero-width characters and the soft hyphen: invisible, may sit inside a URL in the raw text.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]")
# Characters that may appear in a URL as written in an abstract.  Excluded: whitespace, quotes (ASCII and
# typographic: they never appear raw in URLs), braces (LaTeX), backslash, angle brackets, pipe, caret, backtick.
_UCH = r"[^\s<>\"'{}|\\^`“”‘’«»]"
_UCH_NOCOMMA_HTTP = rf"(?:(?!,https?://){_UCH})"

#: Hosts accepted without a scheme (vocabulary table).
BARE_HOSTS = V.BARE_HOSTS

_LATEX_URL = re.compile(r"\\url\{([^{}\s]+)\}")
_LATEX_HREF = re.compile(r"\\href\{([^{}\s]+)\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_MD_LINK = re.compile(r"\[([^\[\]\n]{0,200})\]\((\s*(?:https?://|www\.)[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\)")
# A scheme may be glued to the word before it ("athttps://github.com/x/y", "Code:https://..."): only the
# schemeless forms need a word boundary before them.
_BARE = re.compile(
    rf"(?:(?<![@.\-/+])(?:https?|ftp)://{_UCH_NOCOMMA_HTTP}+|(?<![\w@.\-/])www\.[a-z0-9-]+\.{_UCH_NOCOMMA_HTTP}+"
    rf"|(?<![\w@.\-/])(?:{'|'.join(BARE_HOSTS)})(?:/{_UCH_NOCOMMA_HTTP}*)?(?![\w.-]*\w))",
    re.IGNORECASE,
)
#: Domain endings of :data:`BARE_HOSTS` (a cheap test before the bare-URL scan).
_BARE_DOMAINS = (".com", ".org", ".io", ".co", ".science", ".net")
_ARXIV_ID = re.compile(r"(?<![\w/])arXiv:\s?(\d{4}\.\d{4,5})(v\d+)?", re.IGNORECASE)
# Crossref's DOI pattern /^10.\d{4,9}/[-._;()/:A-Z0-9]+$/i with a "doi:" prefix.
_DOI_ID = re.compile(r"(?<![\w/])doi:\s?(10\.\d{4,9}/[-._;()/:A-Za-z0-9]+)", re.IGNORECASE)

_TRAIL = ".,;:!?'\"*…>" + _INVISIBLE
_SUPERSCRIPT = "¹²³⁴⁵⁶⁷⁸⁹⁰"
_PAIRS = {")": "(", "]": "[", "}": "{"}


def _trim(url: str) -> str:
    """Strip trailing punctuation, unbalanced closing brackets and footnote marks.

    Never strips trailing ASCII digits (``…/b1`` is ambiguous).
    """
    while url:
        ch = url[-1]
        if ch in _TRAIL or ch in _SUPERSCRIPT:
            url = url[:-1]
        elif ch in _PAIRS and url.count(_PAIRS[ch]) < url.count(ch):
            url = url[:-1]
        else:
            break
    return url


_JOIN_NEXT = re.compile(rf"{_UCH_NOCOMMA_HTTP}+")
_CODE_OWNER = re.compile(
    r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|huggingface\.co)/[\w.-]+/$", re.I
)


#: A scheme and a host that ends in a dot, no path yet ("https://github."), and what may follow it after a
#: space: the rest of the host up to a common top-level domain, and the path ("com/tonghe90/textspotter",
#: "toronto.edu/~x").
_HOST_CUT = re.compile(r"://[\w.-]+\.$")
_TLD_NEXT = re.compile(
    rf"(?:[\w-]+\.)*(?i:com|org|net|io|edu|ai|dev|gov|info|co)(?:/{_UCH_NOCOMMA_HTTP}*)?(?![\w-])"
)

#: Words after "<code host>/<owner>/ " that continue the sentence, not the URL.
_NOT_A_REPO = re.compile(r"(?i)and|or|for|which|that|with|to|in|on|the|is|are|as|by|we|our|at|from|where")


def _continues(prefix: str, nxt: str) -> bool:
    """Whether ``prefix`` (a URL ending a line) continues with ``nxt`` (first token of the next line).

    Joined when the prefix is structurally incomplete (ends in ``-``/``_``, is ``<code host>/<owner>/`` or
    ``…/r/``) and the next token looks like a path part (lower-case or digit start, or ``-``/``_``/digits/
    camelCase inside), or when the prefix ends in ``/`` and the next token is unmistakably a path (it holds
    ``/``, ``-``, ``_``, ``.``, a digit or camelCase); ``https://example.org/\nWe`` and ``…/\nand`` stay apart.
    """
    if not nxt:
        return False
    incomplete = prefix.endswith(("-", "_")) or bool(_CODE_OWNER.search(prefix)) or prefix.endswith("/r/")
    if incomplete:
        return nxt[0].islower() or nxt[0].isdigit() or bool(re.search(r"[-_0-9]|[a-z][A-Z]", nxt))
    if prefix.endswith("/") and prefix.count("/") >= 3:
        return bool(re.match(r"[\w~]", nxt)) and bool(
            re.search(r"[/\-_.0-9]|[a-z][A-Z]", nxt.rstrip(".,;:)"))
        )
    return False


_UTM = re.compile(r"^(utm_\w+|fbclid|gclid)$", re.I)
_ARXIV_PATH = re.compile(
    r"^/(?:abs|pdf|html)/(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?$", re.I
)
#: A fragment kept in the canonical URL: it names a place on the page (letters first, or a "/" route).
_NAMED_FRAGMENT = re.compile(r"^/?[A-Za-z][\w\-./]*$")
_WWW_ALIAS = {"github.com", "gitlab.com", "huggingface.co", "arxiv.org", "bitbucket.org", "codeberg.org"}


def normalize_url(url: str) -> str:
    """Canonical form of one URL (str -> str; raises nothing for odd input, returns it best-effort).

    ``url_normalize`` first (lower-case scheme and host, IDNA, ``https://`` for schemeless input, ``%7E``→``~``),
    then: a fragment that names an anchor or a route of the page (``#FoldingNet``, ``#datasets``, ``#/Home``:
    :data:`_NAMED_FRAGMENT`) kept and any other (``#.YtwoS3ZBxD8`` share-tracking hashes, an empty ``#``)
    dropped (gold GUIDELINES "Canonical form" keeps the URL as given), ``utm_*``/click-id parameters dropped, trailing ``/`` and ``.git`` dropped, ``www.``
    dropped only for hosts known to alias it (:data:`_WWW_ALIAS`), arXiv ``abs|pdf|html`` → ``https://arxiv.org/abs/<id>`` without version (U18),
    ``dx.doi.org`` → ``doi.org`` and the DOI lower-cased (DOI names are case-insensitive; U19).
    The scheme is kept as written (GUIDELINES: "http stays http"). No other part of the path is dropped: a
    link to a repository's issues page, a file or a branch stays that link (its repository is :func:`repo_of`).
    """
    try:
        u = url_normalize(url) or url  # None only for an empty url
        parts = urlsplit(u)
    except Exception:  # noqa: BLE001 - malformed input: keep it as written
        return url
    scheme, host, path, query = parts.scheme, parts.netloc.lower(), parts.path, parts.query
    if host.startswith("www.") and host[4:] in _WWW_ALIAS:
        host = host[4:]
    if query:
        query = urlencode([(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if not _UTM.match(k)])
    path = path.rstrip("/")
    if path.lower().endswith(".git"):
        path = path[:-4]
    if host in ("hf.co",):
        host = "huggingface.co"
    if host.endswith("arxiv.org"):
        m = _ARXIV_PATH.match(path)
        if m:
            host, path, query = "arxiv.org", f"/abs/{m[1]}", ""
    elif host in ("dx.doi.org", "doi.org"):
        host, path = "doi.org", path.lower()
    fragment = parts.fragment if _NAMED_FRAGMENT.match(parts.fragment) else ""
    return urlunsplit((scheme, host, path, query, fragment))


_GIT_RESERVED = set(V.GIT_RESERVED)
_DATASET_HOSTS = V.DATASET_HOSTS
_PAPER_HOSTS = V.PAPER_HOSTS


def repo_of(url: str) -> str | None:
    """The repository a normalised URL belongs to, or None: ``https://<git host>/<owner>/<repo>`` for any
    link inside a git repository (issues, a file, a branch), ``https://huggingface.co/[datasets/|spaces/]
    <owner>/<name>`` for a Hugging Face repository, ``https://anonymous.4open.science/r/<id>``."""
    parts = urlsplit(url)
    host = parts.netloc.lower()
    segs = [x for x in parts.path.split("/") if x]
    if (
        host in V.GIT_HOSTS
        and len(segs) >= 2
        and segs[0].lower() not in _GIT_RESERVED
        and host != "gist.github.com"
    ):
        return f"https://{host}/{segs[0]}/{segs[1].removesuffix('.git')}"
    if host == "huggingface.co" and segs:
        head = 1 if segs[0] in ("datasets", "spaces") else 0
        if len(segs) >= head + 2 and segs[0] not in ("papers", "docs", "blog"):
            return "https://huggingface.co/" + "/".join(segs[: head + 2])
    if host == "anonymous.4open.science" and len(segs) >= 2 and segs[0] == "r":
        return f"https://{host}/r/{segs[1]}"
    return None


def host_kind(host: str, path: str) -> str:
    """Kind implied by the host and path alone (a host taxonomy mapped onto the 8 kinds of :data:`URL_KINDS`).

    The notes' ``code_owner`` (a git host with one path segment) maps to ``code``, ``code_anonymous`` to
    ``anonymous_code``, ``shortener``/``video`` to ``other``: the table allows only :data:`URL_KINDS`.
    """
    segs = [s for s in path.split("/") if s]
    if host.startswith("anonymous.") or host.startswith("anon-") or host.startswith("anonymous-"):
        if segs[:1] == ["w"]:
            return "project_page"  # anonymous.4open.science/w/… is the anonymised web page
        return "anonymous_code"
    if host in ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gist.github.com"):
        if segs and segs[0].lower() in _GIT_RESERVED:
            return "other"
        return "code" if segs else "other"
    if host.endswith(V.PAGE_HOST_SUFFIXES) or host == "sites.google.com":
        return "project_page"
    if host == "huggingface.co":
        if not segs:
            return "other"
        head = segs[0].lower()
        if head == "datasets":
            return "dataset"
        if head == "spaces":
            return "demo"
        if head == "papers":
            return "paper"
        return "model" if len(segs) >= 2 else "other"
    if (
        host in _DATASET_HOSTS
        or host.startswith("dataverse.")
        or (host.endswith("kaggle.com") and segs[:1] == ["datasets"])
    ):
        return "dataset"
    if host in V.DEMO_HOSTS:
        return "demo"
    if host in _PAPER_HOSTS or host.endswith(".arxiv.org"):
        return "paper"
    return "other"


# Cue words that name what a link points to (GUIDELINES: "a page that the abstract calls a dataset/benchmark",
# "a page called demo"; "the sentence wins").
_CUES = {kind: V.words(table) for kind, table in V.URL_CUES.items()}
_SENT_START = re.compile(r"(?:[.!?;]\s|\n\s*\n|https?://\S+\s)")


def _cue_context(raw: str, start: int) -> str:
    """The words introducing the URL: from the start of its sentence (or the previous URL) to ``start``."""
    lo = max(0, start - 200)
    window = raw[lo:start]
    cut = 0
    for m in _SENT_START.finditer(window):
        cut = m.end()
    return window[cut:]


def classify(host: str, path: str, context: str, link_text: str = "") -> str:
    """Kind of a URL: host rule, overridden by what the text calls it.

    ``context`` is the sentence text before the URL, ``link_text`` the text of an ``\\href``/markdown link.
    Rules (GUIDELINES "URLs"; a mixed sentence such as "code and benchmark" -> the host decides):
    - called a project/web page or website -> project_page;
    - called only data/dataset/benchmark -> dataset (a host of code that holds a data set);
    - called only a demo -> demo;
    - called only code (or "GitHub") while the host says project_page/other -> code;
    - otherwise (nothing said, or a mix such as "code and demo") -> the host's kind.
    """
    kind = host_kind(host, path)
    said = link_text + " " + context
    hits = {k for k, rx in _CUES.items() if rx.search(said)}
    if "project_page" in hits:
        return "project_page"
    if kind in ("paper",):
        return kind
    nouns = hits - {"project_page"}
    if nouns == {"dataset"}:
        return "dataset"
    if nouns == {"demo"}:
        return "demo"
    if nouns == {"model"} and kind == "other":
        return "model"
    if kind == "other" and nouns - {"other_noun"}:
        # a host with no rule of its own: the first thing the sentence names decides ("The code and data are
        # publicly accessible at <dropbox link>" -> code)
        first = min(
            (m.start(), k)
            for k, rx in _CUES.items()
            if k in nouns and k != "other_noun" and (m := rx.search(said))
        )
        return first[1]
    if nouns == {"code"} and kind in ("project_page", "other"):
        return "code"
    return kind


_SUBJECT = re.compile(
    r"^\s*(?:The\s+|Our\s+)?(?P<name>[A-Z][\w-]*[A-Z0-9][\w-]*|[A-Z][a-z]+[A-Z][\w-]*)\s+"
    r"(?:\w+\s+){0,3}?(?:is|are|has been|have been|will be)\s+(?:\w+\s+){0,2}?"
    r"(?:available|released|open-sourced|hosted|accessible|public)"
)
_RESOURCE_NOUNS = {
    "dataset": "dataset",
    "datasets": "dataset",
    "benchmark": "dataset",
    "corpus": "dataset",
    "library": "code",
    "toolkit": "code",
    "toolbox": "code",
    "framework": "code",
    "package": "code",
    "model": "model",
}


def named_resource_kind(raw: str, context: str) -> str | None:
    """Kind of a URL whose sentence is about a named resource ("MRS is publicly available at URL") that the
    abstract calls a dataset/benchmark/library/model elsewhere ("we present MRS, a multilingual reply
    suggestion dataset", "GADBench---a benchmark tool"): the first such noun of its appositive, else None."""
    m = _SUBJECT.match(context)
    if not m:
        return None
    name = re.escape(m["name"])
    am = re.search(
        rf"\b{name}\b(?:\s*(?:,|---|—|--|:|\()\s*|\s+(?:is|as)\s+)(?:a|an|the)\s+((?:[\w-]+\s+){{0,6}}?"
        rf"(?:{'|'.join(_RESOURCE_NOUNS)}))\b",
        raw,
    )
    return _RESOURCE_NOUNS[am[1].split()[-1].lower()] if am else None


def _url_key(url: str) -> str:
    """Comparison key (same rules as the gold scorer: no scheme, no ``www.``, case-insensitive code hosts)."""
    u = re.sub(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", "", url)
    host, _, rest = u.partition("/")
    host = host.lower().removeprefix("www.")
    path = ("/" + rest).rstrip("/") if rest else ""
    if host in ("github.com", "gitlab.com", "huggingface.co", "doi.org"):
        path = path.lower()
    return host + path


def extract_urls(raw: str) -> list[UrlRow]:
    """Return one row per distinct URL in ``raw`` (the abstract as in the file; lines joined with ``\\n``).

    Row keys :data:`URL_FIELDS`:
    ``url`` (str, canonical, see :func:`normalize_url`), ``url_raw`` (str, the URL text as written, after
    trimming, invisible characters kept), ``kind`` (one of :data:`URL_KINDS`), ``host`` (str, lower-case, no
    ``www.`` for aliasing hosts), ``repo`` (str or None, :func:`repo_of`), ``start``/``end`` (int, ``raw[start:end] == url_raw``; for a URL joined
    across a line break the span covers both parts and the line break).
    Duplicates (same canonical key) keep the first occurrence. Never raises on str input; ``None`` or
    non-str input raises ``TypeError``.
    """
    if not isinstance(raw, str):
        raise TypeError(f"extract_urls expects str, got {type(raw).__name__}")
    found: list[tuple[int, int, str, str]] = []  # (start, end, target text, link text)
    taken: list[tuple[int, int]] = []
    low = raw.lower()
    _markup_links(raw, found, taken)
    _bare_urls(raw, low, found, taken)
    _identifier_urls(raw, low, found, taken)
    return _url_rows(raw, found)


def _free(taken: list[tuple[int, int]], a: int, b: int) -> bool:
    """Whether ``[a, b)`` overlaps no span taken by an earlier match."""
    return all(b <= s or a >= e for s, e in taken)


def _markup_links(raw: str, found: list[tuple[int, int, str, str]], taken: list[tuple[int, int]]) -> None:
    """LaTeX ``\\href``/``\\url`` and Markdown ``[text](url)`` targets, appended to ``found``/``taken``."""
    for rx, gi, ti in ((_LATEX_HREF, 1, 2), (_LATEX_URL, 1, None), (_MD_LINK, 2, 1)):
        if rx is _MD_LINK and "](" not in raw:
            continue
        if rx is not _MD_LINK and "\\" not in raw:
            continue
        for m in rx.finditer(raw):
            if not _free(taken, m.start(), m.end()):
                continue
            target = m[gi].strip()
            s = m.start(gi) + (len(m[gi]) - len(m[gi].lstrip()))
            found.append((s, s + len(target), target, m[ti] if ti else ""))
            taken.append((m.start(), m.end()))


def _bare_urls(
    raw: str, low: str, found: list[tuple[int, int, str, str]], taken: list[tuple[int, int]]
) -> None:
    """Web addresses written as text (a scheme, "www." or a bare host), a URL broken across one line end
    joined; appended to ``found``/``taken``."""
    # most abstracts hold no web address: skip the scan unless a scheme, "www." or a bare host's domain occurs
    bare_scan = "://" in raw or "www." in low or any(d in low for d in _BARE_DOMAINS)
    for m in _BARE.finditer(raw) if bare_scan else ():
        a, b = m.start(), m.end()
        if not _free(taken, a, b):
            continue
        # join a URL broken across one line end, or a code host's owner path cut by a space from the
        # repository ("https://github.com/YujiaBao/ Predict-then-Interpolate.", a PDF extraction's break)
        gap = ""
        if b < len(raw) and raw[b] == "\n":
            nm = _JOIN_NEXT.match(raw, b + 1)
            if nm and _continues(m[0], nm[0]):
                b = nm.end()
        elif b < len(raw) and raw[b] == " " and _CODE_OWNER.search(m[0]):
            nm = _JOIN_NEXT.match(raw, b + 1)
            if nm and not _NOT_A_REPO.fullmatch(_trim(nm[0])):
                gap, b = " ", nm.end()
        elif b < len(raw) and raw[b] == " " and _HOST_CUT.search(m[0]):
            # "https://github. com/tonghe90/textspotter": a host cut by a space after a dot, the top-level
            # domain and the path after it
            nm = _TLD_NEXT.match(raw, b + 1)
            if nm:
                gap, b = " ", nm.end()
        trimmed = _trim(raw[a:b].replace(gap, "", 1) if gap else raw[a:b])
        if trimmed:
            found.append((a, a + len(trimmed) + len(gap), trimmed, ""))
            taken.append((a, b))


def _identifier_urls(
    raw: str, low: str, found: list[tuple[int, int, str, str]], taken: list[tuple[int, int]]
) -> None:
    """ "arXiv:2101.00001" and "doi:10.x/y" identifiers as their arxiv.org / doi.org URLs."""
    for rx, fmt, marker in (
        (_ARXIV_ID, "https://arxiv.org/abs/{}", "arxiv:"),
        (_DOI_ID, "https://doi.org/{}", "doi:"),
    ):
        if marker not in low:
            continue
        for m in rx.finditer(raw):
            if not _free(taken, m.start(), m.end()):
                continue
            ident = _trim(m[1])
            found.append((m.start(), m.start(1) + len(ident), fmt.format(ident), ""))
            taken.append((m.start(), m.end()))


def _url_rows(raw: str, found: list[tuple[int, int, str, str]]) -> list[UrlRow]:
    """One row per distinct canonical URL of ``found``, in text order, first occurrence kept."""
    rows: list[UrlRow] = []
    seen: set[str] = set()
    for start, end, target, link_text in sorted(found):
        clean = _INVISIBLE_RE.sub("", target).replace("\n", "")
        clean = _trim(clean)
        if not clean or "." not in clean.split("/")[0] + clean:
            continue
        url = normalize_url(clean)
        key = _url_key(url)
        if key in seen:
            continue
        seen.add(key)
        parts = urlsplit(url)
        host = parts.netloc.lower()
        context = _cue_context(raw, start)
        kind = classify(host, parts.path, context, link_text)
        named = named_resource_kind(raw, context) if kind not in ("paper", "project_page") else None
        kind = named or kind
        rows.append(
            UrlRow(
                url=url, url_raw=raw[start:end], kind=kind, host=host, repo=repo_of(url), start=start, end=end
            )
        )
    return rows
