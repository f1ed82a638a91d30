"""One competition.yaml, one upload for both platforms: the Codalab v1.5 yaml and a native Codabench
(version 2) yaml in the same zip.

Codalab v1.5 reads the first zip entry whose name contains ``.yaml`` (codalab-competitions
``codalab/apps/web/models.py``, ``CompetitionDefBundle.unpack``); Codabench reads exactly
``competition.yaml`` at the zip's root (codabench ``src/apps/competitions/tasks.py``,
``unpack_competition``) and, for ``version: 2``, unpacks it with ``V2Unpacker``
(``src/apps/competitions/unpackers/v2.py``). So the upload holds ``V15_YAML`` first and
``competition.yaml`` (version 2) after it, and the union of the files both name. Both yamls are
written here by the table of every key (``keys.KEYS``).
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Sequence

import yaml

from .competition import sorted_phases
from .fact_sheet import DEFAULT_FACT_SHEET
from .keys import BLOCK, COPY, KEYS, LISTED, Key
from .schedule import schedule, utc_text

SUBMISSION_RULE = "Force_Last"  # each participant's latest finished submission is on the board
PAGE_TITLES = {"overview": "Overview", "evaluation": "Evaluation", "data": "Data"}


def block(config: Dict[str, Any]) -> Dict[str, Any]:
    return dict(config.get(BLOCK) or {})


def edition(config: Dict[str, Any], release_all: bool = False, track=None) -> Dict[str, Any]:
    """The competition as uploaded: ``config`` (competition.yaml) without the public data and
    starting kit of the phases after the first (held back until they open) unless ``release_all``;
    for ``track``, only that track's columns, ranked by its primary key, and a title naming it."""
    result = copy.deepcopy(config)
    if not release_all:
        for phase in sorted_phases(result)[1:]:
            phase.pop("public_data", None)
            phase.pop("starting_kit", None)
    if track is not None:
        result["title"] = "%s (track %s)" % (result["title"], track.name)
        board = result["leaderboard"]
        columns = {key: column for key, column in board["columns"].items() if key in track.keys}
        for key, column in columns.items():
            column.pop("selection_default", None)
        columns[track.keys[0]]["selection_default"] = 1
        lowest = min(column["rank"] for column in columns.values())
        if columns[track.keys[0]]["rank"] != lowest:  # the ranking column first (Codabench orders by it)
            columns[track.keys[0]]["rank"] = lowest - 1
        board["columns"] = columns
    board = result["leaderboard"]
    used = {str((column.get("column_group") or {}).get("label")) for column in board["columns"].values()}
    if board.get("column_groups"):  # only the groups of the columns shown (v1.5 would show empty headers)
        board["column_groups"] = {key: group for key, group in board["column_groups"].items()
                                  if str(group.get("label")) in used}
        if not board["column_groups"]:
            board.pop("column_groups")
    return result


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data):  # the v1.5 yaml repeats the leaderboard mapping in full
        return True


V15_HEADER = ("# Codalab v1.5 reads this file: the first entry of the zip whose name contains \".yaml\"\n"
              "# (codalab/apps/web/models.py, CompetitionDefBundle.unpack). Codabench reads competition.yaml.\n"
              "# Written by build_bundle.py from the project's competition.yaml: edit that file, not this one.\n")


def v15_yaml(config: Dict[str, Any]) -> str:
    """The Codalab v1.5 yaml of an edition: every key but the ``codabench:`` block."""
    without_block = {key: value for key, value in config.items() if key != BLOCK}
    return V15_HEADER + yaml.dump(without_block, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100)


def v2_yaml(config: Dict[str, Any], solutions: Dict[str, str]) -> str:
    return yaml.dump(v2_config(config, solutions), Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100)


def _copy_value(source: Dict[str, Any], key: Key) -> Any:
    return source.get(key.name, key.default)


def _copied(source: Dict[str, Any], keys: Sequence[Key]) -> Dict[str, Any]:
    """The values ``source`` (a phase or a column) gives the copied ``keys``, under their Codabench
    names within the phase's or column's entry."""
    entry = {}
    for key in keys:
        value = _copy_value(source, key)
        if value is not None:
            entry[key.codabench.split(".")[-1]] = value
    return entry


