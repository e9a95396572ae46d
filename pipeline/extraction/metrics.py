"""Reported result metrics in an abstract (design §6, ../shared/gold/GUIDELINES.md "Metrics").

Pure functions: clean text in, rows out. Nothing here imports Dagster.

The input is the CLEAN abstract (``pipeline.cleaning.clean_abstract``): LaTeX already converted
(``$\\times$``→×, ``\\%``→%, ``$-0.38$``→-0.38), whitespace collapsed. Offsets index that clean text, so the
sentence a row came from is :func:`pipeline.extraction.text.sentence_of(text, start, end)`.

Why rules and regexes, not a library: ../shared/notes/extraction.md §1.2 measured quantulum3 on ML phrasing
(``F1`` read as farads, ``7B`` as bytes, nothing for "from 5.1 to 4.3", 37 ms/abstract); published
end-to-end result extraction tops out near 25 % micro-F1 (§1.1). The gold guidelines define what counts.

Pipeline per abstract:
1. Every number token is found with its sign, ``k`` suffix (``1.2k`` → 1200) and the unit written right after
   it (:data:`UNITS`: ``%``/percent → ``%``; percentage points/pp/points → ``pp``; ×/x/-fold/times → ``x``;
   ms/mm/dB/s are kept as measures with unit ``None``).
2. Numbers that are part of a name or describe the setup are dropped (GUIDELINES "NOT metrics"):
   digits glued to letters (``GPT-4``, ``Llama-3.1-8B``, ``7B``, ``32K``, ``T5``, ``AIME2024``), ``8×7B`` and
   ``256×256``, ``@0.5``, exponents, version numbers, ``2-bit``/``128-shot``-style hyphenated settings,
   "95% CI", years, and plain integers without a metric cue.
3. Ranges (``10–20%``, ``2--3``, ``3x-5x``, ``26~35×``), before→after (``from 5.1 to 4.3``) and plain scores
   (a metric name next to the number, ``N on <Benchmark>``, a sign, a measure unit, a ``vs.`` partner) are
   recognised; lists ("A, B and C times") share their unit.
4. Each kept number gets ``kind`` (:func:`_kind`), ``metric``, ``dataset``, ``subject``/``baseline``,
   ``direction`` and ``qualifier`` from its clause and sentence.
"""

from __future__ import annotations

import re

from pipeline.extraction.text import sentences

#: Keys of every row returned by :func:`extract_metrics`, in column order.
METRIC_FIELDS = (
    "value", "value_text", "unit", "kind", "value_from", "value_low", "value_high", "metric", "dataset",
    "subject", "baseline", "direction", "qualifier", "span", "start", "end",
)
#: Allowed values (design §6).
METRIC_UNITS = ("%", "pp", "x", None)
METRIC_KINDS = ("score", "delta", "relative_change", "multiplier", "before_after", "range")

_MINUS = "-−–"  # ASCII hyphen-minus, U+2212 minus, en dash used as a minus sign
_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])(?:\.\d+)?|\d+(?:[.,]\d+)?|\.\d+)"
# unit right after a number; order matters (longest first).  GUIDELINES: "%" for %, percent; "pp" for
# percentage points / points; "x" for ×, x, -fold, times.
_UNIT = re.compile(
    r"\s?(?P<u>%|percent(?:age)?[\s-]points?\b|percentage[\s-]?pts?\b|pp\b|p\.p\.|percent\b|"
    r"(?:absolute\s+)?points?\b|pts\b|"
    r"[×✕]|[xX](?![\w])|-?fold\b|\s?times\b|ms\b|mm\b|dB\b|s\b(?=\s*(?:[,.;)]|for\b|vs\b|on\b|$)))"
)
_TOKEN = re.compile(rf"(?P<sign>[+±{re.escape(_MINUS)}]\s?)?(?P<num>{_NUM})(?P<suf>[kK](?![\w-]))?")
_UNIT_CLASS = {"%": "%", "percent": "%", "pp": "pp", "x": "x", "ms": None, "mm": None, "db": None, "s": None}

