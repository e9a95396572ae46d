"""The words extraction knows, as data: one table per kind of word, one entry per line.

Adding a metric name, a setup word or a cue is a one-line change here; the rules in
:mod:`pipeline.extraction.metrics` and :mod:`pipeline.extraction.urls` compile these tables into patterns
(:func:`words`) and never spell the words themselves.

Each entry is a regular-expression fragment matched case-insensitively as a whole word (``(?:s)?`` style
suffixes allowed), unless the table says otherwise. Sources: the gold labelling guidelines (what is a result
and what is setup), the direction lexicon of the extraction notes (lower/higher is better), and the words
read in the dev gold abstracts and a sample of the dev corpus.
"""

from __future__ import annotations

import re

# --------------------------------------------------------------------------------------------------- metrics
#: Names of result metrics. A number next to one of these is a reported result ("54% F1", "BLEU 28.4").
METRIC_NAMES = (
    r"(?:top-?[15] )?(?:accuracy|accuracies|acc|error rates?|error|errors)",
    r"F1(?:[- ]scores?)?", r"F_1", r"F-1", r"micro-F1", r"macro-F1", r"Boundary-F1",
    r"(?-i:EM)", r"exact[- ]match", r"BLEU", r"ROUGE(?:-[12L])?", r"METEOR", r"CIDEr", r"chrF\+*", r"BERTScore",
    r"AUC", r"AUROC", r"AUPRC", r"ROC-AUC", r"mAP(?:@[\d.:]+)?", r"(?-i:AP(?:@?[\d.:]+)?)", r"(?-i:AP_?[SML])",
    r"mIoU", r"mean-IoU", r"IoU", r"PSNR", r"SSIM", r"LPIPS", r"FID", r"KID", r"FVD", r"MPJPE", r"HOTA", r"MOTA",
    r"MODA", r"IDF1", r"(?-i:TAR)", r"(?-i:FAR)", r"(?-i:NFE)", r"HPWL", r"(?-i:SPL)", r"(?-i:LAS)", r"(?-i:UAS)", r"Dice", r"ELBO", r"NLL", r"BPD",
    r"BPC", r"ECE", r"EPE", r"(?-i:SER)", r"(?-i:MOS)", r"R@\d+", r"Recall@\d+", r"HIT@\d+", r"Hit@\d+", r"Acc@\d+",
    r"perplexity", r"perplexities", r"PPL", r"WER", r"CER", r"(?-i:PER)",
    r"NDCG(?:@\d+)?", r"MRR", r"Hits@\d+", r"pass@\d+", r"recall(?:@\d+)?", r"precision",
    r"success rates?", r"win rates?", r"attack success rates?", r"resolve rates?", r"pass rates?",
    r"verification rates?", r"matching rates?", r"compression rates?", r"detection rates?", r"hit rates?",
    r"Elo", r"rewards?", r"returns?", r"MAE", r"MSE", r"RMSE", r"EER", r"correlations?",
    r"scores?", r"performance", r"speed-?ups?", r"speed", r"throughput", r"latency", r"latencies", r"memory",
    r"FLOPs", r"runtime", r"run-time", r"run time", r"inference time", r"training times?", r"token costs?",
    r"costs?", r"energy", r"parameters?", r"compression ratios?", r"sensitivity", r"specificity",
    r"fairness", r"Quality Ratio", r"regret", r"slopes?", r"frame-?rate", r"model size",
    r"query count", r"search steps",
)
#: Units of measures the design has no unit class for: the row keeps the unit as written in ``unit_text`` and
#: ``unit`` stays null ("35 ms", "12 GB", "30 fps"). Matched case-sensitively, right after the number.
MEASURE_UNITS = (
    r"ms/frame", r"ms/image", r"s/frame", r"ms", r"mm", r"dB", r"µs", r"μs", r"ns", r"GB", r"MB", r"KB", r"TB",
    r"GiB", r"MiB", r"fps", r"FPS",
)
#: Fractions written in words, as multipliers of a quantity ("about half the accuracy" -> 0.5 x).
WORD_FRACTIONS = {"half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "a quarter": 0.25, "one quarter": 0.25,
                  "one tenth": 0.1, "a tenth": 0.1, "two thirds": 2 / 3}
#: Ranks written in words ("ranked first", "1st place") -> the rank as a plain score.
ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
            "fifth": 5, "5th": 5}
