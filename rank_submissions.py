#!/usr/bin/env python3
"""The organisers' results: re-score every submission, with confidence intervals, rank ranges,
significance groups and the task paper's tables and figures.

    .venv/bin/python rank_submissions.py SUBMISSIONS --ref PHASE_GOLD_DIR --out DIR
        [--teams CSV] [--baseline NAME=PATH ...] [--resamples 1000] [--seed 0] [--jobs N]
        [--baseline-test bootstrap|ar]

SUBMISSIONS: a folder of submission zips or folders, or a platform's bulk download (Codabench's
"download selected" zip, Codalab v1.5's "download all submissions on the leaderboard" zip, or
either one unzipped). Each submission is scored in-process by the scoring program's own code
(``scorer.resampling.score_in_process``), so every score equals what ``score.py`` writes.

Statistics, per leaderboard (``scorer.resampling.LEADERBOARDS``: the primary score of each track,
and absita's ABSA and SA subtasks), on the items of the track (meme, article, id, review, each with
all its rows), with the same bootstrap resamples for every submission
(``scorer.resampling.resample_indices``, ``random.Random(seed)``):

- ``ci_low``/``ci_high``: nearest-rank 2.5th and 97.5th percentiles of the resampled scores;
- ``rank``: 1 + the number of strictly better submissions (ties share the smallest rank); baselines
  are ranked with the submissions and marked;
- ``rank_low``/``rank_high``: nearest-rank 2.5th and 97.5th percentiles of the resampled ranks;
- p-values (paired bootstrap): ``p = (1 + #{r : |Δ*_r − mean(Δ*)| ≥ |Δ|}) / (1 + R)``;
- groups: in score order, a group starts at its best submission; each next one joins while its
  p-value against that best is ≥ 0.05, otherwise it starts the next group.

With ``--baseline-test ar`` the p-values against each baseline (columns ``p_vs_<baseline>``) come
from approximate randomization (each item's statistics swapped between the pair with probability
1/2, R times, seeded; ``p = (1 + #{r : |Δ*_r| ≥ |Δ|}) / (1 + R)``): with per-item sufficient
statistics a shuffle is a sum, not a re-scoring.

Outputs in DIR (all byte-identical for the same inputs and seed; the signature is in each):
``<leaderboard>.csv``, ``pvalues_<leaderboard>.csv``, ``techniques_<track>.csv`` (teams ×
techniques F1), ``problems.csv``, ``results.md``, ``results.tex`` (booktabs), the figures
``<leaderboard>.svg|pdf`` and ``techniques_<track>.svg|pdf``, and ``index.html`` (self-contained).
CSV files start with one ``# signature: ...`` line: ``pandas.read_csv(path, skiprows=1)``.
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import os
import re
import sys
import tempfile
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.abspath(__file__))
PROGRAM_DIR = os.path.join(ROOT, "scoring_program")
sys.path.insert(0, PROGRAM_DIR)
sys.path.insert(0, os.path.join(ROOT, "starting_kit"))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from scorer import __version__ as SCORER_VERSION  # noqa: E402
from scorer.options import load_options  # noqa: E402
from scorer.registry import BY_FILE, BY_NAME  # noqa: E402
from scorer.resampling import (LEADERBOARDS, ItemStatistics, ReferenceDataProblem, aggregate,  # noqa: E402
                               interval_positions, item_statistics, resample_indices, score_in_process)
from scorer.submission import is_junk  # noqa: E402
from score_locally import KitError, safe_extract  # noqa: E402

TOOL_VERSION = "1"
ALPHA = 0.05
MAX_MEMBER_BYTES = 2 * 1024 ** 3  # a submission zip inside a bulk download larger than this is refused
TECHNIQUE_TRACKS = ("t6_st1", "t6_st2", "t6_st3", "flc")

# Codabench's "download selected": <id>_<owner>_PhaseId<phase>_<%Y-%m-%d:%M-%S>_<file>, with ':', '/'
# and '\' replaced by '_' when the browser writes the zip (src/apps/api/views/submissions.py,
# download_many; submission_manager.tag). A username may itself hold '_'.
CODABENCH_ENTRY = re.compile(r"^(\d+)_(.+)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2})_(.+)$")
# Codalab v1.5's leaderboard download: "<username> - <n> submission.zip", or "Team <name>  - <n>
# submission.zip" for a user with a team name, beside "... output.zip", "... profile.txt",
# "... method.txt", team_names_and_members.txt and detailed_results.html (apps/web/views.py,
# download_leaderboard_results).
CODALAB_ENTRY = re.compile(r"^(.*?) - (\d+) submission\.zip$")
CODALAB_EXTRAS = re.compile(r"^(.*) - (\d+) (output\.zip|profile\.txt|method\.txt)$")
PLATFORM_FILES = ("failed.txt", "team_names_and_members.txt", "detailed_results.html")


# --- finding the submissions -------------------------------------------------------------------------

@dataclass
class Entry:
    """One submission to score: a zip, a folder, or a zip inside a bulk download (``member``)."""

    name: str  # unique; the row's name in every table
    team: str
    source: str
    member: str = ""
    platform_id: str = ""
    owner: str = ""
    baseline: bool = False

    def keys(self) -> List[str]:
        """What a --teams CSV may name this submission by."""
        return [k for k in (self.platform_id, self.name, os.path.basename(self.member or self.source),
                            self.owner) if k]


def describe_entry(filename: str) -> Tuple[str, str, str]:
    """(name, owner or team, platform submission id) from a platform's file name."""
    match = CODABENCH_ENTRY.match(filename)
    if match:
        identifier, owner = match.group(1), match.group(2)
        return "%s-%s" % (owner, identifier), owner, identifier
    match = CODALAB_ENTRY.match(filename)
    if match:
        who, number = match.group(1).strip(), match.group(2)
        team = who[len("Team "):].strip() if who.startswith("Team ") else who
        return "%s - %s" % (team, number), team, ""
    stem = filename[:-4] if filename.lower().endswith(".zip") else filename
    return stem, stem, ""


