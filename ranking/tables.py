"""The tables: CSV (pandas), Markdown (``DataFrame.to_markdown``), LaTeX (``Styler.to_latex``,
booktabs) and the self-contained index.html.

Every participant's text reaches them through ``names``: ``shown`` then ``csv_cell`` (CSV),
``latex_text`` (TeX) or ``html.escape`` (HTML); numbers are written as numbers.
"""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from scorer.tracks.registry import BY_NAME

from .labels import board_title
from .names import SHOWN_LIMIT, csv_cell, latex_text, shown
from .scoring import Scored
from .statistics import ALPHA, Board

EXPLANATIONS = (
    ("95% CI", "the percentile bootstrap interval: the items (memes, articles, ids, reviews) are resampled "
               "with replacement {resamples} times, the same resamples for every submission, and the interval "
               "holds the middle 95% of the resampled scores."),
    ("Rank range", "the 2.5th to 97.5th percentile of the submission's rank over the same resamples: where "
                   "it could plausibly have finished."),
    ("Group", "in rank order, a submission joins the group of the best submission of the current group "
              "unless a paired bootstrap test finds it significantly worse (p < {alpha}); otherwise it "
              "starts the next group. Submissions in one group are not significantly different from its "
              "best."),
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


# The most other scores a LaTeX board table shows beside its own: with the rank, team, system, score,
# interval, rank range and group, two more keep a table* within a two-column article's text width (a
# four-key track's three overflowed by 45 pt); results.md and the board's CSV show them all.
MAX_LATEX_OTHER_KEYS = 2


def board_frame(board: Board, all_keys: Sequence[str]) -> pd.DataFrame:
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
        record["group"] = int(board.group[i])
        for name, pvalues in board.baseline_p.items():
            record["p_vs_" + name] = number(pvalues[i])
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


def _fmt(value: float) -> str:
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


def range_text(board: Board, i: int, dash: str) -> str:
    """Row ``i``'s rank range ("2–4", with ``dash`` between), or ``dash`` for a baseline."""
    if board.rows[i].entry.baseline:
        return dash
    return "%d%s%d" % (board.rank_range[i, 0], dash, board.rank_range[i, 1])


# --- Markdown -----------------------------------------------------------------------------------------

def _md(text: str, limit: int = SHOWN_LIMIT) -> str:
    return shown(text, limit).replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("*", "\\*") \
        .replace("_", "\\_").replace("<", "&lt;").replace("[", "\\[")


def markdown(boards: Sequence[Board], keys_of: Dict[str, List[str]], report: Report) -> str:
    lines = ["# Results", "", "Signature: `%s`" % report.signature.replace("`", "'"), "",
             report.selection, "", report.settings, ""]
    lines += ["- **%s**: %s" % (name, text.format(resamples=report.resamples, alpha=ALPHA))
              for name, text in EXPLANATIONS] + [""]
    for board in boards:
        others = other_keys(board, keys_of[board.name])
        records = []
        for i, scored in enumerate(board.rows):
            scores = scored.scores[board.track]
            record = {"Rank": rank_text(board, i, "–"), "Team": _md(team_label(scored)),
                      "System": _md(scored.entry.system or scored.entry.submission),
                      report.labels[board.key]: _fmt(board.scores[i]),
                      "95% CI": "[%s, %s]" % (_fmt(board.ci[i, 0]), _fmt(board.ci[i, 1])),
                      "Rank range": range_text(board, i, "–"), "Group": int(board.group[i])}
            for key in others:
                record[report.labels[key]] = _fmt(scores[key]) if key in scores else "–"
            records.append(record)
        frame = pd.DataFrame.from_records(records)
        lines += ["## %s" % report.board_title(board), "",
                  frame.to_markdown(index=False, disable_numparse=True, colalign=_md_align(frame)), ""]
    for title, frame in _appendix_frames(report, _md, lambda text: _md(text, DESCRIPTION_LIMIT),
                                         lambda text: _md(text, 400)):
        lines += ["## %s" % title, "", frame.to_markdown(index=False, disable_numparse=True), ""]
    return "\n".join(lines)


def _md_align(frame: pd.DataFrame) -> List[str]:
    return ["left" if c in ("Team", "System") else "right" for c in frame.columns]


DESCRIPTION_LIMIT = 600  # characters of a system description shown in the tables


def _with_owner(team: str, owner: str) -> str:
    """A team as the appendix names it: with the platform's owner when they differ."""
    return team if not owner or owner == team else "%s (owner %s)" % (team, owner)


def _appendix_frames(report: Report, text, long_text, prose=None) -> List[Tuple[str, pd.DataFrame]]:
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
        frames.append(("Not ranked", pd.DataFrame([[text(_with_owner(t, o)), text(s), prose(w)]
                                                   for t, o, s, w in report.skipped],
                                                  columns=["Team", "Submission", "Why"])))
    if report.failed or report.notes:
        rows = [[text(_with_owner(t, o)), text(s), text(k or "submission"), prose(p)] for t, o, s, k, p in report.failed]
        rows += [["", "", "", prose(note)] for note in report.notes]
        frames.append(("Not scored", pd.DataFrame(rows, columns=["Team", "Submission", "Track", "Problem"])))
    return frames


# --- LaTeX --------------------------------------------------------------------------------------------

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
            r"the significance group (paired bootstrap, $p < %s$); baselines take no rank." % (report.resamples, ALPHA))


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
                      _tex_header(short_label(report.labels[board.key])): _fmt(board.scores[i]),
                      r"95\% CI": "[%s, %s]" % (_fmt(board.ci[i, 0]), _fmt(board.ci[i, 1])),
                      _tex_header("Rank range"): range_text(board, i, "--"),
                      "Group": str(int(board.group[i]))}
            for key in others:
                record[_tex_header(short_label(report.labels[key]))] = _fmt(scores[key]) if key in scores else "--"
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
    for title, frame in _appendix_frames(report, _tex_name, lambda text: _tex_name(text, DESCRIPTION_LIMIT, 20),
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
                    + [_fmt(scores[key]) if key in scores else "--" for _, keys in groups for key in keys])
    frame = pd.DataFrame(rows, columns=pd.MultiIndex.from_tuples(columns))
    heading = (r"All subtasks: ATE and ABSA precision, recall and F1, SA RMSE (lower is better); rows in ATE F1 "
               r"order\label{tab:absita-all}")
    return heading, _cmidrules(_tabular(frame, NAME_COLUMN + SYSTEM_COLUMN + "r" * 7), [(3, 5), (6, 8), (9, 9)])


