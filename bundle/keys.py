"""Every key of competition.yaml the build accepts, in one table: where it goes in each platform's yaml,
or why it is listed or refused.

Codalab v1.5 passes every top-level and phase key to its models and refuses the bundle on an
unknown one, so what only Codabench reads lives in one top-level block ``codabench:``, which the
v1.5 yaml leaves out. ``platforms.v2_config`` writes the Codabench yaml from ``KEYS`` (every
``copy`` key generically), ``platforms.ignored_keys`` lists by it, ``rules.py`` refuses by it;
docs/organisers.md's "Which key goes where" is ``key_table_markdown()`` (a test keeps them equal,
and another that every accepted key reaches the yaml written).
"""

from __future__ import annotations

import datetime
from typing import Any, Optional, Tuple

BLOCK = "codabench"
V15_YAML = "codalab_v1.5.yaml"  # the first ".yaml" entry: what Codalab v1.5 reads
V2_YAML = "competition.yaml"  # what Codabench reads

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


def key_table_markdown() -> str:
    """docs/organisers.md's table "Which key goes where", from ``KEYS``."""
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
