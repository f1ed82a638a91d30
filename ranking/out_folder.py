"""The ``--out`` folder of ``rank_submissions.py``: checked before any scoring (a new or empty folder,
or an earlier output of this tool and nothing else), then every file written into it: each board's
table and p-values, the technique tables, the lists (not scored, alike, not ranked, participants)
and the documents (``results.md``, ``results.tex``, ``index.html``)."""

from __future__ import annotations

import os
import tempfile
from typing import Dict, List, Sequence

import pandas as pd

from .copies import Alike
from .index_html import index_html
from .names import shown
from .results_md import markdown
from .results_tex import latex
from .statistics import Board
from .tables import Report, board_frame, number, write_csv, write_text

OUTPUT_ENDINGS = (".csv", ".svg", ".pdf")
OUTPUT_NAMES = ("results.md", "results.tex", "index.html")


def _own_output(folder: str, names: Sequence[str]) -> str:
    """The first name in ``folder`` this tool would not have written ('' when none): a file that
    is not one of its outputs, or an output folder none of whose tables carries its signature."""
    for name in sorted(names):
        path = os.path.join(folder, name)
        if os.path.islink(path) or not os.path.isfile(path) or not (
                name.endswith(OUTPUT_ENDINGS) or name in OUTPUT_NAMES):
            return name
    for name in sorted(n for n in names if n.endswith(".csv")):
        with open(os.path.join(folder, name), "rb") as handle:
            if handle.read(40).startswith(b"# signature: rank_submissions:"):
                return ""
    return sorted(names)[0]


def check_out(path: str) -> None:
    """--out must be a folder we can write, checked before any scoring: a new or empty folder, or
    an earlier output of this tool and nothing else (its tables carry its signature): a folder of
    one's own files is never written into."""
    if os.path.isdir(path):
        try:
            names = [name for name in os.listdir(path) if not name.startswith(".rank-submissions-")]
        except OSError as error:
            raise SystemExit("rank_submissions: --out %s: cannot be read (%s)"
                             % (shown(path), error.strerror or error)) from None
        stranger = _own_output(path, names) if names else ""
        if stranger:
            raise SystemExit("rank_submissions: --out %s: holds %s, which this tool did not write; give a new or "
                             "empty folder (or an earlier output of rank_submissions.py)" % (shown(path), shown(stranger)))
    try:
        os.makedirs(path, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=path, prefix=".rank-submissions-", delete=True)
        probe.close()
    except OSError as error:
        raise SystemExit("rank_submissions: --out %s: cannot write there (%s)"
                         % (shown(path), error.strerror or error)) from None


def write_board_tables(out: str, board: Board, keys: Sequence[str], signature: str) -> None:
    """``<board>.csv`` (its rows, scores ``keys``, intervals, ranks, groups) and ``pvalues_<board>.csv``."""
    write_csv(os.path.join(out, board.name + ".csv"), board_frame(board, keys), signature)
    names = [s.entry.name for s in board.rows]
    pvalues = pd.DataFrame([[number(v) for v in row] for row in board.pvalues], index=names, columns=names)
    write_csv(os.path.join(out, "pvalues_%s.csv" % board.name), pvalues, signature, index=True)


def write_technique_table(out: str, track: str, frame: pd.DataFrame, signature: str) -> None:
    """``techniques_<track>.csv``: rows × techniques F1 (``tables.technique_frame``)."""
    text_frame = frame.copy()
    for column in text_frame.columns[2:]:
        text_frame[column] = [number(v) for v in frame[column]]
    write_csv(os.path.join(out, "techniques_%s.csv" % track), text_frame, signature)


def write_lists(out: str, report: Report, copied: Sequence[Alike], owners: Sequence[str], signature: str) -> None:
    """``problems.csv``, ``alike.csv``, ``not_ranked.csv`` and, when descriptions were given,
    ``participants.csv`` (``owners``: the platform's account of each described row)."""
    write_csv(os.path.join(out, "problems.csv"),
              pd.DataFrame([(shown(t), shown(o), shown(s), k, p) for t, o, s, k, p in report.failed]
                           + [("", "", "", "", note) for note in report.notes],
                           columns=["team", "owner", "submission", "track", "problem"]), signature)
    write_csv(os.path.join(out, "alike.csv"),
              pd.DataFrame([(shown(p.first.name), shown(p.first.owner), shown(p.second.name), shown(p.second.owner),
                             shown(p.name), p.shared, p.total, "yes" if p.identical else "no") for p in copied],
                           columns=["team", "owner", "other team", "other owner", "file", "same items", "items",
                                    "identical"]), signature)
    write_csv(os.path.join(out, "not_ranked.csv"),
              pd.DataFrame([(shown(t), shown(o), shown(s), w) for t, o, s, w in report.skipped],
                           columns=["team", "owner", "submission", "why"]), signature)
    if report.descriptions is not None:
        participants = report.descriptions.copy()
        participants.insert(1, "Owner", list(owners))
        write_csv(os.path.join(out, "participants.csv"), participants.map(lambda v: shown(v, 10000)), signature)


def write_documents(out: str, boards: Sequence[Board], keys_of: Dict[str, List[str]], figures: Dict[str, str],
                    technique_tracks: Sequence[str], report: Report) -> None:
    """``results.md``, ``results.tex`` and ``index.html`` (``figures``: the SVG text of each figure)."""
    write_text(os.path.join(out, "results.md"), markdown(boards, keys_of, report))
    write_text(os.path.join(out, "results.tex"), latex(boards, keys_of, report))
    write_text(os.path.join(out, "index.html"), index_html(boards, figures, technique_tracks, report))
