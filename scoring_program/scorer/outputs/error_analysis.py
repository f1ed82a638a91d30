"""The local error analysis: ``error_analysis.html``, written by ``score.py ... --items DIR``.

Only for a local run with the participant's own gold (``score_locally.py --items DIR``): it shows
gold text and labels, which the platforms' outputs never hold. Per track, the items with the
largest error by the track's per-item statistics (``result.statistics``, the numbers behind the
scores), each with its text and the gold and predicted spans highlighted (span tracks), its gold
and predicted labels (multilabel tracks), or the texts, facts and table its track module's view
gives (``ItemView.marked``: nlu's explanation tokens aligned by the LCS, absita's review with its
aspect terms), ordered by the module's ``item_error``.

Bounded whatever the submission: ``MAX_ITEMS`` items a track, ``MAX_TEXT`` characters of text and
``MAX_SPANS`` spans a side per item, item ids clipped.
"""

from __future__ import annotations

import os
from html import escape
from typing import Dict, List, Optional, Sequence, Tuple

from ..readers.problems import clip
from ..tracks.registry import BY_NAME
from .page_style import STYLE
from ..readers.result import ItemView, TrackResult

FILE_NAME = "error_analysis.html"
MAX_ITEMS = 20
MAX_TEXT = 20000
MAX_SPANS = 300


def item_errors(result: TrackResult) -> Optional[List[Tuple[str, float]]]:
    """(item, error) for every item, from the per-item statistics: a span track's unmatched
    mass, Σ (predicted − precision sum) + (gold − recall sum) over techniques; a multilabel
    track's false positives + false negatives; any other track's ``item_error`` of the item's
    statistics (None: the track declares no ``item_error``)."""
    statistics = result.statistics
    track = BY_NAME[result.track]
    if _is_span_track(statistics.columns):
        signs = [{"precision_sum": -1, "recall_sum": -1, "predicted": 1, "gold": 1}[column.split("|")[0]]
                 for column in statistics.columns]
    elif _is_multilabel_track(statistics.columns):
        signs = [0 if column.startswith("tp|") else 1 for column in statistics.columns]
    elif not track.item_error_measure:  # (the contract declares item_error and ITEM_ERROR together)
        return None
    else:
        return [(item, track.item_error(dict(zip(statistics.columns, row))))
                for item, row in zip(statistics.items, statistics.rows)]
    return [(item, sum(sign * value for sign, value in zip(signs, row)))
            for item, row in zip(statistics.items, statistics.rows)]


def _is_span_track(columns: Sequence[str]) -> bool:
    """Span statistics (span_metric.py) have precision sums; multilabel ones count tp, fp, fn."""
    return any(column.startswith("precision_sum|") for column in columns)


def _is_multilabel_track(columns: Sequence[str]) -> bool:
    return any(column.startswith("tp|") for column in columns)


def worst_items(result: TrackResult, count: int = MAX_ITEMS) -> List[Tuple[str, float]]:
    """The ``count`` items with the largest error (ties: the gold's order), errors above 0 only."""
    errors = [(item, error) for item, error in item_errors(result) or () if error > 1e-12]
    order = sorted(range(len(errors)), key=lambda i: (-errors[i][1], i))
    return [errors[i] for i in order[:count]]


def highlight(text: str, gold: Sequence[Tuple[str, int, int]], predicted: Sequence[Tuple[str, int, int]]) -> str:
    """``text`` as HTML, each stretch marked by what covers it: ``g`` gold only, ``p`` predicted
    only, ``b`` both with a technique in common, ``x`` both with different techniques; its title
    names the techniques.

    >>> highlight("abcdefgh", [("A", 1, 4)], [("A", 3, 6), ("B", 7, 9)])
    'a<mark class="g" title="gold: A">bc</mark><mark class="b" title="gold: A; predicted: A">d</mark><mark class="p" title="predicted: A">ef</mark>g<mark class="p" title="predicted: B">h</mark>'
    """
    length = len(text)
    events: Dict[int, List[Tuple[int, str, int]]] = {}  # offset -> (side, technique, +1 or -1)
    for side, spans in ((0, gold), (1, predicted)):
        for technique, start, end in spans:
            start, end = max(0, min(start, length)), max(0, min(end, length))
            if start < end:
                events.setdefault(start, []).append((side, technique, 1))
                events.setdefault(end, []).append((side, technique, -1))
    cuts = sorted(set(events) | {0, length})
    active: Tuple[Dict[str, int], Dict[str, int]] = ({}, {})
    parts = []
    for here, following in zip(cuts, cuts[1:]):
        for side, technique, step in events.get(here, ()):
            count = active[side].get(technique, 0) + step
            if count:
                active[side][technique] = count
            else:
                del active[side][technique]
        piece = escape(text[here:following])
        gold_on, predicted_on = sorted(active[0]), sorted(active[1])
        if not gold_on and not predicted_on:
            parts.append(piece)
            continue
        kind = ("g" if not predicted_on else "p" if not gold_on
                else "b" if set(gold_on) & set(predicted_on) else "x")
        title = "; ".join(name + ": " + ", ".join(on) for name, on in (("gold", gold_on), ("predicted", predicted_on))
                          if on)
        parts.append('<mark class="%s" title="%s">%s</mark>' % (kind, escape(title), piece))
    return "".join(parts)


