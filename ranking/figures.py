"""The figures (matplotlib): a ranking chart per leaderboard (points with CI bars) and a teams ×
techniques heatmap per technique track; SVG and PDF without dates or random ids."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .statistics import Board
from .tables import team_label


def _plain(text: str) -> str:
    """A label for matplotlib, which would read ``$...$`` in a team name as mathematics."""
    return text.replace("$", r"\$")


def _matplotlib():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({"svg.hashsalt": "rank_submissions", "svg.fonttype": "none",
                                "font.family": "DejaVu Sans", "font.size": 9, "pdf.fonttype": 42,
                                "path.simplify": False})
    return plt


def save_figure(figure, path_stem: str, signature: str) -> str:
    """Write ``path_stem``.svg and .pdf without dates or random ids, the signature in their
    metadata (SVG: dc:description; PDF: Subject); return the SVG text."""
    with warnings.catch_warnings():  # a team name in a script DejaVu Sans lacks: boxes, not a warning each
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        figure.savefig(path_stem + ".svg", format="svg", bbox_inches="tight",
                       metadata={"Date": None, "Creator": None, "Description": signature})
        figure.savefig(path_stem + ".pdf", format="pdf", bbox_inches="tight",
                       metadata={"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None,
                                 "Subject": signature})
    with open(path_stem + ".svg", encoding="utf-8") as handle:
        return handle.read()


def ranking_figure(board: Board, path_stem: str, signature: str, title: str, label: str) -> str:
    plt = _matplotlib()
    count = len(board.rows)
    figure, axes = plt.subplots(figsize=(6.0, 0.9 + 0.22 * count))
    y = np.arange(count)[::-1]
    for baseline in (False, True):
        chosen = [i for i, s in enumerate(board.rows) if s.entry.baseline == baseline]
        if not chosen:
            continue
        low = board.scores[chosen] - board.ci[chosen, 0]
        high = board.ci[chosen, 1] - board.scores[chosen]
        axes.errorbar(board.scores[chosen], y[chosen], xerr=np.vstack([low, high]), fmt="s" if baseline else "o",
                      color="#cf222e" if baseline else "#0969da", ecolor="#8c959f", capsize=2, markersize=4,
                      label="baseline" if baseline else "submission")
    axes.set_yticks(y)
    axes.set_yticklabels([_plain("%s%s" % ("" if s.entry.baseline else "%d. " % board.rank[i], team_label(s)))
                          for i, s in enumerate(board.rows)])
    direction = "higher" if board.higher_is_better else "lower"
    axes.set_xlabel(_plain("%s (%s is better), 95%% bootstrap CI" % (label, direction)))
    axes.set_title(_plain(title))
    axes.grid(axis="x", color="#eaeef2")
    if any(s.entry.baseline for s in board.rows):
        axes.legend(loc="best", fontsize=7)
    text = save_figure(figure, path_stem, signature)
    plt.close(figure)
    return text


def heatmap_figure(frame: pd.DataFrame, title: str, path_stem: str, signature: str) -> str:
    """Rows (in the order of the frame: the track's ranking) × techniques, each cell with its F1."""
    plt = _matplotlib()
    values = frame.drop(columns=["name", "baseline"]).to_numpy(dtype=np.float64)
    labels = list(frame.columns[2:])
    rows = [name + (" (baseline)" if baseline else "") for name, baseline in zip(frame["name"], frame["baseline"])]
    figure, axes = plt.subplots(figsize=(2.0 + 0.42 * len(labels), 1.9 + 0.26 * len(rows)))
    image = axes.imshow(values, aspect="auto", cmap="viridis", vmin=0.0, vmax=max(1.0, float(np.nanmax(values))))
    for (r, c), value in np.ndenumerate(values):
        if not np.isnan(value):
            axes.text(c, r, "%.2f" % value, ha="center", va="center", fontsize=5.5,
                      color="black" if value > 0.6 else "white")
    axes.set_xticks(np.arange(len(labels)))
    axes.set_xticklabels([_plain(label) for label in labels], rotation=60, ha="right", fontsize=7)
    axes.set_yticks(np.arange(len(rows)))
    axes.set_yticklabels([_plain(row) for row in rows], fontsize=7)
    axes.set_title(_plain("%s: F1 per technique (rows in ranking order)" % title))
    figure.colorbar(image, ax=axes, fraction=0.03)
    text = save_figure(figure, path_stem, signature)
    plt.close(figure)
    return text


def _draw(task: tuple) -> str:
    kind, arguments = task
    return (ranking_figure if kind == "ranking" else heatmap_figure)(*arguments)


def figure_task_of_board(board: Board, path_stem: str, signature: str, title: str, label: str) -> tuple:
    """A ``ranking_figure`` to draw (``draw_figures``): the board without its rows' statistics (the
    figure reads their entries only), light to send to another process."""
    import dataclasses

    from .scoring import Scored
    light = dataclasses.replace(board, rows=[Scored(s.entry) for s in board.rows])
    return "ranking", (light, path_stem, signature, title, label)


def draw_figures(tasks: dict, jobs: int) -> dict:
    """name -> the SVG text of each figure of ``tasks`` (name -> ``("ranking", arguments)`` of
    ``ranking_figure`` or ``("heatmap", arguments)`` of ``heatmap_figure``), each written as SVG and
    PDF; in ``jobs`` processes (the same bytes: the figures depend on their arguments only)."""
    if jobs <= 1 or len(tasks) < 2:
        return {name: _draw(task) for name, task in tasks.items()}
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(_draw, task) for name, task in tasks.items()}
        return {name: future.result() for name, future in futures.items()}
