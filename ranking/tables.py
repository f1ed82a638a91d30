"""What every output of ``rank_submissions.py`` shares: the ``Report`` (everything shown besides the
boards), the texts of a row (its label, rank, rank range, scores to four decimals), the
appendix's tables (participants, not ranked, not scored), and the CSV files (pandas). The other
outputs: ``results_md``, ``results_tex``, ``index_html``.

Every participant's text reaches them through ``names``: ``shown`` then ``csv_cell`` (CSV),
``latex_text`` (TeX) or ``html.escape`` (HTML); numbers are written as numbers.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from scorer.tracks.registry import BY_NAME

from .labels import board_title
from .names import csv_cell, shown
from .scoring import Scored
from .statistics import Board

EXPLANATIONS = (
    ("95% CI", "the percentile bootstrap interval: the items (memes, articles, ids, reviews) are resampled "
               "with replacement {resamples} times, the same resamples for every submission, and the interval "
               "holds the middle 95% of the resampled scores."),
    ("Rank range", "the 2.5th to 97.5th percentile of the submission's rank over the same resamples: where "
                   "it could plausibly have finished."),
    ("Group", "in rank order, a submission joins the group of the best submission of the current group "
              "unless a paired bootstrap test finds it significantly worse (p < {alpha}); otherwise it "
              "starts the next group. Submissions in one group are not significantly different from its "
              "best. A baseline (marked) takes no rank, rank range or group."),
)


@dataclass
class Report:
    """Everything the outputs show besides the boards."""

    signature: str
    labels: Dict[str, str]
    titles: Dict[str, str]
    resamples: int
    selection: str  # the sentence saying which submissions are the rows
    settings: str  # the sentence saying which phase settings were applied
    # (team, owner, submission, track, problem)
    failed: List[Tuple[str, str, str, str, str]] = field(default_factory=list)
    skipped: List[Tuple[str, str, str, str]] = field(default_factory=list)  # (team, owner, submission, why not ranked)
    notes: List[str] = field(default_factory=list)
    descriptions: Optional[pd.DataFrame] = None  # team, system, description, external data

    def board_title(self, board: Board) -> str:
        return board_title(board.track, board.key, self.labels, self.titles)


def number(value) -> str:
    """A score as text that reads back as the same float (as in scores.json), integers as such."""
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return repr(float(value))


def write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def write_csv(path: str, frame: pd.DataFrame, signature: str, index: bool = False) -> None:
    """``frame`` as CSV after a ``# signature:`` line; text cells (and the header and index) are
    neutralised against spreadsheet formulas (``names.csv_cell``)."""
    frame = frame.copy()
    frame.columns = [csv_cell(str(c)) for c in frame.columns]
    if index:
        frame.index = [csv_cell(str(i)) for i in frame.index]
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = [csv_cell(v) if isinstance(v, str) else v for v in frame[column]]
    buffer = io.StringIO()
    frame.to_csv(buffer, index=index, lineterminator="\n")
    write_text(path, "# signature: %s\n%s" % (signature, buffer.getvalue()))


def other_keys(board: Board, keys: Sequence[str]) -> List[str]:
    """The track's other scores shown beside a board's: none for a track with several boards
    (absita: its compact table holds them all)."""
    if len(BY_NAME[board.track].leaderboards) > 1:
        return []
    return [k for k in keys if k != board.key]


def board_frame(board: Board, all_keys: Sequence[str]) -> pd.DataFrame:
    """One row per board row: names, scores, interval, rank, rank range, group, p-values against
    each baseline and, when ``--migrated`` named them, the id of its copy on the next phase's board."""
    migrated = any(s.entry.migrated for s in board.rows)
    records = []
    for i, scored in enumerate(board.rows):
        entry = scored.entry
        record = {"name": entry.name, "team": shown(entry.team), "owner": shown(entry.owner),
                  "submission": shown(entry.submission),
                  "system": shown(entry.system), "baseline": "yes" if entry.baseline else ""}
        scores = scored.scores[board.track]
        for key in all_keys:
            record[key] = number(scores[key]) if key in scores else ""
        record[board.key + "_ci_low"] = number(board.ci[i, 0])
        record[board.key + "_ci_high"] = number(board.ci[i, 1])
        taken = not entry.baseline  # a baseline takes no rank: its cells stay empty
        record["rank"] = int(board.rank[i]) if taken else ""
        record["rank_low"] = int(board.rank_range[i, 0]) if taken else ""
        record["rank_high"] = int(board.rank_range[i, 1]) if taken else ""
        record["group"] = int(board.group[i]) if taken else ""
        for name, pvalues in board.baseline_p.items():
            record["p_vs_" + name] = number(pvalues[i])
        if migrated:
            record["migrated_submission"] = shown(entry.migrated)
        records.append(record)
    return pd.DataFrame.from_records(records)