#: Correlation and similar statistics written as a symbol or a name before ``=``/"of" ("r = 0.91",
#: "τ=0.64", "Spearman's ρ of 0.71", "R² = 0.8"). Matched case-sensitively.
CORRELATION_SYMBOLS = (
    r"r", r"R", r"R\^?2", r"R²", r"ρ", r"τ", r"κ", r"Spearman(?:'s|’s)? ?ρ", r"Kendall(?:'s|’s)? ?τ",
    r"Pearson(?:'s|’s)? ?r", r"Cohen(?:'s|’s)? ?κ",
)
#: Words in front of a metric phrase that are never part of its name ("negligible accuracy" -> accuracy).
METRIC_ADJECTIVES = (
    r"negligible", r"significant(?:ly)?", r"substantial(?:ly)?", r"marginal(?:ly)?", r"slight(?:ly)?",
    r"considerable", r"considerably", r"remarkable", r"notable", r"large", r"small", r"similar", r"comparable",
    r"competitive", r"superior", r"strong", r"impressive", r"new", r"best", r"highest", r"lowest",
)
#: Head nouns that make an unknown noun phrase a metric name ("Rank-1 matching rate", "time cost",
#: "location uncertainty"): a phrase ending in one of these, right before/after a number, names what is measured.
METRIC_HEADS = (
    r"rates?", r"ratios?", r"scores?", r"errors?", r"accuracy", r"distance", r"time", r"cost", r"size",
    r"count", r"uncertainty", r"loss", r"gap", r"length", r"usage", r"consumption", r"overhead", r"steps",
    r"calls", r"queries", r"footprint", r"budget", r"validity", r"quality", r"fidelity", r"robustness",
    r"efficiency", r"yield", r"coverage", r"recall", r"precision", r"speed", r"throughput", r"latency",
    r"metrics?", r"mean", r"performances?", r"speed-?ups?", r"ratios?",
)
#: Units that name the metric themselves ("at 20fps": metric fps).
UNIT_METRICS = {"fps": "fps", "FPS": "FPS"}
#: A comparative written right after a multiplier or a change names the quantity it measures when the text
#: names nothing else ("4.3x faster" -> speed, "2.4x smaller" -> model size). Table: comparative -> metric.
COMPARATIVE_METRICS = {
    "faster": "speed", "quicker": "speed", "slower": "speed", "smaller": "size", "larger": "size",
    "cheaper": "cost", "shorter": "length", "longer": "length",
}
#: Verbs whose object names the measured quantity ("speed up inference by 3.9x" -> "speed up").
VERB_METRICS = {"speed up": "speed up", "speeds up": "speed up", "accelerates": "speed up", "accelerate": "speed up"}

