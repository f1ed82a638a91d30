"""The scoring program's layers (README, "How the scoring program is built"): imports only go down.
(That only a track's module knows its files: tests/test_track_ownership.py.)

contract (score.py, locating the submission, the worker)
  -> outputs (scores.json, the page, signatures, resampling: they ask the registry)
  -> tracks (the registry and the track modules)
  -> shared machinery (metrics, statistics, public-input helpers, sample text)
  -> readers (files, problems, settings, the result record)
"""

from __future__ import annotations

import ast

from conftest import ROOT

SCORER = ROOT / "scoring_program" / "scorer"
LAYERS = {
    "contract": 4, "outputs": 3, "tracks": 2, "shared": 1, "readers": 0,
}
MODULE_LAYER = {
    "score": "contract", "submission": "contract", "workers": "contract", "in_process": "contract",
    "report": "outputs", "error_analysis": "outputs", "signature": "outputs", "resampling": "outputs",
    "registry": "tracks",
    "span_metric": "shared", "spans": "shared", "span_store": "shared", "multilabel": "shared",
    "meme_multilabel": "shared", "lcs": "shared", "nltk_tokens": "shared", "public_input": "shared",
    "sample_text": "shared", "per_item": "shared", "techniques": "shared",
    "readers": "readers", "records": "readers", "problems": "readers", "options": "readers",
    "result": "readers", "__init__": "readers",
}


def _layer(path) -> str:
    if path.parent.name == "tracks":
        return "tracks"
    return MODULE_LAYER[path.stem]


def _imported(path):
    """The scorer modules a file imports (at any depth of the file: function-level imports too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_tracks = path.parent.name == "tracks"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and not module.startswith("scorer"):
                continue
            if node.level == 0:
                parts = module.split(".")[1:]
            elif node.level == 1:
                parts = (["tracks"] if in_tracks else []) + module.split(".") if module else \
                    (["tracks"] if in_tracks else [])
            else:  # ..x from a track module
                parts = module.split(".") if module else []
            if not parts:  # "from . import __version__"
                yield "__init__"
            elif parts[0] == "tracks":
                yield "tracks"
            else:
                yield parts[0]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("scorer."):
                    part = alias.name.split(".")[1]
                    yield "tracks" if part == "tracks" else part


def test_every_scorer_module_has_a_layer():
    for path in sorted(SCORER.glob("*.py")):
        assert path.stem in MODULE_LAYER, "%s: add it to a layer (README and this test)" % path.name


def test_imports_only_go_down():
    wrong = []
    files = sorted(SCORER.glob("*.py")) + sorted((SCORER / "tracks").glob("*.py")) + \
        [ROOT / "scoring_program" / "score.py"]
    for path in files:
        layer = LAYERS[_layer(path)]
        for name in set(_imported(path)):
            target = LAYERS["tracks"] if name == "tracks" else LAYERS[MODULE_LAYER[name]]
            if target > layer:
                wrong.append("%s (%s) imports %s (%s)" % (path.name, _layer(path), name,
                                                           "tracks" if name == "tracks" else MODULE_LAYER[name]))
            if path.parent.name == "tracks" and name == "tracks" and path.stem != "__init__":
                wrong.append("%s imports another track module" % path.name)
    assert not wrong, wrong

