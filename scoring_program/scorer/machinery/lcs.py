"""Length of the longest common subsequence of two token lists, bit-parallel.

Allison and Dix (1986) / Hyyrö (2004): one machine word per column of the DP table becomes one
Python integer for the whole column, so each token of ``b`` costs a few big-integer operations:

    V = all ones (|a| bits);  for each token t of b:  U = V & M[t];  V = (V + U) | (V - U)
    LCS = |a| - popcount(V)

where M[t] has bit i set when a[i] == t. Exact, O(|a|·|b| / w) word operations; the plain
dynamic program in the tests is the oracle.
"""

from __future__ import annotations

from typing import Dict, Hashable, List, Sequence, Tuple

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


def lcs_alignment(a: Sequence[Hashable], b: Sequence[Hashable]) -> Tuple[List[bool], List[bool]]:
    """Which tokens of ``a`` and of ``b`` one longest common subsequence uses (the plain dynamic
    program, O(|a|·|b|): for the local error analysis's few items only). Deterministic: a pair
    of equal tokens is matched as soon as a longest subsequence allows it.

    >>> lcs_alignment("a b c d".split(), "a x c".split())
    ([True, False, True, False], [True, False, True])
    """
    n, m = len(a), len(b)
    # suffix[i][j]: the LCS length of a[i:] and b[j:]
    suffix = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = suffix[i], suffix[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    in_a, in_b = [False] * n, [False] * m
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j] and suffix[i][j] == suffix[i + 1][j + 1] + 1:
            in_a[i] = in_b[j] = True
            i += 1
            j += 1
        elif suffix[i + 1][j] >= suffix[i][j + 1]:
            i += 1
        else:
            j += 1
    return in_a, in_b
