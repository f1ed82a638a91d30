"""The participant's page, ``detailed_results.html``: per track its scores, signature, intervals,
details, technique table and chart, confusions and tables by group; the tracks not entered; the
problems of a failed submission. Every number on it was computed before (``run_outputs.py``): the
page formats, orders and draws them.
"""

from __future__ import annotations

import os
import re
from html import escape
from typing import Dict, List, Optional, Sequence, Tuple

from ..tracks.registry import ALL_KEYS, BY_NAME, LOWER_IS_BETTER
from ..readers.result import TechniqueRow, TrackResult
from .page_style import STYLE
from .resampling import INTERVAL_SEED, interval_signature
from .scores_files import not_entered_value
from .support_chart import support_chart

# Sorting by a click on a column's header; without script the tables stay in their printed order
# (support, descending). Cells carry their exact value in data-v.
SCRIPT = """
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




def is_absent(row: TechniqueRow) -> bool:
    """No gold and no prediction of this technique: its F1 of 1.0 says nothing of the system."""
    return row.gold == 0 and row.predicted == 0


def support_order(table: Sequence[TechniqueRow]) -> List[Tuple[int, TechniqueRow]]:
    """(number in the track's list, row), by support (gold count) descending, then list order."""
    return sorted(enumerate(table, start=1), key=lambda pair: (-pair[1].gold, -pair[1].predicted, pair[0]))


def render_html(results: Sequence[TrackResult], problems: Sequence[str], not_entered: Sequence[str] = (),
                detail: str = "full", signatures: Optional[Dict[str, str]] = None,
                intervals: Optional[Dict[str, Tuple[int, Dict[str, Tuple[float, float]]]]] = None,
                interval_resamples: int = 1000, tables: Optional[Dict[str, list]] = None) -> str:
    """The participant's page; ``detail`` "scores" shows the leaderboard scores only;
    ``signatures``: track -> the signature of its scores, shown under its scores; ``intervals``
    (``detail`` "full"): track -> (the resamples drawn, key -> the 95% bootstrap interval of each
    ranking score: ``resampling.ranking_intervals``; the phase asked for ``interval_resamples``);
    ``tables`` (``detail`` "full"): track -> its tables by group
    (``groups.group_tables``).

    Every number is a score of ``scores.json`` or an aggregate the track computed from its
    per-item statistics (``result.details``, ``result.table``, ``result.confusions``): the page
    formats, orders and draws them, and computes nothing.
    """
    e = escape
    parts: List[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                        '<meta name="viewport" content="width=device-width, initial-scale=1">',
                        "<title>Detailed results</title><style>%s</style></head><body>" % STYLE,
                        "<h1>Detailed results</h1>"]
    if problems:  # the submission failed (exit status 1): the platform records none of the scores below
        parts.append('<p class="failed"><strong>This submission failed: nothing was recorded on the '
                     'leaderboard.</strong> The problems below say why%s.</p>'
                     % ("; the scores further down are those of the files that could be read, shown to help you "
                        "fix the rest" if results else ""))
        parts.append("<h2>Problems</h2><ul>")
        parts.extend("<li>%s</li>" % e(line) for line in problems)
        parts.append("</ul>")
    if not results:
        parts.append('<p class="note">No track was scored.</p>')
    if detail == "scores" and results:
        parts.append('<p class="note">This phase shows the leaderboard scores only.</p>')
    for result in results:
        parts.extend(_track_html(result, detail, (signatures or {}).get(result.track),
                                 (intervals or {}).get(result.track), interval_resamples,
                                 (tables or {}).get(result.track, ()), failed=bool(problems)))
    parts.extend(_not_entered_html(not_entered, failed=bool(problems)))
    if detail == "full" and any(result.table for result in results):
        parts.append("<script>%s</script>" % SCRIPT)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _track_html(result: TrackResult, detail: str, signature: Optional[str] = None,
                intervals: Optional[Tuple[int, Dict[str, Tuple[float, float]]]] = None,
                interval_resamples: int = 1000, tables: Sequence = (),
                failed: bool = False) -> List[str]:
    e = escape
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
    if intervals is not None:
        parts.extend(_intervals_html(result, intervals[0], intervals[1], interval_resamples))
    if result.details:
        parts.append('<div class="scroll"><table><tr><th>detail</th><th>value</th></tr>')
        for label, value in result.details.items():
            parts.append("<tr><td>%s</td><td>%s</td></tr>" % (e(label), _number(value)))
        parts.append("</table></div>")
    for note in result.notes:
        parts.append('<p class="note">%s</p>' % e(note))
    if result.table:
        parts.extend(_technique_table(result))
        parts.extend(support_chart(result.track, [(number, row) for number, row in support_order(result.table)
                                                  if not is_absent(row)]))
    if result.confusions is not None:
        parts.extend(_confusions_html(result))
    for table in tables:
        parts.extend(_group_table_html(result, *table))
    return parts


def _group_table_html(result: TrackResult, title: str, dimension: str, count_labels: Sequence[str],
                      keys: Sequence[str], rows: Sequence[tuple], note: str) -> List[str]:
    """One of the track's tables by group: per group its counts and scores (computed by the track's
    aggregate over the group's statistics; '—' where a score is undefined: no item in the group)."""
    e = escape
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


def _intervals_html(result: TrackResult, drawn: int, intervals: Dict[str, Tuple[float, float]],
                    asked: int) -> List[str]:
    """Each ranking score with its 95% bootstrap interval over ``drawn`` resamples (the phase's
    settings asked for ``asked``), and the rule they follow."""
    e = escape
    noun, items = e(result.item_noun), len(result.statistics.items)
    parts = ['<div class="scroll"><table class="intervals" id="%s-intervals"><tr><th>ranking score</th>'
             '<th>value</th><th>95%% interval: low</th><th>high</th></tr>' % e(result.track)]
    for key, (low, high) in intervals.items():
        parts.append('<tr><td class="key">%s</td><td>%s</td><td data-v="%r">%s</td><td data-v="%r">%s</td></tr>'
                     % (e(key), _number(result.scores[key]), low, _number(low), high, _number(high)))
    parts.append("</table></div>")
    fewer = (" This phase asks for %d resamples; with its %d %ss the page draws %d, to stay within about a "
             "second." % (asked, items, noun, drawn)) if drawn < asked else ""
    parts.append('<p class="note">95%% percentile bootstrap intervals: %d resamples, each of %d %ss drawn with '
                 'replacement from this phase\'s %d (seed %d: <code>random.Random(%d).choices</code>, the draws of '
                 'score_locally.py and of the organisers\' result tables). A resample\'s score is computed from its '
                 '%ss\' statistics summed (integers exactly, the others correctly rounded); the interval runs from '
                 'the 2.5th to the 97.5th percentile of those scores: how much a score owes to the draw of the '
                 '%ss.%s Signature: <code>%s</code>.</p>'
                 % (drawn, items, noun, items, INTERVAL_SEED, INTERVAL_SEED, noun, noun, fewer,
                    e(interval_signature(drawn))))
    return parts


def _technique_table(result: TrackResult) -> List[str]:
    e = escape
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




def _confusions_html(result: TrackResult) -> List[str]:
    e = escape
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
        parts.append('<h2 id="%s">%s: not entered</h2>' % (escape(name), escape(track.title)))
        if failed:
            parts.append('<p class="note">No %s in this submission.</p>' % escape(track.filename))
        else:
            parts.append('<p class="note">No %s in this submission. Its leaderboard columns show %s, which '
                         'rank last.</p>' % (escape(track.filename), escape(values)))
    return parts


def write_html(output_dir: str, results: Sequence[TrackResult], problems: Sequence[str],
               not_entered: Sequence[str] = (), detail: str = "full",
               signatures: Optional[Dict[str, str]] = None,
               intervals: Optional[Dict[str, Tuple[int, Dict[str, Tuple[float, float]]]]] = None,
               interval_resamples: int = 1000, tables: Optional[Dict[str, list]] = None) -> None:
    with open(os.path.join(output_dir, "detailed_results.html"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(render_html(results, problems, not_entered, detail, signatures, intervals, interval_resamples,
                                 tables))