def _is_platform_extra(name: str) -> bool:
    return name in PLATFORM_FILES or bool(CODALAB_EXTRAS.match(name)) or is_junk(name)


def discover(path: str) -> Tuple[List[Entry], List[str]]:
    """The submissions in ``path`` and the platform's notes (failed.txt lines)."""
    notes: List[str] = []
    if os.path.isdir(path):
        names = sorted(os.listdir(path))
        if any(name in BY_FILE for name in names):  # one submission's own folder
            name = os.path.basename(os.path.normpath(path))
            return [Entry(name, name, path)], notes
        entries = []
        for name in names:
            full = os.path.join(path, name)
            if name == "failed.txt":
                notes.extend(_failed_lines(_read_text(full)))
            elif _is_platform_extra(name):
                continue
            elif os.path.isdir(full) or name.lower().endswith(".zip"):
                label, owner, identifier = describe_entry(name)
                entries.append(Entry(label, owner, full, platform_id=identifier, owner=owner))
        return entries, notes
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise SystemExit("rank_submissions: %s: not a folder or a zip file (%s)" % (path, error))
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        top = [m.filename.replace("\\", "/").split("/")[-1] for m in members]
        if not any(name.lower().endswith(".zip") for name in top):  # one submission's zip
            name = os.path.basename(path)[:-4] if path.lower().endswith(".zip") else os.path.basename(path)
            return [Entry(name, name, path)], notes
        entries = []
        for member, name in sorted(zip(members, top), key=lambda pair: pair[0].filename):
            if name == "failed.txt":
                notes.extend(_failed_lines(archive.read(member).decode("utf-8", "replace")))
            elif name.lower().endswith(".zip") and not _is_platform_extra(name):
                label, owner, identifier = describe_entry(name)
                entries.append(Entry(label, owner, path, member.filename, identifier, owner))
    return entries, notes


def _failed_lines(text: str) -> List[str]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return ["not downloaded from the platform: " + line for line in lines if not line.endswith(":")]


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def unique_names(entries: List[Entry]) -> None:
    seen: Dict[str, int] = {}
    for entry in entries:
        count = seen.get(entry.name, 0) + 1
        seen[entry.name] = count
        if count > 1:
            entry.name = "%s (%d)" % (entry.name, count)