def technique_frame(scored_list: Sequence[Scored], track: str) -> Optional[pd.DataFrame]:
    """Rows × techniques F1 (the track's per-technique table of each submission), in the order given."""
    rows = [(s.entry.name, "yes" if s.entry.baseline else "", label, f1)
            for s in scored_list for label, f1 in s.techniques.get(track, ())]
    if not rows:
        return None
    long = pd.DataFrame(rows, columns=["name", "baseline", "technique", "f1"])
    labels = list(dict.fromkeys(long["technique"]))
    wide = long.pivot(index=["name", "baseline"], columns="technique", values="f1")[labels]
    order = list(dict.fromkeys(long["name"]))
    return wide.reset_index().set_index("name").loc[order].reset_index()


def four_decimals(value: float) -> str:
    """A score as the tables print it."""
    return "%.4f" % value


def team_label(scored: Scored) -> str:
    """The row's name, marked "(baseline)" unless the name already says so."""
    return scored.entry.name + (baseline_mark(scored.entry.name) if scored.entry.baseline else "")


def baseline_mark(name: str) -> str:
    """" (baseline)", or "" when the name already says it ("Organisers' baseline")."""
    return "" if "baseline" in name.lower() else " (baseline)"


def rank_text(board: Board, i: int, dash: str) -> str:
    """Row ``i``'s rank, or ``dash`` for a baseline (it takes none)."""
    return str(int(board.rank[i])) if not board.rows[i].entry.baseline else dash


def group_text(board: Board, i: int, dash: str) -> str:
    """Row ``i``'s significance group, or ``dash`` for a baseline (it joins none)."""
    return str(int(board.group[i])) if not board.rows[i].entry.baseline else dash


def range_text(board: Board, i: int, dash: str) -> str:
    """Row ``i``'s rank range ("2–4", with ``dash`` between), or ``dash`` for a baseline."""
    if board.rows[i].entry.baseline:
        return dash
    return "%d%s%d" % (board.rank_range[i, 0], dash, board.rank_range[i, 1])


DESCRIPTION_LIMIT = 600  # characters of a system description shown in the tables


def with_owner(team: str, owner: str) -> str:
    """A team as the appendix names it: with the platform's owner when they differ."""
    return team if not owner or owner == team else "%s (owner %s)" % (team, owner)


def appendix_frames(report: Report, text, long_text, prose=None) -> List[Tuple[str, pd.DataFrame]]:
    """(title, frame) of the participants' descriptions, the submissions not ranked and those not
    scored; ``text`` renders a name, ``long_text`` a description, ``prose`` a reason or problem."""
    prose = prose or text
    frames = []
    if report.descriptions is not None and len(report.descriptions):
        frame = report.descriptions.copy()
        for column in frame.columns:
            render = long_text if column == "Description" else text
            frame[column] = [render(v) for v in frame[column]]
        frames.append(("Participants", frame))
    if report.skipped:
        frames.append(("Not ranked", pd.DataFrame([[text(with_owner(t, o)), text(s), prose(w)]
                                                   for t, o, s, w in report.skipped],
                                                  columns=["Team", "Submission", "Why"])))
    if report.failed or report.notes:
        rows = [[text(with_owner(t, o)), text(s), text(k or "submission"), prose(p)] for t, o, s, k, p in report.failed]
        rows += [["", "", "", prose(note)] for note in report.notes]
        frames.append(("Not scored", pd.DataFrame(rows, columns=["Team", "Submission", "Track", "Problem"])))
    return frames
