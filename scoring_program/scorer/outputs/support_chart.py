"""The detailed results' chart: each technique's F1 against its support, an SVG drawn from the
technique table's rows, with labels placed so that they do not overlap."""

from __future__ import annotations

import math
from html import escape
from typing import List, Sequence, Tuple

from ..readers.result import TechniqueRow


def support_chart(track: str, shown: Sequence[Tuple[int, TechniqueRow]]) -> List[str]:
    """Per-technique F1 against support (gold count, on a log scale) of ``track``: one point per
    (number, row) of ``shown``, labelled with its number (the technique table's)."""
    e = escape
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
             'font-family="sans-serif" font-size="12">' % (width, height, width, height, e(track))]
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
        if chosen is None:  # (a crowded column: beside its point, whatever it overlaps)
            chosen = ((left, py - 4 - LABEL_ASCENT, left + width, py - 4 + LABEL_HEIGHT - LABEL_ASCENT), py - 4)
        placed.append(chosen[0])
        positions.append((left, chosen[1]))
    return positions

