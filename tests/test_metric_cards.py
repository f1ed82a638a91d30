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

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PROGRAM, ROOT, nltk_data_dir, parse_scores_v15
from registry_inputs import sections, worked_example
from scorer.tracks.registry import TRACKS

pytestmark = pytest.mark.registry  # follows the registry: run in a copy with new tracks added

TEMPLATE = ["Definition", "Inputs", "Submission format", "Baseline", "Outputs", "Example",
            "Refusals and warnings", "Fidelity", "Citation"]
TOY = ROOT / "tests" / "toy_track"
CARDS = {track.name: Path(track.card_path) for track in TRACKS}
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


@pytest.mark.parametrize("name", [track.name for track in TRACKS])
def test_the_in_memory_functions_give_the_cards_examples(tmp_path, name):
    """The in-memory entry point a card names for a notebook (``span_metric.span_scores``,
    ``multilabel.multilabel_scores``, ...), on the card's worked example as the track's own readers
    read it (the module's ``in_memory_scores``), gives the numbers its card prints."""
    from scorer.tracks.registry import BY_NAME
    track = BY_NAME[name]
    card = CARDS[name].read_text(encoding="utf-8")
    files, printed = worked_example(card)
    for path, content in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8"))
    gold, submission = track.find_gold(str(tmp_path / "ref")), tmp_path / "res" / track.filename
    found = track.in_memory_scores(gold, str(submission), track.filename)
    if found is None:  # (the card's worked example is scored by score.py all the same: the test above)
        pytest.skip("track %s: its module declares no in_memory_scores (scorer/tracks/contract.py)" % name)
    assert sorted(found) == sorted(printed), "%s: in_memory_scores gives %s, the card's example %s" % (
        track.module_path, sorted(found), sorted(printed))
    for key, value in printed.items():
        decimals = len(value.split(".")[1]) if "." in value else 0
        assert abs(found[key] - float(value)) <= 0.5 * 10 ** -decimals + 1e-12, (track.module_path, key, found[key],
                                                                                  value)
