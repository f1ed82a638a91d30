"""Validating competition.yaml against the scoring program's tracks and both platforms' rules.

The rules come from reading the platforms' source (../shared/research/codalab_bundle_format.md,
../shared/platform_harness): Codalab v1.5 passes every top-level and phase key to its Django
models and fails the whole upload on an unknown one, and matches leaderboard and column-group
labels exactly; Codabench needs a logo, the terms page, phases with an end, and limits keys and
column titles to 36 characters. A setting is refused where the two platforms would behave
differently in a way participants see (ranking column, submission rule, phase dates, limits whose
defaults differ); keys one platform merely ignores are listed by the build instead
(``platforms.ignored_keys``). Which keys exist and what each may hold is the one table
``keys.KEYS``. Each problem is one line.
"""

from __future__ import annotations

import datetime
import os
import re
from typing import Any, Dict, List

from scorer.readers.problems import did_you_mean

from .competition import competition_tracks, phase_folder
from .fact_sheet import fact_sheet_problems
from .keys import BLOCK, CODABENCH_KEYS, COLUMN_KEYS, COMPETITION_KEYS, DERIVED, KEYS, PHASE_KEYS, REFUSED

FILE_FIELDS = ("scoring_program", "reference_data", "input_data", "ingestion_program", "public_data",
               "starting_kit")
KNOWN_IMAGES = {"codalab/codalab-legacy:py37", "codalab/codalab-legacy:py39",
                "codalab/codalab-legacy:py312"}
COLORS = {"white", "orange", "yellow", "green", "blue", "purple"}
PAGES = ("overview", "evaluation", "terms", "data")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_]{1,36}$")
# The platforms' integer fields (Django's IntegerField and PositiveIntegerField).
MAX_STORED_INTEGER = 2 ** 31 - 1


def _known(key: Any, known) -> str:
    """What to do with an unknown key: the near miss when there is one ("did you mean"), else
    remove it, with the known keys."""
    guess = did_you_mean(str(key), known)
    if guess:
        return "rename it%s" % guess
    return "remove it (known: %s)" % ", ".join(sorted(known))


def validate(config: Any, pages_dir: str, reference_root: str, tracks, lower_is_better) -> List[str]:
    """Every problem of ``config`` (the parsed competition.yaml), one line each."""
    problems: List[str] = []
    add = problems.append
    if not isinstance(config, dict):
        return ["competition.yaml: the top level must be a mapping"]
    for key in sorted(set(config) - COMPETITION_KEYS - {BLOCK}, key=str):
        guess = did_you_mean(key, COMPETITION_KEYS)
        add("competition.yaml: unknown top-level key %r%s (Codalab v1.5 rejects the whole bundle; "
            "v2 keys such as version, pages, tasks, terms do not belong here): %s, or put a "
            "Codabench-only setting in the %s: block" % (key, guess, "rename it" if guess else "remove it", BLOCK))
    title = config.get("title")
    if not isinstance(title, str) or not title.strip() or len(title) > 100:
        add("competition.yaml: title must be a non-empty string of at most 100 characters")
    image = config.get("image")
    if not isinstance(image, str) or not os.path.isfile(os.path.join(pages_dir, image)):
        add("competition.yaml: image must name a logo file in pages/ (Codabench requires a logo)")
    docker = config.get("competition_docker_image")
    if docker not in KNOWN_IMAGES:
        add("competition.yaml: competition_docker_image must be one of %s" % ", ".join(sorted(KNOWN_IMAGES)))
    never_ends = isinstance(config.get("phases"), dict) and any(
        isinstance(phase, dict) and phase.get("phase_never_ends") is True for phase in config["phases"].values())
    if not never_ends and not isinstance(config.get("end_date"), (datetime.date, datetime.datetime)):
        add("competition.yaml: end_date must be an unquoted date or datetime: the end of the last phase "
            "(without it the last phase never ends on Codabench; for a last phase that never ends, set its "
            "phase_never_ends: true instead)")
    _allowed_values("top", config, "competition.yaml", problems)
    _codabench_block(config, problems)
    html = config.get("html")
    if not isinstance(html, dict):
        add("competition.yaml: html must map overview, evaluation, terms and data to pages")
        html = {}
    for page in PAGES:
        if page not in html:
            add("competition.yaml: html.%s is required" % page)
    for page, file_name in html.items():
        path = os.path.join(pages_dir, str(file_name))
        if not os.path.isfile(path):
            add("competition.yaml: html.%s: no file %s in pages/" % (page, file_name))
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                if not handle.read().strip():
                    add("competition.yaml: html.%s: %s is empty (Codabench rejects empty pages)" % (page, file_name))
        except UnicodeDecodeError:
            add("competition.yaml: html.%s: %s is not UTF-8" % (page, file_name))
    phases = _phases(config, problems)
    _leaderboard(config, phases, reference_root, tracks, lower_is_better, problems)
    return problems


