"""Which submission of each participant is ranked: the one the leaderboard showed at the end of the
phase. Every other one is listed in an appendix, with why it takes no rank.

- With Codabench's results export: exactly the board's entries (``<owner>-<submission id>``).
- Otherwise ``last`` (the default; Codabench's ``Force_Last`` and v1.5's
  ``force_submission_to_leaderboard``): per participant, the highest-numbered submission that
  re-scores without a problem. A download cannot show what failed on the platform (time limit,
  cancelled) nor the order in which submissions finished: the outputs say so.
- ``best``: per participant, the best by the board's primary column (the competition's first
  leaderboard key, as a platform ranks), a later one on a tie; ``all``: every submission.

A submission with any problem (a file refused, or the whole submission unreadable) fails as a
whole on the platforms, which then record none of its scores: it is ranked on no board.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple

from .scoring import Scored

SELECT_MODES = ("last", "best", "all")


def _later_first(scored: Scored) -> tuple:
    order = scored.entry.order
    return (order is not None, order if order is not None else 0, scored.entry.submission)


def select(scored: Sequence[Scored], mode: str, primary: Tuple[str, str, bool],
           on_board: Optional[Set[str]] = None) -> Tuple[List[Scored], List[Tuple[Scored, str]], List[Scored]]:
    """(ranked, [(not ranked, why)], failed). ``primary``: (track, key, higher is better) of the
    board's primary column; ``on_board``: the results export's ``<owner>-<id>`` keys."""
    failed = [s for s in scored if s.problems and not s.entry.baseline]
    fine = [s for s in scored if not s.problems or s.entry.baseline]
    baselines = [s for s in fine if s.entry.baseline]
    fine = [s for s in fine if not s.entry.baseline]
    ranked: List[Scored] = []
    skipped: List[Tuple[Scored, str]] = []
    if on_board is not None:
        for s in fine:
            if s.entry.export_key() in on_board:
                ranked.append(s)
            else:
                skipped.append((s, "not on the leaderboard (results export)"))
        for s in failed:
            if s.entry.export_key() in on_board:
                s.problems.append(("", "on the platform's leaderboard, but does not re-score here"))
        return ranked + baselines, skipped, failed
    if mode == "all":
        return fine + baselines, skipped, failed
    by_owner: Dict[str, List[Scored]] = {}
    for s in fine:
        # a submission without a participant (a plain file) is its own participant
        by_owner.setdefault(s.entry.owner or "\0" + s.entry.source + s.entry.member, []).append(s)
    track, key, higher = primary
    for owner, theirs in by_owner.items():
        if mode == "best":
            def goodness(s: Scored) -> tuple:
                value = s.scores.get(track, {}).get(key)
                return (value is not None, (value if higher else -value) if value is not None else 0.0,
                        _later_first(s))
            chosen = max(theirs, key=goodness)
            why = "not the participant's best by %s" % key
        else:
            chosen = max(theirs, key=_later_first)
            why = "not the participant's last submission that re-scores"
        ranked.append(chosen)
        skipped += [(s, why + " (ranked: %s)" % chosen.entry.submission) for s in theirs if s is not chosen]
    order = {id(s): i for i, s in enumerate(scored)}
    ranked.sort(key=lambda s: order[id(s)])
    skipped.sort(key=lambda pair: order[id(pair[0])])
    return ranked + baselines, skipped, failed


def selection_note(mode: str, platform: str, with_export: bool) -> str:
    """What the rows are, in one sentence for every output."""
    if with_export:
        return ("Rows: the leaderboard's entries as Codabench's results export lists them, one per "
                "participant; every other submission is listed as not ranked.")
    if mode == "all":
        return "Rows: every submission that re-scores without a problem (--select all)."
    if mode == "best":
        return ("Rows: per participant, the submission with the best primary score (--select best); "
                "the others are listed as not ranked.")
    if platform == "codalab-v1.5":
        return ("Rows: the leaderboard's entries as Codalab v1.5's download holds them, one per participant.")
    return ("Rows: per participant, the latest submission (highest id) that re-scores without a problem. "
            "A download cannot show which submissions failed on the platform (time limit, cancelled) nor "
            "the order in which they finished: give Codabench's results export (--results) to rank "
            "exactly the leaderboard's entries.")