# --- HTML ---------------------------------------------------------------------------------------------

def inline_svg(text: str) -> str:
    """An SVG file's text as an element for HTML (no XML declaration or DOCTYPE)."""
    start = text.find("<svg")
    return text[start:] if start >= 0 else ""


STYLE = ("body{font-family:system-ui,sans-serif;margin:1em;max-width:80em;color:#1b1f23;line-height:1.4}"
         ".wide{overflow-x:auto;max-width:100%}"
         "table{border-collapse:collapse;margin:.6em 0;font-variant-numeric:tabular-nums}"
         "th,td{padding:.2em .5em;border-bottom:1px solid #eaeef2;text-align:right;vertical-align:top}"
         "th{background:#f6f8fa}td.l,th.l{text-align:left;overflow-wrap:break-word;min-width:6em;max-width:16em}"
         ".sig{font-family:monospace;font-size:.8em;color:#57606a;overflow-wrap:anywhere}"
         "svg{max-width:100%;height:auto}.baseline{font-style:italic}dd{margin:0 0 .5em 1em}"
         "@media (max-width:600px){body{margin:.5em;font-size:.9em}th,td{padding:.15em .3em}"
         "td.l,th.l{min-width:5em;max-width:9em}}")


def _html_table(header: Sequence[Tuple[str, bool]], rows: Sequence[Tuple[str, Sequence[str]]]) -> str:
    """header: (text, left-aligned); rows: (class, cells already escaped)."""
    head = "".join('<th%s>%s</th>' % (' class="l"' if left else "", html.escape(text)) for text, left in header)
    body = []
    for css, cells in rows:
        body.append("<tr%s>%s</tr>" % (' class="%s"' % css if css else "", "".join(
            '<td%s>%s</td>' % (' class="l"' if left else "", cell) for (_, left), cell in zip(header, cells))))
    return '<div class="wide"><table><thead><tr>%s</tr></thead><tbody>%s</tbody></table></div>' % (head, "".join(body))


def index_html(boards: Sequence[Board], figures: Dict[str, str], technique_tracks: Sequence[str],
               report: Report) -> str:
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width,initial-scale=1">', "<title>Results</title>",
             "<style>%s</style>" % STYLE, "</head><body>", "<h1>Results</h1>",
             '<p class="sig">%s</p>' % e(report.signature), "<p>%s</p>" % e(report.selection),
             "<p>%s</p>" % e(report.settings), "<dl>"]
    parts += ["<dt><b>%s</b></dt><dd>%s</dd>" % (e(name), e(text.format(resamples=report.resamples, alpha=ALPHA)))
              for name, text in EXPLANATIONS]
    parts.append("</dl>")
    if boards:
        parts.append("<ul>%s</ul>" % "".join('<li><a href="#%s">%s</a></li>' % (e(b.name), e(report.board_title(b)))
                                               for b in boards))
    for board in boards:
        direction = "higher" if board.higher_is_better else "lower"
        header = [("Rank", False), ("Team", True), ("Owner", True), (report.labels[board.key], False),
                  ("95% CI", False), ("Rank range", False), ("Group", False), ("System", True)]
        rows = []
        for i, scored in enumerate(board.rows):
            rows.append(("baseline" if scored.entry.baseline else "", [
                rank_text(board, i, "–"), e(team_label(scored)), e(shown(scored.entry.owner)), _fmt(board.scores[i]),
                "[%s,&nbsp;%s]" % (_fmt(board.ci[i, 0]), _fmt(board.ci[i, 1])),
                range_text(board, i, "–"), str(int(board.group[i])),
                e(shown(scored.entry.system or scored.entry.submission))]))
        parts += ['<h2 id="%s">%s</h2>' % (e(board.name), e(report.board_title(board))),
                  "<p>%s, %s is better.</p>" % (e(report.labels[board.key]), direction),
                  _html_table(header, rows), inline_svg(figures[board.name])]
    for track in technique_tracks:
        parts += ['<h2 id="techniques-%s">%s: F1 per technique</h2>' % (e(track), e(report.titles[track])),
                  "<p>Rows in the order of the track's ranking.</p>", inline_svg(figures["techniques_" + track])]
    for title, frame in _appendix_frames(report, lambda text: e(shown(text)),
                                         lambda text: e(shown(text, DESCRIPTION_LIMIT)), lambda text: e(shown(text, 400))):
        header = [(c, True) for c in frame.columns]
        parts += ["<h2>%s</h2>" % e(title), _html_table(header, [("", list(row)) for row in frame.itertuples(index=False)])]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
