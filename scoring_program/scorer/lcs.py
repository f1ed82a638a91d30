"""Length of the longest common subsequence of two token lists, bit-parallel.

Allison and Dix (1986) / Hyyrö (2004): one machine word per column of the DP table becomes one
Python integer for the whole column, so each token of ``b`` costs a few big-integer operations:

    V = all ones (|a| bits);  for each token t of b:  U = V & M[t];  V = (V + U) | (V - U)
    LCS = |a| - popcount(V)

where M[t] has bit i set when a[i] == t. Exact, O(|a|·|b| / w) word operations; the plain
dynamic program in the tests is the oracle.
"""

from __future__ import annotations

from typing import Dict, Hashable, Sequence, Tuple

Masks = Tuple[Dict[Hashable, int], int]  # (token -> bit mask, length)


def token_masks(a: Sequence[Hashable]) -> Masks:
    """The per-token bit masks of ``a``; reuse them to compare ``a`` with many sequences."""
    masks: Dict[Hashable, int] = {}
    for position, token in enumerate(a):
        masks[token] = masks.get(token, 0) | (1 << position)
    return masks, len(a)


def lcs_with_masks(masks: Masks, b: Sequence[Hashable]) -> int:
    table, length = masks
    if not length or not b:
        return 0
    full = (1 << length) - 1
    v = full
    get = table.get
    for token in b:
        match = get(token)
        if match:
            u = v & match
            v = ((v + u) | (v - u)) & full
    return length - bin(v).count("1")


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """
    >>> lcs_length("to be or not to be".split(), "not to be No to be".split())
    4
    """
    return lcs_with_masks(token_masks(a), b)