def _phases(config: Dict[str, Any], problems: List[str]) -> List[Dict[str, Any]]:
    add = problems.append
    phases = config.get("phases")
    if not isinstance(phases, dict) or not phases:
        add("competition.yaml: phases must be a mapping of phases")
        return []
    result = []
    numbers = set()
    previous_start = None
    for index, (key, phase) in enumerate(phases.items()):
        where = "competition.yaml: phase %s" % key
        if not isinstance(phase, dict):
            add("%s: must be a mapping" % where)
            continue
        for unknown in sorted(set(phase) - PHASE_KEYS, key=str):
            add("%s: unknown key %r (Codalab v1.5 rejects the bundle): %s" % (where, unknown, _known(unknown, PHASE_KEYS)))
        number = phase.get("phasenumber")
        if not isinstance(number, int) or number in numbers:
            add("%s: phasenumber must be a unique integer" % where)
        numbers.add(number)
        label = phase.get("label")
        if not isinstance(label, str) or not label or len(label) > 50:
            add("%s: label must be a string of 1 to 50 characters" % where)
        if len(str(phase.get("description", ""))) > 1000:
            add("%s: description is longer than 1000 characters" % where)
        start = phase.get("start_date")
        if not isinstance(start, (datetime.date, datetime.datetime)):
            add("%s: start_date must be an unquoted YAML date or datetime (a quoted string fails on v1.5)" % where)
        else:
            start_dt = start if isinstance(start, datetime.datetime) else \
                datetime.datetime(start.year, start.month, start.day)
            if start_dt.tzinfo is None:
                start_dt = start_dt.replace(tzinfo=datetime.timezone.utc)
            if previous_start is not None and start_dt - previous_start < datetime.timedelta(seconds=2):
                add("%s: must start after the previous phase (Codabench ends each phase one second "
                    "before the next one starts; phases may not overlap)" % where)
            previous_start = start_dt
        for field in ("max_submissions_per_day", "max_submissions", "execution_time_limit"):
            if not isinstance(phase.get(field), int) or isinstance(phase.get(field), bool) or phase[field] <= 0:
                add("%s: set %s explicitly (the platforms' defaults differ)" % (where, field))
            elif phase[field] > MAX_STORED_INTEGER:
                add("%s: %s must be at most %d (both platforms store it as a 32-bit integer)"
                    % (where, field, MAX_STORED_INTEGER))
        for field in ("scoring_program", "reference_data"):
            if field not in phase:
                add("%s: %s is required" % (where, field))
        for field in FILE_FIELDS:
            if field in phase and not str(phase[field]).endswith(".zip"):
                add("%s: %s must be a .zip inside the bundle" % (where, field))
        if "reference_data" in phase and not phase_folder(phase):
            add("%s: reference_data must be named <folder>_reference_data.zip (or <folder>-<name>_reference_data.zip "
                "for a phase with its own settings on the gold of <folder>), where <folder> is the phase's folder "
                "of reference data" % where)
        if index == 0 and phase.get("auto_migration"):
            add("%s: auto_migration cannot be true on the first phase (Codabench refuses it)" % where)
        _allowed_values("phase", phase, where, problems)
        if "color" in phase and phase["color"] not in COLORS:
            add("%s: color must be one of %s" % (where, ", ".join(sorted(COLORS))))
        result.append(phase)
    end = config.get("end_date")
    if isinstance(end, (datetime.date, datetime.datetime)) and previous_start is not None:
        end_dt = end if isinstance(end, datetime.datetime) else datetime.datetime(end.year, end.month, end.day)
        if end_dt.tzinfo is None:
            end_dt = end_dt.replace(tzinfo=datetime.timezone.utc)
        if end_dt <= previous_start:
            add("competition.yaml: end_date must be after the start of the last phase")
    return result


def _allowed_values(level: str, mapping: Dict[str, Any], where: str, problems: List[str]) -> None:
    """``_allowed`` for every key of ``level`` whose row in ``keys.KEYS`` limits its values."""
    for key in KEYS:
        if key.level == level and key.allowed is not None:
            _allowed(key, mapping, where, problems)


