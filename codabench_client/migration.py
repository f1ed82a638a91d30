"""The submissions Codabench migrates into a phase, as the organiser mends them:

- a migration (``apply_phase_migration``) copies each board entry of the phase before with its
  owner and file, not its fact-sheet answers: ``copy-fact-sheets`` gives each copy those of its
  source (``PATCH /api/submissions/<id>/update_fact_sheet/``);
- a copy migrated before the gold was attached is scored on the placeholder and fails;
  ``attach-gold`` re-runs it (``POST /api/submissions/<id>/re_run_submission/``), which reads the
  task's reference data anew.

Every list the site gives is filtered again by the phase's id: a site that ignores ``?phase=``
never makes another phase's (or competition's) submission re-run or written into.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Tuple

from ranking.names import shown

from . import phases, resources
from .errors import CodabenchError
from .shapes import identifier
from .site import Site


def submissions_of(site: Site, phase: dict) -> List[dict]:
    """The phase's submissions, as the site lists them for its id and checked again."""
    what = "the submissions of phase %s (id %s)" % (shown(str(phase.get("name", ""))), phase.get("id"))
    return [s for s in site.pages("/api/submissions/", what=what, phase=phase.get("id"))
            if str(s.get("phase")) == str(phase.get("id"))]


def migrated_pairs(site: Site, phase: dict, before: dict) -> List[Tuple[dict, dict]]:
    """(copy in ``phase``, its source in ``before``): the list API does not name the source, so a
    copy is a submission of the same owner and file name as a board entry of the phase before
    (its re-runs too), in id order."""
    sources: Dict[Tuple[str, str], dict] = {}
    for item in submissions_of(site, before):
        if item.get("on_leaderboard") and not item.get("parent"):
            sources[(str(item.get("owner")), str(item.get("filename")))] = item
    pairs: List[Tuple[dict, dict]] = []
    for item in sorted(submissions_of(site, phase), key=lambda s: identifier(s.get("id"), "a submission's id")):
        pair_key = (str(item.get("owner")), str(item.get("filename")))
        if not item.get("parent") and pair_key in sources:
            pairs.append((item, sources[pair_key]))
    return pairs


def rerun_failed_copies(site: Site, comp_id: int, phase: dict, before: dict, say: Callable[[str], None]) -> None:
    """Re-run each source's newest copy when it failed (an older failed one was re-run already)."""
    newest: Dict[Tuple[str, str], dict] = {}
    for copy, _ in migrated_pairs(site, phase, before):
        newest[(str(copy.get("owner")), str(copy.get("filename")))] = copy
    failed = [copy for copy in newest.values() if copy.get("status") == "Failed"]
    for copy in failed:
        answer = site.call("POST", "/api/submissions/%s/re_run_submission/" % copy.get("id"),
                           what="re-running submission %s" % copy.get("id"))
        say("%s: submission %s (%s, migrated before the gold was there, failed): re-run as submission %s"
            % (phases.where(comp_id, phase), copy.get("id"), shown(str(copy.get("owner"))),
               answer.get("id") if isinstance(answer, dict) else "?"))
    if not failed:
        say("%s: no failed migrated copy to re-run: unchanged" % phases.where(comp_id, phase))


def copy_fact_sheets(site: Site, comp_id: int, phase_arg: str, say: Callable[[str], None] = print) -> int:
    """Give each migrated copy in ``phase`` without fact-sheet answers those of its source."""
    comp = resources.competition(site, comp_id)
    phase = phases.phase_of(comp, phase_arg)
    before = phases.previous(comp, phase)
    where = phases.where(comp_id, phase)
    if before is None:
        raise CodabenchError("%s is the first phase: no migrated submissions" % where)
    changed = kept = 0
    for copy, source in migrated_pairs(site, phase, before):
        answers = source.get("fact_sheet_answers")
        if copy.get("fact_sheet_answers") or not answers:
            kept += 1
            continue
        site.call("PATCH", "/api/submissions/%s/update_fact_sheet/" % copy.get("id"), answers,
                  what="the fact sheet of submission %s" % copy.get("id"))
        changed += 1
        say("%s: submission %s (%s): the fact sheet of submission %s copied (team %s, system %s)"
            % (where, copy.get("id"), shown(str(copy.get("owner"))), source.get("id"),
               shown(str(answers.get("team_name", "")) if isinstance(answers, dict) else ""),
               shown(str(answers.get("system_name", "")) if isinstance(answers, dict) else "")))
    say("%s: %d migrated submission%s given their fact sheet, %d unchanged"
        % (where, changed, "" if changed == 1 else "s", kept))
    return 0
