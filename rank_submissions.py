#!/usr/bin/env python3
"""The organisers' results: re-score every submission, with confidence intervals, rank ranges,
significance groups and the task paper's tables and figures.

    .venv/bin/python rank_submissions.py SUBMISSIONS --ref PHASE_GOLD_DIR --out DIR
        [--teams CSV] [--baseline NAME=PATH ...] [--resamples 1000] [--seed 0] [--jobs N]
        [--baseline-test bootstrap|ar]

SUBMISSIONS: a folder of submission zips or folders, or a platform's bulk download (Codabench's
"download selected" zip, Codalab v1.5's "download all submissions on the leaderboard" zip, or
either one unzipped). Each submission is scored in-process by the scoring program's own code
(``scorer.in_process.score_in_process``), so every score equals what ``score.py`` writes.

Statistics, per leaderboard (``scorer.resampling.LEADERBOARDS``: the primary score of each track,
and absita's ABSA and SA subtasks), on the items of the track (meme, article, id, review, each with
all its rows), with the same bootstrap resamples for every submission
(``scorer.resampling.resample_indices``, ``random.Random(seed)``):

- ``ci_low``/``ci_high``: nearest-rank 2.5th and 97.5th percentiles of the resampled scores;
- ``rank``: 1 + the number of strictly better submissions (ties share the smallest rank); baselines
  are ranked with the submissions and marked;
- ``rank_low``/``rank_high``: nearest-rank 2.5th and 97.5th percentiles of the resampled ranks;
- p-values (paired bootstrap): ``p = (1 + #{r : |Δ*_r − mean(Δ*)| ≥ |Δ|}) / (1 + R)``;
- groups: in score order, a group starts at its best submission; each next one joins while its
  p-value against that best is ≥ 0.05, otherwise it starts the next group.

With ``--baseline-test ar`` the p-values against each baseline (columns ``p_vs_<baseline>``) come
from approximate randomization (each item's statistics swapped between the pair with probability
1/2, R times, seeded; ``p = (1 + #{r : |Δ*_r| ≥ |Δ|}) / (1 + R)``): with per-item sufficient
statistics a shuffle is a sum, not a re-scoring.

Outputs in DIR (all byte-identical for the same inputs and seed; the signature is in each):
``<leaderboard>.csv``, ``pvalues_<leaderboard>.csv``, ``techniques_<track>.csv`` (teams ×
techniques F1), ``problems.csv``, ``results.md``, ``results.tex`` (booktabs), the figures
``<leaderboard>.svg|pdf`` and ``techniques_<track>.svg|pdf``, and ``index.html`` (self-contained).
CSV files start with one ``# signature: ...`` line: ``pandas.read_csv(path, skiprows=1)``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

import pandas as pd

from ranking import PROGRAM_DIR
from ranking.downloads import Entry, discover, read_teams, unique_names
from ranking.figures import heatmap_figure, ranking_figure
from ranking.scoring import TECHNIQUE_TRACKS, score_all
from ranking.statistics import ALPHA, Board, build_board
from ranking.tables import (board_frame, index_html, latex, markdown, number, technique_frame, write_csv,
                            write_text)
from scorer.options import load_options
from scorer.registry import BY_NAME, TRACKS
from scorer.signature import track_signature
from scorer.in_process import ReferenceDataProblem
from scorer.resampling import LEADERBOARDS

TOOL_VERSION = "1"


def signature_of(args, reference_dir: str) -> str:
    """This tool's settings, then the signature of each track of the phase as score.py writes it
    in scores.json (``scorer.signature``), separated by "; "."""
    options = load_options(PROGRAM_DIR, reference_dir)
    test = "paired-bootstrap" + ("+ar-vs-baselines" if args.baseline_test == "ar" else "")
    tool = ("rank_submissions:v%s|resamples:%d|seed:%d|test:%s|ci:95%%-nearest-rank|alpha:%s"
            % (TOOL_VERSION, args.resamples, args.seed, test, ALPHA))
    tracks = [track_signature(track.name, options) for track in TRACKS if track.find_gold(reference_dir)]
    return "; ".join([tool] + tracks)


def parse_baseline(text: str) -> Tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError("expected NAME=PATH, found %r" % text)
    name, path = text.split("=", 1)
    if not name or not os.path.exists(path):
        raise argparse.ArgumentTypeError("expected NAME=PATH with an existing PATH, found %r" % text)
    return name, path


def run(args) -> int:
    reference_dir = os.path.abspath(args.ref)
    if not os.path.isdir(reference_dir):
        raise SystemExit("rank_submissions: --ref %s: not a folder" % args.ref)
    entries, notes = discover(args.submissions)
    teams = read_teams(args.teams) if args.teams else {}
    for entry in entries:
        for key in entry.keys():
            if key in teams:
                entry.team = teams[key]
                break
    for name, path in args.baseline:
        entries.append(Entry(name, name, os.path.abspath(path), baseline=True))
    unique_names(entries)
    if not entries:
        raise SystemExit("rank_submissions: no submission found in %s" % args.submissions)
    scored = score_all(entries, reference_dir, args.jobs, progress=not args.quiet)
    signature = signature_of(args, reference_dir)
    os.makedirs(args.out, exist_ok=True)

    problems = [(s.entry.name, s.entry.team, track, line) for s in scored for track, line in s.problems]
    boards: List[Board] = []
    keys_of: Dict[str, List[str]] = {}
    for name, track, key, higher_is_better in LEADERBOARDS:
        entered = [s for s in scored if key in s.scores.get(track, {})]
        if not entered:
            continue
        board = build_board(name, track, key, higher_is_better, entered, args.resamples, args.seed,
                            args.baseline_test)
        boards.append(board)
        keys = [k for k in BY_NAME[track].keys if any(k in s.scores[track] for s in entered)]
        keys_of[name] = keys
        write_csv(os.path.join(args.out, name + ".csv"), board_frame(board, keys), signature)
        names = [s.entry.name for s in board.rows]
        pvalues = pd.DataFrame([[number(v) for v in row] for row in board.pvalues], index=names, columns=names)
        pvalues.index.name = "submission"
        write_csv(os.path.join(args.out, "pvalues_%s.csv" % name), pvalues, signature, index=True)

    figures: Dict[str, str] = {}
    for board in boards:
        figures[board.name] = ranking_figure(board, os.path.join(args.out, board.name), signature)
    technique_frames = {}
    for track in TECHNIQUE_TRACKS:
        frame = technique_frame(scored, track)
        if frame is None:
            continue
        technique_frames[track] = frame
        text_frame = frame.copy()
        for column in text_frame.columns[3:]:
            text_frame[column] = [number(v) for v in frame[column]]
        write_csv(os.path.join(args.out, "techniques_%s.csv" % track), text_frame, signature)
        figures["techniques_" + track] = heatmap_figure(frame, track, os.path.join(args.out, "techniques_" + track),
                                                        signature)

    write_csv(os.path.join(args.out, "problems.csv"),
              pd.DataFrame(problems + [("", "", "", note) for note in notes],
                           columns=["submission", "team", "track", "problem"]), signature)
    write_text(os.path.join(args.out, "results.md"), markdown(boards, problems, signature, keys_of))
    write_text(os.path.join(args.out, "results.tex"), latex(boards, problems, signature, keys_of))
    write_text(os.path.join(args.out, "index.html"),
               index_html(boards, figures, technique_frames, problems, signature, notes))
    if not args.quiet:
        print("scored %d submissions (%d not scored or partly refused); wrote %s"
              % (len(scored), len({row[0] for row in problems}), os.path.join(args.out, "index.html")))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="The organisers' results: every submission re-scored, with "
                                     "confidence intervals, rank ranges, significance groups and the "
                                     "task paper's tables and figures.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", help="folder of submissions, or a platform's bulk download zip")
    parser.add_argument("--ref", required=True, help="the phase's gold folder (as ref/ of the scoring program)")
    parser.add_argument("--out", required=True, help="where to write the tables and figures")
    parser.add_argument("--teams", help="CSV: the platform's submissions export, or two columns (submission, team)")
    parser.add_argument("--baseline", action="append", default=[], type=parse_baseline, metavar="NAME=PATH",
                        help="a baseline submission shown (marked) in every table; repeatable")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="scoring processes (default 1)")
    parser.add_argument("--baseline-test", choices=("bootstrap", "ar"), default="bootstrap",
                        help="the test of each submission against each baseline (ar: approximate randomization)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    args = parser.parse_args(argv)
    if args.resamples < 1:
        parser.error("--resamples must be at least 1")
    try:
        return run(args)
    except ReferenceDataProblem as error:
        print("rank_submissions: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
