"""LaTeX in abstracts through pylatexenc (a well-kept library): the converter the cleaning step uses on small
spans (pipeline.analyse.cleaning, its rule 4). Pure functions, no Dagster.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: A lone brace left after conversion (not an escaped one).
_BRACES = re.compile(r"(?<!\\)[{}]")


@lru_cache(maxsize=1)
def _latex_converter():
    import logging

    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    # pylatexenc logs a WARNING per malformed macro (e.g. "\\frac failed its substitution") and still returns
    # text; at 100k abstracts that is noise, not information.
    logging.getLogger("pylatexenc").setLevel(logging.ERROR)

    db = get_default_latex_context_db().filter_context(keep_categories=None)
    db.add_context_category(
        "abstracts",
        prepend=True,
        macros=[
            MacroTextSpec(name, discard=False)
            for name in (
                "texttt",
                "mbox",
                "textsf",
                "textup",
                "textmd",
                "textnormal",
                "mathtt",
                "operatorname",
            )
        ]
        + [MacroTextSpec(name, simplify_repl="") for name in ("cite", "citep", "citet", "ref", "label")],
    )
    return LatexNodes2Text(
        latex_context=db, math_mode="text", keep_braced_groups=False, strict_latex_spaces=False
    )


@lru_cache(maxsize=65536)
def latex_span(tex: str) -> str:
    """Convert one small LaTeX span (math or a macro) with pylatexenc (str -> str); on any failure keep it
    readable (the span itself, backslashes as spaces). Never raises."""
    try:
        text = _latex_converter().latex_to_text(tex)
    except Exception:  # pylatexenc raises IndexError/LatexWalkerError on malformed input
        text = tex
    text = text.replace("\\", " ") if "\\" in text else text
    return _BRACES.sub("", text).replace("\u00a0", " ")
