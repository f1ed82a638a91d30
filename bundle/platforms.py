"""One competition.yaml, two uploads: the Codalab v1.5 yaml and a native Codabench (version 2) yaml.

Codalab v1.5 passes every top-level and phase key to its models and refuses the bundle on an
unknown one, so what only Codabench reads lives in one top-level block ``codabench:``, which the
v1.5 yaml leaves out. The Codabench yaml is derived from the v1.5 keys and that block (what each
key becomes is the table in README.md, "Which key goes where").

Where the two platforms would behave differently in a way participants see, the build refuses
the setting (``rules.py``); where one platform merely ignores a key for display, it is listed in
the build's output (``ignored_keys``).
"""

from __future__ import annotations

import datetime
import re
from typing import Any, Dict, List, Tuple

BLOCK = "codabench"
# Codabench-only keys the block may hold (v2 competition fields), with their defaults.
CODABENCH_KEYS = {
    "hide_score_output": True,  # per phase on Codabench: the output folder is not downloadable
    "show_detailed_results_in_submission_panel": True,
    "show_detailed_results_in_leaderboard": True,
    "make_programs_available": False,
    "make_input_data_available": False,
    "can_participants_make_submissions_public": False,
    "forum_enabled": True,
    "contact_email": None,
    "queue": None,
}
SUBMISSION_RULE = "Force_Last"  # each participant's latest finished submission is on the board
PAGE_TITLES = {"overview": "Overview", "evaluation": "Evaluation", "data": "Data"}
# v1.5 keys Codabench does not read; shown by v1.5 only, listed (not refused) by the build.
DISPLAY_ONLY = (
    ("phases.*.color", "the phase's colour on v1.5"),
    ("phases.*.is_scoring_only", "v1.5 only (Codabench phases without an ingestion program are scoring only)"),
    ("leaderboard.column_groups", "the column groups' headers on v1.5"),
    ("leaderboard.columns.*.column_group", "the column groups' headers on v1.5"),
    ("leaderboard.leaderboards.*.rank", "the order of boards on v1.5 (Codabench shows one board)"),
    ("leaderboard.columns.*.selection_default", "v1.5's default column; on Codabench the first column ranks"),
)


def utc(value: Any) -> datetime.datetime:
    """A YAML date or datetime as an aware UTC datetime (naive values are taken as UTC)."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc)


def sorted_phases(config: Dict[str, Any]) -> List[Dict[str, Any]]:
    return sorted(config["phases"].values(), key=lambda phase: phase["phasenumber"])


def schedule(config: Dict[str, Any]) -> List[Tuple[Dict[str, Any], datetime.datetime, datetime.datetime]]:
    """(phase, start, end) per phase: each end one second before the next phase's start (Codabench
    refuses an end equal to the next start), the last one the competition's end_date."""
    phases = sorted_phases(config)
    starts = [utc(phase["start_date"]) for phase in phases]
    ends = [start - datetime.timedelta(seconds=1) for start in starts[1:]] + [utc(config["end_date"])]
    return list(zip(phases, starts, ends))


