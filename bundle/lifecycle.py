"""The phases' sequence: which combinations the build accepts, and what it says about them.

The SemEval organisers' guide (SemEval2025 ``codalab.md``) asks for a practice phase with a public
board, a blind Evaluation phase ("You cannot see the results of your submission") and a
Post-Evaluation phase that never ends, migrates the Evaluation submissions and shows their scores.
What each platform does with the keys (checked on Codabench c7dbc75 and Codalab v1.5 c7ef5e2):

- a blind phase is ``"blind": true`` in its ``phase_settings/<name>.json``: the scoring program
  writes no score (``scoring_program/scorer/outputs/blind.py``), which is the only thing that hides a
  participant's own scores on Codabench; v1.5's ``leaderboard_management_mode: hide_results``
  hides its board there as well, and the build asks for both together;
- ``phase_never_ends: true`` (v1.5) on the last phase; on Codabench that phase has no ``end``;
  ``end_date`` is then left out (on v1.5 it would end the competition);
- ``auto_migration: true`` (Codabench ``auto_migrate_to_this_phase``): when the phase starts,
  Codabench copies the previous phase's finished submissions that are on its board (with
  Force_Last, each participant's last finished one) and runs them again in this phase
  (``competitions/models.py``, ``tasks.py do_phase_migrations``); v1.5 migrates the board's
  entries as well. The copies are scored on this phase's gold, so it must be the previous phase's.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from .competition import phase_folder, settings_name, sorted_phases

HIDE_RESULTS = "hide_results"


def is_blind(phase: Dict[str, Any], settings: Dict[str, bytes]) -> bool:
    """Whether ``phase``'s settings (``settings``: name -> the bytes of phase_settings/<name>.json) say blind."""
    data = settings.get(settings_name(phase))
    if data is None:
        return False
    try:
        return json.loads(data.decode("utf-8")).get("blind") is True
    except (ValueError, AttributeError):
        return False


def never_ends(phase: Dict[str, Any]) -> bool:
    return phase.get("phase_never_ends") is True


def lifecycle_problems(config: Dict[str, Any], settings: Dict[str, bytes]) -> List[str]:
    """One line per combination of phases the build refuses."""
    problems: List[str] = []
    phases = sorted_phases(config)
    for number, phase in enumerate(phases):
        where = "competition.yaml: phase %s" % phase.get("label")
        blind = is_blind(phase, settings)
        if never_ends(phase) and number != len(phases) - 1:
            problems.append("%s: phase_never_ends is true but phase %s comes after it; only the last phase may "
                            "never end (Codabench refuses a phase without end before another)"
                            % (where, phases[number + 1].get("label")))
        if blind and number == 0:
            problems.append("%s: phase_settings/%s.json makes the first phase blind; participants need a phase "
                            "where they see their scores first (the guide's practice phase): make a later phase "
                            "blind" % (where, settings_name(phase)))
        hidden = phase.get("leaderboard_management_mode", "default") == HIDE_RESULTS
        if blind and not hidden:
            problems.append("%s: phase_settings/%s.json makes it blind; set leaderboard_management_mode: "
                            "hide_results too, so that Codalab v1.5 hides its board as well"
                            % (where, settings_name(phase)))
        if hidden and not blind:
            problems.append("%s: leaderboard_management_mode: hide_results hides the board on Codalab v1.5 only "
                            "(Codabench shows every board to anyone through its API): make the phase blind with "
                            "\"blind\": true in phase_settings/%s.json" % (where, settings_name(phase)))
        if phase.get("auto_migration") and number > 0:
            previous = phases[number - 1]
            if phase_folder(previous) != phase_folder(phase):
                problems.append("%s: auto_migration re-runs phase %s's submissions on this phase's gold, which is "
                                "another one (%s, not %s): they would fail on its ids; migrate only between phases "
                                "of the same gold (reference_data <folder>-<name>_reference_data.zip shares a folder)"
                                % (where, previous.get("label"), phase_folder(phase), phase_folder(previous)))
            if is_blind(phase, settings):
                problems.append("%s: a blind phase cannot be the target of migration (the migrated submissions "
                                "would still show no score); migrate into the phase after it" % where)
    if phases and never_ends(phases[-1]) and config.get("end_date") is not None:
        problems.append("competition.yaml: end_date is set but the last phase, %s, never ends "
                        "(phase_never_ends: true): leave end_date out (on Codalab v1.5 it would end the competition)"
                        % phases[-1].get("label"))
    return problems


def lifecycle_lines(config: Dict[str, Any], settings: Dict[str, bytes]) -> List[str]:
    """What the build says about the sequence: each phase's kind, what migrates where, and what a
    blind phase without a following migrating phase means."""
    lines: List[str] = []
    phases = sorted_phases(config)
    for number, phase in enumerate(phases):
        kinds: List[Tuple[bool, str]] = [
            (is_blind(phase, settings), "blind (no score in any output; v1.5 board hidden)"),
            (bool(phase.get("auto_migration")), "migrates the last finished submission of each participant of "
                                                 "phase %s when it starts" % (phases[number - 1].get("label")
                                                                              if number else "")),
            (never_ends(phase), "never ends"),
        ]
        kind = "; ".join(text for present, text in kinds if present) or "scores shown"
        lines.append("phase %s: %s (gold: %s)" % (phase.get("label"), kind, phase_folder(phase)))
        following = phases[number + 1] if number + 1 < len(phases) else None
        if is_blind(phase, settings) and (following is None or not following.get("auto_migration")):
            lines.append("phase %s is blind and no phase migrates its submissions: its scores are shown nowhere; "
                         "rank_submissions.py on its download gives them" % phase.get("label"))
    return lines