def _allowed(key, mapping: Dict[str, Any], where: str, problems: List[str]) -> None:
    """A problem when ``mapping`` sets ``key`` to a value its row in ``keys.KEYS`` refuses (for
    the keys both platforms must agree on, such as force_submission_to_leaderboard, also when absent)."""
    required = key.rule == DERIVED and key.level == "top"
    if key.name not in mapping and not required:
        return
    value = mapping.get(key.name)
    if value in key.allowed and (value is not None or key.name in mapping or None in key.allowed):
        return
    if key.rule == REFUSED:
        problems.append("%s: %s is refused (Codabench: %s; Codalab v1.5 would behave differently): leave it out"
                        % (where, key.name, key.note))
    else:
        problems.append("%s: %s must be %s (Codalab v1.5: %s; Codabench: %s)"
                        % (where, key.name, " or ".join(_yaml_word(v) for v in key.allowed), key.v15, key.note))


def _yaml_word(value: Any) -> str:
    return {True: "true", False: "false", None: "left out"}.get(value, str(value)) \
        if isinstance(value, (bool, type(None))) else str(value)


def _codabench_block(config: Dict[str, Any], problems: List[str]) -> None:
    add = problems.append
    values = config.get(BLOCK)
    if values is None:
        return
    if not isinstance(values, dict):
        add("competition.yaml: %s must be a mapping of Codabench-only settings" % BLOCK)
        return
    # Codabench keys a top-level key of both platforms writes; a key the block owns itself (fact_sheet:
    # the questions, beside enable_per_submission_metadata which switches them on) is not one of them.
    both = {key.codabench: key.where for key in KEYS
            if key.level != "block" and key.codabench and key.codabench not in CODABENCH_KEYS}
    for key in sorted(values, key=str):
        if key == "hide_output":
            add("competition.yaml: %s.hide_output is refused: it also hides the logs where participants read "
                "why a submission failed" % BLOCK)
        elif key in both:
            add("competition.yaml: %s.%s: set %s instead (both platforms read it)" % (BLOCK, key, both[key]))
        elif key not in CODABENCH_KEYS:
            add("competition.yaml: %s.%s is not a known Codabench setting: %s" % (BLOCK, key, _known(key, CODABENCH_KEYS)))
    _allowed_values("block", values, "competition.yaml: %s" % BLOCK, problems)
    email = values.get("contact_email")
    if email is not None and (not isinstance(email, str) or len(email) > 256 or not EMAIL.match(email)):
        add("competition.yaml: %s.contact_email must be one e-mail address (at most 256 characters)" % BLOCK)
    if "fact_sheet" in values:
        if not config.get("enable_per_submission_metadata"):
            add("competition.yaml: %s.fact_sheet is set but enable_per_submission_metadata is not true: set it, "
                "so that both platforms ask for the system descriptions" % BLOCK)
        for line in fact_sheet_problems(values["fact_sheet"]):
            add("competition.yaml: %s.fact_sheet: %s" % (BLOCK, line))