#: Quantities whose % change is a relative change (an amount, not a score): GUIDELINES "reduces KV cache
#: size by 80%", "70% fewer tokens".
AMOUNT_WORDS = (
    r"FLOPs?", r"memory", r"cache", r"tokens?", r"cost", r"costs", r"latency", r"time", r"times", r"runtime",
    r"run-time", r"storage", r"size", r"parameters?", r"params", r"compute", r"energy", r"frequency", r"load",
    r"resolution", r"error", r"errors", r"error rate", r"footprint", r"bandwidth", r"overhead", r"usage",
    r"consumption", r"calls", r"queries", r"steps", r"length", r"budget", r"count", r"uncertainty", r"NFE",
    r"MPJPE", r"distance", r"literals", r"examples", r"computations?", r"requirements?",
)
#: Words saying a quantity went up.
UP_WORDS = (
    r"improv\w*", r"increas\w*", r"gain\w*", r"boost\w*", r"higher", r"better", r"rais\w*", r"rise[sn]?", r"rose",
    r"lift\w*", r"outperform\w*", r"surpass\w*", r"exceed\w*", r"faster", r"speed-?ups?", r"quicker", r"more",
    r"enhanc\w*", r"larger", r"advantage", r"beat\w*", r"accelerat\w*",
)
#: Words saying a quantity went down.
DOWN_WORDS = (
    r"reduc\w*", r"decreas\w*", r"drops?", r"dropped", r"dropping", r"fewer", r"less", r"lower\w*", r"cut\w*",
    r"sav\w+", r"smaller", r"shorter", r"cheaper", r"declin\w*", r"fall\w*", r"fell", r"loss", r"degrad\w*",
    r"compress\w*", r"shrink\w*", r"slower", r"worse", r"gap", r"shorten\w*",
)
#: Nouns and comparatives that make a nearby number a change, not a level ("a 3% gain", "2% lower").
CHANGE_WORDS = (
    r"gains?", r"improvements?", r"increases?", r"boosts?", r"drops?", r"decreases?", r"reductions?",
    r"degradation", r"lift", r"margin", r"higher", r"lower", r"better", r"worse", r"more", r"fewer", r"less",
    r"smaller", r"shorter", r"savings?", r"loss",
)
#: Qualifiers written before a number: (pattern ending right before the number, qualifier stored).
QUALIFIERS = (
    (r"\bup to", "up to"),
    (r"\b(?:over|more than|above|greater than)", "over"),
    (r"\bat least", "at least"),
    (r"\b(?:exceed\w*|surpass\w* the|beyond)", "at least"),
    (r"\b(?:approximately|approx\.|≈)", "approximately"),
    (r"(?:\babout|\baround|\broughly|~|∼)", "about"),
    (r"\b(?:nearly|almost|close to)", "nearly"),
    (r"(?:<|≤|\bless than|\bbelow|\bunder|\bwithin)", "<"),
    (r"(?:>|≥)", ">"),
)
#: Words that make a number a setup quantity when they follow it (GUIDELINES "NOT metrics": sizes, counts).
SETUP_NOUNS = (
    r"parameters?", r"params", r"layers?", r"tokens?", r"samples", r"images", r"examples", r"languages", r"tasks",
    r"datasets", r"benchmarks", r"models", r"GPUs?", r"epochs", r"steps", r"seeds", r"hours", r"minutes", r"days",
    r"queries", r"instances", r"dialogs", r"videos", r"classes", r"categories", r"users", r"participants",
    r"questions", r"problems", r"episodes", r"words", r"sentences", r"documents", r"pages", r"nodes", r"edges",
    r"actions", r"pairs", r"bits?", r"shots?", r"submissions", r"subjects", r"patients", r"frames", r"clips",
    r"annotators", r"articles", r"papers", r"programs", r"functions", r"agents", r"robots", r"scenes",
)
#: Suffixes glued with a hyphen that make a number a setting ("4-bit", "5-shot", "3-layer").
SETUP_HYPHEN_SUFFIXES = (
    r"bit", r"shot", r"way", r"layer", r"head", r"token", r"dim", r"th", r"st", r"nd", r"rd", r"fold cross",
    r"[a-z]+-parameter",
)
#: "N% of the <X>": a share of the setup, not a result ("1% of the parameters").
PERCENT_OF_SETUP = (
    r"parameters", r"params", r"weights", r"training data", r"data", r"clients", r"labels", r"samples",
    r"instances", r"sentences", r"tokens", r"budget", r"patched area",
)
#: Model and architecture names: digits inside them are names, not results; never a dataset.
MODEL_NAMES = (
    r"GPT", r"Llama", r"LLaMA", r"Qwen", r"Mixtral", r"Mistral", r"Claude", r"Gemini", r"Gemma", r"DeepSeek",
    r"OLMo\w*", r"Phi", r"Falcon", r"Vicuna", r"T5", r"BERT", r"RoBERTa", r"ResNet", r"ViT", r"CLIP", r"Whisper",
    r"Stable Diffusion", r"SDXL", r"o1", r"o3", r"PaLM", r"Grok", r"SVM", r"LSTM", r"CNNs?", r"RNNs?", r"GNNs?",
    r"(?:Goog[Ll]e|Alex|Mobile|Efficient|Dense|Squeeze|Shuffle|Reg|U-)Net\w*", r"VGG(?:-?\d+)?(?![A-Za-z])", r"Inception\w*",
    r"LLMs?", r"LMs?", r"MLLMs?", r"VLMs?", r"GANs?", r"VAEs?", r"Transformers?", r"MLPs?", r"DNNs?", r"SNNs?",
    r"ANNs?", r"ViTs?",
    # hardware: never a data set
    r"Jetson", r"A100", r"V100", r"H100", r"TPU\w*", r"GPUs?", r"RTX", r"Titan", r"NVIDIA",
)
#: Capitalised words that start sentences or phrases and never start a dataset name (matched exactly).
GENERIC_CAPITALS = (
    "The", "This", "These", "Our", "We", "It", "In", "On", "A", "An", "For", "With", "Table", "Figure",
    "Section", "Experiments", "Extensive", "Results", "Moreover", "Furthermore", "However", "Finally",
    "Notably", "Overall", "Code", "Average", "Compared", "Specifically", "Additionally", "Both",
    "All", "Each", "Under", "At", "As", "By", "From", "To", "And", "Across", "When", "While", "IID", "Non-IID",
    "SOTA", "State", "English", "Chinese",
)
#: Words after a capitalised name that make it something other than a dataset: "KGE models", "FLAD methods",
#: "the CSRL task", "E-Commerce specific NER tasks", "Hindi Wikipedia articles".
NOT_DATASET_HEADS = (
    r"models?", r"methods?", r"approach(?:es)?", r"task", r"specific", r"sections?", r"articles?", r"attacks?",
    r"algorithms?", r"frameworks?", r"baselines?", r"architectures?", r"networks?", r"agents?", r"systems?",
    r"settings?", r"scenarios?", r"metrics?", r"techniques?", r"strategies", r"modules?", r"layers?",
    r"loss(?:es)?", r"collections", r"problems?", r"variants?", r"backbones?", r"platforms?", r"systems?",
)
#: Head nouns that make a phrase a data set ("real student behavior dataset", "remote sensing benchmark").
DATASET_HEADS = (r"datasets?", r"benchmarks?", r"corpus", r"corpora", r"test sets?", r"splits?", r"suites?")
#: Words before "dataset(s)"/"benchmark(s)" that make the phrase generic, not a name ("five multi-hop QA
#: datasets", "all datasets", "these benchmarks").
GENERIC_DATASET_WORDS = (
    r"all", r"these", r"those", r"both", r"several", r"many", r"multiple", r"various", r"different", r"other",
    r"public", r"standard", r"popular", r"common", r"benchmark", r"real-world", r"existing", r"our", r"the",
)
#: Count words: "three ACOS datasets", "five multi-hop QA datasets" name a kind of data set, not one.
COUNT_WORDS = (r"two", r"three", r"four", r"five", r"six", r"seven", r"eight", r"nine", r"ten", r"several",
               r"multiple", r"many", r"various")

