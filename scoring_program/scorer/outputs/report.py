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

scores.json also holds ``"signature"``: track -> its signature (``scorer/outputs/signature.py``) for every
scored track. Codabench's worker posts the whole object and the platform stores only the keys that
are leaderboard columns (``upload_submission_scores`` skips the others), so this non-numeric entry
is never read as a score; no leaderboard key may be named ``signature``. scores.txt, which v1.5
and Codabench read as ``key: number`` lines, holds the leaderboard keys only.
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..tracks.registry import ALL_KEYS, BY_NAME, LOWER_IS_BETTER
from ..readers.result import TechniqueRow, TrackResult

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


SIGNATURE_KEY = "signature"  # in scores.json: track -> signature, beside the leaderboard keys


def write_scores(output_dir: str, scores: Dict[str, float], signatures: Optional[Dict[str, str]] = None) -> None:
    assert SIGNATURE_KEY not in scores
    lines = ["%s: %s\n" % (key, fixed_point(value)) for key, value in scores.items()]
    with open(os.path.join(output_dir, "scores.txt"), "w", encoding="ascii", newline="\n") as handle:
        handle.writelines(lines)
    with open(os.path.join(output_dir, "scores.json"), "w", encoding="ascii", newline="\n") as handle:
        json.dump(dict(scores, **{SIGNATURE_KEY: dict(signatures or {})}), handle, indent=1, allow_nan=False)
        handle.write("\n")


