"""Every metric card (``scorer/tracks/<name>.md`` and the toy's) follows one template, and its worked
example is scored by the scoring program with the numbers the card prints.

The template (Hugging Face ``evaluate`` cards, plus the two sections the build copies into the
starting kit's README) is the list of ``##`` sections below, in that order; a track's own topics
are ``###`` subsections of them. The ``## Example`` section holds the example's files, each as
a line naming it (``ref/<name>`` for gold, ``res/<name>`` for the submission) and ending with a
colon, followed by an indented block that is the file's content; then a table of the scores,
one ``| `key` | value |`` row per leaderboard key of the track. The test writes the files into
``input/ref`` and ``input/res``, runs ``score.py`` as the platforms do, and checks each value to
the decimals the card prints.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PROGRAM, ROOT, nltk_data_dir, parse_scores_v15
from registry_inputs import sections, worked_example
from scorer.tracks.registry import TRACKS

pytestmark = pytest.mark.registry  # follows the registry: run in a copy with a seventh track

TEMPLATE = ["Definition", "Inputs", "Submission format", "Baseline", "Outputs", "Example",
            "Refusals and warnings", "Fidelity", "Citation"]
TOY = ROOT / "tests" / "toy_track"
CARDS = {track.name: PROGRAM / "scorer" / "tracks" / (track.name + ".md") for track in TRACKS}
CARDS["toy"] = TOY / "toy.md"


def _program_with_toy(tmp_path: Path) -> Path:
    """A copy of the scoring program with the toy track registered (as tests/test_adding_a_track.py)."""
    from conftest import copy_program, register_track
    program = copy_program(tmp_path / "program")
    shutil.copy(str(TOY / "toy.py"), str(program / "scorer" / "tracks" / "toy.py"))
    register_track(program, "toy")
    return program


@pytest.mark.parametrize("name", sorted(CARDS))
def test_every_card_follows_the_template(name):
    card = CARDS[name].read_text(encoding="utf-8")
    assert card.startswith("# Metric card: `%s` — " % name)
    assert [title for title, _ in sections(card)] == TEMPLATE


@pytest.mark.parametrize("name", sorted(CARDS))
def test_every_cards_worked_example_is_what_the_scoring_program_scores(tmp_path, name):
    files, printed = worked_example(CARDS[name].read_text(encoding="utf-8"))
    assert any(path.startswith("ref/") for path in files) and any(path.startswith("res/") for path in files)
    program = _program_with_toy(tmp_path) if name == "toy" else PROGRAM
    keys = ("toy_accuracy",) if name == "toy" else [track for track in TRACKS if track.name == name][0].keys
    assert sorted(printed) == sorted(keys), "the example's table gives every key of the track"
    for path, content in files.items():
        target = tmp_path / "input" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8"))
    env = None
    if nltk_data_dir() is not None:
        import os
        env = dict(os.environ, NLTK_DATA=str(nltk_data_dir()))
    process = subprocess.run([sys.executable, str(program / "score.py"), str(tmp_path / "input"),
                              str(tmp_path / "output")], capture_output=True, text=True, env=env, timeout=300)
    assert process.returncode == 0, process.stderr
    scored = parse_scores_v15((tmp_path / "output" / "scores.txt").read_text(encoding="ascii"))
    for key, value in printed.items():
        decimals = len(value.split(".")[1]) if "." in value else 0
        assert abs(scored[key] - float(value)) <= 0.5 * 10 ** -decimals + 1e-12, (key, scored[key], value)


@pytest.mark.parametrize("name", [track.name for track in TRACKS if track.aggregate.__module__.endswith(
    ("span_metric", "multilabel"))])
def test_the_in_memory_functions_give_the_cards_examples(name):
    """``span_metric.span_scores`` and ``multilabel.multilabel_scores`` (the notebook entry points the
    cards name) on a span or multilabel track's worked example give the numbers its card prints."""
    import json
    from scorer.machinery.multilabel import multilabel_scores
    from scorer.tracks.registry import BY_NAME
    from scorer.readers.options import Options
    from scorer.machinery.span_metric import span_scores
    track = BY_NAME[name]
    files, printed = worked_example(CARDS[name].read_text(encoding="utf-8"))
    sides = []
    for side in ("ref/", "res/"):
        documents = {}
        for path, content in files.items():
            if not path.startswith(side):
                continue
            if path.endswith(".json"):
                for record in json.loads(content):
                    documents[record["id"]] = record["labels"]
            else:  # TSV rows: article [technique] start end; a lone id declares an article
                for line in content.splitlines():
                    fields = line.split("\t")
                    spans = documents.setdefault(fields[0], [])
                    if len(fields) > 1:
                        technique = fields[1] if len(fields) == 4 else "propaganda"
                        spans.append((technique, int(fields[-2]), int(fields[-1])))
        sides.append(documents)
    gold, predicted = sides
    if track.aggregate.__module__.endswith("multilabel"):
        scores = multilabel_scores(gold, predicted, track.techniques)
        found = {track.keys[0]: scores["f1_micro"], track.keys[1]: scores["f1_macro"]}
    else:
        if any(isinstance(labels, list) and labels and isinstance(labels[0], dict) for labels in gold.values()):
            gold = {d: [(l["technique"], l["start"], l["end"]) for l in labels] for d, labels in gold.items()}
            predicted = {d: [(l["technique"], l["start"], l["end"]) for l in labels] for d, labels in predicted.items()}
            scores = span_scores(gold, predicted, track.options(Options()).overlapping_predictions, merge_gold=False)
        else:
            scores = span_scores(gold, predicted, track.options(Options()).overlapping_predictions)
        found = dict(zip(track.keys, (scores["f1"], scores["precision"], scores["recall"])))
    for key, value in printed.items():
        decimals = len(value.split(".")[1]) if "." in value else 0
        assert abs(found[key] - float(value)) <= 0.5 * 10 ** -decimals + 1e-12, (key, found[key], value)
