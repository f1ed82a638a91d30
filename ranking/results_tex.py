"""``results.tex``: the paper's tables (booktabs ``table*`` floats, no wider than a two-column
article's text): one float per track with its boards, absita's scores in one compact block, the
participants' descriptions and the appendix (not ranked, not scored)."""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

import pandas as pd

from .names import SHOWN_LIMIT, latex_text, shown
from .statistics import ALPHA, Board
from .tables import (DESCRIPTION_LIMIT, Report, appendix_frames, baseline_mark, four_decimals, group_text, other_keys,
                     range_text, rank_text)

# The most other scores a LaTeX board table shows beside its own: with the rank, team, system, score,
# interval, rank range and group, two more keep a table* within a two-column article's text width;
# results.md and the board's CSV show them all.
MAX_LATEX_OTHER_KEYS = 2

NAME_COLUMN = r"p{3.1cm}"
SYSTEM_COLUMN = r"p{2.4cm}"
# Printed characters of a name between break opportunities, so that a long run without spaces
# wraps inside its column: 9 W (84 pt in \\small) fit p{3.1cm} (88 pt), 7 W (65 pt) p{2.4cm} (68 pt); the widest
# table (9 columns) then fits the 16 cm text of an A4 two-column paper (ACL).
BREAK_EVERY = 9
SYSTEM_BREAK_EVERY = 7


def _tex_name(text: str, limit: int = SHOWN_LIMIT, break_every: int = BREAK_EVERY) -> str:
    return r"\raggedright " + latex_text(text, break_every, limit)


def _tex_system(text: str) -> str:
    return _tex_name(text, break_every=SYSTEM_BREAK_EVERY)


def _tex_header(text: str, width: int = 8) -> str:
    """A column header from competition.yaml, on several lines (``\\shortstack``) when long."""
    lines: List[str] = []
    for word in shown(text).split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    escaped = [latex_text(line) for line in lines]
    return escaped[0] if len(escaped) == 1 else r"\shortstack{%s}" % r"\\".join(escaped)


def _styled_latex(frame: pd.DataFrame, column_format: str, caption: str, label: str) -> str:
    """A frame of TeX-ready cells as a booktabs ``table*`` (``Styler.to_latex``), in \\small."""
    text = frame.style.hide(axis="index").to_latex(
        hrules=True, column_format=column_format, environment="table*", position="t", caption=caption,
        label=label, multicol_align="c", position_float="centering")
    text = text.replace("\\centering\n", "\\centering\n\\small\n\\setlength{\\tabcolsep}{4pt}\n", 1)
    # rows end with \tabularnewline: \raggedright (the name columns) redefines \\ inside a cell
    return text.replace(" \\\\\n", " \\tabularnewline\n")


def _cmidrules(text: str, spans: Sequence[Tuple[int, int]]) -> str:
    """booktabs rules under the groups of a two-level header (Styler writes none)."""
    rules = "".join(r"\cmidrule(lr){%d-%d}" % span for span in spans)
    head, sep, rest = text.partition("\\toprule\n")
    first, newline, after = rest.partition("\n")
    return head + sep + first + newline + rules + "\n" + after


def short_label(label: str) -> str:
    """A column's label without the direction it may carry (the caption says it)."""
    return re.sub(r"\s*\((lower|higher) is better\)", "", label)


def _caption(board: Board, report: Report) -> str:
    """A board's heading inside its track's table: its title and direction (the method is said once,
    in ``method_paragraph``)."""
    direction = "higher is better" if board.higher_is_better else "lower is better"
    title, label = report.board_title(board), short_label(report.labels[board.key])
    named = title if label in title else "%s, %s" % (title, label)
    return r"%s (%s)" % (latex_text(short_label(named), limit=400), direction)


def method_paragraph(report: Report) -> str:
    """What every board's columns are, once for all tables."""
    return (r"\paragraph{Ranking method.} In each board's table: the rank, the score with its 95\%% percentile "
            r"bootstrap confidence interval (%d resamples of the items), the rank range over the resamples, and "
            r"the significance group (paired bootstrap, $p < %s$); baselines take no rank and no group." % (report.resamples, ALPHA))


def _tabular(frame: pd.DataFrame, column_format: str) -> str:
    """A frame of TeX-ready cells as a booktabs ``tabular`` (no float of its own)."""
    text = frame.style.hide(axis="index").to_latex(hrules=True, column_format=column_format, multicol_align="c")
    return text.replace(" \\\\\n", " \\tabularnewline\n")


def _track_float(track_title: str, blocks: Sequence[Tuple[str, str]], label: str, note: str = "") -> str:
    """One ``table*`` for a track: each of its boards (heading, tabular) one under the other."""
    parts = ["\\begin{table*}[t]", "\\centering", "\\small", "\\setlength{\\tabcolsep}{4pt}"]
    for number, (heading, tabular) in enumerate(blocks):
        if number:
            parts.append("\\par\\medskip")
        parts.append("\\textbf{%s}\\par\\smallskip" % heading)
        parts.append(tabular.rstrip("\n"))
    parts.append("\\caption{%s%s}" % (track_title, note))
    parts.append("\\label{%s}" % label)
    parts.append("\\end{table*}")
    return "\n".join(parts) + "\n"


APPENDIX_CAPTIONS = {
    "Participants": "Participants: each ranked team's system, as its description gives it.",
    "Not ranked": "Submissions that take no rank: each team is ranked by one submission.",
    "Not scored": "Submissions that fail as a whole (as on the platform: one refused file is enough), with "
                  "their first problem.",
}


