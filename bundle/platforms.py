"""One competition.yaml, one upload for both platforms: the Codalab v1.5 yaml and a native Codabench
(version 2) yaml in the same zip.

Codalab v1.5 reads the first zip entry whose name contains ``.yaml`` (codalab-competitions
``codalab/apps/web/models.py``, ``CompetitionDefBundle.unpack``); Codabench reads exactly
``competition.yaml`` at the zip's root (codabench ``src/apps/competitions/tasks.py``,
``unpack_competition``) and, for ``version: 2``, unpacks it with ``V2Unpacker``
(``src/apps/competitions/unpackers/v2.py``). So the upload holds ``V15_YAML`` first and
``competition.yaml`` (version 2) after it, and the union of the files both name.

Codalab v1.5 passes every top-level and phase key to its models and refuses the bundle on an
unknown one, so what only Codabench reads lives in one top-level block ``codabench:``, which the
v1.5 yaml leaves out. ``KEYS`` is the one table of every key the build accepts: where it goes in
each platform's yaml, or why it is listed or refused. ``v2_config`` writes the Codabench yaml from
it (every ``copy`` key generically); ``rules.py`` refuses by it; README.md's "Which key goes where"
is ``key_table_markdown()`` (a test keeps them equal, and another that every accepted key reaches
the yaml written).
"""

from __future__ import annotations

import copy
import datetime
from typing import Any, Dict, List, Optional, Sequence, Tuple

import yaml

from .held_back import GOLD_WINDOW

BLOCK = "codabench"
V15_YAML = "codalab_v1.5.yaml"  # the first ".yaml" entry: what Codalab v1.5 reads
V2_YAML = "competition.yaml"  # what Codabench reads
SUBMISSION_RULE = "Force_Last"  # each participant's latest finished submission is on the board
PAGE_TITLES = {"overview": "Overview", "evaluation": "Evaluation", "data": "Data"}

COPY, DERIVED, LISTED, REFUSED = "copy", "derived", "listed", "refused"


class Key:
    """One key of competition.yaml.

    ``where``: its place (``phases.*.label``; ``codabench.x`` for the Codabench-only block);
    ``codabench``: its place in the Codabench yaml ("" when none); ``rule``: ``copy`` (the value,
    or ``default`` when absent and not None, is written there as is), ``derived`` (``v2_config``
    computes it), ``listed`` (one platform ignores it: the build says so when it is set) or
    ``refused`` (no counterpart: only the values in ``allowed`` pass); ``allowed``: when not None,
    the only values accepted (any rule); ``v15`` and ``note``: what Codalab v1.5 and Codabench do,
    for the README and the build's lines; ``example``: a value the tests set.
    """

    __slots__ = ("where", "codabench", "rule", "v15", "note", "allowed", "default", "example")

    def __init__(self, where: str, codabench: str, rule: str, v15: str = "as is", note: str = "as is",
                 allowed: Optional[Tuple[Any, ...]] = None, default: Any = None, example: Any = None) -> None:
        self.where, self.codabench, self.rule, self.v15, self.note = where, codabench, rule, v15, note
        self.allowed, self.default, self.example = allowed, default, example

    @property
    def name(self) -> str:
        return self.where.split(".")[-1]

    @property
    def level(self) -> str:
        """"top", "phase", "column", "board", "block" or "html"."""
        if self.where.startswith(BLOCK + "."):
            return "block"
        for prefix, level in (("phases.*.", "phase"), ("leaderboard.columns.*.", "column"),
                              ("leaderboard.leaderboards.*.", "board"), ("html.", "html"), ("leaderboard.", "leaderboard")):
            if self.where.startswith(prefix):
                return level
        return "top"


