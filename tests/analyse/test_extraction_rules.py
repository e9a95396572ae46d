"""Every named extraction rule's own examples (pipeline/analyse/extraction/rules.py), and every rule a row names is one."""

import pytest

from bench import eval_extraction as evaluation
from pipeline.analyse.cleaning import clean_abstract
from pipeline.analyse.extraction import extract_metrics
from pipeline.analyse.extraction.rules import RULES

_CASES = [
    pytest.param(name, text, value, expected, id=f"{name}-{i}")
    for name, rule in RULES.items()
    for i, (text, value, expected) in enumerate(rule.examples)
]


@pytest.mark.parametrize("name,text,value,expected", _CASES)
def test_rule_example(name, text, value, expected):
    rows = extract_metrics(clean_abstract(text))
    row = next((r for r in rows if value in (r["value"], r["value_low"])), None)
    assert row is not None, (value, rows)
    assert {k: row[k] for k in expected} == expected, row
    assert name in row["rules"], row["rules"]


def test_every_rule_has_a_reason_and_an_example():
    for name, rule in RULES.items():
        assert rule.reason.strip() and rule.examples, name


def test_rows_name_only_registered_rules():
    """Over the dev gold abstracts, every row records at least one rule and only rules of the table."""
    seen = set()
    for path in evaluation.DEV_GOLDS:
        for rec in evaluation.read_jsonl(path):
            for r in extract_metrics(clean_abstract(rec["text"])):
                assert r["rules"] and set(r["rules"]) <= set(RULES), r
                seen |= set(r["rules"])
    assert len(seen) >= 15
