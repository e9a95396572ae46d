"""The data dictionary: every table and column, generated from the Pandera models in ``schemas/`` (the same
models the blocking asset checks validate), so it cannot drift from what is validated.

:func:`data_dictionary` gives the JSON-ready structure (written as ``data_dictionary.json`` in each release);
:func:`dictionary_markdown` renders it for the dataset card.
"""

from __future__ import annotations

import pandera.polars as pa

from schemas import MODELS, SCHEMA_VERSION

#: Pandera check name → (JSON key of its statistic, how the card writes the rule).
_RULES = {
    "isin": ("allowed_values", lambda v: "one of " + ", ".join(f"`{x}`" for x in v)),
    "str_matches": ("pattern", lambda v: f"matches `{v}`"),
    "greater_than_or_equal_to": ("min_value", lambda v: f"≥ {v}"),
    "less_than_or_equal_to": ("max_value", lambda v: f"≤ {v}"),
    "greater_than": ("min_value_exclusive", lambda v: f"> {v}"),
    "less_than": ("max_value_exclusive", lambda v: f"< {v}"),
    "str_length": ("min_length", lambda v: f"at least {v} characters"),
}


def _column(name: str, col: pa.Column) -> dict:
    entry = {
        "name": name,
        "dtype": str(col.dtype),
        "nullable": bool(col.nullable),
        "unique": bool(col.unique),
        "description": col.description or "",
    }
    rules = []
    for check in col.checks:
        stats = dict(check.statistics or {})
        if check.name == "str_length":  # statistics {min_value, max_value, exact_value}: keep what is set
            key, value = "min_length", stats.get("min_value")
        elif check.name in _RULES:
            key, value = _RULES[check.name][0], next(iter(stats.values()))
        else:  # a check this module does not know yet: keep it, unrendered, rather than drop it
            rules.append(f"{check.name} {stats}")
            continue
        entry[key] = list(value) if isinstance(value, (list, tuple)) else value
        rules.append(_RULES[check.name][1](value))
    entry["rules"] = rules
    return entry


def data_dictionary() -> dict:
    """Every table of schemas.MODELS as a dict::

        {"schema_version": int,
         "tables": [{"name", "model", "description", "strict", "unique" (list of column names or null),
                     "checks": [{"name", "description"}],          # dataframe-level rules (docstrings)
                     "columns": [{"name", "dtype", "nullable", "unique", "description",
                                  "rules": [str],                   # each column check, readable
                                  and per check its statistic: "allowed_values", "pattern",
                                  "min_value", "max_value", "min_length"}]}]}

    Table order is schemas.MODELS'; column order the model's (which is the published column order).
    """
    tables = []
    for name, model in MODELS.items():
        schema = model.to_schema()
        unique = schema.unique
        tables.append(
            {
                "name": name,
                "model": f"schemas.{model.__name__}",
                "description": " ".join((model.__doc__ or "").split()),
                "strict": bool(schema.strict),
                "unique": list(unique) if unique else None,
                "checks": [
                    {"name": c.name, "description": " ".join((c.description or "").split())}
                    for c in schema.checks
                ],
                "columns": [_column(n, c) for n, c in schema.columns.items()],
            }
        )
    return {"schema_version": SCHEMA_VERSION, "tables": tables}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def dictionary_markdown(dictionary: dict, heading: str = "###") -> str:
    """The dictionary as markdown: per table its description, row-level rules and a column table
    (column, dtype, null?, rules, meaning)."""
    out = []
    for t in dictionary["tables"]:
        out += [f"{heading} `{t['name']}`", "", t["description"], ""]
        rules = [f"unique over ({', '.join(t['unique'])})"] if t["unique"] else []
        rules += [f"{c['name']}: {c['description']}" for c in t["checks"]]
        if rules:
            out += ["Rules across columns: " + "; ".join(rules), ""]
        out += ["| column | dtype | nullable | allowed values / rule | meaning |", "|---|---|---|---|---|"]
        for c in t["columns"]:
            rule = "; ".join((["unique"] if c["unique"] else []) + c["rules"]) or "–"
            out.append(
                f"| `{c['name']}` | {c['dtype']} | {'yes' if c['nullable'] else 'no'} | {_cell(rule)} "
                f"| {_cell(c['description'])} |"
            )
        out.append("")
    return "\n".join(out)
