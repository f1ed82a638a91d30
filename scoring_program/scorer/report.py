"""Writing what the platforms read: scores.txt, scores.json, detailed_results.html; and the
per-item details, only where a local run asks for them (``score.py ... --items DIR``).

scores.txt: one ``key: value`` line per leaderboard key, ASCII, fixed-point (Codalab v1.5 splits
each line on its one colon and calls float(); Codabench parses the file as YAML, where ``1e-05``
would be a string). Values are written with every digit needed to read back the same float, and
at least nine decimals.

Every leaderboard key is written. A track the submission did not enter gets a value that ranks
last in its column on both platforms: Codabench orders by its primary column on PostgreSQL,
where a missing score (NULL) sorts *first* in descending order, so an absent key would put a
one-track entry above every entrant of the primary track. The values must be storable
(Codabench keeps scores as decimals with 10 digits before the point).
"""

from __future__ import annotations

import json
import math
import os
from typing import Dict, List, Sequence

from .registry import BY_NAME, LOWER_IS_BETTER
from .result import Columns, TrackResult

MIN_DECIMALS = 9
NOT_ENTERED_HIGHER_IS_BETTER = -1.0  # every real score of these columns is >= 0
NOT_ENTERED_LOWER_IS_BETTER = 9999999999.0  # sa_rmse: above any real error, below 1e10


def not_entered_value(key: str) -> float:
    """What a column shows for a track the submission did not enter: it ranks last."""
    return NOT_ENTERED_LOWER_IS_BETTER if key in LOWER_IS_BETTER else NOT_ENTERED_HIGHER_IS_BETTER


def fixed_point(value: float) -> str:
    """The shortest fixed-point text that reads back as ``value``, with at least 9 decimals.

    >>> fixed_point(0.5), fixed_point(1e-05), fixed_point(0.0449438202247191)
    ('0.500000000', '0.000010000', '0.0449438202247191')
    """
    if not math.isfinite(value):
        raise ValueError("scores must be finite, got %r" % value)
    text = repr(float(value))
    if "e" in text:  # below 1e-4 or from 1e16: rare, so decimal is imported only then
        from decimal import Decimal
        text = format(Decimal(text), "f")
    if "." not in text:
        text += "."
    decimals = len(text) - text.index(".") - 1
    if decimals < MIN_DECIMALS:
        text += "0" * (MIN_DECIMALS - decimals)
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


def collect_scores(results: Sequence[TrackResult]) -> Dict[str, float]:
    scores: Dict[str, float] = {}
    for result in results:
        for key, value in result.scores.items():
            scores[key] = float(value)
    return scores


def leaderboard_scores(scores: Dict[str, float], phase_tracks: Sequence[str]) -> Dict[str, float]:
    """Every key of the phase's tracks (the build makes each a leaderboard column), in registry
    order: the scored ones, and not-entered values for the others."""
    keys = [key for name in phase_tracks for key in BY_NAME[name].keys]
    return {key: scores[key] if key in scores else not_entered_value(key) for key in keys}


def write_scores(output_dir: str, scores: Dict[str, float]) -> None:
    lines = ["%s: %s\n" % (key, fixed_point(value)) for key, value in scores.items()]
    with open(os.path.join(output_dir, "scores.txt"), "w", encoding="ascii", newline="\n") as handle:
        handle.writelines(lines)
    with open(os.path.join(output_dir, "scores.json"), "w", encoding="ascii", newline="\n") as handle:
        json.dump(scores, handle, indent=1, allow_nan=False)
        handle.write("\n")