_EXTRA_STYLE = """
mark{padding:0;border-radius:2px}mark.g{background:#ffd8b5}mark.p{background:#c8e1ff}
mark.b{background:#aceebb}mark.x{background:#ffb3c0}mark.h{background:#fff3a3}.text-box{white-space:pre-wrap;border:1px solid #d0d7de;
padding:.5em;max-height:30em;overflow:auto}.legend mark{padding:0 .3em}
.marked .side{font-size:.85em;color:#57606a}th.text{text-align:left}.facts{margin:.2em 0}
"""


def render_error_analysis(results: Sequence[TrackResult]) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>Error analysis (local)</title><style>%s%s</style></head><body>" % (STYLE, _EXTRA_STYLE),
             "<h1>Error analysis (local run)</h1>",
             '<p class="note">Written by a local run with your own gold (score.py --items); the platform never '
             'shows this page. Per track, the %d items with the largest error by the per-item statistics '
             'behind the scores.</p>' % MAX_ITEMS,
             '<p class="legend">Highlights: <mark class="g">gold only</mark> <mark class="p">predicted only</mark> '
             '<mark class="b">both, same technique</mark> <mark class="x">both, other techniques</mark>; hover a '
             'highlight for its techniques. Tracks with marked texts of their own: <mark class="b">in both</mark> '
             '<mark class="g">gold only (missed)</mark> <mark class="p">predicted only (false)</mark> '
             '<mark class="h">partial match</mark>.</p>']
    for result in results:
        parts.extend(_track_section(result))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _track_section(result: TrackResult) -> List[str]:
    e = escape
    columns = result.statistics.columns
    spans = _is_span_track(columns)
    track = BY_NAME[result.track]
    if spans:
        measure = "unmatched span mass: Σ over techniques of (predicted − precision sum) + (gold − recall sum)"
    elif _is_multilabel_track(columns):
        measure = "false positives + false negatives"
    else:
        measure = track.item_error_measure
    parts = ['<h2 id="%s">%s</h2>' % (e(result.track), e(result.title))]
    if not measure:
        parts.append('<p class="note">Track %s gives no error of an item (its module declares no '
                     '<code>item_error</code>: scorer/tracks/contract.py): no item is ranked.</p>' % e(result.track))
        return parts
    parts.append('<p class="note">Error of an item: %s.</p>' % e(measure))
    worst = worst_items(result)
    if not worst:
        parts.append('<p class="note">No item has an error.</p>')
    if result.item_view is None:  # the module gives no view of an item: the items by id only, and why
        parts.append('<p class="note">Track %s gives no view of an item (its result has no <code>item_view</code>: '
                     'scorer/tracks/contract.py, <code>score</code>): its worst items by id only.</p>' % e(result.track))
        if worst:
            parts.append("<table><tr><th>item</th><th>error</th></tr>%s</table>" % "".join(
                "<tr><td>%s</td><td>%s</td></tr>" % (e(clip(item)), ("%.4f" % error).rstrip("0").rstrip("."))
                for item, error in worst))
        return parts
    for item, error in worst:
        view: ItemView = result.item_view(item)
        parts.append('<h3>%s %s: error %s</h3>' % ("item", e(clip(item)), ("%.4f" % error).rstrip("0").rstrip(".")))
        if view.marked is not None:
            parts.extend(_marked_item(view))
        elif spans:
            parts.extend(_span_item(view))
        else:
            parts.extend(_label_item(view))
    return parts


