"""The upload as each platform's unpacker reads it.

Codalab v1.5 (codalab-competitions ``codalab/apps/web/models.py``, ``CompetitionDefBundle.unpack``)
reads the first entry whose name contains ``.yaml`` (the v1.5 yaml, ``keys.V15_YAML``); every
top-level and phase key must be a model field; leaderboard and column-group labels match exactly
(case and spaces). Codabench (``src/apps/competitions/tasks.py``, the version-2 unpacker) reads
``competition.yaml`` at the root: tasks, solutions, phases with a start and an end (each end before
the next start), one leaderboard, attached to every phase; the fact sheet is checked as
``validate_fact_sheet`` does (``fact_sheet.py``). Each must find every file it names.
"""

from __future__ import annotations

import datetime
from typing import Any, Optional, Sequence

import yaml

from ..competition import sorted_phases
from ..fact_sheet import fact_sheet_problems
from ..held_back import GOLD_WINDOW
from ..keys import COMPETITION_KEYS, PHASE_KEYS, V15_YAML, V2_YAML
from .checked_upload import CheckedUpload
from .report import Report


def _entry_names(names: Sequence[str], platform: str, report: Report) -> None:
    """A problem per entry name a platform's unpacker mishandles (junk, unsafe, not ASCII)."""
    for name in names:
        if name.startswith(("__MACOSX", "/")) or "\\" in name or ".DS_Store" in name or "__pycache__" in name:
            report.fail("%s: junk or unsafe entry %s" % (platform, name))
        try:
            name.encode("ascii")
        except UnicodeEncodeError:
            report.fail("%s: non-ASCII entry name %r" % (platform, name))


def check_v15_unpacker(upload: CheckedUpload, report: Report) -> None:
    """The upload as Codalab v1.5's unpacker reads it (``upload.v15``: its yaml)."""
    names, files = upload.names, upload.files
    yaml_entries = [name for name in names if ".yaml" in name]
    # codalab/apps/web/models.py, CompetitionDefBundle.unpack: [x for x in zf.namelist() if ".yaml" in x][0]
    if not yaml_entries or yaml_entries[0] != V15_YAML:
        report.fail("v1.5: %s must be the first entry containing .yaml (v1.5 reads that one), found %s"
                    % (V15_YAML, yaml_entries[:3]))
        return
    _entry_names(names, "v1.5", report)
    config = upload.v15 = yaml.safe_load(files[V15_YAML])
    if not isinstance(config.get("title"), str) or len(config["title"]) > 100:
        report.fail("v1.5: the title must be at most 100 characters")
    unknown = sorted(set(config) - COMPETITION_KEYS) + sorted(
        "phases.%s" % key for phase in config["phases"].values() for key in set(phase) - PHASE_KEYS)
    if unknown:
        report.fail("v1.5: keys that are not model fields (the upload fails): %s" % ", ".join(unknown))
    referenced = [config.get("image")] + list((config.get("html") or {}).values())
    for phase in config["phases"].values():
        referenced += [phase[field] for field in ("scoring_program", "reference_data", "input_data",
                                                  "ingestion_program", "public_data", "starting_kit") if field in phase]
    for name in referenced:
        if name not in files:
            report.fail("v1.5: competition.yaml refers to %s, which is not an entry of the bundle" % name)
    board = config["leaderboard"]
    boards = {value["label"] for value in board["leaderboards"].values()}
    groups = {value["label"] for value in (board.get("column_groups") or {}).values()}
    for key, column in board["columns"].items():
        if column["leaderboard"]["label"] not in boards:
            report.fail("v1.5: column %s: leaderboard label %r matches no leaderboard exactly"
                        % (key, column["leaderboard"]["label"]))
        if "column_group" in column and column["column_group"]["label"] not in groups:
            report.fail("v1.5: column %s: column group %r matches no group exactly" % (key, column["column_group"]["label"]))
    never_ends = sorted_phases(config)[-1].get("phase_never_ends") is True if config.get("phases") else False
    if not config.get("end_date") and not never_ends:
        report.fail("v1.5: no end_date and no phase_never_ends: the last phase would never end by accident")
    if config.get("end_date") and never_ends:
        report.fail("v1.5: end_date ends the competition whose last phase never ends (phase_never_ends)")
    report.ok("v1.5 unpacker: %s first, only model fields, %d referenced entries present, "
              "labels match exactly" % (V15_YAML, len(set(referenced))))
    report.verified["Codalab v1.5"].append("the unpacker's rules")


