"""Which value of a metric is better, as data: the metric table behind ``benchmarks.direction`` and the kind rule
``kind-score-drop`` (a drop of a higher-is-better score is a delta).

Each :class:`DirectionRule` is a regular expression searched in a ``metric_key`` (pipeline.analyse.extraction
.keys: case-folded, letters, digits and ``@`` only, so "Word Error Rate" is ``worderrorrate``), the direction
it gives, the source of the convention and examples (keys it must match) and counter-examples (keys it must
not match), run as tests (tests/build/test_benchmarks.py). The first rule that matches decides, so the
lower-is-better rules come first: ``top1error`` is an error before it is a "top-1" score. A key no rule
matches is ``unknown`` and its benchmark is not ranked: a guess would publish a wrong leader.

Sources: the definition of each metric in the paper that introduced it or in a standard text, cited per
rule; the common reading of error-like quantities (an error, a distance, a loss, a cost) as lower-is-better
and of agreement-like ones (an accuracy, an overlap, a correlation, a reward) as higher-is-better.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class DirectionRule:
    """``name``; ``pattern`` (regex searched in a metric_key); ``direction`` ("higher" or "lower");
    ``source`` (why); ``examples`` / ``counter_examples`` (metric keys it must / must not match)."""

    name: str
    pattern: str
    direction: str
    source: str
    examples: tuple[str, ...]
    counter_examples: tuple[str, ...] = ()


RULES: tuple[DirectionRule, ...] = (
    DirectionRule(
        "error",
        r"error|^(?:w|c|t|p|e|b)er$|^(?:err|mae|mse|rmse|mape|smape|nme|absrel|sqrel|rmselog)$",
        "lower",
        "An error rate or error measure counts what is wrong: WER/CER (Jurafsky & Martin, Speech and "
        "Language Processing, ch. 16), EER, top-1 error, MAE/MSE/RMSE (mean absolute / squared error).",
        ("worderrorrate", "wer", "cer", "top1error", "errorrate", "mae", "rmse", "eer", "absrel"),
        ("accuracy", "per@1"),
    ),
    DirectionRule(
        "distance",
        r"^(?:fid|kid|fvd|fad|lpips|cd|emd|epe|ade|fde|hd95|assd|tre)(?:@?\d+\w*)?$|distance$|mpjpe$",
        "lower",
        "Distances between outputs and targets or between distributions: FID (Heusel et al., NeurIPS 2017), "
        "KID (Bińkowski et al., ICLR 2018), FVD (Unterthiner et al., 2018), LPIPS (Zhang et al., CVPR 2018), "
        "Chamfer distance, end-point error, ADE/FDE (trajectory displacement errors), MPJPE (mean per-joint "
        "position error, Human3.6M: Ionescu et al., TPAMI 2014).",
        ("fid", "fid10k", "kid", "fvd", "lpips", "chamferdistance", "ade", "fde", "mpjpe", "pampjpe"),
        ("f1", "fidelity"),
    ),
    DirectionRule(
        "perplexity_loss",
        r"perplexity|^ppl$|loss$|^nll$|^bpd$|bitsper(?:dim|dimension|character|byte|char)$|^bpc$|^bpb$|"
        r"crossentropy$|^ece$|calibrationerror|regret(?:@\d+)?$",
        "lower",
        "Perplexity is the exponentiated cross-entropy of held-out text (Jelinek et al., 1977; Jurafsky & "
        "Martin, ch. 3); negative log-likelihood, bits per dimension/character, losses, expected "
        "calibration error (Guo et al., ICML 2017) and regret are costs.",
        ("perplexity", "ppl", "validationloss", "nll", "bpd", "bitsperdim", "ece", "regret", "regret@3"),
        ("accuracy",),
    ),
    DirectionRule(
        "rank",
        r"^(?:rank|place|meanrank|medianrank)$",
        "lower",
        "A place on a leaderboard or in a contest counts from the best: rank 1 is first (the contests' own "
        "tables); a mean or median rank of the right answer (MR, MedR in retrieval) is lower when better.",
        ("rank", "place", "meanrank", "medianrank"),
        ("meanreciprocalrank", "rank1accuracy", "rank1"),
    ),
    DirectionRule(
        "gap",
        r"gap$",
        "lower",
        "A gap is the distance to a bound or a reference that a method closes: the optimality gap of a "
        "combinatorial solver and the duality gap (Boyd & Vandenberghe, Convex Optimization, ch. 5), the "
        "generalisation gap (train minus test), a coverage or accuracy gap between groups; smaller is better.",
        (
            "optimalitygap",
            "averageoptimalitygap",
            "dualitygap",
            "generalizationgap",
            "coveragegap",
            "accuracygap",
        ),
        ("gaps10", "coverage"),
    ),
    DirectionRule(
        "cost",
        r"latency|runtime|inferencetime|^time$|memory(?:usage|footprint|consumption)?$|energy|^cost$|"
        r"falsepositiverate|^fpr(?:@?\d+)?$|missrate|hallucinationrate|toxicity|collisionrate|^mr$|^g?flops$",
        "lower",
        "Resources spent (latency, run time, memory, energy, cost, FLOPs) and rates of failure (false "
        "positives, misses, hallucinations, collisions): less is better by definition.",
        ("latency", "inferencetime", "memoryusage", "fpr95", "falsepositiverate", "hallucinationrate"),
        ("throughput", "recall"),
    ),
    DirectionRule(
        "accuracy",
        r"accurac|^acc(?:@?\d+)?$|^top\d+$|exactmatch|^em$|^(?:pass|hits|recall|r|acc|success)@\d+|"
        r"^passrate$|solverate|successrate|winrate|^sr$|^spl$|resolved|resolverate",
        "higher",
        "Shares of right answers: accuracy, exact match (Rajpurkar et al., EMNLP 2016), pass@k (Chen et "
        "al., 2021), Hits@k and Recall@k, success, win and solve rates.",
        (
            "accuracy",
            "top1accuracy",
            "acc",
            "exactmatch",
            "em",
            "pass@1",
            "hits@10",
            "successrate",
            "winrate",
        ),
        ("top1error", "errorrate"),
    ),
    DirectionRule(
        "overlap",
        r"^(?:f1|f|f05|f2|fmeasure|microf1|macrof1|weightedf1|bleu\d*|sacrebleu|rouge\w*|meteor|cider\w*|"
        r"spice|chrf\+*|bertscore|bleurt|comet\w*|gleu|map\w*|ap\w*|auc\w*|auroc|auprc|aupr|roc\w*|"
        r"iou|miou|mious|dice|dsc|psnr|ssim|msssim|ndcg\w*|mrr|mota|motp|hota|idf1|pq|nds|kappa|r2|sdr|"
        r"sisdr|sisnr|pesq|stoi|is|inceptionscore|clipscore|elo|mcc)$|^f1|precision|recall|fscore|^ap\d|^ndcg|"
        r"iou$|intersectionoverunion|map$",
        "higher",
        "Overlap and agreement with references: F1 (van Rijsbergen, Information Retrieval, 1979), BLEU "
        "(Papineni et al., ACL 2002), ROUGE (Lin, 2004), METEOR, CIDEr (Vedantam et al., CVPR 2015), "
        "mAP/AP (PASCAL VOC, COCO), AUC, IoU/mIoU, Dice, PSNR and SSIM (Wang et al., IEEE TIP 2004), nDCG "
        "(Järvelin & Kekäläinen, 2002), MRR, MOTA/HOTA, PQ, Cohen's kappa, R², SI-SDR, PESQ, Inception Score "
        "(Salimans et al., 2016).",
        (
            "f1",
            "bleu",
            "bleu4",
            "rougel",
            "map",
            "averagemap",
            "ap50",
            "auc",
            "miou",
            "meaniou",
            "psnr",
            "ssim",
            "ndcg@10",
            "precision",
        ),
        ("fid", "wer"),
    ),
    DirectionRule(
        "reward_correlation",
        r"reward|return|correlation|pearson|spearman|kendall|^(?:rho|tau)$|throughput|speedup|^fps$|"
        r"framespersecond|"
        r"coverage|fidelity|agreement|humanpreference|preferencerate",
        "higher",
        "Rewards and returns (Sutton & Barto, Reinforcement Learning, 2018), correlations with human "
        "judgements (Pearson, Spearman, Kendall), throughput, frames per second and speed-ups, coverage and "
        "fidelity: more is better by definition. A bare 'score' or 'performance' says nothing of its "
        "direction and stays unknown.",
        ("reward", "averagereturn", "spearmancorrelation", "throughput", "speedup", "fps", "fidelity"),
        ("loss", "score", "performance"),
    ),
)

_COMPILED = tuple((re.compile(r.pattern), r) for r in RULES)


def rule_of(metric_key: str | None) -> DirectionRule | None:
    """The first :data:`RULES` entry whose pattern is found in ``metric_key``, or None (None for None)."""
    if not metric_key:
        return None
    for pattern, rule in _COMPILED:
        if pattern.search(metric_key):
            return rule
    return None


def direction_of(metric_key: str | None) -> str:
    """``"higher"``, ``"lower"`` or ``"unknown"`` for a metric_key (:func:`rule_of`)."""
    rule = rule_of(metric_key)
    return rule.direction if rule is not None else "unknown"