def read_teams(path: str) -> Dict[str, str]:
    """Submission id, name, file name or owner -> team name.

    Codabench's submissions CSV export (columns "Submission ID", "Owner", ...) maps ids to their
    owners; any other CSV is read as two columns, key and team (a header row is allowed).
    """
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = [row for row in csv.reader(handle) if any(cell.strip() for cell in row)]
    if not rows:
        return {}
    header = [cell.strip() for cell in rows[0]]
    if "Submission ID" in header and "Owner" in header:
        id_column, owner_column = header.index("Submission ID"), header.index("Owner")
        return {row[id_column].strip(): row[owner_column].strip() for row in rows[1:]
                if len(row) > max(id_column, owner_column)}
    teams = {}
    for number, row in enumerate(rows):
        if len(row) < 2:
            raise SystemExit("rank_submissions: %s, line %d: expected two columns (submission, team)"
                             % (path, number + 1))
        if number == 0 and [c.strip().lower() for c in row[:2]] in (["submission", "team"], ["file", "team"]):
            continue
        teams[row[0].strip()] = row[1].strip()
    return teams


# --- scoring -----------------------------------------------------------------------------------------

@dataclass
class Scored:
    """What the tables need from one submission: scores, per-item statistics, technique F1."""

    entry: Entry
    scores: Dict[str, Dict[str, float]] = field(default_factory=dict)  # track -> key -> value
    statistics: Dict[str, Tuple[ItemStatistics, np.ndarray]] = field(default_factory=dict)
    techniques: Dict[str, List[Tuple[str, float]]] = field(default_factory=dict)  # track -> (label, F1)
    problems: List[Tuple[str, str]] = field(default_factory=list)  # (track or "", first problem line)


def stage(entry: Entry, work: str) -> str:
    """The submission's files as a ``res/`` folder."""
    if os.path.isdir(entry.source):
        return entry.source
    res = os.path.join(work, "res")
    os.makedirs(res)
    archive_path = entry.source
    if entry.member:
        with zipfile.ZipFile(entry.source) as bulk:
            info = bulk.getinfo(entry.member)
            if info.file_size > MAX_MEMBER_BYTES:
                raise KitError("%s: %d bytes; at most %d are accepted" % (entry.member, info.file_size,
                                                                         MAX_MEMBER_BYTES))
            archive_path = os.path.join(work, "submission.zip")
            with bulk.open(info) as source, open(archive_path, "wb") as target:
                while True:
                    chunk = source.read(1 << 20)
                    if not chunk:
                        break
                    target.write(chunk)
    safe_extract(archive_path, res)
    return res


def score_entry(entry: Entry, reference_dir: str, program_dir: str = PROGRAM_DIR) -> Scored:
    """Score one submission with the scoring program's code (in this process)."""
    scored = Scored(entry)
    with tempfile.TemporaryDirectory(prefix="rank-submissions-") as work:
        try:
            res = stage(entry, work)
            results, refused, problems = score_in_process(reference_dir, res, program_dir)
        except KitError as error:
            scored.problems.append(("", str(error)))
            return scored
        except (OSError, zipfile.BadZipFile) as error:
            scored.problems.append(("", "cannot be read: %s" % error))
            return scored
    if problems:
        scored.problems.append(("", problems[0]))
    for track, lines in refused.items():
        scored.problems.append((track, lines[0] if lines else "refused"))
    for track, result in results.items():
        statistics = item_statistics(result)
        matrix = np.array(statistics.rows, dtype=np.float64).reshape(len(statistics.items),
                                                                     len(statistics.columns))
        statistics.rows = []  # the matrix holds them (a list of tuples is ~10 times larger)
        scored.scores[track] = dict(result.scores)
        scored.statistics[track] = (statistics, matrix)
        if result.table and track in TECHNIQUE_TRACKS:
            scored.techniques[track] = [(row.label, row.f1) for row in result.table]
    return scored


