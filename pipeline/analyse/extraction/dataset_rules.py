"""The named rules that say where a metric row's data set comes from.

Part of the rule table :data:`pipeline.analyse.extraction.rules.RULES` (which wraps each entry in its ``Rule``;
this module is apart only to keep the files short; the metric-name rules are in ``name_rules``): ``{rule name:
(reason, examples)}``, an example being ``(text, value, expected)`` as there, run by
``tests/analyse/test_extraction_rules.py``.
"""

from __future__ import annotations

DATASET_RULES: dict[str, tuple[str, tuple]] = {
    "dataset-in-metric": (
        "A benchmark name inside the metric phrase is the dataset ('improves BoolQ performance by 18.1 pp', "
        "'71.69% ImageNet top-1 accuracy'); a metric name with a suffix never is ('the BLEU-4 score of 55.2'), "
        "and a set named right after the number wins ('a 40% CLS score on the R4R dataset': metric 'CLS score').",
        (
            (
                "It improves BoolQ performance by 18.1 pp.",
                18.1,
                {"dataset": "BoolQ", "metric": "performance"},
            ),
            (
                "Notably, we boost ResNet-18 from 69.90% to 71.69% ImageNet top-1 accuracy.",
                71.69,
                {"dataset": "ImageNet", "metric": "top-1 accuracy"},
            ),
        ),
    ),
    "dataset-after": (
        "'N on|in|for <Name>' after the number names the dataset, unless the name is a kind of thing "
        "('KGE models', 'the CSRL task') or counted ('three ACOS datasets'); a name may start with a lower-case "
        "prefix before its capitals ('nuScenes', 'tieredImageNet'; a prefixed acronym 'fMRI', 'kNN' is none) or "
        "digits before its capitals ('300-W', '3DPW', '7-Scenes'; a dimension, count, resolution or factor '2D', "
        "'10K', '1080P', '4X' is none); a task acronym alone ('on MRC tasks', 'QA', 'NER', 'WSD': vocabulary "
        "TASK_ACRONYMS) is no data set. A set described in lower-case words before 'dataset'/'benchmark' is "
        "one, with an acronym in brackets too ('on the visual wake words (VWW) dataset'), unless a comma comes "
        "first ('on BRIGHT, a ... retrieval (IR) benchmark'). A bracketed aside right after the number is "
        "passed over ('62.1% (+1.9%) on ACE05').",
        (
            (
                "It improves the relation F1 to 62.1% (+1.9%) on ACE05 and 71.9% (+3.0%) on CoNLL04.",
                71.9,
                {"dataset": "CoNLL04"},
            ),
            # before a capitalised word in the metric phrase (rule dataset-in-metric)
            (
                "Our model achieves 66.4% Q8 accuracy on the CB513 dataset, better than the previously reported "
                "best performance.",
                66.4,
                {"dataset": "CB513", "metric": "Q8 accuracy"},
            ),
            ("We reach an FID of 2.1 on FFHQ.", 2.1, {"dataset": "FFHQ"}),
            (
                "It gives a 7.1% increase in test accuracy on the visual wake words (VWW) dataset.",
                7.1,
                {"dataset": "visual wake words (VWW) dataset"},
            ),
            ("It achieves 3.49% mean error on 300-W Fullset.", 3.49, {"dataset": "300-W Fullset"}),
            ("We also achieve MPJPE of 65.0 on the 3DPW test set.", 65.0, {"dataset": "3DPW"}),
            (
                "InstructNav surpasses the previous SOTA method by 10.48% on the zero-shot Habitat ObjNav.",
                10.48,
                {"dataset": "Habitat ObjNav"},
            ),
            (
                "It achieves 75.2% mAP on real student behavior dataset.",
                75.2,
                {"dataset": "real student behavior dataset"},
            ),
            # a described set has no function word ("higher accuracy than the benchmark" names none), and the
            # name after a baseline's number is the baseline ("compared to 15% for BART"), not a set
            (
                "Our model obtains 48.2% accuracy on the remote sensing benchmark, compared to 15% for BART.",
                48.2,
                {"dataset": "remote sensing benchmark"},
            ),
            # a name written with a lower-case prefix before its capitals is a name (dev corpus)
            (
                "Notably, Seal achieves a remarkable 45.0% mIoU on nuScenes after linear probing.",
                45.0,
                {"dataset": "nuScenes"},
            ),
        ),
    ),
    "dataset-before": (
        "A benchmark named earlier in the sentence and not taken by another number's 'N on X'; a set coordinated "
        "after ', and' takes over when the set before it has its own number in between ('on COCO val set with "
        "58.0% PQ, and Cityscapes val set with 68.4% PQ'; never a plain list 'on CIFAR-10, CIFAR-100, and SVHN'). "
        "A name after '<change noun> in' is what changed ('improvements in MR', 'a 15% reduction in ASR'), unless "
        "the change names its metric first ('accuracy degradation in ImageNet classification') or the name is a "
        "data set's ('gain in VOT2016 dataset', 'degradation in Cifar10'). The data a model was trained on "
        "('pre-trained on CiteSum', 'trained on A, B and C') yields to a set named apart from it; alone, it stays "
        "('Trained on COCO data alone, our system achieves ... 0.665').",
        (
            ("On HumanEval, our model reaches 61.0% pass@1.", 61.0, {"dataset": "HumanEval"}),
            (
                "CITES achieves significant gains on XSum over its base model (not pre-trained on CiteSum), e.g., "
                "+7.2 ROUGE-1 zero-shot performance.",
                7.2,
                {"dataset": "XSum"},
            ),
            (
                "Trained on COCO data alone, our system achieves a keypoint average precision of 0.665.",
                0.665,
                {"dataset": "COCO"},
            ),
            (
                "GAV outperformed the state-of-the-art on the ogbl-vessel benchmark by 12% (98.38 vs. 87.98 AUC).",
                12.0,
                {"dataset": "ogbl-vessel"},
            ),
            # a name after "on"/"in" that ends in a metric word or has a cut-off glued ("@10") is a metric
            (
                "On the Freebase FB15K dataset, HolEx outperforms HolE by 14.7% on the HITS@10 metric.",
                14.7,
                {"dataset": "Freebase FB15K"},
            ),
            (
                "In the zero-shot cross-lingual setting of the mATIS++ dataset, LINGUIST out-performs a strong "
                "baseline by +4.14 points absolute on ST F1 Score.",
                4.14,
                {"dataset": "mATIS++"},
            ),
            # a set coordinated after ", and", the set before it with its own number in between (dev corpus)
            (
                "As a result, our kMaX-DeepLab achieves a new state-of-the-art performance on COCO val set with "
                "58.0% PQ, and Cityscapes val set with 68.4% PQ, 44.0% AP, and 83.5% mIoU.",
                68.4,
                {"dataset": "Cityscapes"},
            ),
            # what a change is "in" is the quantity that changed, not a set (gold_dev3)
            (
                "On the CrowdHuman dataset, we achieve +3.2% and +2.0% improvements in MR and AP, also using these "
                "backbones.",
                2.0,
                {"dataset": "CrowdHuman"},
            ),
        ),
    ),
    "baseline-pair-dataset": (
        "A number compared with a baseline's right after it is measured on the data set named after the pair.",
        (
            (
                "It enjoys an F1 score of 81.43% compared with 80.47% of the existing method on CULane.",
                81.43,
                {"dataset": "CULane"},
            ),
        ),
    ),
    "sentence-dataset": (
        "A number with no dataset takes the one data set the other numbers of its sentence are measured on "
        "('N on X' or a list), never from a bracketed aside and never for a number measured 'across N benchmarks' "
        "(written after it, or just before it: 'across three ACOS datasets, averaging 1.48% F1 improvement').",
        (
            (
                "Our technique improves the mAP of YOLOv2 by 3.8% and of YOLOv3 by 2.2% on the MSCOCO dataset.",
                3.8,
                {"dataset": "MSCOCO"},
            ),
        ),
    ),
    "sentence-named-dataset": (
        "A number still with no dataset takes the one data set its clause names anywhere ('on X', 'X dataset'), "
        "never for a physical measure (a speed is measured on hardware), never after 'for' (a model) or 'on a' "
        "(a device), never in a clause that counts its sets or names several at once (a plural set head, a slash "
        "list).",
        (
            (
                "Experimental results show that Claude-3.5-Sonnet achieves the best performance with 77.4% accuracy, "
                "indicating that there is still significant room to improve for LLMs on MiMoTable.",
                77.4,
                {"dataset": "MiMoTable"},
            ),
            (
                "Especially, our approach exceeds the current best method by 9.5% on the most challenging CUHK03 "
                "dataset.",
                9.5,
                {"dataset": "CUHK03"},
            ),
        ),
    ),
    "elaboration-dataset": (
        "A number still with no dataset, in a sentence that opens by elaborating on the one before ('Particularly,', "
        "'For example,', 'Specifically,'), takes the one data set the sentence before names; never when that "
        "sentence names or counts several, never for a physical measure, never when its own sentence names where "
        "it is measured ('on dense prediction tasks').",
        (
            (
                "Experimental results and in-depth analysis on the CommonGen benchmark strongly demonstrate the "
                "effectiveness of our framework. Particularly, KGR4 obtains 33.56 SPICE in the official leaderboard.",
                33.56,
                {"dataset": "CommonGen", "metric": "SPICE"},
            ),
        ),
    ),
    "list-dataset-after": (
        "A data set named right after a list of numbers ('gains of 10.0% and 20.0% on AMC23') is the set of every "
        "number of the list joined to the next by a separator alone, not the set an earlier number took from before "
        "it in the sentence; so is a result joined by 'with' to a number that names its set ('3.92% mean error "
        "with 0.39% failure rate on COFW dataset'), and a level joined by 'and' to the next level its metric names "
        "('a DSC of 83.42% and an HD95 of 5.10 on the CAD-PE dataset').",
        (
            (
                "By utilising boundary information of 300-W dataset, our method achieves 3.92% mean error with 0.39% "
                "failure rate on COFW dataset, and 1.25% mean error on AFLW-Full dataset.",
                3.92,
                {"dataset": "COFW"},
            ),
            (
                "SPOC achieves absolute gains of 8.8% and 11.6% on MATH500, 10.0% and 20.0% on AMC23, and 3.3% and "
                "6.7% on AIME24, respectively.",
                10.0,
                {"dataset": "AMC23"},
            ),
            (
                "Our method achieved a DSC of 83.47% and an HD95 of 3.83 on the FUMPE dataset, as well as a DSC of "
                "83.42% and an HD95 of 5.10 on the CAD-PE dataset.",
                83.42,
                {"dataset": "CAD-PE", "metric": "DSC"},
            ),
            (
                "The improvements were 6.5% and 5% for Java, and 23.4% and 17.8% for Python.",
                23.4,
                {"dataset": "Python"},
            ),
        ),
    ),
    "dataset-before-bracket": (
        "A result in brackets right after a capitalised name (after 'on', 'in', 'for', 'and' or a list comma) is "
        "reported for that data set, unless it is a multiplier (compared with a method) or the list is of other "
        "things ('architectures such as ...').",
        (
            (
                "Empirically, MAViL achieves state-of-the-art audio-video classification performance on AudioSet "
                "(53.3 mAP) and VGGSound (67.1% accuracy).",
                67.1,
                {"dataset": "VGGSound", "metric": "accuracy"},
            ),
            (
                "Notably, our approach achieves state-of-the-art performance on both miniImageNet (70.31% on "
                "1-shot and 81.89% on 5-shot) and tieredImageNet (78.74% on 1-shot and 86.92% on 5-shot).",
                78.74,
                {"dataset": "tieredImageNet"},
            ),
        ),
    ),
    "same-dataset": (
        "A number 'on the same dataset/benchmark' is measured on the data set of the nearest earlier row that has "
        "one.",
        (
            (
                "The LSTM achieves a BLEU score of 34.8 on the WMT-14 dataset. For comparison, a phrase-based SMT "
                "system achieves a BLEU score of 33.3 on the same dataset.",
                33.3,
                {"dataset": "WMT-14"},
            ),
        ),
    ),
    "bracket-after-number": (
        "A bracket right after a number that holds one name names its metric when the name is a vocabulary metric "
        "('6.67% (BLEU)', '16.57% (FPR95)') and else its data set ('7% (Waymo)', '62.3% (AlpacaEval 2.0, "
        "length-controlled)'), unless it is a model ('6.5% (LLaVA)'), the unit again ('111 frames per second "
        "(FPS)') or the setting of a multiplier ('52× (ConvNet-4)'). It wins over a set named earlier in the "
        "sentence. Corpus: 16 metrics and 11 data sets changed in 58,671 abstracts (docs/extraction.md).",
        (
            (
                "By employing INT on CenterPoint, we can get around 7% (Waymo) and 15% (nuScenes) performance "
                "boost with only 2 4ms latency overhead.",
                15.0,
                {"dataset": "nuScenes"},
            ),
            (
                "PBM achieves improvements of 6.67% (BLEU) and 7.47% (ROUGE) on average.",
                7.47,
                {"metric": "ROUGE"},
            ),
            (
                "Win rate against GPT-4 is 62.3% (AlpacaEval 2.0, length-controlled).",
                62.3,
                {"dataset": "AlpacaEval 2.0"},
            ),
        ),
    ),
    "contest-dataset": (
        "A number with no dataset in a sentence that names one contest (a name with two capitals or a digit, after "
        "'the' or dated, then 'Challenge', 'Competition', 'Cup', 'shared task' or 'leaderboard') is a result on "
        "that contest: a rank won in it or a margin over its entries (GUIDELINES: the benchmark a number is "
        "measured on; the gold files label contests so). Corpus: 28 rows in 58,671 abstracts (docs/extraction.md). "
        "A sentence that refers back to 'the shared task' or 'the competition' without a name takes the one "
        "contest the abstract names.",
        (
            (
                "This paper describes our system for the CoNLL 2019 Shared Task: Cross-Framework Meaning "
                "Representation Parsing. In the final official evaluation of the shared task, our system achieves "
                "42% F1.",
                42.0,
                {"dataset": "CoNLL 2019 Shared Task"},
            ),
            (
                "Plus, we rank number one in the official ImageNet 2013 detection challenge.",
                1.0,
                {"dataset": "ImageNet 2013 detection challenge"},
            ),
            (
                "Our model outperforms the winning method of the OpenImages Relationship Detection Challenge by "
                "4.7% (16.5% relatively) on the test set.",
                4.7,
                {"dataset": "OpenImages Relationship Detection Challenge"},
            ),
        ),
    ),
    "abstract-dataset": (
        "Numbers with no dataset in an abstract that introduces exactly one data set ('We present Cryptonite, a "
        "large-scale dataset ...') and names no other are measured on it; a set only apposed to a data-set word "
        "('our resulting dataset, Possible Stories,', 'a dataset, called PaCo,') is shared with the rows of its "
        "sentence, the next one, or a sentence that names it again or says 'our dataset/corpus/tasks'. Named "
        "inside the introducing phrase it counts as named first ('we also introduce the EDGAR10-Q dataset', 'we "
        "annotate a large dataset FinReason'). Never in a sentence that counts its sets ('on three datasets', "
        "'over 5 vision-centric benchmarks').",
        (
            (
                "We present Cryptonite, a large-scale dataset of cryptic clues. Fine-tuning T5 achieves only 7.6% "
                "accuracy.",
                7.6,
                {"dataset": "Cryptonite"},
            ),
            (
                "We also introduce the EDGAR10-Q dataset, a corpus of 1,500 companies. It is a complex corpus. We "
                "introduce a baseline approach that uses BERT to get 33% ROUGE-L score.",
                33.0,
                {"dataset": "EDGAR10-Q"},
            ),
            # apposed to a data-set word: shared with the sentences next to it or speaking of "our" data
            (
                "We collect a dataset, called PaCo, consisting of 12.4 thousand preconditions of commonsense "
                "statements. Our results reveal a 10-30% gap between machine and human performance on our tasks.",
                10.0,
                {"dataset": "PaCo"},
            ),
        ),
    ),
}
