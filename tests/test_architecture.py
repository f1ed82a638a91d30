"""The scoring program's layers (README, "How the scoring program is built"): imports only go down.
(That only a track's module knows its files: tests/test_track_ownership.py.)

contract (score.py, locating the submission, the worker)
  -> outputs (scores.json, the page, its tables by group, signatures, resampling: they ask the registry)
  -> tracks (the registry and the track modules)
  -> shared machinery (metrics, statistics, public-input helpers, sample text)
  -> readers (files, problems, settings, the result record)
"""

from __future__ import annotations

import ast

import pytest

from conftest import ROOT

pytestmark = pytest.mark.registry  # follows the registry: run in a copy with a seventh track

SCORER = ROOT / "scoring_program" / "scorer"
LAYERS = {
    "contract": 4, "outputs": 3, "tracks": 2, "shared": 1, "readers": 0,
}
MODULE_LAYER = {
    "score": "contract", "submission": "contract", "workers": "contract", "in_process": "contract", "api": "contract",
    "cli": "contract",
    "report": "outputs", "error_analysis": "outputs", "signature": "outputs", "resampling": "outputs", "groups": "outputs",
    "fast_intervals": "outputs",
    "blind": "outputs",
    "registry": "tracks", "contract": "tracks",
    "span_metric": "shared", "spans": "shared", "span_store": "shared", "multilabel": "shared",
    "meme_multilabel": "shared", "lcs": "shared", "nltk_tokens": "shared", "public_input": "shared",
    "sample_text": "shared", "per_item": "shared", "techniques": "shared", "article_folder": "shared",
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



def _declaration_names():
    import sys
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.contract import DECLARATIONS
    return {declaration.name for declaration in DECLARATIONS}


def test_only_the_contract_reads_a_track_module():
    """Every declaration of a track module is read by ``scorer/contract.py`` (its ``Track`` view,
    with the contract's defaults): no other file asks a module with ``getattr``/``hasattr`` for a
    declaration, nor reaches for the module behind a track."""
    declarations = _declaration_names()
    contract = ROOT / "scoring_program" / "scorer" / "contract.py"
    found = []
    for folder in ("scoring_program", "bundle", "ranking", "starting_kit", "benchmarks", "tools", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == contract or ".venv" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in ("implementation", "scorer", "_module"):
                    found.append("%s:%d: .%s" % (path.relative_to(ROOT), node.lineno, node.attr))
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2):
                    continue
                attribute = node.args[1]
                if isinstance(attribute, ast.Constant) and attribute.value in declarations:
                    found.append("%s:%d: %s(..., %r)" % (path.relative_to(ROOT), node.lineno, node.func.id,
                                                         attribute.value))
    assert found == [], "read a track's declarations through scorer.registry's Track view:\n" + "\n".join(found)


def test_a_module_missing_a_required_declaration_is_one_clear_error():
    import sys
    import types
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.contract import DECLARATIONS, REQUIRED, ContractError, Track
    from scorer.registry import TRACKS
    from scorer.tracks import t6_st1

    for declaration in DECLARATIONS:
        module = types.ModuleType("scorer.tracks.broken")
        module.__file__ = "broken.py"
        module.__dict__.update({d.name: getattr(t6_st1, d.name) for d in DECLARATIONS if hasattr(t6_st1, d.name)})
        module.__dict__.pop(declaration.name, None)
        if declaration.default is REQUIRED:
            try:
                Track(module)
            except ContractError as error:
                assert str(error) == ("track module broken: missing the required declaration %s "
                                      "(scorer/contract.py)" % declaration.name)
            else:
                raise AssertionError("no error without " + declaration.name)
        else:
            default = declaration.default
            assert getattr(Track(module), declaration.view) == (declaration.convert(default) if declaration.convert
                                                                 else default)
    from scorer.registry import MODULES
    assert [track.name for track in TRACKS] == list(MODULES)  # a module's NAME is its file's name


def test_the_readme_gives_the_contract_as_its_docstring():
    """README, "Adding a track", step 1 is ``scorer/contract.py``'s docstring, word for word."""
    import sys
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer import contract

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Adding a track"):]
    block = section[section.index("   ```text\n") + len("   ```text\n"):section.index("\n   ```\n")]
    assert "\n".join(line[3:] for line in block.split("\n")) == contract.__doc__.strip("\n")


def _toy_module(**changes):
    """The toy track (tests/toy_track/toy.py) as a module object, with some declarations changed."""
    import importlib.util
    import sys
    import types
    sys.path.insert(0, str(ROOT / "scoring_program"))
    spec = importlib.util.spec_from_file_location("scorer.tracks.toy", str(ROOT / "tests" / "toy_track" / "toy.py"))
    toy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(toy)
    module = types.ModuleType("scorer.tracks.renamed")
    module.__file__ = toy.__file__
    module.__dict__.update({name: value for name, value in vars(toy).items() if not name.startswith("__")})
    module.__dict__.update(changes)
    return module


def test_scores_whose_keys_are_not_among_the_tracks_keys_are_one_error_naming_module_and_keys(tmp_path):
    """A module declaring other ``KEYS`` than its scores' keys is refused when it scores: one
    ``ContractError`` naming the module and both sets of keys; ``score.py`` then exits non-zero and
    writes no -1 for the file as if it were scored."""
    from scorer.contract import ContractError, Track
    from scorer.in_process import scored_files
    from scorer.options import Options

    track = Track(_toy_module(KEYS=("renamed_accuracy",), LEADERBOARDS=(("renamed", "renamed_accuracy"),)))
    gold, submission = tmp_path / "gold.json", tmp_path / "res.json"
    gold.write_text('[{"id": "1", "text": "a", "label": "yes"}]', encoding="utf-8")
    submission.write_text('[{"id": "1", "label": "yes"}]', encoding="utf-8")
    try:
        track.score(str(gold), str(submission), "toy_labels.json", Options(), str(tmp_path))
    except ContractError as error:
        assert str(error).startswith("track module renamed: its scores' keys (toy_accuracy) are not among its KEYS "
                                     "(renamed_accuracy)"), str(error)
    else:
        raise AssertionError("scored with keys other than its KEYS")
    [(_, result, error)] = list(scored_files([(track, str(gold))], {"toy_labels.json": str(submission)},
                                             Options(), str(tmp_path)))
    assert result is None and isinstance(error, ContractError)
    # The declared keys are what it writes: the same module with its own keys scores, and a track
    # may leave out keys of what was not submitted (absita's subtasks).
    assert Track(_toy_module()).score(str(gold), str(submission), "toy_labels.json", Options(),
                                      str(tmp_path)).scores == {"toy_accuracy": 1.0}
    wider = Track(_toy_module(KEYS=("toy_accuracy", "toy_other")))
    assert wider.score(str(gold), str(submission), "toy_labels.json", Options(), str(tmp_path)).scores == \
        {"toy_accuracy": 1.0}


def test_a_track_default_of_a_setting_applies_where_no_settings_file_gives_one():
    from scorer.contract import ContractError, Track
    from scorer.options import Options, apply_settings

    track = Track(_toy_module(SETTINGS=("overlapping_predictions",),
                              SETTING_DEFAULTS={"overlapping_predictions": "merge"}))
    assert track.options(Options()).overlapping_predictions == "merge"
    given = apply_settings(Options(), {"overlapping_predictions": "error"}, "scoring_config.json")
    assert track.options(given).overlapping_predictions == "error"
    assert track.options(Options().replace(detailed_results="scores")).overlapping_predictions == "merge"
    try:
        Track(_toy_module(SETTING_DEFAULTS={"overlapping_predictions": "merge"}))
    except ContractError as error:
        assert "SETTING_DEFAULTS gives overlapping_predictions, not in its SETTINGS" in str(error)
    else:
        raise AssertionError("a default of a setting the track does not read")