def score_all(entries: Sequence[Entry], reference_dir: str, jobs: int, program_dir: str = PROGRAM_DIR,
              progress: bool = True) -> List[Scored]:
    """Every submission scored, in the order given; ``jobs`` processes (1: this process)."""
    from tqdm import tqdm

    bar = tqdm(total=len(entries), desc="scoring", unit="submission", disable=not progress, file=sys.stderr)
    try:
        if jobs <= 1:
            scored = []
            for entry in entries:
                scored.append(score_entry(entry, reference_dir, program_dir))
                bar.update()
            return scored
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(score_entry, entry, reference_dir, program_dir) for entry in entries]
            for future in futures:
                future.add_done_callback(lambda _: bar.update())
            return [future.result() for future in futures]
    finally:
        bar.close()


# --- statistics --------------------------------------------------------------------------------------

class ArrayOps:
    """``scorer.resampling``'s aggregate operations on numpy arrays (one value per resample)."""

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


def resampled_scores(statistics: ItemStatistics, matrix: np.ndarray, counts: np.ndarray, key: str) -> np.ndarray:
    """Score ``key`` on each resample: the aggregate of (counts × per-item statistics)."""
    return resampled_score_matrix([(statistics, matrix)], counts, key)[0]


def pool_labels(statistics: ItemStatistics, matrix: np.ndarray, key: str) -> Tuple[ItemStatistics, np.ndarray]:
    """The statistics with every technique pooled into one, when ``key`` depends on the pooled sums
    only (micro-F1, span P/R/F1; not a macro average): sums are linear, so pooling before the
    resampling equals pooling after, and the product is 20 times smaller."""
    labels = statistics.labels
    if len(labels) < 2 or key.endswith("_macro") or statistics.track not in TECHNIQUE_TRACKS:
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
    scores = np.empty((len(entered), counts.shape[0]), dtype=np.float64)
    entered = [pool_labels(statistics, matrix, key) for statistics, matrix in entered]
    groups: Dict[tuple, List[int]] = {}
    for i, (statistics, _) in enumerate(entered):
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
    rank: np.ndarray
    rank_range: np.ndarray  # (rows × 2)
    group: np.ndarray
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
    resampled = resampled_score_matrix([s.statistics[track] for s in entered], counts, key)
    # Row order: by score (direction-aware), then by name, for stable tables.
    order = sorted(range(len(entered)), key=lambda i: (-point[i] if higher_is_better else point[i],
                                                       entered[i].entry.name))
    rows = [entered[i] for i in order]
    point, resampled = point[order], resampled[order]
    low, high = interval_positions(resamples)
    ordered = np.sort(resampled, axis=1)
    ci = np.stack([ordered[:, low], ordered[:, high]], axis=1)
    rank = ranks_of(point, higher_is_better)
    resampled_ranks = np.sort(ranks_of(resampled, higher_is_better), axis=1)
    rank_range = np.stack([resampled_ranks[:, low], resampled_ranks[:, high]], axis=1)
    pvalues = paired_bootstrap_pvalues(point, resampled)
    group = np.zeros(len(rows), dtype=np.int64)
    leader, current = 0, 1
    for i in range(len(rows)):
        if i and pvalues[leader, i] < ALPHA:
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


# --- outputs -----------------------------------------------------------------------------------------

def number(value) -> str:
    """A score as text that reads back as the same float (as in scores.json), integers as such."""
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return repr(float(value))


def write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def write_csv(path: str, frame: pd.DataFrame, signature: str, index: bool = False) -> None:
    buffer = io.StringIO()
    frame.to_csv(buffer, index=index, lineterminator="\n")
    write_text(path, "# signature: %s\n%s" % (signature, buffer.getvalue()))


def board_frame(board: Board, all_keys: Sequence[str]) -> pd.DataFrame:
    records = []
    for i, scored in enumerate(board.rows):
        record = {"submission": scored.entry.name, "team": scored.entry.team,
                  "baseline": "yes" if scored.entry.baseline else ""}
        scores = scored.scores[board.track]
        for key in all_keys:
            record[key] = number(scores[key]) if key in scores else ""
        record[board.key + "_ci_low"] = number(board.ci[i, 0])
        record[board.key + "_ci_high"] = number(board.ci[i, 1])
        record["rank"] = int(board.rank[i])
        record["rank_low"] = int(board.rank_range[i, 0])
        record["rank_high"] = int(board.rank_range[i, 1])
        record["group"] = int(board.group[i])
        for name, pvalues in board.baseline_p.items():
            record["p_vs_" + name] = number(pvalues[i])
        records.append(record)
    return pd.DataFrame.from_records(records)