# ------------------------------------------------------------------------------------------------------ URLs
#: Hosts accepted without a scheme (GUIDELINES: "bare well-known hosts such as github.com/x/y"). Regex
#: fragments over the host name.
BARE_HOSTS = (
    r"github\.com", r"gitlab\.com", r"bitbucket\.org", r"codeberg\.org", r"huggingface\.co", r"hf\.co",
    r"anonymous\.4open\.science", r"[a-z0-9][a-z0-9-]*\.github\.io", r"arxiv\.org", r"doi\.org",
    r"openreview\.net", r"zenodo\.org", r"kaggle\.com", r"colab\.research\.google\.com",
    r"sites\.google\.com", r"paperswithcode\.com",
)
#: Hosts of git repositories: ``host/<owner>/<repo>`` is a repository (the ``repo`` column).
GIT_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gist.github.com")
#: First path segments of a git host that are site pages, not owners.
GIT_RESERVED = (
    "orgs", "topics", "features", "sponsors", "marketplace", "explore", "settings", "about", "collections",
    "trending", "login", "join", "search", "apps", "enterprise", "pricing",
)
#: Hosts whose links are data sets.
DATASET_HOSTS = ("zenodo.org", "osf.io", "figshare.com", "physionet.org", "data.mendeley.com")
#: Hosts whose links are papers.
PAPER_HOSTS = (
    "arxiv.org", "doi.org", "openreview.net", "aclanthology.org", "proceedings.neurips.cc", "papers.nips.cc",
    "proceedings.mlr.press", "dl.acm.org", "ieeexplore.ieee.org", "openaccess.thecvf.com", "link.springer.com",
)
#: Hosts whose links are demos.
DEMO_HOSTS = ("colab.research.google.com", "replicate.com")
#: Hosts that serve one project's web pages.
PAGE_HOST_SUFFIXES = (".github.io", ".gitlab.io", ".netlify.app", ".vercel.app", ".readthedocs.io")
#: Words in the sentence before a URL that say what it points to; the sentence wins over the host rule.
URL_CUES = {
    "project_page": (r"(?:project|web|home)[\s-]?(?:page|site|website)s?", r"website", r"homepage"),
    "code": (r"codes?", r"source", r"implementations?", r"repo(?:sitory|sitories)?", r"github", r"software",
             r"library", r"toolkit", r"package", r"baselines"),
    "dataset": (r"datasets?", r"benchmarks?", r"corpus", r"corpora"),
    "demo": (r"demos?",),
    "model": (r"models?", r"checkpoints?", r"weights"),
    "other_noun": (r"videos?", r"results", r"samples", r"prompts", r"details", r"materials?", r"appendix",
                   r"supplementary", r"visuali[sz]ations?", r"examples?"),
}


def words(table, flags: int = re.I, bounded: bool = True) -> re.Pattern:
    """One compiled alternation of a table's entries, as whole words when ``bounded``."""
    alt = "|".join(table)
    return re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])" if bounded else f"(?:{alt})", flags)


def alternation(table) -> str:
    """The entries of a table as one regex alternation (no groups, no bounds), for embedding in a rule."""
    return "(?:" + "|".join(table) + ")"
