"""Words of results: metric names, measure units, words for numbers, metric heads, change and
direction words, qualifiers (tables of :mod:`pipeline.analyse.extraction.vocabulary`)."""

#: Names of result metrics. A number next to one of these is a reported result ("54% F1", "BLEU 28.4").
METRIC_NAMES = (
    r"(?:top-?[15] )?(?:accuracy|accuracies|acc|error rates?|error|errors)",
    r"F(?:1|2|-?0\.5|β)(?:[- ]scores?|@\d+)?",  # the F-beta family: F1, F2, F0.5 (F-0.5), Fβ; "F1@5"
    r"F-(?:scores?|measures?)",
    r"F[- ]?measures?",
    r"F_1",
    r"F-1",
    r"micro-F1",
    r"macro-F1",
    r"Boundary-F1",
    r"(?-i:EM)",
    r"exact[- ]match",
    r"BLEU(?:@\d)?",  # "BLEU@4"
    r"SacreBLEU",
    r"ROUGE(?:-[12L])?",
    r"METEOR",
    r"CIDEr(?:-D)?",
    r"(?-i:SPICE)(?!-)",
    r"chrF\+*",
    r"BERTScore",
    r"AUC",
    r"AUROC",
    r"AUPRC",
    r"ROC-AUC",
    # the FPR at 95% TPR, the usual OOD-detection metric ("FPR95", "FPR@95"); a bare "FPR 0.95" is the
    # operating point, so the bare rate names are left out
    r"(?-i:FPR@?95)",
    r"(?-i:EAO)",  # expected average overlap (VOT tracking)
    r"mAP(?:@?[\d.:]+)?",  # "mAP@0.5", "mAP50"
    r"(?-i:AP(?:@?[\d.:]+)?)",
    r"(?-i:AP_?[SML])",
    r"mIoU",
    r"mean-IoU",
    r"IoU",
    r"PSNR",
    r"SSIM",
    r"LPIPS",
    r"FID",
    r"KID",
    r"FVD",
    r"MPJPE",
    r"HOTA",
    r"MOTA",
    r"MODA",
    r"IDF1",
    r"(?-i:TAR)",
    r"(?-i:FAR)",
    r"(?-i:NFE)",
    r"HPWL",
    r"(?-i:SPL)",
    r"(?-i:LAS)",
    r"(?-i:UAS)",
    r"Dice",
    r"ELBO",
    r"NLL",
    r"BPD",
    r"BPC",
    r"ECE",
    r"EPE",
    r"(?-i:SER)",
    r"(?-i:MOS)",
    r"R@\d+",
    r"Recall@\d+",
    r"HIT@\d+",
    r"Hit@\d+",
    r"Acc@\d+",
    r"perplexity",
    r"perplexities",
    r"PPL",
    r"WER",
    r"CER",
    r"(?-i:PER)",
    r"NDCG(?:@\d+)?",
    r"(?:normali[sz]ed\s+)?discounted\s+cumulative\s+gain",
    r"MRR(?:@\d+)?",
    r"Hits@\d+",
    r"pass@\d+",
    r"recall(?:@\d+)?",
    r"precision(?:@\d+)?",  # "precision@1"
    r"success rates?",
    r"win rates?",
    r"attack success rates?",
    r"resolve rates?",
    r"pass rates?",
    r"verification rates?",
    r"matching rates?",
    r"compression rates?",
    r"detection rates?",
    r"hit rates?",
    r"Elo",
    r"rewards?",
    r"returns?",
    r"MAE",
    r"MSE",
    r"RMSE",
    r"EER",
    r"(?-i:NMI)",
    r"(?-i:ARI)",
    r"(?-i:AMI)",
    r"(?-i:PQ)",
    r"(?-i:COMET)",
    r"(?:inter-annotator|inter-rater|annotator) agreement",
    r"correlations?",
    # spelled out (the symbols: CORRELATION_SYMBOLS), with the word "correlation" after it as one name
    r"(?:Pearson|Spearman)(?:'s|’s)?\srho(?:\scorrelations?)?",
    r"Kendall(?:'s|’s)?\stau(?:\scorrelations?)?",
    r"scores?",
    r"performance",
    r"speed-?ups?",
    r"speed",
    r"throughput",
    r"latency",
    r"latencies",
    r"memory",
    r"FLOPs",
    r"runtime",
    r"run-time",
    r"run time",
    r"inference time",
    r"training times?",
    r"token costs?",
    r"costs?",
    r"energy",
    r"parameters?",
    r"compression ratios?",
    r"sensitivity",
    r"specificity",
    r"fairness",
    r"Quality Ratio",
    r"regret(?:@\d+)?",
    r"slopes?",
    r"frame-?rate",
    r"model size",
    r"query count",
    r"search steps",
)
#: Measure units that are a setup quantity far more often than a result ("360deg video", "a 40m boulder field",
#: "a resolution of 30cm", "2.4m by 6.6m" for millions): a number in them is a result only where an error or
#: accuracy names it as its value ("an average error of 0.90 cm", "29cm median error"; dev corpus: about half
#: of the 80 such numbers are setup). Part of MEASURE_UNITS.
NAMED_MEASURE_UNITS = ("km", "cm", "m", "deg", "°")
#: Units of measures the design has no unit class for: the row keeps the unit as written in ``unit_text`` and
#: ``unit`` stays null ("35 ms", "12 GB", "30 fps"). Matched case-sensitively, right after the number.
MEASURE_UNITS = (
    r"ms/frame",
    r"ms/image",
    r"s/frame",
    r"ms",
    r"mm",
    r"dB",
    r"µs",
    r"μs",
    r"ns",
    r"GB",
    r"MB",
    r"KB",
    r"TB",
    r"GiB",
    r"MiB",
    r"fps",
    r"FPS",
    r"frames per second",
    r"frames/s(?:ec(?:ond)?)?",
    r"seconds? per (?:image|frame|sample|query|video|sentence|step)",
    # lengths and angles: results only where an error or accuracy names them
    *NAMED_MEASURE_UNITS,
)
#: The measures that name a length or an angle as a result (NAMED_MEASURE_UNITS).
LENGTH_RESULT_WORDS = (
    r"errors?",
    r"accuracy",
    r"precision",
    r"deviation",
    r"drift",
    r"RMSE",
    r"MAE",
    r"ATE",
    r"RPE",
)
#: Fractions written in words, as multipliers of a quantity ("about half the accuracy" -> 0.5 x).
WORD_FRACTIONS = {
    "half": 0.5,
    "a third": 1 / 3,
    "one third": 1 / 3,
    "a quarter": 0.25,
    "one quarter": 0.25,
    "one tenth": 0.1,
    "a tenth": 0.1,
    "two thirds": 2 / 3,
}
#: Ranks written in words ("ranked first", "1st place") -> the rank as a plain score.
ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
}
#: Correlation and similar statistics written as a symbol or a name before ``=``/"of" ("r = 0.91",
#: "τ=0.64", "Spearman's ρ of 0.71", "R² = 0.8"). Matched case-sensitively.
CORRELATION_SYMBOLS = (
    r"r",
    r"R",
    r"R\^?2",
    r"R²",
    r"ρ",
    r"τ",
    r"κ",
    r"(?:Spearman|Pearson)(?:'s|’s)? ?(?:ρ|rho)",
    r"Kendall(?:'s|’s)? ?(?:τ|tau)",
    r"Pearson(?:'s|’s)? ?r",
    r"Cohen(?:'s|’s|'|’)? ?(?:κ|[Kk]appa)",
    r"Fleiss(?:'s|’s|'|’)? ?(?:κ|[Kk]appa)",
    r"Krippendorff(?:'s|’s)? ?(?:α|alpha)",
    # effect sizes and significance levels reported with a finding ("partial eta squared = .19", "p < .001");
    # a p is read as a significance level only for values up to SIGNIFICANCE_MAX (patterns.correlation_before)
    r"(?:partial )?(?:eta[- ]squared|η\^?2|η²)",
    r"Cohen(?:'s|’s)? ?d",
    r"[pP]",
)
#: The largest value a "p = N" may have to be read as a significance level, not a parameter ("p = 0.5").
SIGNIFICANCE_MAX = 0.1
#: Words in front of a metric phrase that are never part of its name ("negligible accuracy" -> accuracy).
METRIC_ADJECTIVES = (
    r"negligible",
    r"(?:very\s+)?good",
    r"excellent",
    r"exceptional",
    r"state-of-the-art",  # "the state-of-the-art FID score from 11.48 to 9.21" -> FID score
    r"improved",  # "2-4 times improved throughput" -> throughput (a name alone is kept: tidy_metric)
    r"significant(?:ly)?",
    r"substantial(?:ly)?",
    r"marginal(?:ly)?",
    r"slight(?:ly)?",
    r"considerable",
    r"considerably",
    r"remarkable",
    r"notable",
    r"large",
    r"small",
    r"similar",
    r"comparable",
    r"competitive",
    r"superior",
    r"strong",
    r"impressive",
    r"new",
    r"best",
    r"highest",
    r"lowest",
    r"(?:very\s+)?high",  # "high success rates (96.0%-99.8%)": how good, not which rate
    r"(?:very\s+)?low",
)
#: Head nouns that make an unknown noun phrase a metric name ("Rank-1 matching rate", "time cost",
#: "location uncertainty"): a phrase ending in one of these, right before/after a number, names what is measured.
METRIC_HEADS = (
    r"rates?",
    r"ratios?",
    r"scores?",
    r"errors?",
    r"accuracy",
    r"distance",
    r"time",
    r"cost",
    r"size",
    r"count",
    r"uncertainty",
    r"loss",
    r"gap",
    r"length",
    r"usage",
    r"consumption",
    r"overhead",
    r"steps",
    r"calls",
    r"queries",
    r"footprint",
    r"budget",
    r"validity",
    r"quality",
    r"fidelity",
    r"robustness",
    r"efficiency",
    r"yield",
    r"coverage",
    r"recall",
    r"precision",
    r"speed",
    r"throughput",
    r"latency",
    r"metrics?",
    r"mean",
    r"performances?",
    r"speed-?ups?",
    r"ratios?",
)
#: Metrics whose "points" are units of their own scale, not percentage points: "6 BLEU points", "improves
#: BLEU by 2.77 points" have unit null (GUIDELINES: "pp" only "when they are percentage points"; gold_dev2,
#: gold_real2 label BLEU points so). Matched case-insensitively against the whole metric name.
POINT_SCALE_METRICS = (
    r"(?:sacre)?BLEU(?:-\d)?(?: scores?)?",
    r"chrF\+*",
    r"ROUGE(?:-[12L])?(?: scores?)?",
    r"METEOR",
    r"CIDEr",
    r"SPICE",
    r"COMET",
    r"TER",
)
#: Units that name the metric themselves ("at 20fps": metric fps).
UNIT_METRICS = {
    "fps": "fps",
    "FPS": "FPS",
    "frames per second": "frames per second",
    "frames/s": "frames/s",
    "frames/sec": "frames/sec",
    "frames/second": "frames/second",
}
#: Verbs that say a time measure is the running time: "runs in 3.2s/frame", "runs at 29.3ms" -> metric
#: "runtime" (gold_dev2, gold_dev3). Matched right before the number, with "at"/"in" and a qualifier between.
RUN_VERBS = (r"runs?", r"running", r"operates?")
#: Units of a time measure (as written after the number, case-sensitive): "ms", "s/frame", "ms/image".
TIME_UNITS = (r"ms", r"s", r"µs", r"μs", r"ns", r"ms/frame", r"ms/image", r"s/frame")
#: The time a task takes, a result though its unit is a setup word: "learn in under 5 minutes", "requiring only
#: 2 minutes", "in only 315 GPU hours", "trained in an end-to-end fashion under 30 mins" (gold_blind4-7; a
#: budget "for 3 days", "spending 2,000 GPU-hours", "40 minutes of demonstration data" stay setup). Words before
#: the number (a qualifier may come between) and the time units after it (a device may come first: "GPU hours").
TIME_TAKEN_BEFORE = (
    r"in",
    r"under",
    r"within",
    r"requir(?:e|es|ed|ing)",
    r"tak(?:e|es|ing)",
    r"needs?",
    r"needing",
)
TIME_TAKEN_UNITS = (r"hours?", r"hrs?", r"minutes?", r"mins?", r"days?", r"weeks?", r"seconds?", r"secs?")
#: A comparative written right after a multiplier or a change names the quantity it measures when the text
#: names nothing else ("4.3x faster" -> speed, "2.4x smaller" -> model size). Table: comparative -> metric.
COMPARATIVE_METRICS = {
    "faster": "speed",
    "quicker": "speed",
    "slower": "speed",
    "smaller": "size",
    "larger": "size",
    "cheaper": "cost",
    "shorter": "length",
    "longer": "length",
}
#: An adjective after "more"/"less" names the quantity by its noun ("8% more accurate" -> accuracy, "2x more
#: efficient" -> efficiency). Table: adjective -> metric.
ADJECTIVE_METRICS = {
    "accurate": "accuracy",
    "accurately": "accuracy",  # "estimate performance up to 3x more accurately"
    "efficient": "efficiency",
    "efficiently": "efficiency",
    "robust": "robustness",
    "stable": "stability",
    "precise": "precision",
    "expensive": "cost",
    "costly": "cost",
}
#: Verbs whose object names the measured quantity ("speed up inference by 3.9x" -> "speed up").
VERB_METRICS = {
    "speed up": "speed up",
    "speeds up": "speed up",
    "accelerates": "speed up",
    "accelerate": "speed up",
}