def v2_config(config: Dict[str, Any], solutions: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """The native Codabench competition.yaml (as a mapping) of an edition; ``solutions``: the
    sample-submission zip of each phase that has one (reference-data zip name -> entry name)."""
    extra = block(config)
    html = config["html"]
    v2: Dict[str, Any] = {"version": 2}
    for key in KEYS:  # every copied top-level and block key, by the table
        if key.rule != COPY or key.level not in ("top", "block"):
            continue
        value = _copy_value(extra if key.level == "block" else config, key)
        if value is not None:
            v2[key.codabench] = value
    v2["registration_auto_approve"] = not config.get("has_registration", False)
    v2["terms"] = html["terms"]
    v2["pages"] = [{"title": PAGE_TITLES.get(name, name.title()), "file": file_name}
                   for name, file_name in html.items() if name != "terms"]
    if config.get("enable_per_submission_metadata"):
        v2["fact_sheet"] = copy.deepcopy(extra.get("fact_sheet") or DEFAULT_FACT_SHEET)
    phase_copies = [key for key in KEYS if key.rule == COPY and key.level == "phase"]
    tasks, solution_list, phases = [], [], []
    for index, (phase, start, end) in enumerate(schedule(config)):
        tasks.append({"index": index, "name": "%s scoring" % phase["label"],
                      "description": "Scores a submission on the %s gold." % phase["label"],
                      "scoring_program": phase["scoring_program"], "reference_data": phase["reference_data"]})
        if solutions and phase["reference_data"] in solutions:
            solution_list.append({"index": len(solution_list), "name": "Sample submission (%s)" % phase["label"],
                                  "path": solutions[phase["reference_data"]], "tasks": [index]})
        entry: Dict[str, Any] = {"index": index}
        entry.update(_copied(phase, phase_copies))
        entry["start"] = utc_text(start)
        if end is not None:  # a never-ending last phase has none
            entry["end"] = utc_text(end)
        entry.update({"tasks": [index],
                      # it would also hide the logs where participants read their errors (a blind phase's
                      # included); nothing in the outputs of a blind phase holds a score anyway
                      # a blind phase hides it: a visitor takes a board entry's submitted file through
                      # get_details otherwise (the only setting that closes it on Codabench); the owner
                      # reads the refusal lines on the detailed results page, which stays open
                      "hide_output": phase.get("leaderboard_management_mode") == "hide_results",
                      "hide_score_output": bool(extra.get("hide_score_output", False))})
        for name in ("public_data", "starting_kit"):
            if name in phase:
                entry[name] = phase[name]
        phases.append(entry)
    v2["tasks"], v2["phases"] = tasks, phases
    if solution_list:
        v2["solutions"] = solution_list
    board_key, board = next(iter(config["leaderboard"]["leaderboards"].items()))
    columns = sorted(config["leaderboard"]["columns"].items(), key=lambda item: item[1]["rank"])
    ranking = max(columns, key=lambda item: item[1].get("selection_default", 0))[0]
    column_copies = [key for key in KEYS if key.rule == COPY and key.level == "column"]
    written = []
    for index, (name, column) in enumerate(columns):
        entry = {"key": name, "index": index}
        entry.update(_copied(column, column_copies))
        written.append(entry)
    v2["leaderboards"] = [{"title": board["label"], "key": str(board_key), "submission_rule": SUBMISSION_RULE,
                           "primary_index": [name for name, _ in columns].index(ranking), "columns": written}]
    return v2


def ignored_keys(config: Dict[str, Any]) -> List[str]:
    """What one platform ignores, one line each (for the build's output), by ``KEYS``."""
    lines = []
    phases = sorted_phases(config)
    board = config["leaderboard"]
    for key in KEYS:
        if key.rule != LISTED and not (key.level == "block" and key.name in block(config)):
            continue
        level = key.level
        if level == "top":
            present = key.name in config
        elif level == "phase":
            present = any(key.name in phase for phase in phases)
        elif level == "column":
            present = any(key.name in column for column in board["columns"].values())
        elif level == "board":
            present = any(key.name in value for value in board["leaderboards"].values())
        elif level == "leaderboard":
            present = bool(board.get(key.name))
        else:
            present = key.level == "block"
        if not present:
            continue
        if key.level == "block":
            lines.append("Codalab v1.5 ignores %s (Codabench only)" % key.where)
        else:
            lines.append("Codabench ignores %s: %s (Codalab v1.5: %s)" % (key.where, key.note, key.v15))
    return lines


def solution_name(phase: Dict[str, Any]) -> str:
    return phase["reference_data"].replace("_reference_data.zip", "_sample_submission.zip")