def _marked_item(view: ItemView) -> List[str]:
    """A track's own view: facts, marked texts (each piece titled), a table."""
    e = escape
    parts = []
    if view.facts:
        parts.append('<p class="facts">%s</p>' % "; ".join("%s: %s" % (e(name), e(value)) for name, value in view.facts))
    for label, pieces in view.marked or ():
        shown, length = [], 0
        for kind, text, title in pieces:
            if length >= MAX_TEXT:
                shown.append(' <span class="note">(cut at %d characters)</span>' % MAX_TEXT)
                break
            length += len(text)
            shown.append('<mark class="%s" title="%s">%s</mark>' % (kind, e(title), e(text)) if kind else e(text))
        parts.append('<div class="marked"><span class="side">%s</span><div class="text-box">%s</div></div>'
                     % (e(label), "".join(shown)))
    if view.table is not None:
        header, rows = view.table
        parts.append('<div class="scroll"><table><tr>%s</tr>' % "".join('<th class="text">%s</th>' % e(h) for h in header))
        for row in rows[:MAX_SPANS]:
            parts.append("<tr>%s</tr>" % "".join('<td class="text">%s</td>' % e(cell) for cell in row))
        parts.append("</table></div>")
        if len(rows) > MAX_SPANS:
            parts.append('<p class="note">%d more rows are not shown.</p>' % (len(rows) - MAX_SPANS))
    return parts


def _span_item(view: ItemView) -> List[str]:
    e = escape
    gold, predicted = view.gold[:MAX_SPANS], view.predicted[:MAX_SPANS]
    parts = []
    if view.text is None:
        parts.append('<p class="note">The gold has no text for this item: spans only.</p>')
    else:
        text = view.text[:MAX_TEXT]
        cut = ' <span class="note">(the first %d of %d characters)</span>' % (MAX_TEXT, len(view.text)) \
            if len(view.text) > MAX_TEXT else ""
        parts.append('<div class="text-box">%s</div>%s' % (highlight(text, gold, predicted), cut))
    rows = sorted([(start, end, "gold", technique) for technique, start, end in gold]
                  + [(start, end, "predicted", technique) for technique, start, end in predicted])
    parts.append('<div class="scroll"><table><tr><th>side</th><th class="label">technique</th><th>start</th>'
                 '<th>end</th><th class="label">text</th></tr>')
    for start, end, side, technique in rows:
        fragment = view.text[start:end] if view.text is not None else ""
        parts.append('<tr><td>%s</td><td class="label">%s</td><td>%d</td><td>%d</td><td class="text">%s</td></tr>'
                     % (side, e(technique), start, end, e(fragment if len(fragment) <= 200 else fragment[:200] + "…")))
    parts.append("</table></div>")
    for side, spans in (("gold", view.gold), ("predicted", view.predicted)):
        if len(spans) > MAX_SPANS:
            parts.append('<p class="note">%d more %s spans are not shown.</p>' % (len(spans) - MAX_SPANS, side))
    return parts


def _label_item(view: ItemView) -> List[str]:
    e = escape
    gold, predicted = set(view.gold), set(view.predicted)
    parts = []
    if view.text is not None:
        parts.append('<div class="text-box">%s</div>' % e(view.text[:MAX_TEXT]))

    def labels(names, kind):
        # (labels of the subtask's list only: the track refuses any other)
        return ", ".join('<mark class="%s">%s</mark>' % (kind, e(name)) for name in sorted(names)) or "none"
    parts.append("<ul><li>correct: %s</li><li>missed (gold only): %s</li><li>false alarms (predicted only): %s</li></ul>"
                 % (labels(gold & predicted, "b"), labels(gold - predicted, "g"), labels(predicted - gold, "p")))
    return parts


def write_error_analysis(items_dir: str, results: Sequence[TrackResult]) -> Optional[str]:
    """Write ``error_analysis.html`` into ``items_dir`` (a local run's folder, never output/)."""
    os.makedirs(items_dir, exist_ok=True)
    path = os.path.join(items_dir, FILE_NAME)
    with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
        handle.write(render_error_analysis(results))
    return path