def latex(boards: Sequence[Board], keys_of: Dict[str, List[str]], report: Report) -> str:
    """The paper's tables: one per board, absita's scores in one compact table, the participants'
    descriptions and the appendix (not ranked, not scored). Needs ``booktabs`` only; every table
    is a ``table*`` no wider than a two-column article's text."""
    parts = ["% Generated by rank_submissions.py; needs \\usepackage{booktabs}. No participant's text is",
             "% ever written in a comment.", "% signature: " + shown(report.signature, limit=10000), "",
             method_paragraph(report), ""]
    blocks_of: Dict[str, List[Tuple[str, str]]] = {}
    for board in boards:
        others = other_keys(board, keys_of[board.name])
        left_out = others[MAX_LATEX_OTHER_KEYS:]
        others = others[:MAX_LATEX_OTHER_KEYS]
        records = []
        for i, scored in enumerate(board.rows):
            team = _tex_name(scored.entry.name)
            if scored.entry.baseline and baseline_mark(scored.entry.name):
                team += r" \textit{(baseline)}"
            scores = scored.scores[board.track]
            record = {"Rank": rank_text(board, i, "--"), "Team": team,
                      "System": _tex_system(scored.entry.system or scored.entry.submission),
                      _tex_header(short_label(report.labels[board.key])): four_decimals(board.scores[i]),
                      r"95\% CI": "[%s, %s]" % (four_decimals(board.ci[i, 0]), four_decimals(board.ci[i, 1])),
                      _tex_header("Rank range"): range_text(board, i, "--"),
                      "Group": group_text(board, i, "--")}
            for key in others:
                record[_tex_header(short_label(report.labels[key]))] = four_decimals(scores[key]) if key in scores else "--"
            records.append(record)
        frame = pd.DataFrame.from_records(records)
        column_format = "r%s%s%s" % (NAME_COLUMN, SYSTEM_COLUMN, "r" * (len(frame.columns) - 3))
        heading = _caption(board, report)
        if left_out:
            heading += " The track's other scores (%s) are in results.md and %s.csv." % (
                latex_text(", ".join(short_label(report.labels[key]) for key in left_out), limit=400),
                latex_text(board.name))
        blocks_of.setdefault(board.track, []).append(("%s\\label{tab:%s}" % (heading, board.name),
                                                      _tabular(frame, column_format)))
    for track, blocks in blocks_of.items():
        note = ""
        if track == "absita":
            compact = absita_compact(boards, report)
            if compact:
                blocks.append(compact)
                note = "; the last block: the three subtasks' scores side by side"
        parts.append(_track_float(latex_text(report.titles.get(track, track)), blocks, "tab:track-%s" % track,
                                  ": one block per leaderboard (method: the paragraph above)" + note))
    for title, frame in appendix_frames(report, _tex_name, lambda text: _tex_name(text, DESCRIPTION_LIMIT, 20),
                                         lambda text: _tex_name(text, 400, 20)):
        widths = {"Participants": ["p{2.4cm}", "p{2.4cm}", "p{7.2cm}", "p{3cm}"],
                  "Not ranked": ["p{3cm}", "p{2.4cm}", "p{9.5cm}"],
                  "Not scored": ["p{2.4cm}", "p{2.4cm}", "p{1.4cm}", "p{8.6cm}"]}[title]
        frame = frame.rename(columns={c: latex_text(c) for c in frame.columns})
        label = "tab:" + title.lower().replace(" ", "-")
        caption = APPENDIX_CAPTIONS[title]  # the tool's own words: escaped, never cut as a name is
        parts.append(_styled_latex(frame, "".join(widths), latex_text(caption, limit=len(caption)), label))
    return "\n".join(parts) + "\n"


def absita_compact(boards: Sequence[Board], report: Report) -> Optional[Tuple[str, str]]:
    """absita's three subtasks in one table: ATE P/R/F1, ABSA P/R/F1, SA RMSE, rows in the order
    of its first board."""
    mine = [b for b in boards if b.track == "absita"]
    if not mine:
        return None
    groups = (("ATE", ("ate_precision", "ate_recall", "ate_f1")), ("ABSA", ("absa_precision", "absa_recall", "absa_f1")),
              ("SA", ("sa_rmse",)))
    short = {"precision": "P", "recall": "R", "f1": "F1", "rmse": "RMSE"}
    columns = [("", "Team"), ("", "System")] + [(group, short[key.split("_", 1)[1]]) for group, keys in groups
                                                  for key in keys]
    rows = []
    for scored in mine[0].rows:
        scores = scored.scores["absita"]
        team = _tex_name(scored.entry.name) + (r" \textit{(baseline)}" if scored.entry.baseline
                                               and baseline_mark(scored.entry.name) else "")
        rows.append([team, _tex_system(scored.entry.system or scored.entry.submission)]
                    + [four_decimals(scores[key]) if key in scores else "--" for _, keys in groups for key in keys])
    frame = pd.DataFrame(rows, columns=pd.MultiIndex.from_tuples(columns))
    heading = (r"All subtasks: ATE and ABSA precision, recall and F1, SA RMSE (lower is better); rows in ATE F1 "
               r"order\label{tab:absita-all}")
    return heading, _cmidrules(_tabular(frame, NAME_COLUMN + SYSTEM_COLUMN + "r" * 7), [(3, 5), (6, 8), (9, 9)])