def _text(moment: datetime.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S+00:00")


def block(config: Dict[str, Any]) -> Dict[str, Any]:
    values = dict(CODABENCH_KEYS)
    values.update(config.get(BLOCK) or {})
    return values


def v15_yaml_text(yaml_text: str) -> str:
    """competition.yaml without the top-level ``codabench:`` block (its lines up to the next
    top-level key), comments and order kept."""
    out: List[str] = []
    skipping = False
    for line in yaml_text.splitlines(keepends=True):
        top_level = bool(line.strip()) and not line[0].isspace() and not line.startswith("#")
        if top_level:
            skipping = re.match(r"^%s\s*:" % BLOCK, line) is not None
        if not skipping:
            out.append(line)
    return "".join(out)


def solution_name(phase: Dict[str, Any]) -> str:
    return phase["reference_data"].replace("_reference_data.zip", "_sample_submission.zip")


def v2_config(config: Dict[str, Any]) -> Dict[str, Any]:
    """The native Codabench competition.yaml (as a mapping) for the same competition."""
    extra = block(config)
    html = config["html"]
    board_key, board = next(iter(config["leaderboard"]["leaderboards"].items()))
    columns = sorted(config["leaderboard"]["columns"].items(), key=lambda item: item[1]["rank"])
    ranking = max(columns, key=lambda item: item[1].get("selection_default", 0))[0]
    v2: Dict[str, Any] = {
        "version": 2,
        "title": config["title"],
        "description": config.get("description", ""),
        "image": config["image"],
        "registration_auto_approve": not config.get("has_registration", False),
        "docker_image": config["competition_docker_image"],
        "enable_detailed_results": bool(config.get("enable_detailed_results", False)),
        "terms": html["terms"],
        "pages": [{"title": PAGE_TITLES.get(name, name.title()), "file": file_name}
                  for name, file_name in html.items() if name != "terms"],
    }
    for key in ("show_detailed_results_in_submission_panel", "show_detailed_results_in_leaderboard",
                "make_programs_available", "make_input_data_available",
                "can_participants_make_submissions_public", "forum_enabled", "contact_email", "queue"):
        if extra.get(key) is not None:
            v2[key] = extra[key]
    tasks, solutions, phases = [], [], []
    for index, (phase, start, end) in enumerate(schedule(config)):
        tasks.append({"index": index, "name": "%s scoring" % phase["label"],
                      "description": "Scores a submission on the %s gold." % phase["label"],
                      "scoring_program": phase["scoring_program"], "reference_data": phase["reference_data"]})
        solutions.append({"index": index, "name": "Sample submission (%s)" % phase["label"],
                          "path": solution_name(phase), "tasks": [index]})
        entry = {"index": index, "name": phase["label"], "description": phase.get("description", ""),
                 "start": _text(start), "end": _text(end), "tasks": [index],
                 "max_submissions_per_day": phase["max_submissions_per_day"],
                 "max_submissions": phase["max_submissions"],
                 "execution_time_limit": phase["execution_time_limit"],
                 "auto_migrate_to_this_phase": bool(phase.get("auto_migration", False)),
                 "hide_output": False,  # it would also hide the logs where participants read their errors
                 "hide_score_output": bool(extra["hide_score_output"])}
        for key in ("public_data", "starting_kit"):
            if key in phase:
                entry[key] = phase[key]
        phases.append(entry)
    v2["tasks"], v2["solutions"], v2["phases"] = tasks, solutions, phases
    v2["leaderboards"] = [{
        "title": board["label"], "key": str(board_key), "submission_rule": SUBMISSION_RULE,
        "primary_index": [key for key, _ in columns].index(ranking),
        "columns": [dict({"title": column["label"], "key": key, "index": index,
                          "sorting": column.get("sort", "desc"), "precision": int(column["numeric_format"])},
                         **({"hidden": True} if column.get("hidden") else {}))
                    for index, (key, column) in enumerate(columns)],
    }]
    return v2


def ignored_keys(config: Dict[str, Any]) -> List[str]:
    """What one platform ignores for display, one line each (for the build's output)."""
    lines = []
    phases = sorted_phases(config)
    board = config["leaderboard"]
    present = {
        "phases.*.color": any("color" in phase for phase in phases),
        "phases.*.is_scoring_only": any("is_scoring_only" in phase for phase in phases),
        "leaderboard.column_groups": bool(board.get("column_groups")),
        "leaderboard.columns.*.column_group": any("column_group" in c for c in board["columns"].values()),
        "leaderboard.leaderboards.*.rank": any("rank" in b for b in board["leaderboards"].values()),
        "leaderboard.columns.*.selection_default": True,
    }
    for key, what in DISPLAY_ONLY:
        if present.get(key):
            lines.append("Codabench ignores %s: %s" % (key, what))
    for key in sorted(block(config)):
        lines.append("Codalab v1.5 ignores codabench.%s (Codabench only)" % key)
    return lines


def date_lines(config: Dict[str, Any]) -> List[str]:
    """What each platform shows for the phase dates."""
    lines = []
    for phase, start, end in schedule(config):
        lines.append("phase %s: Codalab v1.5 opens it %s (until the next phase starts or the competition "
                     "ends); Codabench shows %s to %s" % (phase["label"], _text(start), _text(start), _text(end)))
    return lines
