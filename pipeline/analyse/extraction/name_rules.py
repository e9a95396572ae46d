"""The named rules that give a metric row its metric name (where the data set comes from: ``dataset_rules``).

Part of the rule table :data:`pipeline.analyse.extraction.rules.RULES` (which wraps each entry in its ``Rule``;
this module is apart only to keep both files short): ``{rule name: (reason, examples)}``, an example being
``(text, value, expected)`` as there, run by ``tests/analyse/test_extraction_rules.py``.
"""

from __future__ import annotations

NAME_RULES: dict[str, tuple[str, tuple]] = {
    # ---- where the metric name comes from
    "metric-lexicon": (
        "A metric name of the vocabulary right before or after the number ('54% F1', 'accuracy of 41%'; after it "
        "also past a bracketed comparison: '3.6% (48.59% vs 44.98%) improvement in accuracy'); the "
        "name holds no other number of the sentence ('accuracy from 98.1% to 98.5%' names the next pair "
        "'accuracy') and no coordinator before it ('and an EER of 5.25%'); right after 'of' past the unit "
        "too ('by 1.0% point of accuracy', '66% of MOTA', 'a third of the memory'); right before a colon ('EER: "
        "12.40%').",
        (
            ("The mIoU drops by 3% on Cityscapes.", 3.0, {"metric": "mIoU"}),
            (
                "The models outperform the prior system by 1.0% point of accuracy (8.7% error reduction).",
                1.0,
                {"metric": "accuracy"},
            ),
            ("The tracker reaches 66% of MOTA and 67% of IDF1 on MOT2020.", 66.0, {"metric": "MOTA"}),
            # a past form of the verb too, and the owner before "'s" is no part of the name
            (
                "In our experiments, MINOS's detection accuracy dropped to 49.90% under adversarial attacks.",
                49.9,
                {"metric": "detection accuracy"},
            ),
            # the F-beta family is one entry of the vocabulary: F1, F2, F0.5, F-0.5, Fβ
            ("Our model achieves 0.91 ROC-AUC and an F2-score of 0.55.", 0.55, {"metric": "F2-score"}),
            ("This gives 0.8mIoU more than the baseline.", 0.8, {"metric": "mIoU"}),
            ("Our tracker gains +5% HOTA.", 5.0, {"metric": "HOTA"}),
            # before a colon, which ends a clause: "EER: 12.40%", "(top 1 accuracy: 32.13%)"
            (
                "Our deep mixture algorithm achieves very competitive results (top 1 accuracy: 32.13%).",
                32.13,
                {"metric": "top 1 accuracy"},
            ),
            # past a bracketed comparison right after the number
            (
                "Our method leads to 3.6% (48.59% vs 44.98%) overall improvement in EQA accuracy.",
                3.6,
                {"metric": "accuracy", "dataset": "EQA"},
            ),
            # a correlation statistic spelled out; a decimal without its leading zero is a number too
            (
                "Words are not semantically encoded until layer 8, where they achieve Pearson’s rho of .46.",
                0.46,
                {"metric": "Pearson’s rho"},
            ),
            ("It adds 2.4 AP75 points.", 2.4, {"metric": "AP75"}),
            # "<long name> (<acronym>) score of N": the acronym names the metric, not the bare "score"
            (
                "We obtain a BiLingual Evaluation Understudy (BLEU) score of 71.2 on the test set.",
                71.2,
                {"metric": "BLEU"},
            ),
            # a comparative in front of the named quantity is no part of its name
            (
                "It achieves a 28% faster perplexity reduction than baselines.",
                28.0,
                {"metric": "perplexity"},
            ),
            # a name holds no other number of its sentence and starts at no coordinator
            (
                "Our model achieves an average mAP of 83.55% and an EER of 5.25% at the utterance level.",
                5.25,
                {"metric": "EER"},
            ),
            (
                "A single PSPNet yields the new record of mIoU accuracy 85.4% on PASCAL VOC 2012 and accuracy 80.2% "
                "on Cityscapes.",
                80.2,
                {"metric": "accuracy", "dataset": "Cityscapes"},
            ),
            (
                "The algorithm improved accuracy from 98.1% to 98.5% on the one-shot classification task and from "
                "98.9% to 99.3% on the few-shot classification task.",
                99.3,
                {"metric": "accuracy", "kind": "before_after"},
            ),
            # the owner of a metric is no part of its name, a statistic's namesake is
            (
                "Furthermore, when evaluated on ManiSkill2 and MimicGen, SGRv2's success rate is 2.54 times that of "
                "SGR.",
                2.54,
                {"metric": "success rate"},
            ),
            (
                "Our best model achieves a Spearman's rank correlation of 0.494 for memorability prediction.",
                0.494,
                {"metric": "Spearman's rank correlation"},
            ),
            # a decimal inside a name is part of it ("F0.5", "F1@0.05"), not a number to cut at
            (
                "Our best ensemble achieves a new SOTA result with an F0.5 score of 76.05 on BEA-2019 (test).",
                76.05,
                {"metric": "F0.5 score", "dataset": "BEA-2019"},
            ),
        ),
    ),
    "metric-after-on-name": (
        "'N on|in <metric name>' names the metric ('4.01-16.81% (absolute) on mean-IoU').",
        (
            (
                "It outperforms baselines by 4.0% (absolute) on mean-IoU and 3.8% on Boundary-F1 metrics.",
                4.0,
                {"metric": "mean-IoU"},
            ),
            # capitalised modifiers before the metric word: a metric, never the data set
            (
                "In a 10-shot novel intent setting for the SNIPS dataset, LINGUIST shows an absolute improvement of "
                "+1.9 points on IC Recall and +2.5 points on ST F1 Score.",
                1.9,
                {"metric": "IC Recall", "dataset": "SNIPS"},
            ),
        ),
    ),
    "metric-after-change-noun": (
        "'N% reduction/improvement in|of|on X' names X as the measured quantity.",
        (
            (
                "This leads to a 40% reduction in location entropy.",
                40.0,
                {"metric": "location entropy", "kind": "relative_change"},
            ),
            # "decline" is a change noun as "drop" is (vocabulary CHANGE_NOUNS)
            (
                "Specifically, MUC obtains 3%-5% accuracy boost and 4%-5% decline of forgetting ratio, compared "
                "with MAS and LwF.",
                4.0,
                {"metric": "forgetting ratio", "kind": "range"},
            ),
        ),
    ),
    "metric-after-comparative": (
        "'N% fewer/lower/higher X' names X; an adjective names its noun ('8% more accurate': accuracy; "
        "vocabulary ADJECTIVE_METRICS).",
        (
            (
                "The machine keeps its accuracy with up to 80 times fewer rule firings.",
                80.0,
                {"metric": "rule firings"},
            ),
            (
                "Our method is not only 8% more accurate but also 5x faster than hashing ReID methods.",
                8.0,
                {"metric": "accuracy"},
            ),
        ),
    ),
    "metric-after-in-terms-of": (
        "'N in terms of X' names X.",
        (
            (
                "It outperforms prior work by 13.8% in terms of mean per joint position error (MPJPE).",
                13.8,
                {"metric": "mean per joint position error (MPJPE)"},
            ),
        ),
    ),
    "metric-after-on-metric": (
        "'N on the X metric(s)' names X.",
        (
            (
                "We improve by 9.0% on the Longest Common Subsequence metric.",
                9.0,
                {"metric": "Longest Common Subsequence"},
            ),
        ),
    ),
    "metric-after-acronym": (
        "An acronym right after the number names the metric ('0% MODA', '59.75% TAR'). After a percentage it "
        "comes before the vocabulary ('5.5% AP_90' is AP_90, not AP) and may be one the vocabulary lacks, with "
        "digits, '_', '@' or a capital and up to three letters ('30% IoU_thin', '64.44% Rank@1', '1.5% Apb'), "
        "when it ends its noun phrase ('76% BD-Rate gains'; not '3.8% GPU hours', '30% Van Gogh'): over the dev "
        "corpus that form changed 20 rows' metric, 19 right.",
        (
            ("The attack results in 0% XYZA in multi-view detection.", 0.0, {"metric": "XYZA"}),
            (
                "It surpasses the baseline by 30% IoU_thin despite using four clicks.",
                30.0,
                {"metric": "IoU_thin"},
            ),
            ("It achieves an average 76% BD-Rate gain against the codec.", 76.0, {"metric": "BD-Rate"}),
            ("It improves the baseline with 5.5% AP_90 on the MS COCO dataset.", 5.5, {"metric": "AP_90"}),
        ),
    ),
    "metric-before-verb-by": (
        "'improve/reduce/shorten the X by N' names X when X ends in a metric head word (rate, cost, time...).",
        (
            (
                "It improves the mean localisation ratio on the VIPeR dataset by 14%.",
                14.0,
                {"metric": "mean localisation ratio"},
            ),
        ),
    ),
    "metric-before-change-of": (
        "'a/the X improvement|gain|reduction|increase|decrease|drop|boost of N' names X, whatever its words, when "
        "X is no adjective of the change ('a relative improvement of', 'a healthy gain of', 'a 2-fold increase of').",
        (
            (
                "We show that gaze direction and affective representations contribute a prediction to "
                "ground-truth correspondence improvement of at least 5% compared to dynamic saliency models.",
                5.0,
                {"metric": "prediction to ground-truth correspondence"},
            ),
            (
                "Experimental results with RF mixtures demonstrate that our method results in a BER reduction of "
                "95% over classical and existing learning-based methods.",
                95.0,
                {"metric": "BER"},
            ),
        ),
    ),
    "metric-before-of": (
        "'X of N' names X when X ends in a metric head word ('compression rate of 97.4%').",
        (("It achieves a label agreement rate of 97.4%.", 97.4, {"metric": "label agreement rate"}),),
    ),
    "metric-acronym-of": (
        "An acronym no vocabulary holds (two capitals at least, digits after them) right before 'of'/'=' and the "
        "number names it, bracketed or not; never a compared method ('over ELU of 4.45%').",
        (
            (
                "The proposed system has achieved high performance results in closed-set, i.e., CRR of 99.08% and "
                "EER of 0.44%.",
                99.08,
                {"metric": "CRR"},
            ),
            (
                "Our method achieved a Dice similarity coefficient (DSC) of 83.47% and a Hausdorff distance 95th "
                "percentile (HD95) of 3.83 on the FUMPE dataset.",
                3.83,
                {"metric": "HD95", "dataset": "FUMPE"},
            ),
            ("Our MAGIC achieved an ASR of 74% on the Llama-2.", 74.0, {"metric": "ASR"}),
        ),
    ),
    "metric-before-passive": (
        "'X was reduced/improved from|by|to N' names X when X ends in a metric head word.",
        (("The top-1 error rate was reduced from 33.5% to 29.0%.", 29.0, {"metric": "top-1 error rate"}),),
    ),
    "metric-open-phrase": (
        "The quantity a change is stated of, named by the clause's shape where no vocabulary word names it: the "
        "object of a change verb before 'by N' or 'from N to M', or the subject of 'is/was (reduced) by N', 'is N times "
        "smaller', 'is N' (with an 'of'/'between' complement or a metric word); never a method or a change "
        "noun (vocabulary COMPARED_NOUNS), and not when a metric word follows the number ('by 5% (mean IoU)'). "
        "Read over the dev corpus: docs/extraction.md.",
        (
            (
                "Our maintenance strategy reduces redundant preferences by 95% and contradictory ones by 92%.",
                95.0,
                {"metric": "redundant preferences"},
            ),
            (
                "It reduces the average optimality gap from 19.35% to 10.46% on Taillard's instances.",
                10.46,
                {"metric": "average optimality gap", "kind": "before_after"},
            ),
            (
                "The method reduces the average miss-rate over HOG+SVM by more than 30%.",
                30.0,
                {"metric": "average miss-rate"},
            ),
            (
                "Furthermore, the memory overhead of our model is 100 times smaller than those of previous methods.",
                100.0,
                {"metric": "memory overhead"},
            ),
            (
                "DBPNet gains 20.4%, but the number of trainable parameters is reduced by about 91 times.",
                91.0,
                {"metric": "number of trainable parameters"},
            ),
            (
                "For high-rate codes, the gap between our decoder and the ML decoder is less than 0.1dB.",
                0.1,
                {"metric": "gap"},
            ),
        ),
    ),
    "metric-object-of-result-verb": (
        "What a result verb (achieve, obtain, attain, reach, record) achieves, stated 'of N', names the metric where "
        "no vocabulary word does ('obtains high sparsity of 89.32%'; an acronym: rule metric-acronym-of); how good it is ('high', "
        "'state-of-the-art') is no part of the name, and a change, an average or results name nothing ('achieves "
        "an average improvement of 2.9%'). Read over the dev corpus: docs/extraction.md.",
        (
            (
                "With ProSparse, we obtain high sparsity of 89.32% for LLaMA2-7B.",
                89.32,
                {"metric": "sparsity"},
            ),
        ),
    ),
    "metric-before-metric-word": (
        "'the X metric from|of|by N' names X.",
        (
            (
                "We report an improvement in the harmonic mean metric from 89.09% to 92.59%.",
                92.59,
                {"metric": "harmonic mean"},
            ),
        ),
    ),
    "metric-before-by": (
        "'X by N' names X when X ends in a metric name or head word ('the inference speed-up by 19.9x').",
        (("The models realise an inference speed-up by 19.9x.", 19.9, {"metric": "inference speed-up"}),),
    ),
    "metric-before-bracket": (
        "'X (N)' names X when X ends in a metric name or head word ('speedup ratios (100X-1000X)').",
        (
            (
                "It reaches extremely high speedup ratios (100X-1000X).",
                100.0,
                {"metric": "speedup ratios"},
            ),
        ),
    ),
    "metric-rate-after": (
        "A percentage no other rule names is of the rate, ratio, score or error written right after it in one or "
        "two lower-case words ('0.39% failure rate', 'a 65.65% winning rate'); a name so read is never shared "
        "with the other numbers of its clause or sentence.",
        (
            (
                "By utilising boundary information of 300-W dataset, our method achieves 3.92% mean error with 0.39% "
                "failure rate on COFW dataset.",
                0.39,
                {"metric": "failure rate", "dataset": "COFW"},
            ),
            (
                "When playing against experienced human players, AP-MCTS achieved a 65.65% winning rate.",
                65.65,
                {"metric": "winning rate"},
            ),
        ),
    ),
    "metric-unit": (
        "A unit that is itself a metric names it as written ('at 20fps', '23 frames/sec'; vocabulary "
        "UNIT_METRICS).",
        (
            ("The detector achieves 74.5% mAP at 20fps on a Jetson TX2.", 20.0, {"metric": "fps"}),
            (
                "Our method is the fastest real time system with ~23 frames/sec.",
                23.0,
                {"metric": "frames/sec"},
            ),
        ),
    ),
    "metric-top-k": (
        "A 'top-k' written right after a number is that number's own, whatever name its clause or list gave it, "
        "when the name is accuracy or error or none ('accuracy of 82.7% top-1 and 96.2% top-5'); the benchmark "
        "tables keep top-1 and top-5 apart (names.own_top_k).",
        (
            (
                "A NASNet constructed from the best cell achieves, among the published works, state-of-the-art "
                "accuracy of 82.7% top-1 and 96.2% top-5 on ImageNet.",
                96.2,
                {"metric": "top-5 accuracy", "dataset": "ImageNet"},
            ),
            (
                "We achieve 82.7% top-1 and 96.2% top-5 accuracy on ImageNet.",
                82.7,
                {"metric": "top-1 accuracy"},
            ),
        ),
    ),
    "metric-verb": (
        "'speed up X by N' names the metric 'speed up' (the verb's own quantity).",
        (
            ("The kernel can speed up training of RNNs by up to 9x.", 9.0, {"metric": "speed up"}),
            (
                "It also allows to speed up training by a factor of 2 in our tests.",
                2.0,
                {"metric": "speed up"},
            ),
        ),
    ),
    "metric-runtime": (
        "A time measure after a running verb ('runs in', 'running at', vocabulary RUN_VERBS and TIME_UNITS) is "
        "the running time: metric 'runtime'.",
        (
            (
                "The resulting PCA-Layers method runs in 3.2s/frame, is significantly more accurate than PCA-Flow, "
                "and achieves state-of-the-art performance in occluded regions on MPI-Sintel.",
                3.2,
                {"metric": "runtime"},
            ),
        ),
    ),
    "metric-time-taken": (
        "The time a task takes is a result though its unit is a setup word: a time unit after 'in', 'under', "
        "'within', 'requires', 'takes', 'needs' or 'only' (a qualifier may come between; vocabulary "
        "TIME_TAKEN_BEFORE, TIME_TAKEN_UNITS), never an amount 'of' something ('40 minutes of demonstration "
        "data') nor a budget ('for 3 days'). Its metric is the device time ('315 GPU hours') or 'time'; it is "
        "shared with no other number. Read over the dev corpus: docs/extraction.md.",
        (
            (
                "This paper describes training techniques which allow ALVINN to learn in under 5 minutes.",
                5.0,
                {"metric": "time", "kind": "score", "qualifier": "<"},
            ),
            ("About 45% of FLOPS is removed in only 315 GPU hours.", 315.0, {"metric": "GPU hours"}),
        ),
    ),
    "antecedent-metric": (
        "A number with no metric in a relative clause (', which ...') takes the one metric word of the clause it "
        "refers back to, when no other row of the sentence names a metric.",
        (
            (
                "These results highlight a great disparity when compared to human accuracy, which stood at 71.6%.",
                71.6,
                {"metric": "accuracy"},
            ),
        ),
    ),
    "metric-share-of": (
        "A percentage still with no metric after the other rules is a share of the things it names: 'N% of (the) "
        "<noun phrase>' -> the noun phrase, cut before a verb, a participle, an adverb or a function word, never a "
        "capitalised name ('9.0% of ASTER' is relative to a method) nor a possessive or a '-of-' compound ('100% of "
        "its training syllables', '5% of the state-of-the-art models'); shared with later levels of its sentence. "
        "A phrase cut right after its adjective takes the nouns that follow ('35% of the original training "
        "time'); an adjective alone names nothing ('39% of the original').",
        (
            (
                "The framework achieves ∼ 99% of original BERT performance in about ∼ 35% of the original training time.",
                35.0,
                {"metric": "original training time"},
            ),
            (
                "We show that less than 1% of the summaries have major factual inconsistencies with the "
                "corresponding news articles, compared to 5.5% to 15.4% in existing datasets.",
                1.0,
                {"metric": "summaries"},
            ),
            (
                "The tracking system is able to track the hand to within 10 pixels of its correct location in 99.7% "
                "of the frames from a test set.",
                99.7,
                {"metric": "frames"},
            ),
        ),
    ),
    "metric-comparative": (
        "With no name written, a comparative after a multiplier names its quantity ('4.3x faster' -> speed, "
        "'2.4x smaller' -> size) from the COMPARATIVE_METRICS table.",
        (("FEAR-XS is 2.4x smaller and 4.3x faster than LightTrack.", 4.3, {"metric": "speed"}),),
    ),
    "clause-metric-peer": (
        "A number with no metric takes the metric of another number of its clause with the same unit, kind and "
        "subject ('75.2% mAP on X, and 74.5% on Y').",
        (
            (
                "It achieves 75.2% mAP on the student behavior dataset and 74.5% on PASCAL VOC.",
                74.5,
                {"metric": "mAP", "dataset": "PASCAL VOC"},
            ),
        ),
    ),
    "sentence-metric": (
        "A number still with no metric takes the one metric the other numbers of its sentence with the same unit "
        "name (never two, never for a multiplier): 'improves the accuracy by 17.0%, lifting the state of the art "
        "to 98.78%'. A share's name (metric-share-of) reaches only a level after it or listed with it, never a "
        "change, another number before it, or a share of other things ('100% of its training syllables').",
        (
            (
                "On TabMWP, GPT-4-powered Chameleon improves the accuracy by 17.0%, lifting the state of the art to "
                "98.78%.",
                98.78,
                {"metric": "accuracy", "kind": "score"},
            ),
            # a metric word before "score" ("F1 score") is a name to share, unlike a bare "score"
            (
                "Our model achieves an F1 score of 54.53% for temporal and causal relations in protocols from "
                "our corpus, which is a significant improvement over previous models - DyGIE++:28.17%; "
                "spERT:27.81%.",
                28.17,
                {"metric": "F1 score"},
            ),
            # a share's name reaches a level listed with it (dev corpus)
            (
                "We find that 99.9% and 99.4% of the poses misclassified by Inception-v3 also transfer to the "
                "AlexNet and ResNet-50 image classifiers trained on the same ImageNet dataset.",
                99.9,
                {"metric": "poses"},
            ),
        ),
    ),
    "clause-metric-word": (
        "A number with no metric takes the one metric word of its clause when no other number of the clause "
        "has one ('the mAP of our model reaches 41.2% and 37.9%').",
        (
            (
                "With our loss, the mAP of the detector reaches 41.2% and 37.9% on COCO and LVIS.",
                41.2,
                {"metric": "mAP"},
            ),
        ),
    ),
    "respectively-metrics": (
        "A 'respectively' list of numbers maps pairwise onto the list of metric names of the same length.",
        (
            ("Our method improves the AP and AP90 by 1.8% and 6.2% respectively.", 6.2, {"metric": "AP90"}),
            (
                "SOTA systems achieve 22.1%, 63.3% and 83.5% for token-based exact-match (EM), F1 and event-based "
                "HIT@1 scores, respectively.",
                83.5,
                {"metric": "event-based HIT@1"},
            ),
            (
                "It increases human and robot performance by 58% and 80% respectively.",
                58.0,
                {"metric": "human performance"},
            ),
        ),
    ),
    "respectively-datasets": (
        "A 'respectively' list of numbers maps onto the list of data-set names of the same length (k numbers "
        "per name in blocks), or onto the previous sentence's list when the sentence says 'these datasets'; "
        "a list of names right after the numbers ('41.2% and 37.9% on COCO and LVIS') needs no 'respectively', "
        "nor does a bare list of numbers that shares one set after a coordinated list of as many names in its "
        "sentence ('on both V-COCO and HICO-DET benchmarks and improves the baseline about 5.5% and 9.8%'; "
        "a comma-only pair is an apposition, a set read at the number is kept); an item may have its own "
        "article and singular head ('on the Flickr 30k Entities and the ReferItGame dataset'). A slash pair "
        "of numbers is one item ('27.59/27.15, 19.65/23.42 and 22.40' on three sets); 'respectively' may "
        "stand just before the numbers; a list closed by a plural set head may follow lowercase modifiers "
        "('on the widely used A, B and C benchmarks').",
        (
            (
                "Our RR-Net sets a new state-of-the-art on both V-COCO and HICO-DET benchmarks and improves the "
                "baseline about 5.5% and 9.8% relatively.",
                9.8,
                {"dataset": "HICO-DET"},
            ),
            (
                "Our approach outperformed the current state-of-the-art methods on the Flickr 30k Entities and the "
                "ReferItGame dataset by 3.08% and 7.77% respectively.",
                7.77,
                {"dataset": "ReferItGame"},
            ),
            (
                "It outperforms prior work by 13.8%, 9.3% and 2.7% on Human3.6M, CMU Mocap and 3DPW datasets, "
                "respectively.",
                9.3,
                {"dataset": "CMU Mocap"},
            ),
            (
                "On the widely used WMT’14 English-French, WMT’16 English-German and NIST Chinese-to-English "
                "benchmarks, our models respectively obtain 27.59/27.15, 19.65/23.42 and 22.40 BLEU points.",
                23.42,
                {"dataset": "WMT’16 English-German"},
            ),
            (
                "In terms of the heavily benchmarked MIT67 and Scene15 datasets, our results reduce the lowest "
                "previously-reported error by 23.9% and 9.5%, respectively.",
                23.9,
                {"dataset": "MIT67"},
            ),
            (
                "On OTB-2013 and OTB-2015, we obtain an absolute gain of 8.0% and 8.2% respectively, in mean overlap "
                "precision.",
                8.2,
                {"dataset": "OTB-2015"},
            ),
            (
                "We achieve FID 42.17, LPIPS 0.3868, FID 30.35, LPIPS 0.5076 respectively on Flower and Animal Faces.",
                30.35,
                {"dataset": "Animal Faces"},
            ),
            (
                "Experiments use three datasets: Olympic Sports, HMDB51 and UCF101. Our approach gains 7.0%, 3.4%, and "
                "4.9%, respectively, on these datasets.",
                4.9,
                {"dataset": "UCF101"},
            ),
            ("The mAP of our detector is 41.2% and 37.9% on COCO and LVIS.", 37.9, {"dataset": "LVIS"}),
        ),
    ),
}