# Every key the build accepts. Sources: codalab-competitions codalab/apps/web/models.py (Competition,
# CompetitionPhase fields), codabench src/apps/competitions/unpackers/v2.py (V2Unpacker: what it reads),
# src/apps/competitions/models.py (Competition, Phase fields).
KEYS: Tuple[Key, ...] = (
    Key("title", "title", COPY, note="as is (v1.5 at most 100 characters)", example="A title"),
    Key("description", "description", COPY, default="", example="A description"),
    Key("image", "image", COPY, note="as is (the logo is required)", example="logo.png"),
    Key("has_registration", "registration_auto_approve", DERIVED, note="`registration_auto_approve: not has_registration`",
        example=True),
    Key("competition_docker_image", "docker_image", COPY, example="codalab/codalab-legacy:py312"),
    Key("enable_detailed_results", "enable_detailed_results", COPY, default=False, example=True),
    Key("force_submission_to_leaderboard", "leaderboards.*.submission_rule", DERIVED, allowed=(True,),
        v15="must be `true`: each finished submission goes on the board",
        note="`submission_rule: Force_Last` (the latest finished submission)", example=True),
    Key("disallow_leaderboard_modifying", "leaderboards.*.submission_rule", DERIVED, allowed=(True,),
        v15="must be `true`: participants cannot choose which submission is on the board",
        note="`Force_Last`: only an administrator moves submissions on or off the board "
             "(api/views/submissions.py, `AUTO_SUBMISSION_RULES`)", example=True),
    Key("end_date", "phases.*.end", DERIVED, v15="ends the last phase; required, unless the last phase never ends "
        "(then left out)", note="the last phase's `end`",
        example=datetime.datetime(2027, 4, 1, tzinfo=datetime.timezone.utc)),
    Key("start_date", "", LISTED, v15="the competition's start on its page", note="ignored (the phases' dates count)",
        example=datetime.datetime(2027, 1, 4, tzinfo=datetime.timezone.utc)),
    Key("enable_per_submission_metadata", "fact_sheet", DERIVED, default=False,
        v15="`true`: each submission asks for team, method name, description and URL (`method.txt` in the download)",
        note="`fact_sheet`: the questions of `codabench.fact_sheet` (default: `DEFAULT_FACT_SHEET`)", example=True),
    Key("allow_public_submissions", "can_participants_make_submissions_public", COPY, default=False, example=True),
    Key("enable_forum", "forum_enabled", COPY, default=False, example=True),
    Key("reward", "reward", COPY, example=100),
    Key("anonymous_leaderboard", "", REFUSED, allowed=(False,), v15="hides participants' names",
        note="no counterpart: Codabench would show the names"),
    Key("allow_teams", "", REFUSED, allowed=(False,), v15="teams", note="no counterpart (no teams in a competition)"),
    Key("enable_teams", "", REFUSED, allowed=(False,), v15="teams", note="no counterpart (no teams in a competition)"),
    Key("url_redirect", "", REFUSED, allowed=(None, ""), v15="sends visitors elsewhere", note="no counterpart"),
    Key("hide_top_three", "", LISTED, v15="hides the podium", note="ignored", example=True),
    Key("hide_chart", "", LISTED, v15="hides the chart", note="ignored", example=True),
    Key("show_datasets_from_yaml", "", LISTED, v15="lists the phases' datasets", note="ignored", example=True),
    Key("admin_names", "", LISTED, v15="co-organisers by user name",
        note="ignored: add them as collaborators in the competition editor", example="someone"),
    Key("html.overview", "pages", DERIVED, v15="pages", note="`pages`", example="overview.html"),
    Key("html.evaluation", "pages", DERIVED, v15="pages", note="`pages`", example="evaluation.html"),
    Key("html.data", "pages", DERIVED, v15="pages", note="`pages`", example="data.html"),
    Key("html.terms", "terms", DERIVED, v15="terms page", note="`terms`", example="terms_and_conditions.html"),
    # phases
    Key("phases.*.phasenumber", "phases.*.index", DERIVED, v15="the phases' order", note="`index` (0, 1, ...)", example=1),
    Key("phases.*.label", "phases.*.name", COPY, note="`name`", example="Development"),
    Key("phases.*.description", "phases.*.description", COPY, example="A phase"),
    Key("phases.*.start_date", "phases.*.start", DERIVED, v15="as is (strictly increasing)",
        note="`start`; each `end` is one second before the next phase's `start`",
        example=datetime.datetime(2027, 1, 4, tzinfo=datetime.timezone.utc)),
    Key("phases.*.max_submissions_per_day", "phases.*.max_submissions_per_day", COPY, v15="required (the defaults differ)",
        example=5),
    Key("phases.*.max_submissions", "phases.*.max_submissions", COPY, v15="required (the defaults differ)", example=50),
    Key("phases.*.execution_time_limit", "phases.*.execution_time_limit", COPY, v15="required (the defaults differ)",
        example=600),
    Key("phases.*.auto_migration", "phases.*.auto_migrate_to_this_phase", COPY,
        v15="as is (not on the first phase; the previous phase's gold)",
        note="`auto_migrate_to_this_phase`: once the phase has started, the previous phase's finished submissions on "
             "its board (Force_Last: each participant's last finished one) are copied and scored again here (seen on "
             "the real site: a failed one is not copied; the phase's stored status is empty afterwards)",
        default=False, example=True),
    Key("phases.*.scoring_program", "tasks.*.scoring_program", DERIVED, note="one `task` per phase",
        example="scoring_program.zip"),
    Key("phases.*.reference_data", "tasks.*.reference_data", DERIVED, v15="as is (a later phase's: a placeholder, "
        "the real zip set in the phase editor when due)", note="the phase's `task`; its `solutions`: the "
        "phase's sample submission (first phase only, unless `--release-all`); a later phase's reference data is a "
        "placeholder (`held_back.json`), set on the task when due (`codabench.py release`, `attach-gold`)",
        example="dev_reference_data.zip"),
    Key("phases.*.public_data", "phases.*.public_data", DERIVED, v15="as is (first phase only, unless `--release-all`)",
        note="as is (first phase only, unless `--release-all`)", example="dev_public_data.zip"),
    Key("phases.*.starting_kit", "phases.*.starting_kit", DERIVED, v15="as is (first phase only, unless `--release-all`)",
        note="as is (first phase only, unless `--release-all`)", example="starting_kit.zip"),
    Key("phases.*.color", "", LISTED, v15="shown", note="ignored", example="green"),
    Key("phases.*.is_scoring_only", "", LISTED, v15="shown",
        note="ignored (a phase without an ingestion program is scoring only)", example=True),
    Key("phases.*.datasets", "", LISTED, v15="the phase's extra datasets", note="ignored", example={}),
    Key("phases.*.disable_custom_docker_image", "", LISTED, v15="code submissions only", note="ignored", example=True),
    Key("phases.*.leaderboard_management_mode", "", LISTED, allowed=("default", "hide_results"),
        v15="`hide_results` hides the phase's board and scores from participants; required on a blind phase "
            "(`\"blind\": true` in its `phase_settings`), refused elsewhere",
        note="ignored: Codabench gives every phase the first leaderboard, and a `hidden` board or column is hidden on "
             "the page only (`/api/phases/<id>/get_leaderboard/` answers anyone); a blind phase's scores are withheld "
             "by the scoring program (`scoring_program/scorer/outputs/blind.py`)", example="hide_results"),
    Key("phases.*.force_best_submission_to_leaderboard", "", REFUSED, allowed=(False,), v15="refused",
        note="`Force_Best` picks the best by the primary column alone"),
    Key("phases.*.phase_never_ends", "phases.*.end", DERIVED, allowed=(False, True),
        v15="as is (the last phase only; then no `end_date`)",
        note="the last phase has no `end` (accepted by the real site's unpacker; submissions stay open)", example=True),
    Key("phases.*.max_submission_size", "", REFUSED, allowed=(None,), v15="refused",
        note="no per-phase size limit (a storage quota per user)"),
    Key("phases.*.participant_max_storage_use", "", REFUSED, allowed=(None,), v15="refused", note="no counterpart"),
    Key("phases.*.delete_submissions_except_best_and_last", "", REFUSED, allowed=(False,), v15="refused",
        note="no counterpart; the re-scoring after the Evaluation phase needs every submission"),
    Key("phases.*.scoring_program_docker_image", "", REFUSED, allowed=(None,), v15="refused",
        note="every phase runs the competition's `docker_image`"),
    Key("phases.*.default_docker_image", "", REFUSED, allowed=(None,), v15="refused",
        note="every phase runs the competition's `docker_image`"),
    Key("phases.*.ingestion_program_docker_image", "", REFUSED, allowed=(None,), v15="refused",
        note="a results competition has no ingestion"),
    Key("phases.*.input_data", "", REFUSED, allowed=(None,), v15="refused", note="a results competition has no ingestion"),
    Key("phases.*.ingestion_program", "", REFUSED, allowed=(None,), v15="refused",
        note="a results competition has no ingestion"),
    # the leaderboard
    Key("leaderboard.leaderboards.*.label", "leaderboards.*.title", DERIVED, v15="exactly one board; labels matched exactly",
        note="the one leaderboard's `title` (its key: `key`)", example="Results"),
    Key("leaderboard.leaderboards.*.rank", "", LISTED, v15="the boards' order", note="ignored (one board)", example=1),
    Key("leaderboard.column_groups", "", LISTED, v15="headers; labels matched exactly", note="ignored",
        example={"GROUP": {"label": "Group", "rank": 1}}),
    Key("leaderboard.columns.*.leaderboard", "leaderboards.*.columns", DERIVED, v15="the column's board",
        note="a column of the one board", example={"label": "Results"}),
    Key("leaderboard.columns.*.column_group", "", LISTED, v15="the column's header", note="ignored", example={}),
    Key("leaderboard.columns.*.label", "leaderboards.*.columns.*.title", COPY, note="`title` (at most 36 characters)",
        example="F1"),
    Key("leaderboard.columns.*.rank", "leaderboards.*.columns.*.index", DERIVED, v15="display order",
        note="`index`, in `rank` order", example=1),
    Key("leaderboard.columns.*.sort", "leaderboards.*.columns.*.sorting", COPY, default="desc", note="`sorting`",
        example="asc"),
    Key("leaderboard.columns.*.numeric_format", "leaderboards.*.columns.*.precision", COPY, note="`precision`", example=4),
    Key("leaderboard.columns.*.selection_default", "leaderboards.*.primary_index", DERIVED,
        v15="the default sort column; the highest must also have the lowest rank",
        note="`primary_index` (the board is ordered by it alone)", example=1),
    Key("leaderboard.columns.*.hidden", "leaderboards.*.columns.*.hidden", COPY, example=True),
    Key("leaderboard.columns.*.computed", "", REFUSED, allowed=(None,), v15="ranks on ranks",
        note="dropped: compute aggregates in the scoring program"),
    # Codabench only: v1.5 never sees this block
    Key(BLOCK + ".hide_score_output", "phases.*.hide_score_output", DERIVED, allowed=(False,), v15="—",
        note="every phase's `hide_score_output`: `false` (v1.5 always lets participants download `output/`, which "
             "holds nothing beyond aggregates; `hide_output` is refused: it hides the logs)", example=False),
    Key(BLOCK + ".show_detailed_results_in_submission_panel", "show_detailed_results_in_submission_panel", COPY,
        v15="—", example=False),
    Key(BLOCK + ".show_detailed_results_in_leaderboard", "show_detailed_results_in_leaderboard", COPY, v15="—",
        example=False),
    Key(BLOCK + ".make_programs_available", "make_programs_available", COPY, v15="—", example=True),
    Key(BLOCK + ".make_input_data_available", "make_input_data_available", COPY, v15="—", example=True),
    Key(BLOCK + ".contact_email", "contact_email", COPY, v15="—", note="as is (an e-mail address)",
        example="organisers@example.org"),
    Key(BLOCK + ".queue", "queue", COPY, v15="—", note="as is (a queue's key on that Codabench)",
        example="00000000-0000-0000-0000-000000000000"),
    Key(BLOCK + ".fact_sheet", "fact_sheet", DERIVED, v15="—",
        note="the questions of `fact_sheet` when `enable_per_submission_metadata` is true", example=None),
)
COMPETITION_KEYS = frozenset(key.where.split(".")[0] for key in KEYS if key.level != "block")
PHASE_KEYS = frozenset(key.name for key in KEYS if key.level == "phase")
COLUMN_KEYS = frozenset(key.name for key in KEYS if key.level == "column")
CODABENCH_KEYS = frozenset(key.name for key in KEYS if key.level == "block")