# Metric names (notes §1.4 starter lexicon + names seen in abstracts); matched case-insensitively as words,
# plurals allowed ("accuracies", "slopes").
_LEX_WORDS = (
    r"(?:top-?[15] )?(?:accuracy|accuracies|acc|error rates?|error|errors)|F1(?:[- ]scores?)?|F_1|F-1|micro-F1|macro-F1|"
    r"EM|exact match|BLEU|ROUGE(?:-[12L])?|METEOR|CIDEr|chrF\+*|BERTScore|AUC|AUROC|AUPRC|ROC-AUC|mAP(?:@[\d.:]+)?|"
    r"AP(?:@[\d.:]+)?|mIoU|IoU|PSNR|SSIM|LPIPS|FID|KID|FVD|perplexity|perplexities|PPL|WER|CER|PER|NDCG(?:@\d+)?|"
    r"MRR|Hits@\d+|pass@\d+|recall(?:@\d+)?|precision|success rates?|win rates?|attack success rates?|"
    r"resolve rates?|pass rates?|verification rates?|Elo|rewards?|returns?|MAE|MSE|RMSE|EER|correlations?|"
    r"scores?|performance|speed-?ups?|throughput|latency|latencies|memory|FLOPs|runtime|run-time|"
    r"inference time|training times?|token costs?|costs?|energy|parameters?|compression ratios?|sensitivity|"
    r"fairness|Quality Ratio|margins?|regret|slopes?"
)
_LEX = re.compile(rf"(?<![\w-])(?:{_LEX_WORDS})(?![\w-])", re.I)
_LEX_AT_END = re.compile(rf"(?<![\w-])(?:{_LEX_WORDS})\s*(?:\([^()]*\))?\s*$", re.I)
# Quantities whose % change is a relative change (a reduction/increase of an amount, not of a score):
# GUIDELINES relative_change examples "reduces KV cache size by 80%", "70% fewer tokens".
_AMOUNT = re.compile(
    r"\b(FLOPs?|memory|cache|tokens?|cost|costs|latency|time|times|runtime|run-time|storage|size|parameters?|"
    r"params|compute|energy|frequency|load|resolution|error|errors|error rate|footprint|bandwidth|"
    r"overhead|usage|consumption|calls|queries|steps|length|budget)\b",
    re.I,
)
_UP = re.compile(r"\b(improv\w*|increas\w*|gain\w*|boost\w*|higher|better|rais\w*|rise[sn]?|rose|lift\w*|"
                 r"outperform\w*|surpass\w*|exceed\w*|faster|speed-?ups?|quicker|more|enhanc\w*|larger|advantage|"
                 r"beat\w*|accelerat\w*)\b", re.I)
_DOWN = re.compile(r"\b(reduc\w*|decreas\w*|drops?|dropped|dropping|fewer|less|lower\w*|cut\w*|sav\w+|smaller|"
                   r"shorter|cheaper|declin\w*|fall\w*|fell|loss|degrad\w*|compress\w*|shrink\w*|"
                   r"slower|worse|gap)\b", re.I)
_DELTA_NEAR = re.compile(
    r"^\s*(?:absolute\s+|relative\s+|average\s+|mean\s+|overall\s+)?(?:\w+\s+){0,2}?"
    r"(?:gains?|improvements?|increases?|boosts?|drops?|decreases?|reductions?|degradation|lift|margin|"
    r"higher|lower|better|worse|more|fewer|less|smaller|shorter|savings?|loss)\b",
    re.I,
)
_RELATIVE = re.compile(r"\brelative(?:ly)?\b", re.I)
_ABSOLUTE = re.compile(r"\babsolute\b", re.I)
_QUALIFIERS = (
    (re.compile(r"\bup to\s*$", re.I), "up to"),
    (re.compile(r"\b(?:over|more than|above|greater than)\s*$", re.I), "over"),
    (re.compile(r"\bat least\s*$", re.I), "at least"),
    (re.compile(r"\b(?:exceed\w*|surpass\w* the|beyond)\s*$", re.I), "at least"),
    (re.compile(r"\b(?:approximately|approx\.|≈)\s*$", re.I), "approximately"),
    (re.compile(r"(?:\babout|\baround|\broughly|~|∼)\s*$", re.I), "about"),
    (re.compile(r"\b(?:nearly|almost|close to)\s*$", re.I), "nearly"),
    (re.compile(r"(?:<|≤|\bless than|\bbelow|\bunder|\bwithin)\s*$", re.I), "<"),
    (re.compile(r"(?:>|≥)\s*$", re.I), ">"),
)
_QUAL_TEXT = re.compile(
    r"(?:\bup to|\bover|\bmore than|\babove|\bgreater than|\bat least|\bapproximately|\bapprox\.|≈|\babout|"
    r"\baround|\broughly|~|∼|\bnearly|\balmost|\bclose to|<|≤|>|≥|\bless than|\bbelow|\bunder|\bwithin)\s*$",
    re.I,
)
_BASELINE_CUE = re.compile(r"(?:\bvs\.?|\bversus|\bcompared (?:to|with)|\brelative to|\bagainst)\s+(?P<name>[^,;()]*?)$", re.I)
_POSSESSIVE = re.compile(r"(?P<name>[\w\-.]+(?:\s[\w\-.]+)?)[’']s\s+(?:[a-z]+\s+)?$")
_COMPARATOR = re.compile(r"\b(outperform\w*|surpass\w*|beat\w*|exceed\w*|better than|compared (?:to|with)|"
                         r"over|than|against|vs\.?|versus)\b", re.I)