def write_items(items_dir: str, results: Sequence[TrackResult], extra_lines: Sequence[str]) -> None:
    """Per-item details (which reveal gold), for a local run only: ``items_dir``, never output/.

    One JSON file per track: a list of rows, or an object of columns (``Columns``); and
    ``problems.txt``, the full text of reference-data problems and internal errors.
    """
    os.makedirs(items_dir, exist_ok=True)
    for result in results:
        path = os.path.join(items_dir, "%s_items.json" % result.track)
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            # Chunks of the C encoder: fast, and never the whole document in memory at once.
            if isinstance(result.private, Columns):
                handle.write("{")
                for index, name in enumerate(result.private.names):
                    handle.write("%s%s: %s" % ("," if index else "", json.dumps(name),
                                               json.dumps(result.private.values(index), ensure_ascii=False)))
                handle.write("}\n")
                continue
            handle.write("[")
            for start in range(0, len(result.private), 4096):
                chunk = json.dumps(result.private[start:start + 4096], ensure_ascii=False)
                handle.write(("," if start else "") + chunk[1:-1])
            handle.write("]\n")
    if extra_lines:
        with open(os.path.join(items_dir, "problems.txt"), "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(extra_lines) + "\n")


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em;color:#1b1f23;max-width:70em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
table{border-collapse:collapse;margin:.6em 0}th,td{padding:.25em .7em;text-align:right;border-bottom:1px solid #eaeef2}
th:first-child,td:first-child{text-align:left}th{background:#f6f8fa}
td.bar{width:14em;text-align:left}.bar span{display:inline-block;height:.8em;background:#2f81f7;vertical-align:middle}
.bar span.over{background:#cf222e}.warnings{color:#9a6700}.note{color:#57606a;font-size:.9em}.key{font-family:monospace}
"""


def _bar(value: float) -> str:
    width = max(0.0, min(value, 1.0)) * 100
    over = " over" if value > 1.0 else ""
    return '<td class="bar"><span class="%s" style="width:%.1f%%"></span></td>' % (over.strip(), width)


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return "%.6f" % value


def _escape(text: str) -> str:
    """``html.escape(text)`` (quotes included), without importing the html package."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def render_html(results: Sequence[TrackResult], problems: Sequence[str], not_entered: Sequence[str] = (),
                detail: str = "full") -> str:
    """The participant's page; ``detail`` "scores" shows the leaderboard scores only."""
    e = _escape
    parts: List[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                        "<title>Detailed results</title><style>%s</style></head><body>" % _STYLE,
                        "<h1>Detailed results</h1>"]
    if problems:
        parts.append("<h2>Problems</h2><ul>")
        parts.extend("<li>%s</li>" % e(line) for line in problems)
        parts.append("</ul>")
    if not results:
        parts.append('<p class="note">No track was scored.</p>')
    for result in results:
        parts.append('<h2 id="%s">%s</h2>' % (e(result.track), e(result.title)))
        if result.warnings:  # scored as the official scorer scores it; the participant should know
            parts.append('<ul class="warnings">')
            parts.extend("<li>%s: warning: %s</li>" % (e(BY_NAME[result.track].filename), e(warning))
                         for warning in result.warnings)
            parts.append("</ul>")
        parts.append("<table><tr><th>score</th><th>value</th></tr>")
        for key, value in result.scores.items():
            direction = " (lower is better)" if key in LOWER_IS_BETTER else ""
            parts.append('<tr><td class="key">%s%s</td><td>%s</td></tr>' % (e(key), e(direction), _number(value)))
        parts.append("</table>")
        if detail == "scores":
            continue
        if result.details:
            parts.append("<table><tr><th>detail</th><th>value</th></tr>")
            for label, value in result.details.items():
                parts.append("<tr><td>%s</td><td>%s</td></tr>" % (e(label), _number(value)))
            parts.append("</table>")
        for note in result.notes:
            parts.append('<p class="note">%s</p>' % e(note))
        if result.table:
            parts.append("<table><tr><th>technique</th><th>P</th><th>R</th><th>F1</th><th aria-label=\"F1 bar\"></th>"
                         "<th>gold</th><th>predicted</th></tr>")
            for row in result.table:
                parts.append("<tr><td>%s</td><td>%.4f</td><td>%.4f</td><td>%.4f</td>%s<td>%d</td><td>%d</td></tr>"
                             % (e(row.label), row.precision, row.recall, row.f1, _bar(row.f1),
                                row.gold, row.predicted))
            parts.append("</table>")
            if result.table_note:
                parts.append('<p class="note">%s</p>' % e(result.table_note))
    parts.extend(_not_entered_html(not_entered))
    if detail == "scores" and results:
        parts.append('<p class="note">This phase shows the leaderboard scores only.</p>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _not_entered_html(not_entered: Sequence[str]) -> List[str]:
    parts: List[str] = []
    for name in not_entered:
        track = BY_NAME[name]
        values = ", ".join("%s = %d" % (key, int(not_entered_value(key))) for key in track.keys)
        parts.append('<h2 id="%s">%s: not entered</h2>' % (_escape(name), _escape(track.title)))
        parts.append('<p class="note">No %s in this submission. Its leaderboard columns show %s, which '
                     'rank last.</p>' % (_escape(track.filename), _escape(values)))
    return parts


def write_html(output_dir: str, results: Sequence[TrackResult], problems: Sequence[str],
               not_entered: Sequence[str] = (), detail: str = "full") -> None:
    with open(os.path.join(output_dir, "detailed_results.html"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(render_html(results, problems, not_entered, detail))