# The system-description questions (Codabench's fact sheet, validated as its serializers do:
# ``checker.fact_sheet_problems``). Text questions, because Codabench refuses a "textarea" type;
# yes/no questions are checkboxes (a required checkbox cannot be left empty: False is an answer).
DEFAULT_FACT_SHEET = {
    "team_name": {"key": "team_name", "type": "text", "title": "Team name", "selection": "",
                  "is_required": "true", "is_on_leaderboard": "true"},
    "system_name": {"key": "system_name", "type": "text", "title": "System name", "selection": "",
                    "is_required": "true", "is_on_leaderboard": "true"},
    "description": {"key": "description", "type": "text", "title": "Short description of the system",
                    "selection": "", "is_required": "true", "is_on_leaderboard": "false"},
    "external_data": {"key": "external_data", "type": "checkbox", "title": "External data used",
                      "selection": [True, False], "is_required": "false", "is_on_leaderboard": "false"},
    "paper_planned": {"key": "paper_planned", "type": "checkbox", "title": "A system description paper is planned",
                      "selection": [True, False], "is_required": "false", "is_on_leaderboard": "false"},
}


def key_table_markdown() -> str:
    """README.md's table "Which key goes where", from ``KEYS``."""
    lines = ["| key in `competition.yaml` | Codalab v1.5 (`%s`) | Codabench (`%s`, version 2) |" % (V15_YAML, V2_YAML),
             "|---|---|---|"]
    for key in KEYS:
        if key.rule == REFUSED:
            codabench = "refused: %s" % key.note
        elif key.rule == LISTED:
            codabench = "%s (listed by the build)" % key.note
        elif key.note == "as is":
            codabench = "`%s`" % key.codabench
        else:
            codabench = key.note
        lines.append("| `%s` | %s | %s |" % (key.where, key.v15, codabench))
    return "\n".join(lines) + "\n"


