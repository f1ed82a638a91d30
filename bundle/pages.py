"""The organiser's pages with the competition's tracks filled in from the registry.

A page may hold ``@TRACKS_TABLE@`` (on a line of its own): the build replaces it with one row per
track the competition hosts (name, ``TITLE``, ``FILE_NAME``, the labels of its leaderboard columns
in ``competition.yaml``), so no page lists or counts the tracks by hand and a new track appears on
the pages with its module. Everything else on a page is the organiser's prose, copied as it is.
"""

from __future__ import annotations

import html
from typing import Any, Dict, Sequence

PLACEHOLDER = "@TRACKS_TABLE@"


def column_label(config: Dict[str, Any], key: str) -> str:
    """The label ``competition.yaml`` gives the column ``key`` (the key itself without one)."""
    columns = ((config.get("leaderboard") or {}).get("columns") or {}) if isinstance(config, dict) else {}
    column = columns.get(key) if isinstance(columns, dict) else None
    label = column.get("label") if isinstance(column, dict) else None
    return str(label) if label else key


def tracks_table(tracks: Sequence, config: Dict[str, Any]) -> str:
    """An HTML table of ``tracks``: name, task, the file to submit, the ranking score (the primary
    key's column label, then the others')."""
    rows = ["<table>", "<tr><th>track</th><th>task</th><th>file to submit</th><th>ranking score</th></tr>"]
    for track in tracks:
        labels = [column_label(config, key) for key in track.keys]
        score = html.escape(labels[0]) + (" (also %s)" % html.escape(", ".join(labels[1:])) if labels[1:] else "")
        rows.append("<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td></tr>"
                    % (html.escape(track.name), html.escape(track.title), html.escape(track.filename), score))
    rows.append("</table>")
    return "\n".join(rows)


def fill_page(data: bytes, tracks: Sequence, config: Dict[str, Any]) -> bytes:
    """``data`` (a page's bytes) with ``@TRACKS_TABLE@`` replaced by ``tracks_table``; other bytes as they
    are (a page without the placeholder, or not UTF-8, is returned unchanged)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if PLACEHOLDER not in text:
        return data
    return text.replace(PLACEHOLDER, tracks_table(tracks, config)).encode("utf-8")