def technique_frame(scored_list: Sequence[Scored], track: str) -> Optional[pd.DataFrame]:
    """Teams × techniques F1 (the track's per-technique table of each submission), in row order."""
    rows = [(s.entry.name, s.entry.team, "yes" if s.entry.baseline else "", label, f1)
            for s in scored_list for label, f1 in s.techniques.get(track, ())]
    if not rows:
        return None
    long = pd.DataFrame(rows, columns=["submission", "team", "baseline", "technique", "f1"])
    labels = list(dict.fromkeys(long["technique"]))
    wide = long.pivot(index=["submission", "team", "baseline"], columns="technique", values="f1")[labels]
    order = list(dict.fromkeys(long["submission"]))
    return wide.reset_index().set_index("submission").loc[order].reset_index()


def signature_of(args, reference_dir: str) -> str:
    options = load_options(PROGRAM_DIR, reference_dir)
    test = "paired-bootstrap" + ("+ar-vs-baselines" if args.baseline_test == "ar" else "")
    return ("rank_submissions:v%s|scoring:v%s|overlap:%s|per_technique_recall:%s|flc_fragments_only:%s|"
            "resamples:%d|seed:%d|test:%s|ci:95%%-nearest-rank|alpha:%s"
            % (TOOL_VERSION, SCORER_VERSION, options.overlapping_predictions, options.per_technique_recall,
               "yes" if options.flc_ignore_techniques else "no", args.resamples, args.seed, test, ALPHA))


def _fmt(value: float) -> str:
    return "%.4f" % value


def _label(scored: Scored) -> str:
    return scored.entry.team + (" (baseline)" if scored.entry.baseline else "")


def _plain(text: str) -> str:
    """A label for matplotlib, which would read ``$...$`` in a team name as mathematics."""
    return text.replace("$", r"\$")


