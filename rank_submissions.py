#!/usr/bin/env python3
"""The organisers' results for the task paper: one row per team as the leaderboard showed it,
re-scored with the phase's own settings, with confidence intervals, rank ranges, significance
groups, and the paper's tables and figures.

    .venv/bin/python rank_submissions.py DOWNLOAD --ref PHASE_GOLD_DIR --out DIR
        [--results EXPORT] [--select last|best|all] [--descriptions PATH] [--settings FILE]
        [--teams CSV] [--migrated NEXT_PHASE_DOWNLOAD] [--baseline NAME=PATH ...] [--baseline-owner USER ...]
        [--no-kit-baselines] [--resamples 1000] [--seed 0] [--jobs N] [--baseline-test bootstrap|ar]

DOWNLOAD: Codabench's "Download selected" zip, Codalab v1.5's leaderboard download, either one
unzipped, ``codabench.py download``'s folder, or a folder of submission zips or folders
(``ranking/codabench_download.py``, ``codalab_download.py`` and ``client_download.py`` say what
each platform writes). Each submission is scored in-process by the scoring program's own code
(``scorer.run.in_process.score_in_process``), so every score equals what ``score.py`` writes.

Which submissions are rows (``ranking/selection.py``): with Codabench's results export
(``--results``), exactly the board's entries; otherwise per participant the last submission that
re-scores (``--select last``, the platforms' Force_Last), or the best by the primary column, or
all. A submission with any problem fails as a whole, as on the platforms: on no board, listed
with its first problem. The others are listed as not ranked.

Only what can be ranked is re-scored (``ranking/scoring.py`` ``score_selected``): with ``--results``
the export's entries, with ``--select last`` each participant's submissions from the latest backwards
until one re-scores; the others are listed as not ranked, "not re-scored" (``--score-all`` re-scores
every submission: the same boards, byte for byte, and every failing submission listed as such).

Baselines are marked rows of every table that take no rank and no group and move nobody's: by
default the starting kit's (``ranking/kit_baselines.py``: written from the public inputs derived
from ``--ref``'s gold and scored on it; ``--no-kit-baselines`` leaves them out), and those of
``--baseline`` and ``--baseline-owner``. ``--teams`` names each submission by whatever its platform
shows (``ranking/team_sheets.py``); a row naming none stops the run. ``--migrated`` names each
ranked row's copy on the next phase's board (``ranking/migrated.py``).

The phase's settings (``ranking/settings.py``): ``--ref DIR`` applies ``DIR/scoring_config.json``
when present, else the repository's ``phase_settings/<name of DIR>.json``; ``--settings FILE``
over it. The signature of every output says which, and each track's settings.

Statistics, per leaderboard (``scorer.outputs.resampling.LEADERBOARDS``: the primary score of each track,
and absita's ABSA and SA subtasks), on the items of the track (meme, article, id, review, each with
all its rows), with the same bootstrap resamples for every submission
(``scorer.outputs.resampling.resample_indices``, ``random.Random(seed)``):

- ``ci_low``/``ci_high``: nearest-rank 2.5th and 97.5th percentiles of the resampled scores
  (percentile bootstrap);
- ``rank``: 1 + the number of strictly better submissions (ties share the smallest rank); baselines
  are shown among the submissions, marked, and take no rank or group (nor move anyone's);
- ``rank_low``/``rank_high``: nearest-rank 2.5th and 97.5th percentiles of the resampled ranks (the
  participants' only);
- p-values (paired bootstrap): ``p = (1 + #{r : |Δ*_r − mean(Δ*)| ≥ |Δ|}) / (1 + R)``;
- groups: in score order, a group starts at its best submission; each next one joins while its
  p-value against that best is ≥ 0.05, otherwise it starts the next group (participants only).

Equal per-item statistics give bit-identical resampled scores (computed once), hence equal CIs,
ranks, rank ranges, groups and p = 1.

With ``--baseline-test ar`` the p-values against each baseline (columns ``p_vs_<baseline>``) come
from approximate randomization (each item's statistics swapped between the pair with probability
1/2, R times, seeded; ``p = (1 + #{r : |Δ*_r| ≥ |Δ|}) / (1 + R)``): with per-item sufficient
statistics a shuffle is a sum, not a re-scoring.

Outputs in DIR (all byte-identical for the same inputs and seed; the signature is in each):
``<leaderboard>.csv``, ``pvalues_<leaderboard>.csv``, ``techniques_<track>.csv`` (rows in rank
order × techniques F1), ``problems.csv`` (not scored), ``not_ranked.csv``, ``alike.csv`` (pairs of
ranked rows of different owners whose prediction file, as its track's reader reads it, predicts the
same for every item, or for >= 95% of them: ``ranking/copies.py``; also one warning line each),
``participants.csv``
(when descriptions are given), ``results.md``, ``results.tex`` (booktabs ``table*`` floats for a
two-column article), the figures ``<leaderboard>.svg|pdf`` and ``techniques_<track>.svg|pdf``, and
``index.html`` (self-contained). Labels and titles come from ``competition.yaml``. Every name from
a participant is shown through ``ranking/names.py`` (escaped, formula-safe in CSV, TeX-escaped).
CSV files start with one ``# signature: ...`` line: ``pandas.read_csv(path, skiprows=1)``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

import pandas as pd

from ranking import PROGRAM_DIR
from ranking.codabench_download import download_phase, resolve_readings
from ranking.codabench_export import (check_export_meets_download, export_of_phase, owners_from_export,
                                      read_results_export)
from ranking.copies import alike, alike_warnings
from ranking.descriptions import participant_descriptions
from ranking.downloads import discover
from ranking.entries import Entry
from ranking.figures import draw_figures, figure_task_of_board
from ranking.kit_baselines import kit_baselines
from ranking.labels import load_labels, primary_column
from ranking.migrated import name_copies, read_next_phase
from ranking.names import name_rows, shown
from ranking.out_folder import check_out, write_board_tables, write_documents, write_lists, write_technique_table
from ranking.scoring import TECHNIQUE_TRACKS, Scored, score_all, score_selected
from ranking.selection import SELECT_MODES, select, selection_note
from ranking.settings import phase_reference
from ranking.statistics import ALPHA, Board, build_board
from ranking.tables import Report, technique_frame
from ranking.team_sheets import TeamSheet, check_team_rows, name_teams, read_teams
from scorer.readers.options import load_options
from scorer.tracks.registry import BY_NAME, TRACKS
from scorer.outputs.signature import track_signature
from scorer.outputs.blind import not_gold
from scorer.run.in_process import ReferenceDataProblem, phase_tracks
from scorer.outputs.resampling import LEADERBOARDS

TOOL_VERSION = "2"
# Wall time of each step of the last run, in seconds (the benchmark reports them).
TIMINGS: Dict[str, float] = {}


def signature_of(args, reference_dir: str, applied: Sequence[str]) -> str:
    """This tool's settings (selection, phase settings applied), then the signature of each track
    of the phase as score.py writes it in scores.json (``scorer.outputs.signature``), separated by "; "."""
    options = load_options(PROGRAM_DIR, reference_dir)
    test = "paired-bootstrap" + ("+ar-vs-baselines" if args.baseline_test == "ar" else "")
    select_text = "results-export" if args.results else args.select
    settings = "+".join(os.path.basename(path) for path in applied) or "program"
    tool = ("rank_submissions:v%s|select:%s|settings:%s|resamples:%d|seed:%d|test:%s|ci:95%%-percentile-bootstrap"
            "|alpha:%s" % (TOOL_VERSION, select_text, settings, args.resamples, args.seed, test, ALPHA))
    tracks = [track_signature(track.name, options) for track in TRACKS if track.find_gold(reference_dir)]
    return shown("; ".join([tool] + tracks), limit=10000)


def parse_baseline(text: str) -> Tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError("expected NAME=PATH, found %r" % text)
    name, path = text.split("=", 1)
    if not name or not os.path.exists(path):
        raise argparse.ArgumentTypeError("expected NAME=PATH with an existing PATH, found %r" % text)
    return name, path


def check_gold_content(reference_dir: str, given: str) -> None:
    """--ref must hold gold: a blind phase's stand-in (the public inputs with placeholder answers)
    or a phase's public input is refused by what it holds (``scorer.outputs.blind.not_gold``), whatever
    settings file lies beside it."""
    with tempfile.TemporaryDirectory(prefix="rank-submissions-gold-") as work:
        refused = not_gold(reference_dir, work)
    if refused:
        track, why = refused[0]
        raise SystemExit("rank_submissions: --ref %s: the %s gold there is %s; re-score on the phase's gold "
                         "(--ref reference_data/<phase folder>)%s"
                         % (shown(given), track.name, why, " (and %d more tracks)" % (len(refused) - 1)
                            if len(refused) > 1 else ""))


def run(args) -> int:
    reference_dir = os.path.abspath(args.ref)
    if not os.path.isdir(reference_dir):
        raise SystemExit("rank_submissions: --ref %s: not a folder" % shown(args.ref))
    # Everything an organiser passes is checked before any scoring.
    check_out(args.out)
    warnings: List[str] = []
    sheet = TeamSheet("")
    if args.teams:
        sheet, found_warnings = read_teams(args.teams)
        warnings += found_warnings
    export = None
    if args.results:
        export, found_warnings = read_results_export(args.results)
        warnings += found_warnings
    if args.settings and not os.path.isfile(args.settings):
        raise SystemExit("rank_submissions: --settings %s: no such file" % shown(args.settings))
    found = discover(args.submissions)
    entries = found.entries
    resolve_readings(entries, {e.submission_id: e.owner for e in export or ()}, sheet.teams(), args.submissions)
    phase = download_phase(entries, args.submissions)
    if export is not None:
        export = export_of_phase(export, phase, args.results)
        owners_from_export(entries, export)
        check_export_meets_download(export, entries, args.results, args.submissions)
    warnings += check_team_rows(sheet, entries)
    name_teams(entries, participant_descriptions(found, export, args.descriptions), sheet.teams(), args.baseline_owner)
    next_phase = read_next_phase(args.migrated, phase) if args.migrated else None
    owners = {entry.owner for entry in entries}
    warnings += ["--baseline-owner %s: the download holds no submission of this account%s, so no row is its "
                 "baseline%s" % (shown(owner), " (phase %s)" % phase if phase else "",
                                 "" if args.no_kit_baselines else "; the starting kit's are (written from --ref)")
                 for owner in args.baseline_owner if owner not in owners]
    for name, path in args.baseline:
        entries.append(Entry(name, name, os.path.abspath(path), baseline=True))
    if not entries:
        raise SystemExit("rank_submissions: no submission found in %s" % shown(args.submissions))
    for warning in warnings:
        print("rank_submissions: warning: %s" % warning, file=sys.stderr)

    with tempfile.TemporaryDirectory(prefix="rank-submissions-") as work:
        phase_dir, applied = phase_reference(reference_dir, args.settings, work)
        check_gold_content(reference_dir, args.ref)  # (after the settings: a blind phase's are said first)
        kit_warnings: List[str] = []
        if not args.no_kit_baselines:
            kit_entries, kit_warnings = kit_baselines(reference_dir, work)
            entries += kit_entries
        settings = ("Phase settings: %s over the scoring program's own." % ", ".join(shown(p) for p in applied)
                    if applied else "Phase settings: none found (the scoring program's own settings).")
        print("rank_submissions: %s" % settings, file=sys.stderr)
        on_board = {e.key() for e in export} if export is not None else None
        started = time.perf_counter()
        if args.score_all:
            scored, not_rescored = score_all(entries, phase_dir, args.jobs, progress=not args.quiet), []
        else:  # only what can be ranked (ranking/scoring.py score_selected): the same rows
            scored, not_rescored = score_selected(entries, phase_dir, args.jobs, args.select, on_board,
                                                  progress=not args.quiet)
        TIMINGS["scoring"] = time.perf_counter() - started
        signature = signature_of(args, phase_dir, applied)
    for warning in kit_warnings:  # (after the scoring: a gold that cannot be read is said alone)
        print("rank_submissions: warning: %s" % warning, file=sys.stderr)
    # --select best: the board's primary column in competition.yaml, as the platform sorts by it
    ranked, skipped, failed = select(scored, args.select, primary_column(), on_board)
    if not_rescored:
        order = {id(entry): i for i, entry in enumerate(entries)}
        skipped = sorted(skipped + [(Scored(entry), why) for entry, why in not_rescored],
                         key=lambda pair: order.get(id(pair[0].entry), len(entries)))
    if on_board is not None:
        present = {s.entry.export_key() for s in scored}
        found.notes += ["on the leaderboard (results export) but not in the download: %s" % shown(key)
                        for key in sorted(on_board - present)]
    name_rows([s.entry for s in ranked])
    if next_phase is not None:
        for warning in name_copies([s.entry for s in ranked], next_phase, [t for t, _ in phase_tracks(reference_dir)]):
            print("rank_submissions: warning: %s" % warning, file=sys.stderr)
    started = time.perf_counter()
    copies = alike([(s.entry, s.digests) for s in ranked])
    copied = copies.pairs
    TIMINGS["copies"] = time.perf_counter() - started
    for warning in alike_warnings(copied) + copies.crowded:
        print("rank_submissions: warning: %s" % warning, file=sys.stderr)

    labels, titles = load_labels()
    report = Report(signature, labels, titles, args.resamples,
                    selection_note(args.select, found.platform, export is not None), settings,
                    failed=[(s.entry.team, s.entry.owner, s.entry.submission, s.problems[0][0], s.problems[0][1])
                            for s in failed],
                    skipped=[(s.entry.team, s.entry.owner, s.entry.submission, why) for s, why in skipped],
                    notes=list(found.notes))
    described_rows = [s for s in ranked if not s.entry.baseline and s.entry.description]
    rows = [{"Team": s.entry.name, "System": s.entry.system or s.entry.submission,
             "Description": s.entry.description.get("description", ""),
             "External data": s.entry.description.get("external data", "")}
            for s in described_rows]
    if rows:
        report.descriptions = pd.DataFrame(rows, columns=["Team", "System", "Description", "External data"])

    started = time.perf_counter()
    out = args.out
    boards: List[Board] = []
    keys_of: Dict[str, List[str]] = {}
    for name, track, key, higher_is_better in LEADERBOARDS:
        entered = [s for s in ranked if key in s.scores.get(track, {})]
        if not entered:
            continue
        board = build_board(name, track, key, higher_is_better, entered, args.resamples, args.seed,
                            args.baseline_test)
        boards.append(board)
        keys_of[name] = [k for k in BY_NAME[track].keys if any(k in s.scores[track] for s in entered)]
        write_board_tables(out, board, keys_of[name], signature)

    TIMINGS["statistics"] = time.perf_counter() - started
    started = time.perf_counter()
    figure_tasks: Dict[str, tuple] = {}  # drawn together at the end, in --jobs processes
    for board in boards:
        figure_tasks[board.name] = figure_task_of_board(board, os.path.join(out, board.name), signature,
                                                        report.board_title(board), labels[board.key])
    technique_tracks = []
    for track in TECHNIQUE_TRACKS:
        board = next((b for b in boards if b.track == track), None)
        frame = technique_frame(board.rows, track) if board is not None else None  # in the track's ranking order
        if frame is None:
            continue
        technique_tracks.append(track)
        write_technique_table(out, track, frame, signature)
        figure_tasks["techniques_" + track] = ("heatmap", (frame, titles[track], os.path.join(out, "techniques_" + track),
                                                           signature))
    figures = draw_figures(figure_tasks, args.jobs)

    TIMINGS["figures"] = time.perf_counter() - started
    write_lists(out, report, copied, [s.entry.owner for s in described_rows], signature)
    write_documents(out, boards, keys_of, figures, technique_tracks, report)
    if not args.quiet:
        print("ranked %d of %d submissions (%d not ranked, %d of them not re-scored; %d not scored); wrote %s"
              % (len(ranked), len(entries), len(skipped), len(not_rescored), len(failed),
                 os.path.join(out, "index.html")))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="The organisers' results: one row per team as the leaderboard "
                                     "showed it, re-scored, with confidence intervals, rank ranges, significance "
                                     "groups and the task paper's tables and figures.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", help="folder of submissions, or a platform's download zip")
    parser.add_argument("--ref", required=True, help="the phase's gold folder (as ref/ of the scoring program)")
    parser.add_argument("--out", required=True, help="where to write the tables and figures")
    parser.add_argument("--settings", help="a phase settings file (JSON) applied over the phase's own")
    parser.add_argument("--results", help="Codabench's results export (results.json, .csv or .zip): rank exactly "
                        "the leaderboard's entries, and read their fact sheets")
    parser.add_argument("--select", choices=SELECT_MODES, default="last",
                        help="without --results: each participant's last submission that re-scores (default), "
                        "their best by the primary column, or all")
    parser.add_argument("--migrated", metavar="DOWNLOAD",
                        help="the next phase's download (Post-Evaluation: codabench.py download, or a bulk download): "
                             "each ranked row's migrated copy, the submission the public board shows, named in the "
                             "CSV tables' migrated_submission column")
    parser.add_argument("--descriptions", help="system descriptions: a results export, or v1.5 method.txt files "
                                               "(a download or a folder)")
    parser.add_argument("--teams", help="CSV: two columns (submission, team), a submission named by its id, owner, "
                        "file name or Codalab v1.5's '<user> - <n>' (a row naming none stops the run); or Codabench's "
                        "submissions export")
    parser.add_argument("--baseline", action="append", default=[], type=parse_baseline, metavar="NAME=PATH",
                        help="a baseline submission shown (marked) in every table; repeatable")
    parser.add_argument("--baseline-owner", action="append", default=[], metavar="USER",
                        help="the downloaded submissions of this account are baselines (codabench.py baselines "
                             "submits them from the organiser's account): marked, not ranked; repeatable")
    parser.add_argument("--no-kit-baselines", action="store_true",
                        help="leave out the starting kit's baselines (default: its random and majority baselines, "
                             "written from --ref's public inputs and scored on it, as marked rows)")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="scoring processes (default 1)")
    parser.add_argument("--baseline-test", choices=("bootstrap", "ar"), default="bootstrap",
                        help="the test of each submission against each baseline (ar: approximate randomization)")
    parser.add_argument("--score-all", action="store_true",
                        help="re-score every submission (default: only what can be ranked: with --results, the "
                        "export's entries; with --select last, each participant's from the latest backwards "
                        "until one re-scores; the others are listed as not re-scored)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    args = parser.parse_args(argv)
    if args.resamples < 1:
        parser.error("--resamples must be at least 1")
    try:
        return run(args)
    except ReferenceDataProblem as error:
        print("rank_submissions: %s" % error, file=sys.stderr)
        return 2
    except OSError as error:  # a file that vanished or a full disk: one line, never a traceback
        print("rank_submissions: %s%s" % (error.strerror or error,
                                          ": " + shown(error.filename) if error.filename else ""), file=sys.stderr)
        return 2


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status  # (on sys.path: ranking/__init__.py)
    sys.exit(exit_status(main))
