"""The statistics of a leaderboard on arrays of resamples: CIs, ranks, rank ranges, paired
p-values, groups, approximate randomization against baselines (definitions: rank_submissions.py's
docstring; the resamples: scoring_program/scorer/outputs/resampling.py; the aggregates: each track module's
``aggregate``, reached through ``resampling.aggregate``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import numpy as np

from .scoring import Scored
from scorer.tracks.registry import BY_NAME
from scorer.machinery.per_item import ItemStatistics
from scorer.outputs.resampling import aggregate, interval_positions, resample_indices

ALPHA = 0.05


class ArrayOps:
    """The track aggregates' operations (``scorer.machinery.per_item.ScalarOps`` on plain numbers) on numpy
    arrays (one value per resample)."""

    @staticmethod
    def divide(numerator, denominator, default):
        numerator, denominator = np.broadcast_arrays(np.asarray(numerator, dtype=np.float64),
                                                     np.asarray(denominator, dtype=np.float64))
        out = np.full(numerator.shape, default, dtype=np.float64)
        np.divide(numerator, denominator, out=out, where=denominator != 0)
        return out

    where = staticmethod(np.where)
    sqrt = staticmethod(np.sqrt)

    @staticmethod
    def mean(values):
        return np.mean(np.stack(values), axis=0)


def resample_counts(n_items: int, resamples: int, seed: int) -> np.ndarray:
    """(resamples × items) how many times each item is drawn, from ``resample_indices``."""
    counts = np.zeros((resamples, n_items), dtype=np.float64)
    for r, indices in enumerate(resample_indices(n_items, resamples, seed)):
        counts[r] = np.bincount(np.asarray(indices, dtype=np.int64), minlength=n_items)
    return counts


def pool_labels(statistics: ItemStatistics, matrix: np.ndarray, key: str) -> Tuple[ItemStatistics, np.ndarray]:
    """The statistics with every technique pooled into one, when ``key`` depends on the pooled sums
    only (the track module's ``POOLED_KEYS``: micro-F1, span P/R/F1; not a macro average): sums are
    linear, so pooling before the resampling equals pooling after, on a product with one column
    per kind of statistic instead of one per technique and kind."""
    labels = statistics.labels
    if len(labels) < 2 or key not in BY_NAME[statistics.track].pooled_keys:
        return statistics, matrix
    kinds = [column.split("|", 1)[0] for column in statistics.columns[:len(statistics.columns) // len(labels)]]
    pooled = matrix.reshape(matrix.shape[0], len(labels), len(kinds)).sum(axis=1)
    return ItemStatistics(statistics.track, statistics.items, ["%s|all" % kind for kind in kinds], [], ("all",),
                          statistics.keys), pooled


def resampled_score_matrix(entered: Sequence[Tuple[ItemStatistics, np.ndarray]], counts: np.ndarray, key: str,
                           chunk: int = 50) -> np.ndarray:
    """(submissions × resamples) score ``key``: counts (resamples × items) @ each submission's
    statistics (items × columns), aggregated once for a chunk of submissions with the same columns
    (numpy's per-call overhead, not the arithmetic, dominates one submission at a time)."""
    entered = [pool_labels(statistics, matrix, key) for statistics, matrix in entered]
    # Exact ties: submissions with equal per-item statistics are computed once and share the
    # result. (Side by side in one product, two equal column blocks may be summed in different
    # orders by BLAS and differ in the last bit; a resample would then rank them apart.)
    first_of: Dict[tuple, int] = {}
    same_as = []
    for i, (statistics, matrix) in enumerate(entered):
        identity = (tuple(statistics.columns), statistics.labels, statistics.keys, matrix.shape,
                    np.ascontiguousarray(matrix).tobytes())
        same_as.append(first_of.setdefault(identity, i))
    distinct = sorted(first_of.values())
    scores = np.empty((len(entered), counts.shape[0]), dtype=np.float64)
    groups: Dict[tuple, List[int]] = {}
    for i in distinct:
        statistics = entered[i][0]
        groups.setdefault((tuple(statistics.columns), statistics.labels, statistics.keys), []).append(i)
    for members in groups.values():
        for start in range(0, len(members), chunk):
            part = members[start:start + chunk]
            side_by_side = np.concatenate([entered[i][1] for i in part], axis=1)  # items × (part · columns)
            totals = (counts @ side_by_side).reshape(counts.shape[0], len(part), -1)  # one BLAS product
            statistics = entered[part[0]][0]
            values = aggregate(statistics, {c: np.ascontiguousarray(totals[:, :, j].T)
                                            for j, c in enumerate(statistics.columns)}, ArrayOps, key)[key]
            scores[part] = np.broadcast_to(values, (len(part), counts.shape[0]))
    scores[:] = scores[same_as]
    return scores


def ranks_of(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Competition ranks along axis 0 (1 + the number strictly better; ties share the smallest)."""
    signed = -values if higher_is_better else values
    ordered = np.sort(signed, axis=0)
    if values.ndim == 1:
        return np.searchsorted(ordered, signed, side="left") + 1
    ranks = np.empty(values.shape, dtype=np.int64)
    for r in range(values.shape[1]):
        ranks[:, r] = np.searchsorted(ordered[:, r], signed[:, r], side="left") + 1
    return ranks


def paired_bootstrap_pvalues(point: np.ndarray, resampled: np.ndarray) -> np.ndarray:
    """p[i, j] = (1 + #{r : |Δ*_r − mean(Δ*)| ≥ |Δ|}) / (1 + R), Δ = point[i] − point[j],
    Δ*_r = resampled[i, r] − resampled[j, r]. Identical submissions get exactly 1."""
    count, resamples = resampled.shape
    # Δ*_r − mean(Δ*) = (x_i,r − mean x_i) − (x_j,r − mean x_j): centre each row once.
    centred = resampled - resampled.mean(axis=1, keepdims=True)
    pvalues = np.ones((count, count))
    for i in range(count):
        observed = np.abs(point[i] - point)
        pvalues[i] = (1 + (np.abs(centred[i] - centred) >= observed[:, None]).sum(axis=1)) / (1 + resamples)
    return pvalues


def approximate_randomization_pvalue(a: Tuple[ItemStatistics, np.ndarray], b: Tuple[ItemStatistics, np.ndarray],
                                     key: str, observed: float, shuffles: int, seed: int) -> float:
    """p = (1 + #{r : |Δ*_r| ≥ |Δ|}) / (1 + R); shuffle r swaps each item's statistics between a
    and b with probability 1/2 (``random.Random(seed)``)."""
    import random

    (stats_a, matrix_a), (stats_b, matrix_b) = a, b
    rng = random.Random(seed)
    n = matrix_a.shape[0]
    swaps = np.array([[rng.random() < 0.5 for _ in range(n)] for _ in range(shuffles)], dtype=np.float64)
    keep = 1.0 - swaps
    totals_a = keep @ matrix_a + swaps @ matrix_b
    totals_b = keep @ matrix_b + swaps @ matrix_a
    scores_a = aggregate(stats_a, {c: totals_a[:, j] for j, c in enumerate(stats_a.columns)}, ArrayOps)[key]
    scores_b = aggregate(stats_b, {c: totals_b[:, j] for j, c in enumerate(stats_b.columns)}, ArrayOps)[key]
    count = int((np.abs(np.asarray(scores_a) - np.asarray(scores_b)) >= abs(observed)).sum())
    return (1 + count) / (1 + shuffles)


@dataclass
class Board:
    """One leaderboard's rows and statistics, rows in rank order."""

    name: str
    track: str
    key: str
    higher_is_better: bool
    rows: List[Scored]
    scores: np.ndarray  # headline value of ``key`` per row
    ci: np.ndarray  # (rows × 2)
    rank: np.ndarray  # 0 for a baseline (it takes no rank)
    rank_range: np.ndarray  # (rows × 2); 0, 0 for a baseline
    group: np.ndarray  # 0 for a baseline (it joins no group, nor moves anyone's)
    pvalues: np.ndarray  # (rows × rows)
    baseline_p: Dict[str, np.ndarray]  # baseline name -> p-value of each row against it


def build_board(name: str, track: str, key: str, higher_is_better: bool, entered: List[Scored],
                resamples: int, seed: int, baseline_test: str) -> Board:
    items = entered[0].statistics[track][0].items
    for scored in entered:
        if scored.statistics[track][0].items != items:
            raise SystemExit("rank_submissions: %s: the items of %s differ from those of %s (same gold?)"
                             % (track, scored.entry.name, entered[0].entry.name))
    counts = resample_counts(len(items), resamples, seed)
    point = np.array([s.scores[track][key] for s in entered], dtype=np.float64)
    # the baselines apart: in the participants' products they would change the order of BLAS's sums,
    # and their intervals in the last bit
    resampled = np.empty((len(entered), resamples), dtype=np.float64)
    for baseline in (False, True):
        members = [i for i, s in enumerate(entered) if s.entry.baseline == baseline]
        if members:
            resampled[members] = resampled_score_matrix([entered[i].statistics[track] for i in members], counts, key)
    # Row order: by score (direction-aware), then by name, for stable tables.
    order = sorted(range(len(entered)), key=lambda i: (-point[i] if higher_is_better else point[i],
                                                       entered[i].entry.name))
    rows = [entered[i] for i in order]
    point, resampled = point[order], resampled[order]
    low, high = interval_positions(resamples)
    ordered = np.sort(resampled, axis=1)
    ci = np.stack([ordered[:, low], ordered[:, high]], axis=1)
    # Ranks among the participants: a baseline takes none (0: shown as a dash), nor moves anyone's.
    ranked = np.array([not s.entry.baseline for s in rows], dtype=bool)
    rank = np.zeros(len(rows), dtype=np.int64)
    rank_range = np.zeros((len(rows), 2), dtype=np.int64)
    if ranked.any():
        rank[ranked] = ranks_of(point[ranked], higher_is_better)
        resampled_ranks = np.sort(ranks_of(resampled[ranked], higher_is_better), axis=1)
        rank_range[ranked] = np.stack([resampled_ranks[:, low], resampled_ranks[:, high]], axis=1)
    pvalues = paired_bootstrap_pvalues(point, resampled)
    group = np.zeros(len(rows), dtype=np.int64)  # among the participants: 0 for a baseline, as its rank
    leader, current = -1, 0
    for i in np.flatnonzero(ranked):
        if leader < 0 or pvalues[leader, i] < ALPHA:
            leader, current = i, current + 1
        group[i] = current
    baseline_p: Dict[str, np.ndarray] = {}
    for b, base in enumerate(rows):
        if not base.entry.baseline:
            continue
        if baseline_test == "ar":
            baseline_p[base.entry.name] = np.array([
                1.0 if i == b else approximate_randomization_pvalue(
                    rows[i].statistics[track], base.statistics[track], key, point[i] - point[b], resamples, seed)
                for i in range(len(rows))])
        else:
            baseline_p[base.entry.name] = pvalues[:, b]
    return Board(name, track, key, higher_is_better, rows, point, ci, rank, rank_range, group, pvalues, baseline_p)