# Words that make a number a setup quantity when they follow it (GUIDELINES "NOT metrics").
_SETUP_AFTER = re.compile(
    r"\s?(?:[-–]\s?(?:bit|shot|way|layer|head|token|dim|th|st|nd|rd|fold cross|[a-z]+-parameter)\b|"
    r"(?:th|st|nd|rd)\b|%?\s*(?:CI|confidence)\b|"
    r"\s*(?:billion|million|thousand|trillion|[BMKT])\b|(?:[-\s](?:parameters?|params|layers?|tokens?|samples|"
    r"images|examples|languages|tasks|datasets|benchmarks|models|GPUs?|epochs|steps|seeds|hours|minutes|days|"
    r"queries|instances|dialogs|videos|classes|categories|users|participants|questions|problems|"
    r"episodes|words|sentences|documents|pages|nodes|edges|actions|pairs|bits?|shots?)\b))"
)
_PCT_SETUP_AFTER = re.compile(r"\s*of\s+(?:the\s+)?(?:\w+\s+)?(?:parameters|params|weights|training data|data|"
                              r"clients|labels|samples|instances|sentences|tokens|budget)\b", re.I)
_MODEL_NAME = re.compile(
    r"\b(?:GPT|Llama|LLaMA|Qwen|Mixtral|Mistral|Claude|Gemini|Gemma|DeepSeek|OLMo\w*|Phi|Falcon|Vicuna|"
    r"T5|BERT|RoBERTa|ResNet|ViT|CLIP|Whisper|Stable Diffusion|SDXL|o1|o3|PaLM|Grok)\b|\d[BM]\b|×\d"
)
_GENERIC_CAP = {"The", "This", "These", "Our", "We", "It", "In", "On", "A", "An", "For", "With", "Table", "Figure",
                "Section", "Experiments", "Extensive", "Results", "Moreover", "Furthermore", "However", "Finally",
                "Notably", "Overall", "Code", "Average", "Compared", "Specifically", "Additionally", "Both",
                "All", "Each", "Under", "At", "As", "By", "From", "To", "And", "Across", "When", "While"}
_DATASET_AFTER = re.compile(
    r"\b(?:on|in|for|at|across)\s+(?:the\s+|both\s+|a\s+)?(?P<name>(?:[a-z]+-based\s+)?[A-Z][\w'’.\-]*(?:[\s-]"
    r"(?:[A-Z0-9][\w'’.\-]*|v\d[\w.]*|test-\w+|Lite|Verified|generation|scenario|\d+))*)"
)
_WORD = re.compile(r"[A-Za-z][\w\-’']*")


