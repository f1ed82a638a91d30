"""The ranking of single-track entries as each platform ranks them: every key is written (a track
not entered holds its not-entered value, which ranks last), so that an entry of one track never
outranks an entrant of another.

Codabench (``leaderboards.py``) orders by the primary column alone, descending with missing scores
(NULL) first on PostgreSQL, the other columns only breaking ties; Codalab v1.5 ranks each column by
value, in the column's direction.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .checked_upload import CheckedUpload
from .report import Report


def codabench_order(rows: List[Tuple[str, Dict[str, float]]], columns: List[Dict[str, Any]],
                    primary_index: int) -> List[str]:
    """Names in Codabench's order: the primary column, then the others by index, each in its
    direction; NULL first when descending and last when ascending (PostgreSQL's defaults)."""
    primary = next(c for c in columns if c["index"] == primary_index)
    ordered = [primary] + sorted((c for c in columns if c is not primary), key=lambda c: c["index"])

    def sort_key(row):
        key = []
        for column in ordered:
            value = row[1].get(column["key"])
            if column["sorting"] == "desc":
                key.append((0, 0.0) if value is None else (1, -value))
            else:
                key.append((1, 0.0) if value is None else (0, value))
        return key
    return [name for name, _ in sorted(rows, key=sort_key)]


def v15_ranks_below(worse: Dict[str, float], better: Dict[str, float], key: str, sort: str) -> bool:
    """v1.5 ranks each column by its values in the column's direction (missing: not ranked)."""
    if key not in worse:
        return True
    if key not in better:
        return False
    return worse[key] < better[key] if sort == "desc" else worse[key] > better[key]


def entry_ranking(full: Dict[str, float], singles: Dict[str, Dict[str, float]], track_keys: Dict[str, List[str]],
                  board: Dict[str, Any], v15_columns: Dict[str, Dict[str, Any]]) -> Tuple[List[str], List[str]]:
    """(the default board's order of the entries, what either platform ranks wrong): ``full``, the
    all-track sample's scores; ``singles``, each single-track entry's; ``board``, Codabench's
    leaderboard; ``v15_columns``, v1.5's columns."""
    columns = board["columns"]
    wrong = []
    for track, scores in singles.items():
        for other, keys in track_keys.items():
            if other == track:
                continue
            for key in keys:
                if key not in v15_columns:
                    continue
                order = codabench_order([("all tracks", full), ("only " + track, scores)], columns,
                                        next(c["index"] for c in columns if c["key"] == key))
                if order[0] != "all tracks":
                    wrong.append("Codabench, %s primary: only-%s ranks first" % (key, track))
                if not v15_ranks_below(scores, full, key, v15_columns[key].get("sort", "desc")):
                    wrong.append("v1.5, column %s: only-%s does not rank below" % (key, track))
    rows = [("all tracks", full)] + [("only " + track, scores) for track, scores in singles.items()]
    order = codabench_order(rows, columns, board["primary_index"])
    primary_key = next(c["key"] for c in columns if c["index"] == board["primary_index"])
    primary_track = next(track for track, keys in track_keys.items() if primary_key in keys)
    entrants = {"all tracks", "only " + primary_track}
    first_outsider = min(order.index(name) for name in order if name not in entrants)
    if any(order.index(name) > first_outsider for name in entrants if name in order):
        wrong.append("Codabench default board (%s): an entry without %s ranks above an entrant: %s"
                     % (primary_key, primary_track, " > ".join(order)))
    return order, wrong


def check_workers_agree(upload: CheckedUpload, report: Report) -> None:
    """The two workers gave the same scores for the same submissions."""
    if upload.single_scores["v1.5"] != upload.single_scores["codabench"] or \
            upload.full_scores["v1.5"] != upload.full_scores["codabench"]:
        report.fail("ranking: the two workers gave different scores for the same submissions")


def check_ranking(upload: CheckedUpload, report: Report) -> None:
    """Each single-track entry ranks below the all-track sample in every column of the other tracks,
    on both platforms (nothing to rank in a competition of one track)."""
    singles = upload.single_scores["codabench"]
    if not singles:
        return
    keys = list(upload.v15["leaderboard"]["columns"])
    track_keys = {track.name: [key for key in keys if key in track.keys] for track in upload.tracks}
    order, wrong = entry_ranking(upload.full_scores["codabench"], singles, track_keys, upload.codabench_board(),
                                 upload.v15["leaderboard"]["columns"])
    for line in wrong:
        report.fail("ranking: " + line)
    if wrong:
        return
    report.ok("ranking: each single-track entry ranks below the all-track sample in every column of the "
              "other tracks (Codabench's query with each column as primary, v1.5's per-column ranking); "
              "default board: %s" % " > ".join(order))
    report.verified["Codalab v1.5"].append("ranking of single-track entries")
    report.verified["Codabench"].append("ranking of single-track entries (its ordering query)")
