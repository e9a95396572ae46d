"""Grouping keys, unit_text, full-width input, generic words and one baseline name per number."""

import pytest

from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.extraction import extract_metrics
from pipeline.analyse.extraction.keys import dataset_key, metric_key


@pytest.mark.parametrize(
    "names,key",
    [
        (["CIFAR-10", "CIFAR10", "cifar-10", "ＣＩＦＡＲ-１０", "the CIFAR-10 dataset"], "cifar10"),
        (["MS COCO", "MS-COCO", "MSCOCO dataset", "ms coco benchmark"], "mscoco"),
        (["Pascal VOC 2007", "PASCAL-VOC 2007"], "pascalvoc2007"),
    ],
)
def test_dataset_key_groups_spellings(names, key):
    assert {dataset_key(n) for n in names} == {key}


@pytest.mark.parametrize(
    "names,key",
    [
        (["F1", "F1 score", "F_1", "F-1", "f1 scores"], "f1"),
        (["top-1 accuracy", "Top-1 Accuracies"], "top1accuracy"),
        (["pass@1", "Pass@1"], "pass@1"),
    ],
)
def test_metric_key_groups_spellings(names, key):
    assert {metric_key(n) for n in names} == {key}


def test_keys_of_nothing_are_none():
    assert dataset_key(None) is None and metric_key("") is None and dataset_key(" - ") is None


def _rows(text):
    return extract_metrics(clean_text(text))


def test_rows_carry_keys():
    (r,) = _rows("The model reaches 81.2% top-1 accuracy on CIFAR-10.")
    assert (r["metric_key"], r["dataset_key"]) == ("top1accuracy", "cifar10")


@pytest.mark.parametrize(
    "text,value,unit_text",
    [
        ("Inference latency drops to 35 ms per image.", 35.0, "ms"),
        ("Peak memory falls to 12 GB, a 2x reduction.", 12.0, "GB"),
        ("The detector runs at 30 fps on a phone, faster than before.", 30.0, "fps"),
    ],
)
def test_units_without_a_class_keep_their_text(text, value, unit_text):
    r = next(r for r in _rows(text) if r["value"] == value)
    assert r["unit"] is None and r["unit_text"] == unit_text


def test_full_width_digits_and_percent():
    (r,) = _rows("准确率提高了５．３％。")
    assert (r["value"], r["unit"], r["span"]) == (5.3, "%", "5.3%")
    (r,) = _rows("The model reaches ８１．２％ accuracy on ＣＩＦＡＲ-１０.")
    assert (r["value"], r["metric"], r["dataset_key"]) == (81.2, "accuracy", "cifar10")


def test_generic_words_are_not_names():
    (r,) = _rows("Our retriever improves accuracy by 4.2% on five multi-hop QA datasets.")
    assert r["dataset"] is None
    (r,) = _rows("Pruning costs only 0.3% negligible accuracy on ImageNet.")
    assert r["metric"] == "accuracy"


def test_one_baseline_name_per_number():
    rows = _rows(
        "On REval our model scores 82.9%, outperforming baseline CodeReasoner-7B (72.3%), its 14B "
        "counterpart (81.1%), and GPT-4o (77.3%). It reaches 61.0% (vs. 42.9% for GPT-4o)."
    )
    got = {r["value"]: (r["subject"], r["baseline"]) for r in rows}
    assert got[72.3] == ("baseline", "CodeReasoner-7B")
    assert got[77.3] == ("baseline", "GPT-4o")
    assert got[42.9] == ("baseline", "GPT-4o")
    assert got[82.9] == ("ours", None)
