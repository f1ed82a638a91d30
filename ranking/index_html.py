"""``index.html``: the boards, their figures and the appendix in one self-contained page (no
script, no link: every figure inline)."""

from __future__ import annotations

import html
from typing import Dict, Sequence, Tuple

from .names import shown
from .statistics import ALPHA, Board
from .tables import (DESCRIPTION_LIMIT, EXPLANATIONS, Report, appendix_frames, four_decimals, group_text, range_text,
                     rank_text, team_label)


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
                rank_text(board, i, "–"), e(team_label(scored)), e(shown(scored.entry.owner)), four_decimals(board.scores[i]),
                "[%s,&nbsp;%s]" % (four_decimals(board.ci[i, 0]), four_decimals(board.ci[i, 1])),
                range_text(board, i, "–"), group_text(board, i, "–"),
                e(shown(scored.entry.system or scored.entry.submission))]))
        parts += ['<h2 id="%s">%s</h2>' % (e(board.name), e(report.board_title(board))),
                  "<p>%s, %s is better.</p>" % (e(report.labels[board.key]), direction),
                  _html_table(header, rows), inline_svg(figures[board.name])]
    for track in technique_tracks:
        parts += ['<h2 id="techniques-%s">%s: F1 per technique</h2>' % (e(track), e(report.titles[track])),
                  "<p>Rows in the order of the track's ranking.</p>", inline_svg(figures["techniques_" + track])]
    for title, frame in appendix_frames(report, lambda text: e(shown(text)),
                                         lambda text: e(shown(text, DESCRIPTION_LIMIT)), lambda text: e(shown(text, 400))):
        header = [(c, True) for c in frame.columns]
        parts += ["<h2>%s</h2>" % e(title), _html_table(header, [("", list(row)) for row in frame.itertuples(index=False)])]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
