"""What the site lets an anonymous visitor take from a competition, tried as one (no token):

- the reference data (gold) of every task by its dataset key (``gold_by_key``);
- each phase's board through ``GET /api/phases/<id>/get_leaderboard/`` (``AllowAny``), which
  matters when the board is hidden;
- a submission's detailed results (``get_detail_result``) and its details (``get_details``: the
  file, logs and outputs).

One line per channel: ``OPEN`` (a visitor takes what should be closed), ``open`` (public by the
competition's settings or due: a published competition, a board not hidden, a phase's practice
gold, a released stand-in, a later phase's gold once the phase before has ended) or ``closed``
(the build's placeholder of what is not yet due, with the site's dates, a refusal); the
organiser's token (when given) only finds the keys and submissions to try.
"""

from __future__ import annotations

from typing import Callable, Optional, Tuple

from . import phases, resources
from .errors import CodabenchError, HTTPStatusError, SiteDistrusted
from .gold_by_key import gold_lines, named, reference_keys
from .migration import submissions_of
from .shapes import identifier
from .site import Site


def _probe(visitor: Site, path: str) -> Tuple[bool, object, str]:
    try:
        answer = visitor.call("GET", path, what=path)
        return True, answer, "HTTP 200"
    except HTTPStatusError as error:
        return False, None, "HTTP %d" % error.code
    except SiteDistrusted:
        raise
    except CodabenchError as error:
        return False, None, str(error)


def check(site: Site, comp_id: int, say: Callable[[str], None] = print) -> int:
    """1 when gold can be taken by a visitor before it is due, else 0."""
    visitor = site.anonymous()
    try:
        public_view = resources.competition(visitor, comp_id)
        say("open    competition API: a visitor reads competition %d, its phases and tasks (published: public by "
            "design)" % comp_id)
    except HTTPStatusError as error:
        public_view = None
        say("closed  competition API: a visitor gets HTTP %d for competition %d (not published)" % (error.code, comp_id))
    if site.token:
        comp = resources.competition(site, comp_id)
    elif public_view is not None:
        comp = public_view
    else:
        raise CodabenchError("competition %d: a visitor cannot read it; give the organiser's token to find the "
                             "dataset keys to try" % comp_id)
    visible = {key for _, _, key in reference_keys(public_view)} if public_view else set()
    gold_open, practice = gold_lines(visitor, comp, visible, say)
    hidden = any(board.get("hidden") for board in comp.get("leaderboards") or [])
    for phase in phases.ordered(comp):
        ok, answer, how = _probe(visitor, "/api/phases/%s/get_leaderboard/" % phase.get("id"))
        rows = len(answer["submissions"]) if ok and isinstance(answer, dict) and \
            isinstance(answer.get("submissions"), list) else 0
        what = "board of %s" % named(phase)
        if ok and hidden:
            say("OPEN    %s (hidden in the editor): get_leaderboard gives a visitor %d rows" % (what, rows))
        elif ok:
            say("open    %s: public by the competition's settings (get_leaderboard: %d rows)" % (what, rows))
        else:
            say("closed  %s: a visitor gets %s" % (what, how))
    if not site.token:
        say("-       submission details and detailed results: not tried (give the organiser's token to list the "
            "submissions)")
        return 1 if gold_open else 0
    tried = False
    for phase in phases.ordered(comp):
        submission = _board_entry(site, phase)
        if submission is None:
            continue
        tried = True
        end = phases.utc(phase.get("end"))
        running = end is not None and not phases.ended(phase, phases.now_utc())
        for path, what in (("/api/submissions/%d/get_detail_result/" % submission, "detailed results"),
                           ("/api/submissions/%d/get_details/" % submission, "details (submitted file, logs, outputs)")):
            ok, answer, how = _probe(visitor, path)
            where = "%s of submission %d (%s)" % (what, submission, named(phase))
            if ok and answer and what == "detailed results" and comp.get("published"):
                # get_detail_result: anyone's, for a published competition with detailed results enabled
                say("open    %s: a visitor reads them (published, detailed results enabled: public by design; %s)"
                    % (where, path))
            elif ok and answer and running and str(phase.get("id")) not in practice:
                say("OPEN    %s: a visitor takes the board entry's submitted file while the phase runs (%s): another "
                    "team can copy it; set the phase's hide_output (the build does for a blind phase) and compare "
                    "prediction files with rank_submissions.py (identical and near-identical files are flagged)"
                    % (where, path))
            elif ok and answer:
                say("open    %s: a visitor reads them (%s; %s)" % (where, path, "the phase's practice data"
                                                                   if str(phase.get("id")) in practice else
                                                                   "the phase has ended or never ends: its board is "
                                                                   "public"))
            else:
                say("closed  %s: a visitor gets %s" % (where, how if not ok else "nothing"))
    if not tried:
        say("-       submission details and detailed results: not tried (no board entry in any phase yet)")
    return 1 if gold_open else 0


def _board_entry(site: Site, phase: dict) -> Optional[int]:
    """The newest finished board entry of ``phase``, as the organiser lists them."""
    found = [identifier(item.get("id"), "the submissions, id") for item in submissions_of(site, phase)
             if item.get("status") == "Finished" and not item.get("parent") and item.get("on_leaderboard", True)]
    return max(found) if found else None