def block(config: Dict[str, Any]) -> Dict[str, Any]:
    return dict(config.get(BLOCK) or {})


def competition_tracks(config: Dict[str, Any], tracks: Sequence) -> List:
    """The competition's tracks: those with a key among the leaderboard's columns, in registry order."""
    columns = set((config.get("leaderboard") or {}).get("columns") or {})
    return [track for track in tracks if columns & set(track.keys)]


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
        entry["start"] = _text(start)
        if end is not None:  # a never-ending last phase has none
            entry["end"] = _text(end)
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


def utc(value: Any) -> datetime.datetime:
    """A YAML date or datetime as an aware UTC datetime (naive values are taken as UTC)."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc)


def sorted_phases(config: Dict[str, Any]) -> List[Dict[str, Any]]:
    return sorted(config["phases"].values(), key=lambda phase: phase["phasenumber"])


def schedule(config: Dict[str, Any]) -> List[Tuple[Dict[str, Any], datetime.datetime, Optional[datetime.datetime]]]:
    """(phase, start, end) per phase: each end one second before the next phase's start (Codabench
    refuses an end equal to the next start), the last one the competition's end_date, or None when
    the last phase never ends (``phase_never_ends``)."""
    phases = sorted_phases(config)
    starts = [utc(phase["start_date"]) for phase in phases]
    last_end = None if phases[-1].get("phase_never_ends") is True else utc(config["end_date"])
    ends = [start - (GOLD_WINDOW if gold_after_end(phases, number + 1) else datetime.timedelta(seconds=1))
            for number, start in enumerate(starts[1:])] + [last_end]
    return list(zip(phases, starts, ends))


def gold_after_end(phases: List[Dict[str, Any]], number: int) -> bool:
    """Whether phase ``number`` (of ``phases``, sorted) migrates the previous phase's submissions and
    its gold is held back (a later phase's data): the previous phase then ends ``GOLD_WINDOW`` before
    it starts, the day in which the organiser attaches the gold (bundle/held_back.py)."""
    phase = phases[number]
    folder = str(phase.get("reference_data", "")).replace("_reference_data.zip", "").split("-")[0]
    first = str(phases[0].get("reference_data", "")).replace("_reference_data.zip", "").split("-")[0]
    return bool(phase.get("auto_migration")) and folder != first


def due_text(config: Dict[str, Any], phase: Dict[str, Any], blind: bool, where: str) -> str:
    """When a held-back reference data zip (at ``where`` under the output folder) goes up, and the
    command that puts it there."""
    times = {id(p): (start, end) for p, start, end in schedule(config)}
    phases = sorted_phases(config)
    number = [id(p) for p in phases].index(id(phase))
    label, start = phase["label"], times[id(phase)][0]
    if blind:
        return ("when phase %s opens (%s): codabench.py release COMPETITION %s dist/%s/"
                % (label, _text(start), label, where.split("/")[0]))
    previous = phases[number - 1]
    end = times[id(previous)][1]
    if gold_after_end(phases, number):
        return ("after phase %s ends (%s) and before phase %s starts (%s): codabench.py attach-gold COMPETITION %s "
                "dist/%s" % (previous["label"], _text(end), label, _text(start), label, where))
    return ("when phase %s opens (%s), not before: codabench.py attach-gold COMPETITION %s dist/%s"
            % (label, _text(start), label, where))


def _text(moment: datetime.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S+00:00")


def solution_name(phase: Dict[str, Any]) -> str:
    return phase["reference_data"].replace("_reference_data.zip", "_sample_submission.zip")


def date_lines(config: Dict[str, Any]) -> List[str]:
    """What each platform shows for the phase dates."""
    lines = []
    for phase, start, end in schedule(config):
        if end is None:
            lines.append("phase %s: Codalab v1.5 opens it %s and never ends it; Codabench shows %s with no end"
                         % (phase["label"], _text(start), _text(start)))
            continue
        lines.append("phase %s: Codalab v1.5 opens it %s (until the next phase starts or the competition "
                     "ends); Codabench shows %s to %s" % (phase["label"], _text(start), _text(start), _text(end)))
    return lines