def check_codabench_unpacker(upload: CheckedUpload, report: Report) -> None:
    """The upload as Codabench's version-2 unpacker reads it (``upload.v2``: its yaml)."""
    names, files = upload.names, upload.files
    if V2_YAML not in files:
        report.fail("Codabench: no competition.yaml at the root")
        return
    _entry_names(names, "Codabench", report)
    config = upload.v2 = yaml.safe_load(files[V2_YAML])
    fail = lambda line: report.fail("Codabench: " + line)  # noqa: E731
    if config.get("version") != 2:
        fail("version must be 2 (a native bundle)")
    for line in fact_sheet_problems(config.get("fact_sheet")):
        fail("fact_sheet: " + line)
    for field in ("image", "terms"):
        if config.get(field) not in files:
            fail("%s must name a file of the bundle" % field)
    for page in [{"file": config.get("terms")}] + list(config.get("pages") or []):
        if not files.get(page.get("file"), b"").strip():
            fail("page %s is missing or empty" % page.get("file"))
    tasks = {task["index"]: task for task in config.get("tasks") or []}
    for task in tasks.values():
        for field in ("scoring_program", "reference_data"):
            if task.get(field) not in files:
                fail("task %s: %s %s is not in the bundle" % (task["index"], field, task.get(field)))
    for solution in config.get("solutions") or []:
        if solution.get("path") not in files or not set(solution.get("tasks", [])) <= set(tasks):
            fail("solution %s: missing file or task" % solution.get("index"))
    phases = sorted(config.get("phases") or [], key=lambda phase: phase["index"])
    previous_end = None
    for number, phase in enumerate(phases):
        where = "phase %s" % phase.get("name")
        start, end = (_when(phase.get(field)) for field in ("start", "end"))
        if start is None or (end is None and number != len(phases) - 1):
            fail("%s: needs a start and an end (only the last phase may have no end)" % where)
            continue
        if phase.get("auto_migrate_to_this_phase") and number == 0:
            fail("%s: the first phase cannot migrate submissions from a previous one" % where)
        if end is not None and end <= start:
            fail("%s: ends before it starts" % where)
        if previous_end is not None and start <= previous_end:
            fail("%s: starts before (or when) the previous phase ends; Codabench refuses the bundle" % where)
        gap = start - previous_end if previous_end is not None else None
        if gap is not None and gap > datetime.timedelta(seconds=1) and not (
                gap == GOLD_WINDOW and phase.get("auto_migrate_to_this_phase")):
            # the one gap allowed: the day before a migrating phase whose gold is attached then (held_back.py)
            fail("%s: %s with no open phase before it" % (where, gap))
        previous_end = end
        if phase.get("hide_output") is not False and not (phase.get("hide_output") is True and number > 0):
            fail("%s: needs hide_output: false (participants would not see their logs); only a later (blind) phase "
                 "hides them" % where)
        if not phase.get("tasks") or not set(phase["tasks"]) <= set(tasks):
            fail("%s: tasks must point at the bundle's tasks" % where)
        for field in ("max_submissions_per_day", "max_submissions", "execution_time_limit"):
            if not isinstance(phase.get(field), int):
                fail("%s: %s must be explicit" % (where, field))
    boards = config.get("leaderboards") or []
    if len(boards) != 1:
        fail("exactly one leaderboard (Codabench attaches the first to every phase), found %d" % len(boards))
        return
    board = boards[0]
    if board.get("submission_rule") != "Force_Last":
        fail("the leaderboard's submission_rule must be Force_Last (each participant's latest finished "
             "submission, without a manual step), found %r" % board.get("submission_rule"))
    columns = board.get("columns") or []
    indexes = [column.get("index") for column in columns]
    if len(set(indexes)) != len(columns) or len({c.get("key") for c in columns}) != len(columns):
        fail("column keys and indexes must be unique")
    for column in columns:
        if not 0 < len(str(column.get("title", ""))) <= 36 or len(str(column.get("key", ""))) > 36:
            fail("column %s: title and key must be 1 to 36 characters" % column.get("key"))
        if column.get("sorting") not in ("asc", "desc") or not isinstance(column.get("precision"), int):
            fail("column %s: sorting asc|desc and an integer precision are required" % column.get("key"))
    if board.get("primary_index") not in indexes:
        fail("primary_index %r is not a column index" % board.get("primary_index"))
        return
    report.ok("Codabench v2 unpacker: %d tasks, %d solutions, %d phases with start and end (1 s apart, or a day "
              "before a migrating phase whose gold is attached then%s), one "
              "Force_Last leaderboard of %d columns, %s"
              % (len(tasks), len(config.get("solutions") or []), len(phases),
                 "; the last one never ends" if phases and phases[-1].get("end") is None else "", len(columns),
                 "a fact sheet of %d questions" % len(config["fact_sheet"]) if config.get("fact_sheet") else "no fact sheet"))
    report.verified["Codabench"].append("the v2 unpacker's rules, phase dates, Force_Last, the fact sheet")


def _when(value: Any) -> Optional[datetime.datetime]:
    """A phase's ``start`` or ``end`` as Codabench reads it (naive: UTC), or None."""
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    if isinstance(value, str) and value:
        return datetime.datetime.fromisoformat(value)
    return None