def write_items(items_dir: str, results: Sequence[TrackResult], extra_lines: Sequence[str]) -> None:
    """Per-item details (which reveal gold), for a local run only: ``items_dir``, never output/.

    One JSON file per track, its per-item statistics: ``{"items": [...], "columns": [...], "rows":
    [[...], ...]}`` (row i is item i's statistics, by column); and ``problems.txt``, the full text
    of reference-data problems and internal errors.
    """
    os.makedirs(items_dir, exist_ok=True)
    for result in results:
        statistics = result.statistics
        path = os.path.join(items_dir, "%s_items.json" % result.track)
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            handle.write('{"items": %s, "columns": %s, "rows": [' % (
                json.dumps(statistics.items, ensure_ascii=False), json.dumps(statistics.columns, ensure_ascii=False)))
            # Chunks of the C encoder: fast, and never the whole document in memory at once.
            for start in range(0, len(statistics.rows), 4096):
                chunk = json.dumps(statistics.rows[start:start + 4096], ensure_ascii=False)
                handle.write(("," if start else "") + chunk[1:-1])
            handle.write("]}\n")
    if extra_lines:
        with open(os.path.join(items_dir, "problems.txt"), "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            handle.write("\n".join(extra_lines) + "\n")


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1em;color:#1b1f23;max-width:80em;
overflow-wrap:anywhere}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
h3{font-size:1em;margin:1.2em 0 .3em}
.scroll{overflow-x:auto;max-width:100%;background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/2em 100% no-repeat local,
linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/2em 100% no-repeat local,
radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.25),rgba(0,0,0,0)) left/.9em 100% no-repeat scroll,
radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.25),rgba(0,0,0,0)) right/.9em 100% no-repeat scroll}
td.sticky,th.sticky{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #d0d7de}th.sticky{background:#f6f8fa}
.scroll-hint{display:none}
@media (max-width:600px){body{margin:.5em}table{font-size:.85em}th,td{padding:.2em .35em}td.label,th.label{min-width:6.5em}
td.sticky{max-width:10em;overflow-wrap:anywhere}.scroll-hint{display:block}}
table{border-collapse:collapse;margin:.4em 0}th,td{padding:.25em .6em;text-align:right;border-bottom:1px solid #eaeef2;
white-space:nowrap}th:first-child,td:first-child{text-align:left}th{background:#f6f8fa;vertical-align:bottom;white-space:normal;overflow-wrap:normal}
td.text{text-align:left;white-space:normal}
th button{font:inherit;font-weight:bold;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th[aria-sort=ascending] button::after{content:" \25B2"}th[aria-sort=descending] button::after{content:" \25BC"}
td.bar{width:6em;min-width:6em;text-align:left}td.label,th.label{text-align:left;white-space:normal;min-width:8em;overflow-wrap:normal}.bar span{display:inline-block;height:.8em;background:#2f81f7;vertical-align:middle}
.bar span.over{background:#cf222e}tr.absent td{color:#6e7781}.tag{font-size:.8em;border:1px solid #8c959f;
border-radius:.6em;padding:0 .4em;margin-left:.4em;color:#57606a}
.warnings{color:#9a6700}.note{color:#57606a;font-size:.9em}.key{font-family:monospace}
.failed{background:#ffebe9;border-left:3px solid #cf222e;padding:.4em .8em}
.summary{background:#f6f8fa;border-left:3px solid #2f81f7;padding:.4em .8em}
svg.chart{max-width:100%;height:auto;display:block}
@media print{.scroll{overflow:visible}th button::after{content:""}body{max-width:none;margin:0}
h2{break-after:avoid}table,svg{break-inside:avoid}}
"""

# Sorting by a click on a column's header; without script the tables stay in their printed order
# (support, descending). Cells carry their exact value in data-v.
_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (head, column) {
    if (!head.textContent) return;
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = head.textContent;
    head.textContent = "";
    head.appendChild(button);
    button.addEventListener("click", function () {
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var sign = head.getAttribute("aria-sort") === "descending" ? 1 : -1;
      var value = function (row) { var cell = row.cells[column]; var v = cell.getAttribute("data-v");
        return v === null ? cell.textContent : parseFloat(v); };
      rows.sort(function (a, b) { var x = value(a), y = value(b);
        return sign * (typeof x === "number" ? x - y : String(x).localeCompare(String(y))); });
      Array.prototype.forEach.call(heads, function (other) { other.removeAttribute("aria-sort"); });
      head.setAttribute("aria-sort", sign > 0 ? "ascending" : "descending");
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""

MAX_CONFUSIONS = 40  # rows of the confusion list (at most techniques², ~400, pairs exist)


def _bar(value: float) -> str:
    width = max(0.0, min(value, 1.0)) * 6  # em: the column is 6em wide
    over = " over" if value > 1.0 else ""
    return '<td class="bar" data-v="%r"><span class="%s" style="width:%.2fem"></span></td>' % (
        value, over.strip(), width)


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return "%.6f" % value


def _escape(text: str) -> str:
    """``html.escape(text)`` (quotes included), without importing the html package."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def is_absent(row: TechniqueRow) -> bool:
    """No gold and no prediction of this technique: its F1 of 1.0 says nothing of the system."""
    return row.gold == 0 and row.predicted == 0


def support_order(table: Sequence[TechniqueRow]) -> List[Tuple[int, TechniqueRow]]:
    """(number in the track's list, row), by support (gold count) descending, then list order."""
    return sorted(enumerate(table, start=1), key=lambda pair: (-pair[1].gold, -pair[1].predicted, pair[0]))


def render_html(results: Sequence[TrackResult], problems: Sequence[str], not_entered: Sequence[str] = (),
                detail: str = "full", signatures: Optional[Dict[str, str]] = None,
                intervals: Optional[Dict[str, Optional[Dict[str, Tuple[float, float]]]]] = None,
                interval_resamples: int = 1000, tables: Optional[Dict[str, list]] = None) -> str:
    """The participant's page; ``detail`` "scores" shows the leaderboard scores only;
    ``signatures``: track -> the signature of its scores, shown under its scores; ``intervals``
    (``detail`` "full"): track -> key -> the 95% bootstrap interval of each ranking score
    (``resampling.ranking_intervals`` from ``interval_resamples``; None: not computed, the phase
    is too large); ``tables`` (``detail`` "full"): track -> its tables by group
    (``groups.group_tables``).

    Every number is a score of ``scores.json`` or an aggregate the track computed from its
    per-item statistics (``result.details``, ``result.table``, ``result.confusions``): the page
    formats, orders and draws them, and computes nothing.
    """
    e = _escape
    parts: List[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                        '<meta name="viewport" content="width=device-width, initial-scale=1">',
                        "<title>Detailed results</title><style>%s</style></head><body>" % _STYLE,
                        "<h1>Detailed results</h1>"]
    if problems:  # the submission failed (exit status 1): the platform records none of the scores below
        parts.append('<p class="failed"><strong>This submission failed: nothing was recorded on the '
                     'leaderboard.</strong> The problems below say why; any scores further down are those of the '
                     'files that could be read, shown to help you fix the rest.</p>')
        parts.append("<h2>Problems</h2><ul>")
        parts.extend("<li>%s</li>" % e(line) for line in problems)
        parts.append("</ul>")
    if not results:
        parts.append('<p class="note">No track was scored.</p>')
    if detail == "scores" and results:
        parts.append('<p class="note">This phase shows the leaderboard scores only.</p>')
    for result in results:
        parts.extend(_track_html(result, detail, (signatures or {}).get(result.track),
                                 (intervals or {}).get(result.track, False), interval_resamples,
                                 (tables or {}).get(result.track, ()), failed=bool(problems)))
    parts.extend(_not_entered_html(not_entered, failed=bool(problems)))
    if detail == "full" and any(result.table for result in results):
        parts.append("<script>%s</script>" % _SCRIPT)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _track_html(result: TrackResult, detail: str, signature: Optional[str] = None,
                intervals: Any = False, interval_resamples: int = 1000, tables: Sequence = (),
                failed: bool = False) -> List[str]:
    e = _escape
    track = BY_NAME[result.track]
    parts = ['<h2 id="%s">%s</h2>' % (e(result.track), e(result.title))]
    # The scores the track is ranked by, as the organisers' results rank them (its module's
    # LEADERBOARDS; absita: the three subtasks of EVALITA 2020); the board is ordered by its first
    # column (t6_st1_f1_micro), so a track's ranking is its column's order.
    ranked = [key for _, key in track.leaderboards if key in result.scores]
    summary = "; ".join("<span class=\"key\">%s</span> = %s (%s is better)"
                        % (e(key), _number(result.scores[key]), "lower" if key in LOWER_IS_BETTER else "higher")
                        for key in ranked)
    if failed:
        meaning = "Not recorded: the submission failed (above)."
    elif ranked and ranked[0] == ALL_KEYS[0]:
        meaning = "The leaderboard is ordered by this column."
    else:
        meaning = ("The leaderboard is ordered by its first column (%s); sort it by %s to see this track's "
                   "ranking." % (ALL_KEYS[0], "these columns" if len(ranked) > 1 else "this column"))
    parts.append('<p class="summary">Ranking score%s: %s. %s</p>'
                 % ("s" if len(ranked) > 1 else "", summary, e(meaning)))
    if result.warnings:  # scored as the official scorer scores it; the participant should know
        parts.append('<ul class="warnings">')
        parts.extend("<li>%s: warning: %s</li>" % (e(track.filename), e(warning)) for warning in result.warnings)
        parts.append("</ul>")
    parts.append('<div class="scroll"><table><tr><th>score</th><th>value</th></tr>')
    for key, value in result.scores.items():
        direction = " (lower is better)" if key in LOWER_IS_BETTER else ""
        parts.append('<tr><td class="key">%s%s</td><td>%s</td></tr>' % (e(key), e(direction), _number(value)))
    parts.append("</table></div>")
    if signature:
        parts.append('<p class="note signature">Signature: <code>%s</code></p>' % e(signature))
    if detail == "scores":
        return parts
    if intervals is not False:
        parts.extend(_intervals_html(result, intervals, interval_resamples))
    if result.details:
        parts.append('<div class="scroll"><table><tr><th>detail</th><th>value</th></tr>')
        for label, value in result.details.items():
            parts.append("<tr><td>%s</td><td>%s</td></tr>" % (e(label), _number(value)))
        parts.append("</table></div>")
    for note in result.notes:
        parts.append('<p class="note">%s</p>' % e(note))
    if result.table:
        parts.extend(_technique_table(result))
        parts.extend(_chart(result))
    if result.confusions is not None:
        parts.extend(_confusions_html(result))
    for table in tables:
        parts.extend(_group_table_html(result, *table))
    return parts


def _group_table_html(result: TrackResult, title: str, dimension: str, count_labels: Sequence[str],
                      keys: Sequence[str], rows: Sequence[tuple], note: str) -> List[str]:
    """One of the track's tables by group: per group its counts and scores (computed by the track's
    aggregate over the group's statistics; '—' where a score is undefined: no item in the group)."""
    e = _escape
    anchor = "%s-%s" % (result.track, re.sub(r"[^a-z0-9]+", "-", dimension.lower()))
    parts = ["<h3>%s</h3>" % e(title),
             '<div class="scroll"><table class="groups" id="%s"><thead><tr><th class="label sticky">%s</th>%s%s'
             '</tr></thead><tbody>' % (e(anchor), e(dimension), "".join("<th>%s</th>" % e(label) for label in count_labels),
                                       "".join('<th class="key">%s</th>' % e(key) for key in keys))]
    for group, counts, scores in rows:
        cells = ['<td data-v="%r">%s</td>' % (value, _number(value) if not isinstance(value, float) or
                                               value != int(value) else str(int(value))) for value in counts]
        cells += ['<td>—</td>' if value is None else '<td data-v="%r">%s</td>' % (value, "%.4f" % value)
                  for value in scores]
        parts.append('<tr><td class="label sticky">%s</td>%s</tr>' % (e(group), "".join(cells)))
    parts.append("</tbody></table></div>")
    if note:
        parts.append('<p class="note">%s</p>' % e(note))
    return parts


def _intervals_html(result: TrackResult, intervals: Optional[Dict[str, Tuple[float, float]]],
                    resamples: int) -> List[str]:
    """Each ranking score with its 95% bootstrap interval (the same resamples and seed as
    score_locally.py), or a line saying why there is none."""
    from .resampling import INTERVAL_SEED, interval_signature
    e = _escape
    if intervals is None:
        return ['<p class="note">95% intervals: not computed on this page (this phase\'s items make the '
                'resamples too long to draw here); score_locally.py prints them, rank_submissions.py tabulates '
                'them.</p>']
    parts = ['<div class="scroll"><table class="intervals" id="%s-intervals"><tr><th>ranking score</th>'
             '<th>value</th><th>95%% interval: low</th><th>high</th></tr>' % e(result.track)]
    for key, (low, high) in intervals.items():
        parts.append('<tr><td class="key">%s</td><td>%s</td><td data-v="%r">%s</td><td data-v="%r">%s</td></tr>'
                     % (e(key), _number(result.scores[key]), low, _number(low), high, _number(high)))
    parts.append("</table></div>")
    parts.append('<p class="note">95%% percentile bootstrap intervals: %d resamples of this phase\'s %ss drawn with '
                 'replacement, seed %d, the same draws as score_locally.py\'s and the organisers\' result tables: '
                 'how much a score owes to the draw of the %ss. Signature: <code>%s</code>.</p>'
                 % (resamples, e(result.item_noun), INTERVAL_SEED, e(result.item_noun),
                    e(interval_signature(resamples))))
    return parts


def _technique_table(result: TrackResult) -> List[str]:
    e = _escape
    spans = result.table[0].precision_sum is not None
    if spans:
        counts = ("gold spans (support)", "predicted spans", "precision sum", "recall sum")
    else:
        counts = ("gold (support)", "predicted", "TP", "FP", "FN")
    parts = ["<h3>Per technique</h3>",
             '<p class="note scroll-hint">The table scrolls sideways: its other columns are to the right (the '
             'technique column stays).</p>',
             '<div class="scroll"><table class="sortable" id="%s-techniques"><thead><tr><th>#</th><th class="label sticky">technique</th>%s'
             '<th>P</th><th>R</th><th>F1</th><th aria-label="F1 bar"></th></tr></thead><tbody>'
             % (e(result.track), "".join("<th>%s</th>" % e(name) for name in counts))]
    for number, row in support_order(result.table):
        absent = is_absent(row)
        if spans:
            values = [(row.gold, str(row.gold)), (row.predicted, str(row.predicted)),
                      (row.precision_sum, "%.4f" % row.precision_sum), (row.recall_sum, "%.4f" % row.recall_sum)]
        else:
            values = [(row.gold, str(row.gold)), (row.predicted, str(row.predicted)),
                      (row.true_positives, str(row.true_positives)), (row.false_positives, str(row.false_positives)),
                      (row.false_negatives, str(row.false_negatives))]
        values += [(row.precision, "%.4f" % row.precision), (row.recall, "%.4f" % row.recall), (row.f1, "%.4f" % row.f1)]
        parts.append('<tr%s><td data-v="%d">%d</td><td class="label sticky">%s%s</td>%s%s</tr>'
                     % (' class="absent"' if absent else "", number, number, e(row.label),
                        '<span class="tag">absent</span>' if absent else "",
                        "".join('<td data-v="%r">%s</td>' % (value, text) for value, text in values),
                        '<td class="bar" data-v="-1"></td>' if absent else _bar(row.f1)))
    parts.append("</tbody></table></div>")
    notes = [result.table_note] if result.table_note else []
    if any(is_absent(row) for row in result.table):
        if spans:
            notes.append("absent: no gold span and no predicted span of this technique. Its F1 is 1 by the "
                         "official formula; the track's score pools the spans of every technique, so an "
                         "absent technique does not change it.")
        else:
            notes.append("absent: no gold label and no predicted label of this technique in this phase. Its F1 "
                         "is 1.0 (scikit-learn's zero_division=1, as the official scorer computes it), and the "
                         "macro-F1 counts it as 1.0 like every other technique of the list: it is not a "
                         "strength of the system.")
    notes.append("Rows by support (gold count), largest first; click a column's header to sort by it.")
    parts.extend('<p class="note">%s</p>' % e(note) for note in notes)
    return parts


def _chart(result: TrackResult) -> List[str]:
    """Per-technique F1 against support (gold count, on a log scale): one numbered point per
    technique of the table that is not absent."""
    e = _escape
    shown = [(number, row) for number, row in support_order(result.table) if not is_absent(row)]
    width, height, left, right, top, bottom = 480, 280, 44, 16, 14, 40
    largest = max([row.gold for _, row in shown] + [1])
    decades = max(1, math.ceil(math.log10(largest + 1)))

    def x(support: int) -> float:
        return left + (width - left - right) * math.log10(support + 1) / decades

    def y(f1: float) -> float:
        return top + (height - top - bottom) * (1 - max(0.0, min(f1, 1.2)) / 1.2)

    parts = ['<h3>F1 against support</h3>',
             '<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" '
             'aria-label="per-technique F1 against support, %s" '
             'font-family="sans-serif" font-size="12">' % (width, height, width, height, e(result.track))]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#d0d7de"/>'
                     '<text x="%d" y="%.1f" text-anchor="end">%.2f</text>'
                     % (left, width - right, y(tick), y(tick), left - 4, y(tick) + 4, tick))
    for power in range(decades + 1):
        support = 10 ** power if power else 0
        parts.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#d0d7de"/>'
                     '<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                     % (x(support), x(support), top, height - bottom, x(support), height - bottom + 14, support))
    parts.append('<text x="%d" y="%d" text-anchor="middle">support (gold count, log scale)</text>'
                 % ((left + width - right) // 2, height - 6))
    parts.append('<text x="12" y="%d" text-anchor="middle" transform="rotate(-90 12 %d)">F1</text>'
                 % ((top + height - bottom) // 2, (top + height - bottom) // 2))
    labels = label_positions([(x(row.gold), y(row.f1), str(number)) for number, row in shown], top,
                             height - bottom)
    for (number, row), (label_x, label_y) in zip(shown, labels):
        cx, cy = x(row.gold), y(row.f1)
        leader = ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8c959f" stroke-width="0.6"/>'
                  % (cx, cy, label_x - 1, label_y - 4)) if abs(label_y - (cy - 4)) > 1 else ""
        parts.append('<g><title>%d %s: support %d, F1 %.4f</title><circle cx="%.1f" cy="%.1f" r="4" '
                     'fill="%s"/>%s<text x="%.1f" y="%.1f">%d</text></g>'
                     % (number, e(row.label), row.gold, row.f1, cx, cy,
                        "#cf222e" if row.f1 > 1.0 else "#2f81f7", leader, label_x, label_y, number))
    parts.append("</svg>")
    parts.append('<p class="note">Points are numbered as the table\'s rows (#); absent techniques are not drawn.</p>')
    return parts


# A 12 px label's box in the chart's units: a browser's text box is the font's ascent + descent
# (about 14 px), a digit about 6.7 px wide.
LABEL_HEIGHT, LABEL_ASCENT, DIGIT_WIDTH = 15, 12, 7.5


def label_positions(points: Sequence[Tuple[float, float, str]], lowest: float, highest: float
                    ) -> List[Tuple[float, float]]:
    """Where each point's label goes (x, baseline y): beside its point, or moved up or down a line
    at a time until it overlaps no label placed before it (many techniques share F1 = 0), within
    [lowest, highest] of the chart; in the given order.

    >>> label_positions([(10, 100, "1"), (12, 100, "2")], 0, 200)
    [(15, 96), (17, 81)]
    """
    placed: List[Tuple[float, float, float, float]] = []
    positions = []
    for px, py, text in points:
        left, width = px + 5, DIGIT_WIDTH * len(text)
        chosen = None
        for step in range(0, 40):
            shift = LABEL_HEIGHT * ((step + 1) // 2) * (-1 if step % 2 else 1) if step else 0
            baseline = py - 4 + shift
            box = (left, baseline - LABEL_ASCENT, left + width, baseline + LABEL_HEIGHT - LABEL_ASCENT)
            if box[1] < lowest - LABEL_HEIGHT or box[3] > highest + LABEL_HEIGHT - LABEL_ASCENT:
                continue
            if not any(box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
                       for other in placed):
                chosen = (box, baseline)
                break
        if chosen is None:  # (a crowded column: beside the point, as before)
            chosen = ((left, py - 4 - LABEL_ASCENT, left + width, py - 4 + LABEL_HEIGHT - LABEL_ASCENT), py - 4)
        placed.append(chosen[0])
        positions.append((left, chosen[1]))
    return positions


def _confusions_html(result: TrackResult) -> List[str]:
    e = _escape
    pairs = sorted((result.confusions or {}).items(), key=lambda item: (-item[1], item[0]))
    parts = ["<h3>Spans confused with another technique</h3>"]
    if not pairs:
        parts.append('<p class="note">No predicted span overlaps a gold span of another technique.</p>')
        return parts
    parts.append('<div class="scroll"><table class="sortable" id="%s-confusions"><thead><tr><th>span pairs</th>'
                 '<th class="label">predicted technique</th><th class="label">gold technique it overlaps</th></tr>'
                 '</thead><tbody>' % e(result.track))
    for (predicted, gold), count in pairs[:MAX_CONFUSIONS]:
        parts.append('<tr><td data-v="%d">%d</td><td class="label">%s</td><td class="label">%s</td></tr>'
                     % (count, count, e(predicted), e(gold)))
    parts.append("</tbody></table></div>")
    more = ("; the %d smallest of %d pairs of techniques are not listed" % (len(pairs) - MAX_CONFUSIONS, len(pairs))
            if len(pairs) > MAX_CONFUSIONS else "")
    parts.append('<p class="note">Each count is the number of (predicted span, gold span) pairs of these two '
                 'techniques that share at least one character, over all %ss%s. They score nothing: the '
                 'measure matches spans of the same technique only.</p>'
                 % (e(result.item_noun), more))
    return parts


def _not_entered_html(not_entered: Sequence[str], failed: bool = False) -> List[str]:
    parts: List[str] = []
    for name in not_entered:
        track = BY_NAME[name]
        # as Codabench shows them (a float: -1.0) on the board and under My Submissions
        values = ", ".join("%s = %r" % (key, not_entered_value(key)) for key in track.keys)
        parts.append('<h2 id="%s">%s: not entered</h2>' % (_escape(name), _escape(track.title)))
        if failed:
            parts.append('<p class="note">No %s in this submission.</p>' % _escape(track.filename))
        else:
            parts.append('<p class="note">No %s in this submission. Its leaderboard columns show %s, which '
                         'rank last.</p>' % (_escape(track.filename), _escape(values)))
    return parts


def write_html(output_dir: str, results: Sequence[TrackResult], problems: Sequence[str],
               not_entered: Sequence[str] = (), detail: str = "full",
               signatures: Optional[Dict[str, str]] = None,
               intervals: Optional[Dict[str, Optional[Dict[str, Tuple[float, float]]]]] = None,
               interval_resamples: int = 1000, tables: Optional[Dict[str, list]] = None) -> None:
    with open(os.path.join(output_dir, "detailed_results.html"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(render_html(results, problems, not_entered, detail, signatures, intervals, interval_resamples,
                                 tables))