def _fnum(s: str) -> float:
    """Parse a number token: thousands separators (``1,024``) vs decimal comma (``81,2``)."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", s):
        return float(s.replace(",", ""))
    return float(s.replace(",", "."))


class _Tok:
    __slots__ = ("start", "end", "num_start", "num_end", "value", "text", "signed", "unit", "unit_text",
                 "measure", "decimal", "setup", "accepted", "kind", "low", "high", "vfrom", "span_start",
                 "span_end", "group", "why")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


def _tokens(text: str) -> list[_Tok]:
    """All number tokens of ``text`` with sign, value, unit and a setup flag (steps 1-2 of the module doc)."""
    toks: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        a, b = m.start(), m.end()
        na = m.start("num")
        before = text[max(0, a - 1):a]
        sign = (m["sign"] or "").strip()
        # a "-" glued after a letter/digit is a hyphen inside a name or a range, not a minus sign
        if sign and sign in _MINUS and before and (before.isalnum() or before in "×x"):
            if before.isalpha() or before in "×x":
                # GPT-4, Llama-3.1, CIFAR-10: number inside a name
                continue
            sign = ""  # "2-3": range separator, handled below
            a = na
        prev = text[max(0, a - 1):a]
        if prev and (prev.isalnum() or prev in "._@^/=\\{#$€£" or (prev in "×x" and a >= 2 and text[a - 2].isdigit())):
            continue  # inside a word/name/version/exponent/resolution/price
        num = m["num"]
        after = text[b:b + 40]
        if num.startswith(".") or re.match(r"^\d+,\d+$", num) and not re.match(r"^\s?%", after):
            if not num.startswith("."):
                # "92.4, 88.7" never reaches here (space after comma); "81,2" without % is a list "1,2"
                pass
        suf = m["suf"]
        value = _fnum(num) * (1000.0 if suf else 1.0)
        if sign in _MINUS and sign:
            value = -value
        um = _UNIT.match(text, b)
        unit = unit_text = None
        measure = False
        if um:
            u = um["u"].lower().strip()
            if u in ("%",) or u.startswith("percent") and "point" not in u and "pt" not in u:
                unit = "%"
            elif "point" in u or u in ("pp", "p.p.", "pts") or "pt" in u:
                unit = "pp"
            elif u in ("×", "✕", "x") or u.endswith("fold") or u == "times":
                unit = "x"
            else:
                measure = True
            unit_text = um["u"]
            ue = um.end()
        else:
            ue = b
        nxt = text[ue:ue + 2]
        # glued letters after the number: sizes (7B, 32K), ordinals, "3D", "1e-5" -> not a metric
        glued = text[b:b + 1]
        setup = False
        if not um and glued and (glued.isalpha() or glued in "_^"):
            setup = True
        if unit == "x" and re.match(r"^\s?\d", nxt):
            setup = True  # 256×256, 8×7B
        if not unit and _SETUP_AFTER.match(text, b):
            setup = True
        if unit == "%" and _PCT_SETUP_AFTER.match(text, ue):
            setup = True
        if unit is None and not measure and re.fullmatch(r"(?:19|20)\d\d", num) and not sign:
            setup = True  # a year
        if re.match(r"^\s?%\s*(?:CI|confidence)", text[b:b + 16]):
            setup = True
        toks.append(_Tok(start=a if sign else na, end=ue, num_start=na, num_end=b, value=value,
                         text=(sign + num + (suf or "")), signed=bool(sign and sign != "±"),
                         unit=unit, unit_text=unit_text, measure=measure,
                         decimal="." in num or ("," in num and not re.fullmatch(r"\d{1,3}(?:,\d{3})+", num)),
                         setup=setup, accepted=False, kind=None, low=None, high=None, vfrom=None,
                         span_start=a if sign else na, span_end=ue, group=None, why=None))
    return toks


_RANGE_SEP = re.compile(r"^\s?(?:--|–|—|-|~|∼|to)\s?$")
_FROM = re.compile(r"\bfrom\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,2}$", re.I)
_LIST_SEP = re.compile(r"^\s*(?:,|,?\s*(?:and|or|/))\s*$")


def _pair_structures(text: str, toks: list[_Tok]) -> list[_Tok]:
    """Merge ranges and before→after pairs; share units across lists. Returns the surviving tokens."""
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        n = toks[i + 1] if i + 1 < len(toks) else None
        if n is not None and not t.setup and not n.setup:
            gap = text[t.end:n.start]
            gap_num = text[t.num_end:n.start]
            # before -> after: "from 5.1 to 4.3", "from 41.0% to 44.2%"
            if re.fullmatch(r"\s?to\s", gap) and _FROM.search(text[max(0, t.start - 40):t.start]) and \
                    (t.unit == n.unit or t.unit is None):
                n.kind, n.vfrom = "before_after", t.value
                n.span_start = t.start
                n.accepted = True
                n.why = "from-to"
                out.append(n)
                i += 2
                continue
            # range: "10–20%", "2-3 points", "3x-5x", "26~35×", "1.5-2.3×"; "between A and B"
            is_range = False
            if (t.unit is None or t.unit == n.unit) and not t.measure and _RANGE_SEP.match(gap_num if t.unit is None else gap) \
                    and not t.signed and (n.unit is not None or n.measure or t.unit is not None) and n.value > t.value:
                is_range = True
            if re.fullmatch(r"\s?and\s", gap) and re.search(r"\bbetween\s+$", text[max(0, t.start - 12):t.start]) \
                    and (n.unit or n.measure):
                is_range = True
            if is_range:
                n.kind, n.low, n.high = "range", t.value, n.value
                n.span_start = t.start
                n.accepted = True
                n.why = "range"
                n.text = text[t.start:n.num_end]
                out.append(n)
                i += 2
                continue
        out.append(t)
        i += 1
    # lists share a unit: "up to 233 and 761 times", "2.24%, 3.97% and 1.49%"
    for j in range(len(out) - 2, -1, -1):
        t, n = out[j], out[j + 1]
        if t.unit is None and not t.measure and not t.setup and n.unit and not n.setup and t.kind is None \
                and _LIST_SEP.match(text[t.num_end:n.start]):
            t.unit = n.unit
            t.end = t.span_end = t.num_end
    return out


def _clause_bounds(text: str, s0: int, s1: int, pos: int) -> tuple[int, int]:
    """Start/end of the clause around ``pos`` inside sentence [s0, s1): split at ; : — and ", while"-like joins."""
    lo = s0
    for m in re.finditer(r";|:\s|—|\s--\s|,\s(?=(?:while|whereas|but|and it|which|and (?:we|our|the|it)\b))", text[s0:pos]):
        lo = s0 + m.end()
    hi = s1
    m = re.search(r";|:\s|—|\s--\s|,\s(?=(?:while|whereas|but|and it|which|and (?:we|our|the|it)\b))", text[pos:s1])
    if m:
        hi = pos + m.start()
    return lo, hi


def _qualifier(text: str, t: _Tok, s0: int) -> tuple[str | None, int]:
    """Qualifier written before the number (GUIDELINES values) and the span start including it."""
    pre = text[max(s0, t.span_start - 25):t.span_start]
    pre2 = re.sub(r"\bby\s+$", "", pre)
    for rx, q in _QUALIFIERS:
        m = rx.search(pre)
        if m:
            return q, t.span_start - (len(pre) - m.start())
    post = text[t.span_end:t.span_end + 12]
    if re.match(r"^\s+or (?:less|fewer|lower)\b", post):
        return "up to", t.span_start
    if re.match(r"^\s+or (?:more|higher)\b", post):
        return "at least", t.span_start
    del pre2
    return None, t.span_start


_STOP_AFTER = re.compile(r"\b(?:on|in|for|with|over|than|compared|while|and|across|at|of|by|when|using|from|"
                         r"to|vs|versus|relative)\b|[,.;()]")


def _metric_after(text: str, t: _Tok, hi: int) -> str | None:
    """Metric named right after the number/unit: "54% F1", "2.5× higher throughput", "0.5% accuracy gain"."""
    seg = text[t.span_end:min(hi, t.span_end + 45)]
    stop = _STOP_AFTER.search(seg)
    # allow "in <metric>" right after: "14.9% in accuracy", "2.5% increase in storage"
    m_in = re.match(r"^\s*(?:\w+\s+){0,2}?in\s+(?:the\s+|terms of\s+)?([\w\-@]+(?:\s[\w\-@]+){0,2})", seg)
    head = seg[:stop.start()] if stop else seg
    m = _LEX.search(head)
    if m:
        return head[m.start():].strip(" ,.;").split(" on ")[0] if len(head[m.start():].split()) <= 3 else m[0]
    if m_in:
        cand = m_in[1]
        lm = _LEX.search(cand) or _AMOUNT.search(cand)
        if lm:
            return cand[: lm.end()]
    return None


_VERB_BY = re.compile(
    r"(?:\b(?:improv|reduc|increas|decreas|boost|lower|cut|rais|enhanc|shrink|lift|accelerat|speed\w* up|"
    r"sav)\w*|\band|,)\s+(?:the\s+|its\s+|their\s+|our\s+|overall\s+|model\s+)?"
    r"(?P<np>[^\d,;()]{2,60}?)\s+(?:by|to)\s+(?:\w+\s+){0,3}$",
    re.I,
)
_NP_VERB = re.compile(r"(?P<np>[\w\-@]+(?:\s[\w\-@]+){0,2})\s+(?:drops?|falls?|rises?|increases?|decreases?|improves?|"
                      r"goes|jumps?|climbs?|grows?)\s+(?:by|to|from)\s+(?:\w+\s+){0,2}$", re.I)
_OF_BEFORE = re.compile(r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s+(?:of|is|was|=|:|reaches|reaching|at)\s+(?:\w+\s+){0,2}$", re.I)
_BAD_NP = re.compile(r"\b(?:we|our|it|this|that|which|model|method|approach|results?|framework|system|one|"
                     r"average|up|over|about|nearly|only|than|achiev\w*|shows?|demonstrat\w*|yields?)$", re.I)


def _metric_before(text: str, t: _Tok, lo: int) -> str | None:
    """Metric named before the number: "improves F1 by 3%", "accuracy of 41%", "reduces WER from 5.1 to 4.3"."""
    pre = text[max(lo, t.span_start - 90):t.span_start]
    pre = re.sub(r"\s*(?:up to|over|about|approximately|nearly|more than|at least|~|≈)\s*$", " ", pre).rstrip() + " "
    m = _OF_BEFORE.search(pre)
    if m and _LEX.search(m["np"]):
        lm = list(_LEX.finditer(m["np"]))[-1]
        # keep the words of the noun phrase ending in the lexicon word ("average BLEU", "top-5 error")
        return m["np"][: lm.end()].strip()
    m = _NP_VERB.search(pre)
    if m and (_LEX.search(m["np"]) or _AMOUNT.search(m["np"])):
        return m["np"].strip()
    m = _VERB_BY.search(pre)
    if m:
        np_ = m["np"].strip()
        if (_LEX.search(np_) or _AMOUNT.search(np_)) and not _BAD_NP.search(np_):
            return np_
    return None


def _dataset(text: str, t: _Tok, s0: int, s1: int, lo: int, hi: int) -> str | None:
    """Benchmark named for the number: "… on <Name>" after it in its clause, else before it in its sentence."""
    def ok(name: str) -> str | None:
        name = name.strip(" .,'’")
        name = re.sub(r"\s(?:benchmarks?|datasets?|and|with|while|using)$", "", name)
        first = name.split()[0] if name else ""
        if not name or first in _GENERIC_CAP or _MODEL_NAME.search(name):
            return None
        if len(name) < 2 or not (re.search(r"[A-Z].*[A-Z0-9]|[0-9]", name) or re.search(r"[a-z][A-Z]", name)
                                 or len(name) >= 4):
            return None
        return name
    seg = text[t.span_end:hi]
    for m in _DATASET_AFTER.finditer(seg):
        if re.search(r"\d", seg[:m.start()]) and re.search(r"\d\s?%|\d\s?×", seg[:m.start()]):
            break  # another metric comes first: its dataset, not ours
        name = ok(m["name"])
        if name:
            return name
        break
    # before, in the same sentence
    pre = text[s0:t.span_start]
    found = None
    for m in _DATASET_AFTER.finditer(pre):
        name = ok(m["name"])
        if name:
            found = name
    if found is None:
        m = re.search(r"\b(?:the\s+)?(?P<name>[A-Z][\w\-.]*(?:\s[A-Z][\w\-.]*)?)\s+(?:benchmark|dataset)s?\b", pre)
        if m:
            found = ok(m["name"])
    return found


def _subject(text: str, t: _Tok, lo: int, s0: int) -> tuple[str, str | None]:
    """``("baseline", name)`` for a number reported for a compared method, else ``("ours", None)``.

    Rules (GUIDELINES: "Numbers in a 'vs.' or 'compared to' clause are baseline scores"; "GRPO's 40.1%";
    "(61.0% vs 42.9%)"): a vs./versus/compared-to cue right before the number; a possessive right before
    it; or a parenthesised list of plain scores right after a comparator ("outperforming X (86.0%)").
    Signed numbers and deltas are always the paper's own.
    """
    if t.signed or t.kind in ("delta", "relative_change", "multiplier", "before_after"):
        return "ours", None
    pre = text[max(s0, t.span_start - 60):t.span_start]
    pre_q = _QUAL_TEXT.sub("", pre)
    m = _BASELINE_CUE.search(pre_q)
    if m and not re.search(r"\d", m["name"]):
        name = re.sub(r"[’']s$", "", m["name"].strip()) or None
        return "baseline", name
    m = _POSSESSIVE.search(pre_q)
    if m and not re.match(r"(?i)our|its|their|model|method", m["name"].split()[-1]):
        return "baseline", m["name"].split()[-1]
    # parenthesised score(s) after a comparator: "... the CodeReasoner-7B baseline (86.0% and 77.7%)"
    po = text.rfind("(", s0, t.span_start)
    pc = text.rfind(")", s0, t.span_start)
    if po > pc and re.fullmatch(r"[\s\d.,%×x+and&]*", text[po + 1:t.span_start]):
        outside = text[s0:po]
        stripped = re.sub(r"\([^()]*\)", "", outside)
        cm = None
        for cm in _COMPARATOR.finditer(stripped):
            pass
        if cm is not None:
            between = stripped[cm.end():]
            if not re.search(r"\d\s?(?:%|×)", between) and len(between) < 80:
                name = between.strip(" ,") or None
                name = re.sub(r"^(?:and|the|its)\s+", "", name or "") or None
                return "baseline", name
    return "ours", None


def _direction(text: str, t: _Tok, lo: int, hi: int) -> str | None:
    """Which way the measured quantity moved (GUIDELINES: verb or sign; "faster"/"speedup" -> increase)."""
    if t.kind == "before_after":
        return "increase" if t.value > (t.vfrom or 0) else "decrease" if t.value < (t.vfrom or 0) else None
    if t.kind == "score":
        return None
    if t.signed:
        return "decrease" if t.value < 0 else "increase"
    near = text[t.span_end:min(hi, t.span_end + 30)]
    before = text[max(lo, t.span_start - 70):t.span_start]
    for seg in (near, before):
        d = [(m.start(), "increase") for m in _UP.finditer(seg)] + [(m.start(), "decrease") for m in _DOWN.finditer(seg)]
        if d:
            return (min(d) if seg is near else max(d))[1]
    return None


def _kind(text: str, t: _Tok, lo: int, hi: int, metric: str | None) -> str:
    """GUIDELINES kinds. ``x`` → multiplier; ``pp`` → delta; ``%``/plain: relative_change when the text says
    "relative" or a % change of an amount (FLOPs, memory, tokens, cost, time, size, error rate...); delta
    for "by N", signed numbers and "N% gain/drop/improvement" of a score; otherwise score."""
    if t.kind:
        return t.kind
    if t.unit == "x":
        return "multiplier"
    if t.unit == "pp":
        return "delta"
    pre = text[max(lo, t.span_start - 60):t.span_start]
    post = text[t.span_end:min(hi, t.span_end + 40)]
    near = text[max(lo, t.span_start - 25):min(hi, t.span_end + 25)]
    if _RELATIVE.search(near) and not _ABSOLUTE.search(near):
        return "relative_change" if t.unit == "%" else "delta"
    by = re.search(r"\bby\s+(?:(?:an?\s+)?(?:average|mean|margin)\s+of\s+)?(?:\w+\s+){0,2}$", pre) is not None
    change_word = _DELTA_NEAR.match(post) is not None
    of_change = re.search(r"\b(?:gains?|improvements?|increases?|reductions?|drops?|decreases?|margin)\s+of\s+"
                          r"(?:\w+\s+){0,2}$", pre, re.I) is not None
    if t.signed or by or change_word or of_change:
        if t.unit == "%":
            amount_ctx = (metric or "") + " " + post[:30]
            fewer = re.match(r"^\s*(?:fewer|less|smaller|shorter|cheaper|lower (?:cost|latency|memory))\b", post, re.I)
            score_metric = metric and _LEX.search(metric) and not _AMOUNT.search(metric)
            if fewer or (not score_metric and _AMOUNT.search(amount_ctx) and (_DOWN.search(pre[-40:] + post[:25])
                                                                             or re.search(r"\bincrease in\b", post))):
                return "relative_change"
            if metric and _AMOUNT.search(metric) and not (_LEX.search(metric) and not _AMOUNT.search(metric)):
                return "relative_change"
        return "delta"
    return "score"


_RESULT_CUE = re.compile(
    r"\b(achiev\w*|attain\w*|reach\w*|obtain\w*|scor\w*|yield\w*|outperform\w*|surpass\w*|improv\w*|"
    r"record\w*|report\w*|deliver\w*|get|gets|sets?|establish\w*|results?|accurac\w*|rate|performance)\b", re.I)


def _accept_plain(text: str, t: _Tok, toks: list[_Tok], idx: int, s0: int, lo: int, hi: int) -> bool:
    """Whether a number without %/pp/x is a reported result (GUIDELINES: plain scores "BLEU 28.4",
    "F1 of 0.91", "slope -0.38", "FID 2.9"; measures such as "65ms"; a baseline "versus 62.6")."""
    if t.setup:
        return False
    pre = text[max(s0, t.span_start - 40):t.span_start]
    post = text[t.span_end:t.span_end + 30]
    if t.measure:
        return t.unit_text.strip() != "s" or re.search(r"\b(?:vs\.?|versus)\s*$", pre) is not None
    if re.match(r"^\s?/\s?\d", post) or re.search(r"\d\s?/\s?$", pre):
        return False  # fractions such as 5/5, 1/2
    if re.match(r"^\s?[)\]]", post) and re.search(r"[(\[]\s?$", pre) and not t.decimal:
        return False  # enumerators "(1)"
    # a metric name right before ("BLEU 28.4", "FID of 2.1", "average score of 64.8") or after ("28.4 BLEU")
    if re.search(rf"(?:{_LEX_WORDS})\s*(?:\)\s*)?(?:of|is|was|=|:|at|reaches|reaching)?\s*(?:up to|about|approximately|~)?\s*$",
                 pre, re.I) and (t.decimal or t.signed):
        return True
    if re.match(rf"^\s?(?:{_LEX_WORDS})(?![\w-])", post, re.I) and (t.decimal or t.signed) and \
            not re.match(r"^\s?(?:IS)\b", post):
        return True
    if t.signed and t.decimal:
        return True
    if t.decimal and re.match(r"^\s(?:on|in)\s+(?:the\s+)?[A-Z]", post) and _RESULT_CUE.search(text[s0:t.span_start]):
        return True
    if t.decimal and re.search(r"\b(?:vs\.?|versus)\s*$", pre):
        return True
    return False


def extract_metrics(text: str) -> list[dict]:
    """Return one row per reported result metric in the clean ``text`` (keys :data:`METRIC_FIELDS`).

    Row fields: ``value`` float (None only for a range), ``value_text`` str as written (sign kept, e.g.
    "-0.38", "1.2k"), ``unit`` one of :data:`METRIC_UNITS`, ``kind`` one of :data:`METRIC_KINDS`,
    ``value_from`` (before_after), ``value_low``/``value_high`` (range), ``metric``/``dataset``/``baseline``
    str or None as the text names them, ``subject`` "ours"|"baseline", ``direction`` "increase"|"decrease"|None,
    ``qualifier`` one of the GUIDELINES qualifiers or None, ``span`` = ``text[start:end]`` (qualifier, number
    and unit), ``start``/``end`` int offsets into ``text``.
    Never raises on str input; non-str input raises ``TypeError``. Rows are in text order.
    """
    if not isinstance(text, str):
        raise TypeError(f"extract_metrics expects str, got {type(text).__name__}")
    if not any(c.isdigit() for c in text) and not re.search(r"\b(?:twice|half|percent)\b", text):
        return []
    sents = sentences(text)
    toks = _pair_structures(text, _tokens(text))
    rows: list[dict] = []
    prev: dict | None = None
    for idx, t in enumerate(toks):
        s0, s1 = next(((a, b) for a, b in sents if a <= t.span_start < b), (0, len(text)))
        lo, hi = _clause_bounds(text, s0, s1, t.span_start)
        if t.setup:
            continue
        if not t.accepted:
            if t.unit in ("%", "pp", "x"):
                t.accepted = True
            else:
                t.accepted = _accept_plain(text, t, toks, idx, s0, lo, hi)
        if not t.accepted:
            continue
        qualifier, q_start = _qualifier(text, t, s0)
        metric = _metric_after(text, t, hi) or _metric_before(text, t, lo)
        kind = _kind(text, t, lo, hi, metric)
        t.kind = kind
        dataset = _dataset(text, t, s0, s1, lo, hi)
        subject, baseline = _subject(text, t, lo, s0)
        if subject == "ours" and kind in ("delta", "relative_change", "multiplier"):
            bm = re.search(r"\b(?:over|than|outperform\w*|surpass\w*|beat\w*|against|compared (?:to|with))\s+"
                           r"(?:the\s+)?(?P<n>[A-Z][\w\-.]*(?:\s[A-Z][\w\-.]*)?)", text[lo:hi])
            baseline = bm["n"] if bm else None
        # a number in parentheses or after vs. inherits metric/dataset of the number it is compared to
        if prev is not None and prev["_s0"] == s0 and (subject == "baseline" or text[prev["end"]:t.span_start].strip().startswith("(")):
            metric = metric or prev["metric"]
            dataset = dataset or prev["dataset"]
        row = dict(
            value=None if kind == "range" else t.value,
            value_text=t.text if kind != "range" else text[t.span_start:t.num_end],
            unit=t.unit,
            kind=kind,
            value_from=t.vfrom,
            value_low=t.low,
            value_high=t.high,
            metric=metric,
            dataset=dataset,
            subject=subject,
            baseline=baseline,
            direction=_direction(text, t, lo, hi),
            qualifier=qualifier,
            span=text[q_start:t.span_end],
            start=q_start,
            end=t.span_end,
        )
        row["_s0"] = s0
        rows.append(row)
        prev = row
    for r in rows:
        del r["_s0"]
    return rows
