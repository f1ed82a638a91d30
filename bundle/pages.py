"""The organiser's pages with the competition's tracks filled in from the registry.

A page may hold ``@TRACKS_TABLE@`` (on a line of its own): the build replaces it with one row per
track the competition hosts (name, ``TITLE``, ``FILE_NAME``, the labels of its leaderboard columns
in ``competition.yaml``), so no page lists or counts the tracks by hand and a new track appears on
the pages with its module. Everything else on a page is the organiser's prose, copied as it is:
``pages_to_edit`` says which of its lines speak of tracks a competition does not host.
"""

from __future__ import annotations

import html
import os
import re
from typing import Any, Dict, List, Sequence

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


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def _task_name(title: str) -> str:
    """The task a track's title names, up to the word that holds its year ("SemEval-2021", "AI CUP
    2022", "EVALITA 2020"): how a description names it.

    >>> _task_name("AI CUP 2022 explainable NLU: q' and r' explanation spans")
    'AI CUP 2022'
    """
    words = re.split(r"[,:]", title, 1)[0].split()
    for k, word in enumerate(words):
        if re.search(r"(19|20)\d\d", word):
            return " ".join(words[:k + 1])
    return ""


def pages_to_edit(config: Dict[str, Any], pages_dir: str, chosen, tracks) -> List[str]:
    """One line per page (and the title) naming the lines that speak of tracks a competition of
    ``chosen`` does not host: the count of all ``tracks`` ("six", or "6 tracks"), "any subset"
    when one track is hosted, a left-out track's name or file. The pages are the organiser's
    prose: the build does not rewrite them, it says which lines to edit ([] when every track is
    hosted)."""
    if len(chosen) == len(tracks):
        return []
    count = len(tracks)
    patterns = [r"\b%d\b(?=\W+(?:[\w-]+\W+){0,2}tracks?\b)" % count]  # "6 tracks", not "Task 6"
    if count < len(NUMBER_WORDS):
        patterns.append(r"\b%s\b" % NUMBER_WORDS[count])
    if len(chosen) == 1:
        patterns.append(r"\bany subset\b")
    for track in tracks:
        if track not in chosen:
            patterns += [r"\b%s\b" % re.escape(track.name), re.escape(track.filename)]
    found = re.compile("|".join(patterns), re.I)
    hosted = ", ".join(track.name for track in chosen)
    lines = []
    if found.search(str(config.get("title", ""))):
        lines.append("competition.yaml: title %r speaks of all %d tracks; this competition hosts %d (%s): edit it"
                     % (str(config["title"]), count, len(chosen), hosted))
    # The description (the platforms' card of the competition) names the tasks: one hosted by none
    # of the chosen tracks is named by the start of its tracks' titles ("NLP4IF-2019", "AI CUP 2022").
    hosted_tasks = {_task_name(track.title) for track in chosen}
    others = sorted({_task_name(track.title) for track in tracks if track not in chosen} - hosted_tasks - {""})
    described = re.compile("|".join(patterns + [re.escape(task) for task in others]), re.I)
    named = described.search(str(config.get("description", "")))
    if named:
        lines.append("competition.yaml: description speaks of %r, a task or count of tracks this competition does "
                     "not host (it hosts %d: %s): edit it" % (named.group(0), len(chosen), hosted))
    for page, file_name in sorted((config.get("html") or {}).items(), key=lambda item: str(item[0])):
        try:
            with open(os.path.join(pages_dir, str(file_name)), encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            continue  # validate() says why
        numbers = [str(number) for number, line in enumerate(text.splitlines(), 1) if found.search(line)]
        if numbers:
            lines.append("pages/%s: line%s %s speak%s of all %d tracks or of a track this competition does not host "
                         "(it hosts %d: %s): edit %s" % (file_name, "s" if len(numbers) > 1 else "", ", ".join(numbers),
                                                         "" if len(numbers) > 1 else "s", count, len(chosen), hosted,
                                                         "them" if len(numbers) > 1 else "it"))
    return lines