#: Head nouns of what a result is compared with, or of the change itself, never what it measures: the object
#: of "improves X by N" or the subject of "X is N times smaller" is no metric when it ends in one ("improves
#: the baseline model by 3%", "the memory cost of our approach is", "the average improvement is up to 10%").
COMPARED_NOUNS = (
    r"models?",
    r"methods?",
    r"approach(?:es)?",
    r"algorithms?",
    r"frameworks?",
    r"networks?",
    r"systems?",
    r"techniques?",
    r"variants?",
    r"competitors?",
    r"counterparts?",
    r"architectures?",
    r"polic(?:y|ies)",
    r"agents?",
    r"learners?",
    r"versions?",
    r"others",
    r"art",
    r"margins?",
    r"factors?",
    r"amounts?",
    r"average",
    r"ones?",
    r"problems?",
    r"procedures?",
    r"mechanisms?",
    r"modules?",
    r"detectors?",
    r"classifiers?",
    r"estimators?",
    r"solvers?",
    r"pipelines?",
    r"process(?:es)?",
    r"proposals?",
    r"designs?",
    r"implementations?",
    r"modifications?",
    r"improvements?",
    r"gains?",
    r"increases?",
    r"decreases?",
    r"reductions?",
    r"boosts?",
)

#: Quantities whose % change is a relative change (an amount, not a score): GUIDELINES "reduces KV cache
#: size by 80%", "70% fewer tokens".
AMOUNT_WORDS = (
    r"FLOPs?",
    r"memory",
    r"cache",
    r"tokens?",
    r"cost",
    r"costs",
    r"latency",
    r"time",
    r"times",
    r"runtime",
    r"run-time",
    r"storage",
    r"size",
    r"parameters?",
    r"params",
    r"compute",
    r"energy",
    r"frequency",
    r"load",
    r"resolution",
    r"error",
    r"errors",
    r"error rate",
    r"footprint",
    r"bandwidth",
    r"overhead",
    r"usage",
    r"consumption",
    r"calls",
    r"queries",
    r"steps",
    r"length",
    r"budget",
    r"count",
    r"uncertainty",
    r"NFE",
    r"MPJPE",
    r"distance",
    r"literals",
    r"examples",
    r"computations?",
    r"requirements?",
)
#: Words saying a quantity went up.
UP_WORDS = (
    r"improv\w*",
    r"increas\w*",
    r"gain\w*",
    r"boost\w*",
    r"higher",
    r"better",
    r"rais\w*",
    r"rise[sn]?",
    r"rose",
    r"lift\w*",
    r"outperform\w*",
    r"surpass\w*",
    r"exceed\w*",
    r"faster",
    r"speed-?ups?",
    r"quicker",
    r"more",
    r"enhanc\w*",
    r"larger",
    r"advantage",
    r"beat\w*",
    r"accelerat\w*",
)
#: Words saying a quantity went down.
DOWN_WORDS = (
    r"reduc\w*",
    r"decreas\w*",
    r"drops?",
    r"dropped",
    r"dropping",
    r"fewer",
    r"less",
    r"lower\w*",
    r"cut\w*",
    r"sav\w+",
    r"smaller",
    r"shorter",
    r"cheaper",
    r"declin\w*",
    r"fall\w*",
    r"fell",
    r"loss",
    r"degrad\w*",
    r"compress\w*",
    r"shrink\w*",
    r"slower",
    r"worse",
    r"gap",
    r"shorten\w*",
)
#: Stems of the verbs that change a quantity by an amount: what they take as object (or as passive subject) before
#: "by N" is the quantity that changed ("improves F1 by 3%", "reduces the number of function evaluations by
#: 40%"); a stem is followed by any word ending (``\w*``).
CHANGE_VERB_STEMS = (
    "improv",
    "reduc",
    "increas",
    "decreas",
    "shorten",
    "boost",
    "lower",
    "rais",
    "cut",
    "enhanc",
    "shrink",
    "lift",
    "sav",
)
#: Stems of the verbs that compare with another method by an amount: their object is what is compared with
#: ("outperforms BART by 5.80"), so a name is taken from it only when it holds a metric word.
COMPARISON_VERB_STEMS = ("outperform", "surpass", "advanc")
#: Stems of the verbs that name the change themselves: what "accelerates training by 33x" changed is speed, its
#: object is no metric name (a name is taken from it only when it holds a metric word).
SPEED_VERB_STEMS = ("accelerat",)
#: Nouns of a change: after a number, even a few words later, they make it a change ("0.6% absolute character
#: error rates (CER) reduction", "55% (UAE) reduction").
CHANGE_NOUNS = (
    r"gains?",
    r"improvements?",
    r"increases?",
    r"boosts?",
    r"drops?",
    r"decreases?",
    r"reductions?",
    r"declines?",
    r"degradation",
)
#: Nouns and comparatives that make a nearby number a change, not a level ("a 3% gain", "2% lower").
CHANGE_WORDS = (
    *CHANGE_NOUNS,
    r"lift",
    r"margin",
    r"higher",
    r"lower",
    r"better",
    r"worse",
    r"more",
    r"fewer",
    r"less",
    r"smaller",
    r"shorter",
    r"savings?",
    r"loss",
    r"differences?",
)
#: Qualifiers written before a number: (pattern ending right before the number, qualifier stored).
QUALIFIERS = (
    (r"\b(?:up to|as (?:much|large|high|many) as)", "up to"),  # "by as much as 10%" is "up to 10%"
    (r"\b(?:over|more than|above|greater than)", "over"),
    (r"\bat least", "at least"),
    (r"\b(?:exceed\w*|surpass\w* the|beyond)", "at least"),
    (r"(?:\bapproximately|\bapprox\.|≈)", "approximately"),
    # ˷ (U+02F7): a tilde as PDF text extraction writes it
    (r"(?:\babout|\baround|\broughly|~|∼|˷)", "about"),
    (r"\b(?:nearly|almost|close to|nearing|approaching)", "nearly"),
    (r"(?:<|≤|\bless than|\bbelow|\bunder|\bwithin)", "<"),
    (r"(?:>|≥)", ">"),
)
