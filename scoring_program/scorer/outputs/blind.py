"""A blind phase: the submission is read and checked as in every other phase, and nothing written
or printed depends on the gold.

The SemEval organisers' guide asks for an Evaluation phase where participants "cannot see the
results of [their] submission". Codabench has no setting that hides a participant's own scores
(codalab/codabench#2088), and since February 2026 it shows every submission's detailed results of a
published competition to anyone (PR #2155); its hidden leaderboards are hidden on the page only
(``/api/phases/<id>/get_leaderboard/`` answers anyone). So the scoring program makes the phase
blind itself, when the phase's settings say ``"blind": true`` (``phase_settings/<name>.json``):

- the phase's reference folder is replaced, before anything is read, by a stand-in made of what its
  participants already have: each track's public inputs (``write_public_input``) turned into a gold
  with the right ids and texts and no answers (``write_stand_in_gold``, as the starting kit's
  ``check_format.py`` does), and the phase's settings files. Every track then reads and checks the
  submission exactly as in every other phase (the same readers, limits and problem lines, the same
  exit status), against the stand-in: no refusal, warning, count or running time can depend on
  which items are in the gold or on its answers. The build uploads only that stand-in for a blind
  phase (``build_bundle.py``), so the gold is not even on the platform; deriving it again here
  keeps the phase blind whatever its reference data holds;
- ``scores.txt`` and ``scores.json`` give every leaderboard key its not-entered value
  (``scores_files.not_entered_value``: -1, and 9999999999 for ``sa_rmse``), the same for every
  submission: Codabench needs a value for each column, and these rank every entry equal and
  last, so the (hidden) board and the organisers' results export show no score. The real scores
  come from the Post-Evaluation phase (migration re-scores each participant's last submission on
  the gold) and from ``rank_submissions.py`` on the phase's download;
- ``detailed_results.html`` says what was received and checked: the files, the tracks entered and
  not entered, the size of each file, the number of items of the phase's public input, the
  warnings about the submission's own content, the problems; and that scores come when the phase
  ends. stdout and stderr hold the same lines as in any other phase, minus the scores.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from ..readers.options import CONFIG_NAME, OTHER_PHASES
from ..readers.problems import ReferenceDataError

# What the page and stdout say instead of scores.
BLIND_LINE = ("blind phase: the submission was read and checked; its scores are not shown in this phase "
              "(not on the leaderboard, in the logs, the output files or this page): they come when the phase ends")


def stand_in_reference(reference_dir: str, work_dir: str) -> Tuple[str, Dict[str, Optional[int]]]:
    """A reference folder in ``work_dir`` holding only what the phase's participants have: for each
    track with gold (or a stand-in) in ``reference_dir``, its public inputs as a gold without
    answers; and the phase's ``scoring_config.json`` and ``other_phases.json``. Returns its path and
    each track's number of public items (None: the track cannot count them). A track whose public
    inputs cannot be derived is a ``ReferenceDataError`` naming the track."""
    from ..tracks.registry import TRACKS
    public = os.path.join(work_dir, "public")
    target = os.path.join(work_dir, "ref")
    os.makedirs(public, exist_ok=True)
    os.makedirs(target, exist_ok=True)
    for name in (CONFIG_NAME, OTHER_PHASES):
        if os.path.isfile(os.path.join(reference_dir, name)):
            shutil.copyfile(os.path.join(reference_dir, name), os.path.join(target, name))
    items: Dict[str, Optional[int]] = {}
    for track in TRACKS:
        if track.find_gold(reference_dir) is None:
            continue
        try:
            track.write_public_input(reference_dir, public, track.filename)
            track.write_stand_in_gold(public, target, track.filename)
            ids = track.public_ids(public, track.filename)
            items[track.name] = None if ids is None else len(ids)
        except ReferenceDataError:
            raise
        except Exception as error:  # a reader of ours that let something through: one line, no gold
            raise ReferenceDataError(["reference data: the public inputs of track %s cannot be derived from it"
                                      % track.name],
                                     ["reference data: the public inputs of track %s cannot be derived (%s: %s)"
                                      % (track.name, type(error).__name__, error)]) from None
    return target, items


def _same_content(first: str, second: str) -> bool:
    """Whether two files, or two folders (the same relative files, byte for byte), hold the same."""
    if os.path.isdir(first) != os.path.isdir(second):
        return False
    if not os.path.isdir(first):
        if os.path.getsize(first) != os.path.getsize(second):
            return False
        with open(first, "rb") as one, open(second, "rb") as other:
            while True:
                a, b = one.read(1 << 20), other.read(1 << 20)
                if a != b:
                    return False
                if not a:
                    return True

    def files(root: str) -> List[str]:
        return sorted(os.path.relpath(os.path.join(folder, name), root)
                      for folder, _, names in os.walk(root) for name in names)
    listed = files(first)
    return listed == files(second) and all(_same_content(os.path.join(first, name), os.path.join(second, name))
                                           for name in listed)


def gold_without_answers(track, reference_dir: str, work_dir: str) -> bool:
    """Whether ``track``'s gold in ``reference_dir`` holds no answers: it is, byte for byte, the
    stand-in its own public inputs make (``write_public_input``, then ``write_stand_in_gold``), as
    a blind phase's reference data is. Decided by what the gold holds, never by a setting beside
    it (a ``scoring_config.json`` saying ``"blind": true`` next to the real gold is still gold).
    False when the public inputs cannot be derived (the gold's reader then says what is wrong)."""
    gold = track.find_gold(reference_dir)
    if gold is None:
        return False
    public, again = os.path.join(work_dir, "public"), os.path.join(work_dir, "again")
    for folder in (public, again):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    try:
        if not track.write_public_input(reference_dir, public, track.filename):
            return False
        track.write_stand_in_gold(public, again, track.filename)
        made = track.find_gold(again)
        return made is not None and _same_content(gold, made)
    except Exception:  # a gold its reader refuses: not a stand-in; the reader says why
        return False
    finally:
        shutil.rmtree(public, ignore_errors=True)
        shutil.rmtree(again, ignore_errors=True)


def public_input_as_gold(track, reference_dir: str, work_dir: str) -> bool:
    """Whether ``track``'s gold in ``reference_dir`` is the phase's public input (the inputs
    without the answers, as the build publishes them): the public inputs derived from it are, byte
    for byte, the files it holds, the gold's own name among them (a gold with answers loses them on
    the way; a source text beside the gold, published as it is, is no sign)."""
    gold = track.find_gold(reference_dir)
    if gold is None:
        return False
    again = os.path.join(work_dir, "public_again")
    shutil.rmtree(again, ignore_errors=True)
    os.makedirs(again)
    try:
        written = track.write_public_input(reference_dir, again, track.filename)
        ours = os.path.relpath(gold, reference_dir) in [name.rstrip("/") for name in written]
        return ours and all(os.path.exists(os.path.join(reference_dir, name)) and _same_content(
            os.path.join(reference_dir, name), os.path.join(again, name)) for name in written)
    except Exception:  # not readable that way: the gold's reader says what is wrong
        return False
    finally:
        shutil.rmtree(again, ignore_errors=True)


def not_gold(reference_dir: str, work_dir: str, tracks: Optional[Sequence] = None) -> List[Tuple[object, str]]:
    """(track, why) for each track of ``tracks`` (default: all) whose gold in ``reference_dir`` is
    no gold: a blind phase's stand-in (no answers), or the phase's public inputs
    (``is_public_input``). What the organisers' tools and the installed scorer refuse to score
    against, whatever the folder's settings say."""
    from ..tracks.registry import TRACKS
    found: List[Tuple[object, str]] = []
    for track in TRACKS if tracks is None else tracks:
        if track.find_gold(reference_dir) is None:
            continue
        if gold_without_answers(track, reference_dir, work_dir):
            found.append((track, "a blind phase's stand-in: the public inputs with placeholder answers, no gold"))
        elif track.is_public_input(reference_dir) or public_input_as_gold(track, reference_dir, work_dir):
            found.append((track, "a phase's public input (the questions, without the answers), not gold"))
    return found


def blind_scores(phase_tracks: Sequence[str]) -> dict:
    """Every leaderboard key of the phase's tracks with its not-entered value: the same for every
    submission, so the board, hidden or not, shows nothing of any."""
    from .scores_files import leaderboard_scores
    return leaderboard_scores({}, phase_tracks)  # no key scored: each its not-entered value


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def render_blind_html(received: Sequence[tuple], problems: Sequence[str], not_entered: Sequence[str]) -> str:
    """The page of a blind phase. ``received``: (track name, file name, bytes, items of the phase's
    public input, item noun, warnings) for each file read and checked without a problem; nothing
    on it comes from the gold."""
    from ..tracks.registry import BY_NAME
    from html import escape as e
    from .page_style import STYLE
    parts: List[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                        '<meta name="viewport" content="width=device-width, initial-scale=1">',
                        "<title>%s</title><style>%s</style></head><body>"
                        % ("Submission failed" if problems else "Submission received", STYLE),
                        "<h1>%s</h1>" % ("Submission failed" if problems else "Submission received")]
    if problems:  # first, as on every other phase's page: it failed, and why
        parts.append('<p class="failed"><strong>This submission failed: it was not accepted (on Codabench it does not count '
                     'against your submission limit).</strong> The problems below say why.</p>')
    parts += ['<p class="summary">This is a blind phase. The submission was read and checked as in every '
                        "other phase; its scores are not shown here, in the logs, the output files or on the "
                        "leaderboard (every column holds the value of a track not entered). They come when the "
                        "phase ends (in this competition's default sequence, each participant's last finished "
                        "submission is then scored again in the Post-Evaluation phase, on the same gold).</p>"]
    if problems:
        parts.append("<h2>Problems</h2><ul>")
        parts.extend("<li>%s</li>" % e(line) for line in problems)
        parts.append("</ul>")
    if received:
        parts.append('<h2>Read and checked</h2><div class="scroll"><table><tr><th>track</th><th>file</th>'
                     "<th>bytes</th><th>items of this phase's input</th></tr>")
        for name, file_name, size, items, noun, _ in received:
            parts.append('<tr><td class="key">%s</td><td>%s</td><td>%d</td><td>%s</td></tr>'
                         % (e(name), e(file_name), size, "%d %ss" % (items, e(noun)) if items is not None else "—"))
        parts.append("</table></div>")
        for name, file_name, _, _, _, warnings in received:
            if warnings:
                parts.append('<h3>%s: warnings about the file\'s content</h3><ul class="warnings">' % e(name))
                parts.extend("<li>%s: warning: %s</li>" % (e(file_name), e(warning)) for warning in warnings)
                parts.append("</ul>")
    elif not problems:
        parts.append('<p class="note">No track was read.</p>')
    for name in not_entered:
        track = BY_NAME[name]
        parts.append('<h2 id="%s">%s: not entered</h2><p class="note">No %s in this submission.</p>'
                     % (e(name), e(track.title), e(track.filename)))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_blind_outputs(found) -> None:
    """A blind phase's outputs of a run (``run_outputs.RunFindings``): the same files and streams as
    any other phase's, no score."""
    from ..readers.problems import capped
    from ..tracks.registry import BY_NAME
    from .scores_files import write_scores
    from .verdict import failed_line
    shown = capped(found.problems, more=found.hidden, stopped=found.stopped)
    write_scores(found.output_dir, blind_scores(found.phase_tracks), {})
    not_entered = [name for name in found.phase_tracks if name not in found.submitted]
    received = [(result.track, BY_NAME[result.track].filename, _size(found.files.get(BY_NAME[result.track].filename, "")),
                 found.items.get(result.track), result.item_noun, list(result.warnings)) for result in found.results]
    with open(os.path.join(found.output_dir, "detailed_results.html"), "w", encoding="utf-8",
              newline="\n") as handle:
        handle.write(render_blind_html(received, shown, not_entered))
    if found.problems:
        print(failed_line(False))
        for line in shown:
            print(line, file=sys.stderr)
        return
    print(BLIND_LINE)
    for name in not_entered:
        print("%s: not entered (its leaderboard columns hold the same values as every other submission's)" % name)
