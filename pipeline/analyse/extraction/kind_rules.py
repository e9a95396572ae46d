"""The named rules that decide a metric row's kind (score, delta, relative_change ...) beyond its unit.

Part of the rule table :data:`pipeline.analyse.extraction.rules.RULES` (which wraps each entry in its ``Rule``;
this module is apart only to keep both files short): ``{rule name: (reason, examples)}``, an example being
``(text, value, expected)`` as there, run by ``tests/analyse/test_extraction_rules.py``. The rules are applied by
:func:`pipeline.analyse.extraction.roles.kind_rule` and, for a metric named by linking,
``pipeline.analyse.extraction.metrics``.
"""

from __future__ import annotations

KIND_RULES: dict[str, tuple[str, tuple]] = {
    "kind-over-100-percent": (
        "A % change above 100 cannot be the difference of two percentage levels (both lie in 0-100), so it "
        "is relative to the level it starts from (roles.MAX_PERCENT_DELTA).",
        (
            (
                "The experimental results obtained show 145% performance gains over the present state-of-the-art.",
                145.0,
                {"kind": "relative_change"},
            ),
        ),
    ),
    "kind-saving-speedup": (
        "A % after a verb of saving or cutting ('saving 77.3% training time', 'reduces 13.9% FPR95') or "
        "before 'speed-up' is a relative change of that quantity.",
        (
            (
                "Koopa achieves competitive performance while saving 77.3% training time and 76.0% memory.",
                77.3,
                {"kind": "relative_change", "metric": "training time"},
            ),
            ("It achieves up to a 38% speed-up over unweighted training.", 38.0, {"kind": "relative_change"}),
        ),
    ),
    "elided-change": (
        "A level after ', and' whose next words repeat the words after a change before it is that change again, "
        "its verb and noun left out; it takes the change's kind, direction and metric.",
        (
            (
                "We obtain 1.8% gain of F1 accuracy on top of the BiDAF reader, and 1.0% on top of the BERT base "
                "model.",
                1.0,
                {"kind": "delta", "metric": "F1 accuracy"},
            ),
        ),
    ),
    "kind-difference": (
        "A % after 'difference is/of', before 'difference', or before 'above the state of the art/baseline/"
        "chance' is a difference of two levels: a delta.",
        (
            ("In reinflection, the greatest average difference is 1.2% in accuracy.", 1.2, {"kind": "delta"}),
            ("The intelligibility is comparable (< 3% difference) to real lips.", 3.0, {"kind": "delta"}),
            ("It reaches about 30%, roughly 10% above the state-of-the-art.", 10.0, {"kind": "delta"}),
        ),
    ),
    "kind-change-named": (
        "A change noun still makes a number a change when what changed is named between: up to four words or a "
        "short bracketed label after the number ('0.6% absolute character error rates (CER) reduction', '55% "
        "(UAE) reduction'; never across a function word: '70% accuracy with noise reduction' is a level, nor "
        "when the noun ends a metric name: 'discounted cumulative gain'), or 'in <what>' before 'of' (up to four "
        "words, no preposition: 'an improvement in F1 of 3.5%'). 'relative' (also one word before the noun: "
        "'relative rating improvement of') or 'absolute', whichever is nearer the number, decides relative change "
        "or delta ('3.4% absolute reduction (26% relative)'); 'absolute' keeps a reduction a delta; "
        "a 'relative' after a bracketed number that follows is that number's ('by 4.7% (16.5% relatively)', 'WER "
        "of 9.0% (19% relative improvement)'), a list's is shared ('by 13% and 16% relative to'); a percentage "
        "followed by 'absolute' is a delta itself ('10% absolute and 16% relative improvement'), unless "
        "'absolute' starts the name of an error ('5% absolute relative depth errors').",
        (
            (
                "Our model outperforms the original model in both automatic (10% absolute and 16% relative "
                "improvement in mean IoU) and interactive modes.",
                16.0,
                {"kind": "relative_change", "metric": "mean IoU"},
            ),
            (
                "LSA yields 6%--8% relative perplexity reduction and 0.6% absolute character error rates (CER) reduction.",
                0.6,
                {"kind": "delta"},
            ),
            (
                "Our method shows 22% (IN) & 55% (UAE) reduction in delivery defects.",
                55.0,
                {"kind": "relative_change"},
            ),
            (
                "We obtain an average increase in F1 score of 3.5% over strong baselines.",
                3.5,
                {"kind": "delta"},
            ),
            ("We achieve a relative improvement in word-error rate of 8%.", 8.0, {"kind": "relative_change"}),
            (
                "Curiosities provide an average relative rating improvement of 9.7%.",
                9.7,
                {"kind": "relative_change"},
            ),
            (
                "It shows improvements in the slot tagging F1-score of up to 6.09% compared to existing approaches.",
                6.09,
                {"kind": "delta"},
            ),
            (
                "It improves toxicity mitigation by up to 3.4% absolute reduction (26% relative) over the original work.",
                26.0,
                {"kind": "relative_change"},
            ),
        ),
    ),
    "kind-score-drop": (
        "A % change that only goes down is a relative change of a quantity, unless the quantity is a "
        "higher-is-better score (vocabulary.metric_directions): 'a 2.4% accuracy drop' loses points, a delta "
        "(six gold files: 4 of 4 such rows are deltas).",
        (
            (
                "The model runs on a phone with only 2.4% accuracy drop.",
                2.4,
                {"kind": "delta", "metric": "accuracy"},
            ),
            ("The mean Intersection over Union (mIoU) drops by 3%.", 3.0, {"kind": "delta"}),
        ),
    ),
    "kind-of-linked-metric": (
        "A % change whose metric a linking rule named after its kind was decided is decided again on that name: "
        "a change of an error measured on its own scale (an error, a distance, a displacement; not a rate) is "
        "relative, as the amount rule makes it when the name is found first (GUIDELINES: a reduction or increase "
        "of a quantity in % is relative_change; dev corpus: 19 rows changed, docs/extraction.md).",
        (
            (
                "Notably, our method reduces the joint final displacement error of Wayformer, HPTR, and Scene "
                "Transformer models by 3%, 8%, and 12%, respectively.",
                8.0,
                {"kind": "relative_change", "metric": "error"},
            ),
            (
                "Extensive experiments have shown that SPGSN outperforms state-of-the-art methods by remarkable "
                "margins of 13.8%, 9.3% and 2.7% in terms of 3D mean per joint position error (MPJPE) on "
                "Human3.6M, CMU Mocap and 3DPW datasets, respectively.",
                13.8,
                {"kind": "relative_change", "dataset": "Human3.6M"},
            ),
        ),
    ),
    "kind-level-of": (
        "A number that a metric phrase before it names as its value ('a MOTA score of 93.4', 'an accuracy for "
        "difficult long-range contacts of about 30%') is a level, whatever comparison follows ('significantly "
        "higher than ...'); not after a change word ('an improvement of'), 'by', a sign, or before a comparative "
        "right after the number.",
        (
            (
                "In challenging scenarios such as DanceTrack DragonTrack achieves an impressive MOTA score of 93.4 "
                "significantly higher than the second-best SOTA method ByteTrack which achieves only 89.6.",
                93.4,
                {"kind": "score", "metric": "MOTA score"},
            ),
            (
                "The deep approach leads to an accuracy for difficult long-range contacts of about 30%, roughly 10% "
                "above the state-of-the-art.",
                30.0,
                {"kind": "score"},
            ),
        ),
    ),
    "share-of-the-time": (
        "'N% of the time / of the cases' is the share of the cases where something holds: a level (score), "
        "never a relative change of a time.",
        (
            (
                "Our model predicts the exact correct repair 41% of the time with a single guess.",
                41.0,
                {"kind": "score"},
            ),
        ),
    ),
}
