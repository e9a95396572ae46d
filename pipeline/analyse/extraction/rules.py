"""The named rules of metric extraction: what each decides, why, and examples it must get right.

Every metric row carries, in its ``rules`` column, the names of the rules that decided it (how the number
became a row, where its metric and dataset came from). This table is their documentation and their test:
``tests/analyse/test_extraction_rules.py`` runs every example through
:func:`pipeline.analyse.extraction.metrics.extract_metrics` and checks that the row with the example's value has the
expected fields and names the rule.

An example is ``(text, value, expected)``: ``text`` is a clean abstract sentence, ``value`` the row's value
(``value_low`` for a range), ``expected`` a dict of fields the row must have.

The setup rules (``setup=True``, names ``setup-*``, kept in ``setup_rules``) reject a number: it is part of a name or describes the
setup (GUIDELINES "NOT metrics"), so it has no row and their names are in no row's ``rules``;
:mod:`pipeline.analyse.extraction.tokens` applies them (``SETUP_RULES``) and records the one that rejected a
number on its token. Their example ``(text, value, kept)`` says that no row has ``value`` (as ``value`` or
``value_low``), that the tokens name this rule for it, and that a row with the fields ``kept`` is extracted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.analyse.extraction.dataset_rules import DATASET_RULES
from pipeline.analyse.extraction.kind_rules import KIND_RULES
from pipeline.analyse.extraction.name_rules import NAME_RULES
from pipeline.analyse.extraction.setup_rules import SETUP_RULE_TABLE


@dataclass(frozen=True)
class Rule:
    """One named rule: ``reason`` says in one line why it holds; ``examples`` are its test cases; ``setup``
    marks a rule that rejects a number as setup (its examples name a value that must not be extracted)."""

    reason: str
    examples: tuple = field(default_factory=tuple)
    setup: bool = False


RULES: dict[str, Rule] = {
    # ---- setup: a number that is part of a name or describes the setup, never a row (GUIDELINES "NOT metrics";
    # pipeline.analyse.extraction.tokens.SETUP_RULES, in the order applied; not written into rows' rules)
    **{name: Rule(reason, examples, setup=True) for name, (reason, examples) in SETUP_RULE_TABLE.items()},
    # ---- how a number becomes a row
    "accept-unit": Rule(
        "A number written with %, percentage points or a multiplier sign is a result unless a setup rule "
        "rejects it (GUIDELINES: result metrics carry these units).",
        (
            ("Our model reaches 81.2% accuracy on ImageNet.", 81.2, {"unit": "%", "kind": "score"}),
            ("It improves accuracy by 4.1% points.", 4.1, {"unit": "pp", "unit_text": "% points"}),
            # a percentage with the metric and "points" after it is in points, and so is the list it ends
            (
                "It outperforms ASL and MPVAE by on average 12.5% and 26.3% mean average precision (mAP) points, "
                "respectively.",
                12.5,
                {"unit": "pp", "kind": "delta", "metric": "mean average precision"},
            ),
            # "%p": the percent-point sign of Korean and Japanese writing
            (
                "It outperforms the runner-up by a margin of 2.1%p in CIDEr-D.",
                2.1,
                {"unit": "pp", "unit_text": "%p"},
            ),
            # "-times" is a multiplier ("3.48-times speed-ups")
            (
                "SGD-RS achieves at least 3.48-times speed-ups compared to vanilla minibatch SGD.",
                3.48,
                {"unit": "x", "kind": "multiplier", "qualifier": "at least"},
            ),
            # hyphenated points of a change ("a 5-point Likert scale" is setup)
            (
                "It leads to a 4.5-point gain in detection mAP.",
                4.5,
                {"unit": "pp", "kind": "delta", "metric": "detection mAP"},
            ),
            # and of a metric written after them
            (
                "Our method outperforms all previous bottom-up methods in accuracy (+4-point mAP over previous best "
                "result).",
                4.0,
                {"unit": "pp", "kind": "delta", "metric": "mAP"},
            ),
            # the unit after a spread is the number's: "68±3% accuracy"
            (
                "Our system predicted which hand the patient would raise with 68±3% accuracy in two patients.",
                68.0,
                {"unit": "%", "metric": "accuracy", "span": "68±3%"},
            ),
        ),
    ),
    "measure-unit": Rule(
        "A number with a measure unit the design has no class for (ms, GB, fps) is a result when the sentence "
        "reports a result or a change; a length or an angle (m, cm, km, deg) only where an error or an accuracy "
        "names it, being setup far more often ('360deg video', 'a 40m boulder field'); the unit is kept in "
        "unit_text.",
        (
            ("Inference latency drops to 35 ms per image.", 35.0, {"unit": None, "unit_text": "ms"}),
            ("It reduces memory use to 12 GB.", 12.0, {"unit": None, "unit_text": "GB"}),
            # a measure the method runs at is its result ("runs at", "operates in": vocabulary RUN_VERBS)
            (
                "Our tracker runs at 30 FPS on a commodity graphics card.",
                30.0,
                {"metric": "FPS", "kind": "score"},
            ),
            # a rate that names its metric (vocabulary UNIT_METRICS) in a sentence that reports results
            (
                "Furthermore, we demonstrate that A* can achieve real-time inference speeds of 33 FPS.",
                33.0,
                {"metric": "FPS", "kind": "score"},
            ),
            # spelled units; a device the measure is taken on is no data set
            (
                "It is much faster than contemporaneous methods and runs at 67 frames per second on a 1080Ti GPU.",
                67.0,
                {"metric": "frames per second", "unit_text": "frames per second", "dataset": None},
            ),
            ("The primitives are computed in about 10 seconds per image.", 10.0, {"qualifier": "about"}),
            # a length or an angle only where an error or accuracy names it (vocabulary NAMED_MEASURE_UNITS)
            (
                "After training, a localization took 0.7 ms with an average error of 0.90 cm.",
                0.9,
                {"unit_text": "cm", "metric": "average error", "kind": "score"},
            ),
            (
                "We show that our proposal is a reliable alternative, achieving 29cm median error in a 1.9km loop.",
                29.0,
                {"unit_text": "cm", "metric": "median error"},
            ),
        ),
    ),
    "plain-result": Rule(
        "A plain decimal is a result only next to a metric name (also after a capitalised name: '0.949 Pearson "
        "correlation'), a sign, a benchmark after 'on' or a 'vs.' "
        "partner (GUIDELINES: 'BLEU 28.4', 'F1 of 0.91', 'slope -0.38'); plain integers are counts, except a "
        "change 'by N' of the metric just named ('reduces FID by 100'), a change in a metric's units named right "
        "after it ('by 2 F1', 'an improvement of 1 BLEU score') and a level of two or three digits after a "
        "metric and 'of'/'are'/'=' with no noun after it ('a recall of 83 and', not 'the accuracy of 16 "
        "models') or before a metric name in a sentence that reports results ('obtains 48 BLEU', not the end of "
        "a range 'a 2-27 BLEU gain' nor a bracketed setting '(10 NFE)'). A sign alone makes no result in math notation "
        "(an interval '[-1,1]', '-2 log', '≜ -2').",
        (
            ("We obtain 28.4 BLEU on WMT'14 En-De.", 28.4, {"metric": "BLEU", "dataset": "WMT'14 En-De"}),
            ("Guidance reduces FID by 100 on FFHQ.", 100.0, {"metric": "FID", "kind": "delta"}),
            # an integer of two or three digits a metric names as its level, no noun after it
            (
                "HealTech achieves a recall of 83 and a precision of 92 for wounds with the risk of hospitalization.",
                83.0,
                {"metric": "recall", "kind": "score", "unit": None},
            ),
            (
                "Notably, we bridge the quality gap between non-autoregressive and autoregressive parsers, achieving "
                "87 EM on TOPv2.",
                87.0,
                {"metric": "EM", "kind": "score", "dataset": "TOPv2"},
            ),
            (
                "Our system outperforms comparable state-of-the-art methods by 2 F1 on OntoNotes and 6.8 F1 on the "
                "CODI-CRAC 2021 corpus.",
                2.0,
                {"metric": "F1", "kind": "delta", "dataset": "OntoNotes"},
            ),
            (
                "Our approach gains approximately an improvement of 1 BLEU score on most benchmarks.",
                1.0,
                {"metric": "BLEU score", "kind": "delta"},
            ),
            # the metric's abbreviation in brackets between the name and "by"
            (
                "It leads the KITTI 3D benchmark by improving the BEV Average Precision (AP) by 2.02.",
                2.02,
                {"kind": "delta", "dataset": "KITTI 3D"},
            ),
            # a capitalised name before the metric word after the number: "0.949 Pearson correlation"
            (
                "PT-M2 significantly outperforms existing methods, achieving a new state-of-the-art result of 0.949 "
                "Pearson correlation.",
                0.949,
                {"metric": "Pearson correlation", "kind": "score"},
            ),
            # a metric name given its value with "=", glued or not, is a level of that metric
            (
                "Our searched GANs achieve competitive results (IS=8.81±0.10, FID=9.91) on the CIFAR-10 dataset.",
                9.91,
                {"metric": "FID", "kind": "score", "dataset": "CIFAR-10"},
            ),
            (
                "We achieve strong performance improvements over the baselines (F1 = 0.71, 12.7% relative "
                "improvement for AE Detection).",
                0.71,
                {"metric": "F1", "kind": "score"},
            ),
            # a lower-case variant word before the metric ("mask AP", "denotation accuracy")
            (
                "Our overall system achieves 48.6 mask AP on the test-challenge split.",
                48.6,
                {"metric": "mask AP"},
            ),
            # the metric named after "by N in" ("improve a baseline by 8.0 in average F-score")
            (
                "The harvested labels improve an attentional baseline by 8.0 in average F-score.",
                8.0,
                {"kind": "delta", "metric": "average F-score"},
            ),
            # "nearing"/"approaching" are the qualifier "nearly"
            (
                "We see a notable improvement in SSIM nearing 0.93.",
                0.93,
                {"metric": "SSIM", "qualifier": "nearly"},
            ),
            # plain-change: a plain decimal named as a change, after it or before it
            (
                "It generates high-quality samples, with only a 0.06 increase in FID score.",
                0.06,
                {"metric": "FID", "kind": "delta"},
            ),
            (
                "Timo outperforms the counterpart LLMs by 10.0 and 7.6 in average accuracy scores.",
                10.0,
                {"kind": "delta", "metric": "average accuracy"},
            ),
        ),
    ),
    "coordinated-result": Rule(
        "A plain decimal coordinated with a plain result (a list with 'and'/'or', 'vs.', or alone in brackets "
        "right after it) is a result of the same kind: 'F1 scores of 70.0 and 72.9', '(98.38 vs. 87.98 AUC)', "
        "'an NMI of 0.705 (0.431) on CIFAR-10 (CIFAR-100)' (the bracketed partner takes the bracketed set).",
        (
            (
                "Our best-performing models reach F1 scores of 70.0 and 72.9 on notes and conversations "
                "respectively, using no labeled target data.",
                72.9,
                {"metric": "F1 score", "kind": "score", "subject": "ours"},
            ),
            (
                "It outperformed the state-of-the-art on the ogbl-vessel benchmark by 12% (98.38 vs. 87.98 AUC).",
                98.38,
                {"metric": "AUC", "subject": "ours", "dataset": "ogbl-vessel"},
            ),
            (
                "In particular, CC achieves an NMI of 0.705 (0.431) on the CIFAR-10 (CIFAR-100) dataset.",
                0.431,
                {"metric": "NMI", "dataset": "CIFAR-100"},
            ),
        ),
    ),
    "metric-points": Rule(
        "'N <metric> points' and 'N <metric> higher/better/gain' are a change of the metric named between: "
        "percentage points ('by up to 52.7 accuracy points', '1–5 F1 points'), except the points of a metric "
        "on its own scale, which are its units (unit null: '6 BLEU points', 'by 2.77 points' of BLEU; "
        "vocabulary POINT_SCALE_METRICS; GUIDELINES: 'pp' only for percentage points).",
        (
            (
                "Fine-tuning on it improves performance on its task by up to 52.7 accuracy points.",
                52.7,
                {"unit": "pp", "kind": "delta", "metric": "accuracy"},
            ),
            (
                "The best systems reach performance within 1–5 F1 points of systems evaluated at the end.",
                1.0,
                {"unit": "pp", "kind": "range", "value_high": 5.0, "metric": "F1"},
            ),
            # a prefix joined to the metric by a hyphen is part of its name
            (
                "LESA outperforms existing baselines by 1 claim-F1 point on the in-domain experiments.",
                1.0,
                {"unit": "pp", "kind": "delta", "metric": "claim-F1"},
            ),
            (
                "We improve the translation quality by 6 BLEU points with limited training data.",
                6.0,
                {"unit": None, "kind": "delta", "metric": "BLEU"},
            ),
            (
                "On WMT14 En-De, it obtains 29.80 BLEU, which outperforms the previous model by 2.77 points.",
                2.77,
                {"unit": None, "kind": "delta", "metric": "BLEU"},
            ),
            ("Our method performs better (3 mAP higher) than the state of the art.", 3.0, {"metric": "mAP"}),
        ),
    ),
    "prefix-multiplier": Rule(
        "A multiplier sign written before the number with a comparative after it is its unit: 'x3 speedup', "
        "'up to ×8 faster'; without the comparative ('super-resolution x4') it is a setting.",
        (
            (
                "Our quantized model achieves up to x8.8 speedup with less than 1% accuracy loss.",
                8.8,
                {"unit": "x", "kind": "multiplier", "metric": "speedup", "span": "up to x8.8"},
            ),
        ),
    ),
    "before-after": Rule(
        "'from A to B' (also 'from A mAP to B mAP', the words after A repeated after B) and 'A → B' with "
        "numbers of one unit are one before_after row: value B, value_from A; its subject is the paper's. A "
        "qualifier after 'to' is B's ('from 30% to up to 70%').",
        (
            (
                "Fine-tuning reduces WER from 5.1 to 4.3.",
                4.3,
                {"kind": "before_after", "value_from": 5.1, "metric": "WER"},
            ),
            (
                "By addressing both challenges we are able to improve the ability to translate new, rare words and "
                "phrases from 30% to up to 70%.",
                70.0,
                {"kind": "before_after", "value_from": 30.0, "qualifier": "up to"},
            ),
            # the next pair of a list of such pairs, its "from" left out
            (
                "FLiText improves the accuracy of TextCNN from 51.00% to 90.49% on IMDb, 39.8% to 58.06% on Yelp-5, "
                "and from 55.3% to 65.08% on Yahoo! Answer.",
                58.06,
                {"kind": "before_after", "value_from": 39.8, "dataset": "Yelp-5"},
            ),
            (
                "We boost the performance on instance segmentation from 35.7 mAP to 37.9 mAP.",
                37.9,
                {"kind": "before_after", "value_from": 35.7, "metric": "mAP"},
            ),
            (
                "It improves over prior autoformalizers on pass@1 accuracy (6.2% → 9.6%).",
                9.6,
                {"kind": "before_after", "value_from": 6.2, "subject": "ours"},
            ),
        ),
    ),
    # ---- the kind of a change or a level (kind_rules.KIND_RULES)
    **{name: Rule(reason, examples) for name, (reason, examples) in KIND_RULES.items()},
    "margin-bracket": Rule(
        "A bracket right after 'margin(s)', 'gap', 'gain(s)' or 'improvement(s)', or after a short phrase of "
        "where ('gains across all the tasks (', 'improvements over popular methods ('), holds that margin: a "
        "delta of the paper's method, not a baseline's level ('surpasses X by a large margin (17%)'); a bracket "
        "that compares two levels ('(79.8% vs 68.0%)') is not one. Over the dev corpus the phrase of where "
        "changed 11 rows' kind, all to the delta the sentence reports.",
        (
            (
                "CARAFE shows substantial gains across all the tasks (1.2% AP, 1.3% AP, 1.8% mIoU, respectively).",
                1.8,
                {"kind": "delta", "metric": "mIoU"},
            ),
            (
                "Our method surpasses previous state-of-the-arts by a large margin (17%) on LC-QuAD 1.0.",
                17.0,
                {"kind": "delta", "subject": "ours"},
            ),
            (
                "It surpasses previous state-of-the-art by large margins (3.7% and 1.2% respectively).",
                1.2,
                {"kind": "delta", "subject": "ours"},
            ),
        ),
    ),
    "range": Rule(
        "'A-B', 'A--B', 'A to B' (and 'from A up to B') with one unit is a range (value null, value_low/value_high), and so are two plain "
        "decimals right after a metric name or a correlation statistic ('F1=0.93-0.96', 'Pearson correlations of "
        "0.91-0.99', 'Pearson’s rho of .55 to .77'), and two percentages or multipliers with only a space between, "
        "the first the smaller and neither in a longer list: a dash lost from the PDF text ('with 35 45% less "
        "training time', '4 6x speed-up').",
        (
            ("Speedups of 1.5-2.3× are obtained.", 1.5, {"kind": "range", "value_high": 2.3}),
            (
                "Our results show that EarlyBERT achieves comparable performance to standard BERT, with 35 45% less "
                "training time.",
                35.0,
                {"kind": "range", "value_high": 45.0, "unit": "%"},
            ),
            # two plain decimals after a metric name, with no unit
            (
                "Our models achieve strong classification performance (maximum F1=0.93-0.96).",
                0.93,
                {"kind": "range", "value_high": 0.96, "metric": "F1"},
            ),
            (
                "After parameter optimization, the model achieved F1 scores ranging from 0.97 to 1.0.",
                0.97,
                {"kind": "range", "value_high": 1.0, "metric": "F1 score"},
            ),
            # a statistic written out, its decimals without the leading zero (a number everywhere)
            (
                "VAST scores diverge between our contextual settings, ranging from Pearson’s rho of .55 to .77 in "
                "layer 11.",
                0.55,
                {"kind": "range", "value_high": 0.77, "metric": "Pearson’s rho"},
            ),
            # "up to" joins the ends only after "from"
            (
                "We obtain relative improvements ranging from 8% up to 40% in Hits@3 across multiple knowledge "
                "graphs.",
                8.0,
                {"kind": "range", "value_high": 40.0, "metric": "Hits@3"},
            ),
        ),
    ),
    "slash-pair": Rule(
        "'87.5/89.1 EM/F1' pairs each number with the metric in the same position; a pair of percentages "
        "('81%/14%') is two rows, paired with the slash names after it ('on ASR/SSIM') or sharing one bracketed "
        "metric ('9.8%/6.3% (AUC)'), and is one list with the pairs beside it.",
        (
            ("It scores 87.5/89.1 EM/F1 on SQuAD v1.1.", 89.1, {"metric": "F1"}),
            (
                "VFA outperforms the comparisons by large margins (up to 81%/14% improvements on ASR/SSIM).",
                14.0,
                {"metric": "SSIM", "dataset": None},
            ),
            (
                "Our SiamFC+ and SiamRPN+ obtain up to 9.8%/6.3% (AUC), 23.3%/8.8% (EAO) and 24.4%/25.0% (EAO) "
                "relative improvements over the original versions on the OTB-15, VOT-16 and VOT-17 datasets, "
                "respectively.",
                8.8,
                {"metric": "EAO", "dataset": "VOT-16", "kind": "relative_change"},
            ),
        ),
    ),
    "slash-datasets": Rule(
        "A slash list of numbers followed in its clause by 'on|in' and a slash list of as many data sets is "
        "that many results, each on the set in the same position (plain decimals too: the named sets are the "
        "evidence); a bare suffix after the first name repeats its stem ('Kinetics-400/600'), a year or a word in "
        "capitals after a name is part of it ('SUN RGB-D'). Models or metrics in the slash list ('on "
        "ResNet32/ResNet18', 'on ASR/SSIM') are no sets, nor what 'for' introduces ('for GIN/Graphormer'). Dev "
        "corpus: 10 such lists in 58,671 abstracts (docs/extraction.md).",
        (
            (
                "We find subnetworks that can achieve 29.45/17.29 BLEU on IWSLT14/WMT14.",
                17.29,
                {"metric": "BLEU", "dataset": "WMT14"},
            ),
            (
                "MAC++ shows 27.1%/30.6% registration recall improvements on 3DMatch/3DLoMatch.",
                27.1,
                {"dataset": "3DMatch"},
            ),
            (
                "DualFormer achieves 82.9%/85.2% top-1 accuracy on Kinetics-400/600 with 1000G FLOPs.",
                85.2,
                {"metric": "top-1 accuracy", "dataset": "Kinetics-600"},
            ),
            (
                "Pre-training improves detection mAP@0.5 by 5.5%/6.5% over training from scratch on ScanNet/SUN RGB-D.",
                6.5,
                {"dataset": "SUN RGB-D"},
            ),
        ),
    ),
    "spelled-number": Rule(
        "Results written in words: 'twice as', 'factor of N' (N > 0), 'N orders of magnitude' (a range for 'one to "
        "two', '2--3', 'between one and two'; none after 'ranging over', 'spanning'), 'one percent', 'one "
        "percentage point', 'by two times' / 'three times faster' (not 'N times fewer <data>': the setup), fractions "
        "of a quantity ('about half the accuracy'), ranks ('ranked first', 'ranking 1st', 'rank number one', 'won the "
        "1st place', 'ranked the first on X', 'placed first in X', and ranks coordinated with one: 'first on X and "
        "second on Y', 'the first and third places': metric 'rank'), 'zero error'.",
        (
            (
                "Our solver is two orders of magnitude faster than Cplex.",
                100.0,
                {"unit": "x", "kind": "multiplier"},
            ),
            (
                "Experiments show a speedup between one and four orders of magnitude over state-of-the-art "
                "frameworks.",
                10.0,
                {"unit": "x", "kind": "range", "value_high": 10000.0},
            ),
            # "one to two", "2--3" orders of magnitude: a range of multipliers; a span of the setup is none
            (
                "This scalable design reduces FLOPs by one to two orders of magnitude compared to classical "
                "transformers.",
                10.0,
                {"kind": "range", "unit": "x", "value_high": 100.0, "metric": "FLOPs"},
            ),
            (
                "Our method is 1-2 orders of magnitude faster than the existing state-of-the-art methods.",
                10.0,
                {"kind": "range", "value_high": 100.0},
            ),
            ("It reaches about half the accuracy of GPT-4.", 0.5, {"unit": "x", "metric": "accuracy"}),
            ("Our system ranked first in the shared task.", 1.0, {"unit": None, "kind": "score"}),
            (
                "It outperforms MinkowskiNet by 3.3%, ranking 1st on the competitive SemanticKITTI leaderboard.",
                1.0,
                {"kind": "score", "metric": "rank", "dataset": "SemanticKITTI"},
            ),
            (
                "Plus, we rank number one in the official ImageNet 2013 detection challenge.",
                1.0,
                {"metric": "rank"},
            ),
            # a rank with an article or "placed", and further ranks coordinated with it
            (
                "We conducted extensive experiments on CARLA benchmarks, where our model outperforms prior methods, "
                "ranking the first on the public CARLA Leaderboard.",
                1.0,
                {"metric": "rank", "kind": "score"},
            ),
            (
                "After fine-tuning on the real datasets, our method ranks first on KITTI 2012, second on KITTI 2015, "
                "and first on the Argoverse among all published methods.",
                2.0,
                {"metric": "rank", "dataset": "KITTI 2015"},
            ),
            (
                "The agents that implement the proposed technique have won the first and third places.",
                3.0,
                {"metric": "rank", "span": "third"},
            ),
            # a rank as the complement of a verb of finishing ("came first in", "would score third in")
            (
                "After fixing a human error, our submission would score third in the competition evaluation.",
                3.0,
                {"metric": "rank", "kind": "score", "span": "third"},
            ),
            ("Accuracy rises by one percentage point.", 1.0, {"unit": "pp", "kind": "delta"}),
            (
                "It improves uncertainty estimation quality by two times for blood typing.",
                2.0,
                {"unit": "x", "kind": "multiplier", "metric": "uncertainty estimation quality"},
            ),
            ("The method achieves zero training error on MNIST.", 0.0, {"metric": "training error"}),
        ),
    ),
    "correlation-symbol": Rule(
        "A correlation statistic written as a symbol or a name before '=' or 'of' (r, ρ, τ, R²) is a result with "
        "that symbol as metric, never a formula; so are an effect size (partial eta squared, Cohen's d) and a "
        "significance level 'p = N' or 'p < N' with N at most vocabulary.SIGNIFICANCE_MAX (the outcome of the "
        "paper's own test, labelled as a score in the blind11 gold file; a larger p is a "
        "parameter: 'p = 0.5').",
        (
            (
                "The topic distributions differed on social difficulties (p = .0083, partial eta squared = .19).",
                0.0083,
                {"metric": "p", "kind": "score"},
            ),
            (
                "The topic distributions differed on social difficulties (p = .0083, partial eta squared = .19).",
                0.19,
                {"metric": "partial eta squared", "kind": "score"},
            ),
            ("Users preferred our robot (p < .001).", 0.001, {"metric": "p", "qualifier": "<"}),
            ("The score correlates with human judgments (r = 0.91).", 0.91, {"metric": "r"}),
            ("Kendall's τ=0.64 with the reference ranking.", 0.64, {"metric": "Kendall's τ"}),
            ("We measure a Spearman's ρ of 0.71 across tasks.", 0.71, {"metric": "Spearman's ρ"}),
            # the list of what is correlated does not rename the statistic of a "respectively" list
            (
                "There is a strong correlation between ImageNet accuracy and transfer accuracy (r = 0.99 and "
                "0.96, respectively).",
                0.99,
                {"metric": "r"},
            ),
            ("Annotators reached a Fleiss’ Kappa of 0.82.", 0.82, {"metric": "Fleiss’ Kappa"}),
        ),
    ),
    "unsigned-multiplier": Rule(
        "A multiplier is positive, so a minus sign before an 'x' number is a dash (a range separator or "
        "punctuation), never a sign: the row is the positive multiplier (schemas: non_negative_levels).",
        (
            (
                "Our method yields high-quality annotations at 2.3x less -14.9x annotation time than existing methods.",
                14.9,
                {"kind": "multiplier", "unit": "x", "value_text": "14.9", "span": "14.9x"},
            ),
            (
                "The weakly supervised baseline on all dataset pairs 1.5 by × -1.9×, establishing its applicability.",
                1.9,
                {"kind": "multiplier", "unit": "x"},
            ),
        ),
    ),
    "negative-percent-change": Rule(
        "A percentage level is never negative: a % row that the rules before made a score (a possessive, a "
        "baseline's number) but carries a minus sign is a change, kind delta, direction decrease; the last rule "
        "of row assembly (schemas: non_negative_levels).",
        (("The baseline's -5.1% accuracy drop is large.", -5.1, {"kind": "delta", "direction": "decrease"}),),
    ),
    # ---- where the metric name comes from (name_rules.NAME_RULES), where the data set (dataset_rules)
    **{name: Rule(reason, examples) for name, (reason, examples) in NAME_RULES.items()},
    **{name: Rule(reason, examples) for name, (reason, examples) in DATASET_RULES.items()},
    # ---- whose number it is
    "subject-baseline": Rule(
        "A number after 'vs.', 'compared to', a possessive, or in brackets after a comparator is a baseline's.",
        (("It reaches 61.0% (vs. 42.9% for GPT-4o).", 42.9, {"subject": "baseline"}),),
    ),
}
