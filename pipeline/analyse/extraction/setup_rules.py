"""The named setup rules: a number that is part of a name or describes the setup, never a row.

Part of the rule table :data:`pipeline.analyse.extraction.rules.RULES` (which wraps each entry in its ``Rule`` with
``setup=True``; this module is apart only to keep both files short): ``{rule name: (reason, examples)}``, an
example being ``(text, value, kept)``: no row has ``value``, the tokens name this rule for it, and a row with the
fields ``kept`` is extracted (``tests/analyse/test_extraction_rules.py``). The order is the order
:data:`pipeline.analyse.extraction.tokens.SETUP_RULES` applies them (GUIDELINES "NOT metrics").
"""

from __future__ import annotations

SETUP_RULE_TABLE: dict[str, tuple[str, tuple]] = {
    "setup-in-name": (
        "A minus sign glued after a letter is a hyphen inside a name ('GPT-4', 'Llama-3.1', 'CIFAR-10'), not a sign.",
        (
            ("GPT-4 reaches 81.2% accuracy on MMLU.", 4.0, {"value": 81.2, "metric": "accuracy"}),
            # the suffix of a coordinated name ("CIFAR-10 and -100") is no negative number
            ("Our method reaches 95.1% and 78.2% accuracy on CIFAR-10 and -100.", 100.0, {"value": 78.2}),
        ),
    ),
    "setup-exponent": (
        "A number in braces after ^ or _ is an exponent or a subscript ('2^{16}').",
        (("It needs 2^{16} steps to reach 93.1% accuracy.", 16.0, {"value": 93.1}),),
    ),
    "setup-glued-before": (
        "A number glued after a letter, '.', '_', '@', '^', '/', '=', a currency sign or a digit's '×' is part "
        "of a word, version, threshold, price or resolution ('IoU@0.5', 'v1.2', '$5'); 'τ=0.64' and a metric "
        "name given its value ('FID=9.91', 'macro-F1=54%', never a cut-off after 'at': 'at IoU=0.8') are exempt.",
        (("At IoU@0.5 our detector reaches 41.2% AP.", 0.5, {"value": 41.2, "metric": "AP"}),),
    ),
    "setup-glued-suffix": (
        "A number with a letter glued after it and no unit is a size or a name ('7B', '32K', '3D', '1e-5'), "
        "unless a metric name is glued to a decimal ('0.8mIoU').",
        (("Our 7B model reaches 61.0% pass@1 on HumanEval.", 7.0, {"value": 61.0, "dataset": "HumanEval"}),),
    ),
    "setup-dimensions": (
        "A multiplier sign followed by a number is a dimension or a mixture ('256×256', '8×7B').",
        (("At 256×256 resolution it reaches 2.1 FID.", 256.0, {"value": 2.1, "metric": "FID"}),),
    ),
    "setup-word-after": (
        "A number followed by a hyphenated setting ('4-bit', '5-shot'), an ordinal suffix, 'CI', a magnitude "
        "word ('7 billion') or a setup noun ('8 GPUs', '3 layers') is a setting (vocabulary SETUP_NOUNS), but "
        "not the time a task takes ('learn in under 5 minutes': rule metric-time-taken).",
        (("With 4-bit weights the model keeps 99.1% accuracy.", 4.0, {"value": 99.1, "metric": "accuracy"}),),
    ),
    "setup-percent-of": (
        "'N% of the <setup>' is a share of the setup, not a result ('1% of the parameters'; vocabulary "
        "PERCENT_OF_SETUP), unless a verb that takes away stands before it: 'reduces 90% of the parameters' is "
        "a result, a relative change named by what follows (no trailing preposition in the name).",
        (
            ("Tuning only 1% of the parameters gives 85.3% accuracy.", 1.0, {"value": 85.3}),
            (
                "Tuning 1% of the parameters reduces more than 74% of FLOPs compared with pruning.",
                1.0,
                {"value": 74.0, "kind": "relative_change", "metric": "FLOPs", "direction": "decrease"},
            ),
        ),
    ),
    "setup-percent-level": (
        "'N% <level>' is a level the setup runs at, not a result ('90% sparsity', '1% labeled data', '20% "
        "noise'; vocabulary PERCENT_SETUP_LEVELS), unless a metric name follows ('89.8% labeled F1').",
        (
            ("It keeps 68.2% accuracy at 86.6% sparsity.", 86.6, {"value": 68.2, "metric": "accuracy"}),
            (
                "With only 1% labeled data it reaches 71.3% accuracy.",
                1.0,
                {"value": 71.3, "metric": "accuracy"},
            ),
            ("A 97% compressed ResNet110 keeps 93.1% accuracy.", 97.0, {"value": 93.1}),
        ),
    ),
    "setup-year": (
        "An unsigned four-digit number from 1900 to 2099 with no unit is a year.",
        (("On the 2019 test set the model reaches 91.5 F1.", 2019.0, {"value": 91.5, "metric": "F1"}),),
    ),
    "setup-confidence-level": (
        "'95% CI' / '95% confidence' is the level of an interval, not a result.",
        (("Accuracy is 81.0% (95% CI 79.2-82.8).", 95.0, {"value": 81.0, "metric": "Accuracy"}),),
    ),
    "setup-cross-validation": (
        "'N-fold cross-validation' counts folds of the protocol.",
        (("Under 5-fold cross-validation it reaches 88.4% accuracy.", 5.0, {"value": 88.4}),),
    ),
    "setup-repetitions": (
        "'N times' after a verb of repetition ('repeated', 'sampled', 'queried') counts runs, not a multiplier.",
        (("Each query is repeated 10 times and accuracy reaches 70.2%.", 10.0, {"value": 70.2}),),
    ),
    "setup-uncertainty": (
        "The number after '±' ('+-', '+/-') is the uncertainty of the number before it ('88.1 ± 0.3'); a unit "
        "written once after the spread is the number's too ('68±3% accuracy' is a 68 % row); a list of spread "
        "numbers is a list ('93.34+-0.05 and 89.73+-0.04').",
        (
            ("It reaches 88.1 ± 0.3 F1 on SQuAD.", 0.3, {"value": 88.1, "metric": "F1"}),
            (
                "It renders superior Dice scores of 93.34+-0.05 and 89.73+-0.04 respectively.",
                0.04,
                {"value": 89.73, "metric": "Dice score"},
            ),
        ),
    ),
    "setup-math-variable": (
        "A number after a one- or two-letter variable and a comparison ('k = 5', 'n < 10', 'A ≥ 0') is math "
        "about a setting, unless it is a correlation statistic ('r = 0.91') or a metric name ('F1 = 0.71'); a "
        "two-letter English word is no variable: 'by > 60%' is a result with qualifier '>'.",
        (
            ("With k = 5 neighbours it reaches 90.1% accuracy.", 5.0, {"value": 90.1}),
            (
                "For n < 10, it reduces the error by > 60% on ImageNet.",
                10.0,
                {"value": 60.0, "qualifier": ">", "metric": "error", "span": "> 60%"},
            ),
        ),
    ),
    "setup-zero-multiplier": (
        "'0×' is never a reported multiplier (a multiplier is positive).",
        (("A 0× overhead and a 2.5× speedup are reported.", 0.0, {"value": 2.5, "unit": "x"}),),
    ),
}
