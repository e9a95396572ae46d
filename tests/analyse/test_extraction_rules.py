"""Every named extraction rule's own examples (pipeline/analyse/extraction/rules.py), and every rule a row names is one."""

import re

import pytest

from bench import eval_extraction as evaluation
from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.extraction import extract_metrics
from pipeline.analyse.extraction.rules import RULES
from pipeline.analyse.extraction.spelled import (
    SPELLED_GATE,
    SPELLED_GATE_KEYS,
    WORD_GATE,
    WORD_GATE_KEYS,
    gate,
)
from pipeline.analyse.extraction.tokens import SETUP_RULES, number_tokens

_CASES = [
    pytest.param(name, text, value, expected, id=f"{name}-{i}")
    for name, rule in RULES.items()
    for i, (text, value, expected) in enumerate(rule.examples)
    if not rule.setup
]
_SETUP_CASES = [
    pytest.param(name, text, value, kept, id=f"{name}-{i}")
    for name, rule in RULES.items()
    for i, (text, value, kept) in enumerate(rule.examples)
    if rule.setup
]


@pytest.mark.parametrize("name,text,value,expected", _CASES)
def test_rule_example(name, text, value, expected):
    rows = extract_metrics(clean_text(text))
    row = next((r for r in rows if value in (r["value"], r["value_low"])), None)
    assert row is not None, (value, rows)
    assert {k: row[k] for k in expected} == expected, row
    assert name in row["rules"], row["rules"]


@pytest.mark.parametrize("name,text,value,kept", _SETUP_CASES)
def test_setup_rule_example(name, text, value, kept):
    """A setup rule's value has no row, the tokens name the rule for it, and the result beside it is kept."""
    clean = clean_text(text)
    rows = extract_metrics(clean)
    assert not [r for r in rows if value in (r["value"], r["value_low"])], rows
    assert any({k: r[k] for k in kept} == kept for r in rows), rows
    rejected: list[tuple[str, int]] = []
    toks = number_tokens(clean, rejected)
    named = {t.setup_rule for t in toks if abs(t.value) == value}
    named |= {rule for rule, at in rejected if float(re.match(r"\d+(?:\.\d+)?", clean[at:])[0]) == value}
    assert name in named, (named, rejected)


def test_setup_rules_are_registered():
    """The setup rules the tokens apply are exactly the setup rules of the table, and no row names one."""
    assert set(SETUP_RULES) == {name for name, rule in RULES.items() if rule.setup}


def test_every_rule_has_a_reason_and_an_example():
    for name, rule in RULES.items():
        assert rule.reason.strip() and rule.examples, name


def test_rows_name_only_registered_rules():
    """Over the dev gold abstracts, every row records at least one rule and only rules of the table."""
    seen = set()
    for path in evaluation.DEV_GOLDS:
        for rec in evaluation.read_jsonl(path):
            for r in extract_metrics(clean_text(rec["text"])):
                assert r["rules"] and set(r["rules"]) <= set(RULES), r
                assert not set(r["rules"]) & set(SETUP_RULES), r
                seen |= set(r["rules"])
    assert len(seen) >= 15


@pytest.mark.parametrize(
    "text",
    [
        "Half the cost",
        "a THIRD of it",
        "two thirds",
        "one Quarter",
        "a tenth",
        "it Ranked first",
        "ranks 2nd",
        "rank number one",
        "rank 1st",
        "first place",
        "ZERO error",
        "near-zero loss",
        "Twice as fast",
        "by a factor of",
        "an order of magnitude",
        "ten percent",
        "three TIMES faster",
        "five percentage points",
        "two absolute points",
        "low-rank adapters reach 3% more",  # neither gate matches, though "rank" is a key
        "no such word here",
        "Zéro errors, twice",  # not ASCII: the pattern decides
    ],
)
def test_gates_agree_with_their_patterns(text):
    """spelled.gate skips the case-insensitive search of an ASCII text without a key: on a text matching
    each alternative of WORD_GATE and SPELLED_GATE (in any case), and on texts matching neither, it answers
    what the search does."""
    for pattern, keys in ((WORD_GATE, WORD_GATE_KEYS), (SPELLED_GATE, SPELLED_GATE_KEYS)):
        assert gate(pattern, keys, text) == (pattern.search(text) is not None)
