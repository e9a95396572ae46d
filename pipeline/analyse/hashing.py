"""Duplicate keys of one abstract: the exact-duplicate content hash and the near-duplicate LSH keys.

Computed per abstract in the per-abstract step (stored with each row), so the global dedup step
(pipeline.build.dedup) only joins on keys. The rules and thresholds that use them, with their sources, are
in pipeline.build.dedup; the version of both modules is ``pipeline.build.dedup.RULES_VERSION``.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import xxhash
from datasketch import MinHash

#: Word n-gram size of shingles: 3, the setting measured on the dev corpus (docs/design.md, "Dedup and
#: identity").
SHINGLE_WORDS = 3
#: MinHash permutations and LSH bands × rows: (14, 9) over 128 permutations gives P(candidate) 0.87 at
#: J=0.8 and 0.97 at J=0.85 (datasketch threshold=0.7, "tuned for recall": docs/design.md, "Dedup and
#: identity").
NUM_PERM = 128
LSH_BANDS = 14
LSH_ROWS = 9
#: Words of the normalised text that form the prefix key (truncated copies keep their beginning).
PREFIX_WORDS = 12
MINHASH_SEED = 1


#: A run of alphanumeric characters: what :func:`normalise_for_hash` keeps (every other character separates).
_ALNUM = re.compile(r"[^\W_]+")


def normalise_for_hash(text: str) -> str:
    """NFKC, casefold, and every run of non-alphanumeric characters folded to one space (the ends stripped):
    the alphanumeric runs joined by single spaces, which is that text and cheaper to build than a
    substitution of every run."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("×", "x")
    return " ".join(_ALNUM.findall(text))


def content_hash(text: str) -> str:
    """32 hex digits: xxh3-128 of :func:`normalise_for_hash` (stable across versions and platforms)."""
    return normalised_content_hash(normalise_for_hash(text))


def normalised_content_hash(normalised: str) -> str:
    """:func:`content_hash` of a text whose :func:`normalise_for_hash` is ``normalised``: for a caller that
    also needs the :func:`lsh_keys` of it, so the text is normalised once."""
    return xxhash.xxh3_128_hexdigest(normalised.encode("utf-8"))


def shingles(normalised: str) -> set[int]:
    """Word 3-gram shingles of a normalised text as 64-bit hashes (a shorter text is one shingle)."""
    words = normalised.split()
    if len(words) < SHINGLE_WORDS:
        return {xxhash.xxh3_64_intdigest(" ".join(words).encode())} if words else set()
    # the n-grams as C-level loops (zip, map) rather than a comprehension of slices: same shingles
    grams = zip(*(words[i:] for i in range(SHINGLE_WORDS)))
    return set(map(xxhash.xxh3_64_intdigest, map(str.encode, map(" ".join, grams))))


#: The low 32 bits of a shingle hash (an int's ``&`` with the mask, called as a C function).
_low32 = (0xFFFFFFFF).__and__


def _identity(x):
    return x


#: datasketch derives its permutations from (NUM_PERM, MINHASH_SEED); computed once, not per abstract.
_TEMPLATE = MinHash(num_perm=NUM_PERM, seed=MINHASH_SEED, hashfunc=_identity)
_PERMUTATIONS, _SCHEME = _TEMPLATE.permutations, _TEMPLATE.scheme


def lsh_keys(normalised: str) -> list[int]:
    """LSH_BANDS band keys of the MinHash signature plus one prefix key, as unsigned 64-bit ints."""
    sh = shingles(normalised)
    if not sh:
        return []
    # datasketch applies its hash function to each value (in a Python loop): here it keeps the low 32 bits of
    # the shingle hash, the affine32 scheme's input
    mh = MinHash(
        num_perm=NUM_PERM, seed=MINHASH_SEED, hashfunc=_low32, permutations=_PERMUTATIONS, scheme=_SCHEME
    )
    mh.update_batch(list(sh))
    sig = mh.hashvalues.astype(np.uint64)
    keys = [
        xxhash.xxh3_64_intdigest(sig[b * LSH_ROWS : (b + 1) * LSH_ROWS].tobytes(), seed=b)
        for b in range(LSH_BANDS)
    ]
    keys.append(
        xxhash.xxh3_64_intdigest(" ".join(normalised.split()[:PREFIX_WORDS]).encode(), seed=LSH_BANDS)
    )
    return keys