def _leaderboard(config, phases, reference_root, tracks, lower_is_better, problems) -> None:
    add = problems.append
    board = config.get("leaderboard")
    if not isinstance(board, dict) or not isinstance(board.get("leaderboards"), dict) \
            or not isinstance(board.get("columns"), dict):
        add("competition.yaml: leaderboard needs leaderboards and columns")
        return
    groups = {str(value.get("label")) for value in (board.get("column_groups") or {}).values()
              if isinstance(value, dict)}
    labels = {}
    for key, value in board["leaderboards"].items():
        if not isinstance(value, dict) or "label" not in value or "rank" not in value:
            add("competition.yaml: leaderboard.leaderboards.%s needs a label and a rank" % key)
            continue
        if len(str(key)) > 36 or len(str(value["label"])) > 64:
            add("competition.yaml: leaderboard %s: key at most 36, label at most 64 characters" % key)
        labels[value["label"]] = key
    if len(labels) > 1:
        add("competition.yaml: more than one leaderboard; Codabench attaches only the first: keep one "
            "(every column in it)")
    key_to_track = {key: track for track in tracks for key in track.keys}
    used_tracks = set()
    selection = []
    used_per_board = {label: 0 for label in labels}
    for key, column in board["columns"].items():
        where = "competition.yaml: leaderboard column %s" % key
        if not KEY_PATTERN.match(str(key)):
            add("%s: keys are 1 to 36 letters, digits or _" % where)
        if key not in key_to_track:
            add("%s: no track writes this key (known keys: %s)" % (where, ", ".join(sorted(key_to_track))))
        else:
            used_tracks.add(key_to_track[key])
        if not isinstance(column, dict):
            add("%s: must be a mapping" % where)
            continue
        for unknown in sorted(set(column) - COLUMN_KEYS, key=str):
            add("%s: unknown key %r: %s" % (where, unknown, _known(unknown, COLUMN_KEYS)))
        board_label = (column.get("leaderboard") or {}).get("label") if isinstance(column.get("leaderboard"), dict) else None
        if board_label not in labels:
            add("%s: leaderboard.label must equal a leaderboard's label exactly" % where)
        else:
            used_per_board[board_label] += 1
        group = column.get("column_group")
        if group is not None and (not isinstance(group, dict) or str(group.get("label")) not in groups):
            add("%s: column_group.label must equal a column group's label exactly (v1.5 matches case and "
                "spaces)" % where)
        label = column.get("label", "")
        if not isinstance(label, str) or not label or len(label) > 36:
            add("%s: label must be 1 to 36 characters" % where)
        sort = column.get("sort", "desc")
        if sort not in ("asc", "desc"):
            add("%s: sort must be asc or desc" % where)
        if key in lower_is_better and sort != "asc":
            add("%s: lower is better for this score; set sort: asc" % where)
        if key not in lower_is_better and sort != "desc":
            add("%s: higher is better for this score; use sort: desc (or leave it out)" % where)
        numeric = column.get("numeric_format")
        if not isinstance(numeric, int) or isinstance(numeric, bool) or not 1 <= numeric <= 10:
            add("%s: numeric_format must be an integer from 1 to 10" % where)
        for known in KEYS:
            if known.level == "column" and known.allowed is not None:
                _allowed(known, column, where, problems)
        if not isinstance(column.get("rank"), int):
            add("%s: give an integer rank (display order)" % where)
        selection.append((column.get("selection_default", 0), column.get("rank", 10 ** 9), key))
    for label, count in used_per_board.items():
        if count == 0:
            add("competition.yaml: leaderboard %r has no column" % label)
    if selection:
        best = max(value for value, _, _ in selection)
        chosen = [item for item in selection if item[0] == best]
        lowest_rank = min(rank for _, rank, _ in selection)
        if best <= 0:  # e.g. deleted with the columns of the tracks a one-track competition leaves out
            first = min(selection, key=lambda item: item[1])[2]
            add("competition.yaml: no column has a selection_default (the column the board is ranked by); add "
                "selection_default: 1 to one column, e.g. %s (the lowest rank)" % first)
        elif len(chosen) != 1:
            add("competition.yaml: the columns %s share the highest selection_default (%s); exactly one column "
                "(the ranking score) must have it: lower the others" % (", ".join(key for _, _, key in chosen), best))
        elif chosen[0][1] != lowest_rank:
            add("competition.yaml: the ranking column %s must also have the lowest rank (Codabench "
                "ranks by its first column)" % chosen[0][2])
    in_competition = competition_tracks(config, tracks)
    for track in in_competition:  # the scorer writes every key of the phase's tracks (not entered: ranks last)
        missing = [key for key in track.keys if key not in board["columns"]]
        if missing:
            add("competition.yaml: track %s is in the competition (its columns %s), but the scorer writes "
                "every key of its tracks on every submission; make each a column (hidden: true hides one): %s"
                % (track.name, ", ".join(key for key in track.keys if key in board["columns"]), ", ".join(missing)))
    for phase in phases:
        folder = phase_folder(phase)
        if not folder:
            continue
        path = os.path.join(reference_root, folder)
        if not os.path.isdir(path):
            add("phase %s: no reference data folder %s" % (phase.get("label"), path))
            continue
        for track in sorted(used_tracks, key=lambda t: t.name):
            if track.find_gold(path) is None:
                columns = [key for key in track.keys if key in board["columns"]]
                add("phase %s: the leaderboard shows track %s but %s has no gold for it (%s); add the "
                    "gold there, or remove the track from the competition: its leaderboard.columns %s "
                    "in competition.yaml (its gold is then left out of the upload)"
                    % (phase.get("label"), track.name, path, " or ".join(track.gold_names),
                       ", ".join(columns)))
        for track in in_competition:  # what a track module says is missing from its reference data
            problem = track.reference_data_problem(path)
            if problem:
                add("phase %s: %s" % (phase.get("label"), problem))