def markdown(boards: Sequence[Board], problems: Sequence[Tuple[str, str, str, str]], signature: str,
             keys_of: Dict[str, List[str]]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["# Results", "", "Signature: `%s`" % signature, ""]
    for board in boards:
        keys = [k for k in keys_of[board.name] if k != board.key]
        lines += ["## %s: %s" % (board.name, board.key), "",
                  "| rank | team | submission | %s | 95%% CI | rank range | group | %s |" % (
                      board.key, " | ".join(keys)),
                  "|" + "---|" * (7 + len(keys))]
        for i, scored in enumerate(board.rows):
            scores = scored.scores[board.track]
            lines.append("| %d | %s | %s | %s | [%s, %s] | %d–%d | %d | %s |" % (
                board.rank[i], cell(_label(scored)), cell(scored.entry.name), _fmt(board.scores[i]),
                _fmt(board.ci[i, 0]), _fmt(board.ci[i, 1]), board.rank_range[i, 0], board.rank_range[i, 1],
                board.group[i], " | ".join(_fmt(scores[k]) if k in scores else "–" for k in keys)))
        lines.append("")
    if problems:
        lines += ["## Not scored", "", "| submission | team | track | problem |", "|---|---|---|---|"]
        lines += ["| %s | %s | %s | %s |" % tuple(cell(x) for x in row) for row in problems]
        lines.append("")
    return "\n".join(lines)


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    return "".join(LATEX_SPECIAL.get(ch, ch) for ch in text)


def latex(boards: Sequence[Board], problems, signature: str, keys_of: Dict[str, List[str]]) -> str:
    parts = ["% Generated by rank_submissions.py; needs \\usepackage{booktabs}.",
             "% signature: " + signature, ""]
    for board in boards:
        others = [k for k in keys_of[board.name] if k != board.key]
        arrow = "higher is better" if board.higher_is_better else "lower is better"
        parts += [r"\begin{table}[t]", r"\centering", r"\small",
                  r"\begin{tabular}{rl%s}" % ("r" * (4 + len(others))), r"\toprule",
                  r"Rank & Team & %s & 95\%% CI & Rank range & Group%s \\" % (
                      latex_escape(board.key), "".join(" & " + latex_escape(k) for k in others)),
                  r"\midrule"]
        for i, scored in enumerate(board.rows):
            team = latex_escape(scored.entry.team)
            if scored.entry.baseline:
                team = r"\textit{%s (baseline)}" % team
            scores = scored.scores[board.track]
            parts.append(r"%d & %s & %s & [%s, %s] & %d--%d & %d%s \\" % (
                board.rank[i], team, _fmt(board.scores[i]), _fmt(board.ci[i, 0]), _fmt(board.ci[i, 1]),
                board.rank_range[i, 0], board.rank_range[i, 1], board.group[i],
                "".join(" & " + (_fmt(scores[k]) if k in scores else "--") for k in others)))
        parts += [r"\bottomrule", r"\end{tabular}",
                  r"\caption{%s, %s (%s): rank, 95\%% bootstrap confidence interval, rank range over "
                  r"the resamples, and significance group (paired bootstrap, $p < 0.05$).}"
                  % (latex_escape(board.name), latex_escape(board.key), arrow),
                  r"\label{tab:%s}" % board.name.replace("_", "-"), r"\end{table}", ""]
    if problems:
        parts.append("% Not scored: " + "; ".join("%s (%s): %s" % (row[0], row[2] or "submission", row[3])
                                                  for row in problems).replace("\n", " "))
    return "\n".join(parts) + "\n"


# --- figures -----------------------------------------------------------------------------------------

def _matplotlib():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({"svg.hashsalt": "rank_submissions", "svg.fonttype": "none",
                                "font.family": "DejaVu Sans", "font.size": 9, "pdf.fonttype": 42,
                                "path.simplify": False})
    return plt


def save_figure(figure, path_stem: str) -> str:
    """Write ``path_stem``.svg and .pdf without dates or random ids; return the SVG text."""
    figure.savefig(path_stem + ".svg", format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    figure.savefig(path_stem + ".pdf", format="pdf", bbox_inches="tight", metadata={"CreationDate": None, "ModDate": None,
                                                               "Creator": None, "Producer": None})
    with open(path_stem + ".svg", encoding="utf-8") as handle:
        return handle.read()


def ranking_figure(board: Board, path_stem: str) -> str:
    plt = _matplotlib()
    count = len(board.rows)
    figure, axes = plt.subplots(figsize=(6.0, 0.9 + 0.22 * count))
    y = np.arange(count)[::-1]
    for baseline in (False, True):
        chosen = [i for i, s in enumerate(board.rows) if s.entry.baseline == baseline]
        if not chosen:
            continue
        low = board.scores[chosen] - board.ci[chosen, 0]
        high = board.ci[chosen, 1] - board.scores[chosen]
        axes.errorbar(board.scores[chosen], y[chosen], xerr=np.vstack([low, high]), fmt="s" if baseline else "o",
                      color="#cf222e" if baseline else "#0969da", ecolor="#8c959f", capsize=2, markersize=4,
                      label="baseline" if baseline else "submission")
    axes.set_yticks(y)
    axes.set_yticklabels([_plain("%d. %s" % (board.rank[i], _label(s))) for i, s in enumerate(board.rows)])
    axes.set_xlabel("%s (%s is better), 95%% bootstrap CI" % (board.key, "higher" if board.higher_is_better else "lower"))
    axes.set_title(board.name)
    axes.grid(axis="x", color="#eaeef2")
    if any(s.entry.baseline for s in board.rows):
        axes.legend(loc="best", fontsize=7)
    text = save_figure(figure, path_stem)
    plt.close(figure)
    return text


def heatmap_figure(frame: pd.DataFrame, track: str, path_stem: str) -> str:
    plt = _matplotlib()
    values = frame.drop(columns=["submission", "team", "baseline"]).to_numpy(dtype=np.float64)
    labels = list(frame.columns[3:])
    rows = [(team if team == name else "%s (%s)" % (team, name)) + (" (baseline)" if baseline else "")
            for name, team, baseline in zip(frame["submission"], frame["team"], frame["baseline"])]
    figure, axes = plt.subplots(figsize=(1.5 + 0.32 * len(labels), 1.8 + 0.24 * len(rows)))
    image = axes.imshow(values, aspect="auto", cmap="viridis", vmin=0.0, vmax=max(1.0, float(np.nanmax(values))))
    axes.set_xticks(np.arange(len(labels)))
    axes.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    axes.set_yticks(np.arange(len(rows)))
    axes.set_yticklabels([_plain(row) for row in rows], fontsize=7)
    axes.set_title("%s: F1 per technique" % track)
    figure.colorbar(image, ax=axes, fraction=0.03)
    text = save_figure(figure, path_stem)
    plt.close(figure)
    return text


def inline_svg(text: str) -> str:
    """An SVG file's text as an element for HTML (no XML declaration or DOCTYPE)."""
    start = text.find("<svg")
    return text[start:] if start >= 0 else ""


def index_html(boards, figures: Dict[str, str], technique_frames, problems, signature: str, notes) -> str:
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>Results</title>',
             "<style>body{font-family:system-ui,sans-serif;margin:1.5em;max-width:80em;color:#1b1f23}"
             "table{border-collapse:collapse;margin:.6em 0}th,td{padding:.2em .6em;border-bottom:1px solid #eaeef2;"
             "text-align:right}th{background:#f6f8fa}td.l,th.l{text-align:left}.sig{font-family:monospace;"
             "font-size:.85em;color:#57606a}svg{max-width:100%;height:auto}.baseline{font-style:italic}</style>",
             "</head><body>", "<h1>Results</h1>", '<p class="sig">%s</p>' % e(signature)]
    if boards:
        parts.append("<ul>%s</ul>" % "".join('<li><a href="#%s">%s</a></li>' % (e(b.name), e(b.name)) for b in boards))
    for board in boards:
        parts += ['<h2 id="%s">%s: %s (%s is better)</h2>' % (e(board.name), e(board.name), e(board.key),
                                                              "higher" if board.higher_is_better else "lower"),
                  inline_svg(figures[board.name]),
                  '<table><tr><th>rank</th><th class="l">team</th><th class="l">submission</th><th>%s</th>'
                  "<th>95%% CI</th><th>rank range</th><th>group</th></tr>" % e(board.key)]
        for i, scored in enumerate(board.rows):
            parts.append('<tr%s><td>%d</td><td class="l">%s</td><td class="l">%s</td><td>%s</td><td>[%s, %s]</td>'
                         "<td>%d–%d</td><td>%d</td></tr>" % (
                             ' class="baseline"' if scored.entry.baseline else "", board.rank[i], e(_label(scored)),
                             e(scored.entry.name), _fmt(board.scores[i]), _fmt(board.ci[i, 0]),
                             _fmt(board.ci[i, 1]), board.rank_range[i, 0], board.rank_range[i, 1], board.group[i]))
        parts.append("</table>")
    for track in technique_frames:
        parts += ['<h2 id="techniques-%s">%s: F1 per technique</h2>' % (e(track), e(track)),
                  inline_svg(figures["techniques_" + track])]
    if problems or notes:
        parts.append("<h2>Not scored</h2><ul>")
        parts += ["<li>%s (%s), %s: %s</li>" % (e(row[0]), e(row[1]), e(row[2] or "submission"), e(row[3]))
                  for row in problems]
        parts += ["<li>%s</li>" % e(note) for note in notes]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# --- main --------------------------------------------------------------------------------------------

def parse_baseline(text: str) -> Tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError("expected NAME=PATH, found %r" % text)
    name, path = text.split("=", 1)
    if not name or not os.path.exists(path):
        raise argparse.ArgumentTypeError("expected NAME=PATH with an existing PATH, found %r" % text)
    return name, path


def run(args) -> int:
    reference_dir = os.path.abspath(args.ref)
    if not os.path.isdir(reference_dir):
        raise SystemExit("rank_submissions: --ref %s: not a folder" % args.ref)
    entries, notes = discover(args.submissions)
    teams = read_teams(args.teams) if args.teams else {}
    for entry in entries:
        for key in entry.keys():
            if key in teams:
                entry.team = teams[key]
                break
    for name, path in args.baseline:
        entries.append(Entry(name, name, os.path.abspath(path), baseline=True))
    unique_names(entries)
    if not entries:
        raise SystemExit("rank_submissions: no submission found in %s" % args.submissions)
    scored = score_all(entries, reference_dir, args.jobs, progress=not args.quiet)
    signature = signature_of(args, reference_dir)
    os.makedirs(args.out, exist_ok=True)

    problems = [(s.entry.name, s.entry.team, track, line) for s in scored for track, line in s.problems]
    boards: List[Board] = []
    keys_of: Dict[str, List[str]] = {}
    for name, track, key, higher_is_better in LEADERBOARDS:
        entered = [s for s in scored if key in s.scores.get(track, {})]
        if not entered:
            continue
        board = build_board(name, track, key, higher_is_better, entered, args.resamples, args.seed,
                            args.baseline_test)
        boards.append(board)
        keys = [k for k in BY_NAME[track].keys if any(k in s.scores[track] for s in entered)]
        keys_of[name] = keys
        write_csv(os.path.join(args.out, name + ".csv"), board_frame(board, keys), signature)
        names = [s.entry.name for s in board.rows]
        pvalues = pd.DataFrame([[number(v) for v in row] for row in board.pvalues], index=names, columns=names)
        pvalues.index.name = "submission"
        write_csv(os.path.join(args.out, "pvalues_%s.csv" % name), pvalues, signature, index=True)

    figures: Dict[str, str] = {}
    for board in boards:
        figures[board.name] = ranking_figure(board, os.path.join(args.out, board.name))
    technique_frames = {}
    for track in TECHNIQUE_TRACKS:
        frame = technique_frame(scored, track)
        if frame is None:
            continue
        technique_frames[track] = frame
        text_frame = frame.copy()
        for column in text_frame.columns[3:]:
            text_frame[column] = [number(v) for v in frame[column]]
        write_csv(os.path.join(args.out, "techniques_%s.csv" % track), text_frame, signature)
        figures["techniques_" + track] = heatmap_figure(frame, track, os.path.join(args.out, "techniques_" + track))

    write_csv(os.path.join(args.out, "problems.csv"),
              pd.DataFrame(problems + [("", "", "", note) for note in notes],
                           columns=["submission", "team", "track", "problem"]), signature)
    write_text(os.path.join(args.out, "results.md"), markdown(boards, problems, signature, keys_of))
    write_text(os.path.join(args.out, "results.tex"), latex(boards, problems, signature, keys_of))
    write_text(os.path.join(args.out, "index.html"),
               index_html(boards, figures, technique_frames, problems, signature, notes))
    if not args.quiet:
        print("scored %d submissions (%d not scored or partly refused); wrote %s"
              % (len(scored), len({row[0] for row in problems}), os.path.join(args.out, "index.html")))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", help="folder of submissions, or a platform's bulk download zip")
    parser.add_argument("--ref", required=True, help="the phase's gold folder (as ref/ of the scoring program)")
    parser.add_argument("--out", required=True, help="where to write the tables and figures")
    parser.add_argument("--teams", help="CSV: the platform's submissions export, or two columns (submission, team)")
    parser.add_argument("--baseline", action="append", default=[], type=parse_baseline, metavar="NAME=PATH",
                        help="a baseline submission shown (marked) in every table; repeatable")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="scoring processes (default 1)")
    parser.add_argument("--baseline-test", choices=("bootstrap", "ar"), default="bootstrap",
                        help="the test of each submission against each baseline (ar: approximate randomization)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    args = parser.parse_args(argv)
    if args.resamples < 1:
        parser.error("--resamples must be at least 1")
    try:
        return run(args)
    except ReferenceDataProblem as error:
        print("rank_submissions: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
