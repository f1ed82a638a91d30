"""The scoring program's layers are the sub-folders of ``scoring_program/scorer/`` (docs/architecture.md, "How the
scoring program is built"): imports only go down, by folder. (That only a track's module knows its
files: tests/test_track_ownership.py.)

run/ (score.py beside the package, locating the submission, the worker, the API and command)
  -> outputs/ (scores.json, the page, its tables by group, signatures, resampling: they ask the registry)
  -> tracks/ (the contract, the registry and the track modules)
  -> machinery/ (metrics, statistics, public-input helpers, sample text)
  -> readers/ (files, problems, settings, the result record)
"""

from __future__ import annotations

import ast

import pytest

from conftest import ROOT

pytestmark = pytest.mark.registry  # follows the registry: run in a copy with a seventh track

PROGRAM = ROOT / "scoring_program"
SCORER = PROGRAM / "scorer"
# The layers, top to bottom: each folder may import its own folder and those below it.
LAYERS = ("run", "outputs", "tracks", "machinery", "readers")
# The modules of the tracks layer that are not track modules.
TRACKS_LAYER = ("__init__", "contract", "registry")


def _layer(path) -> str:
    """The layer of a file of the scoring program: its folder under ``scorer/`` (``score.py`` is the
    top layer; ``scorer/__init__.py``, which holds only ``__version__``, the bottom one)."""
    relative = path.relative_to(PROGRAM).parts
    if relative == ("score.py",):
        return "run"
    if relative == ("scorer", "__init__.py"):
        return "readers"
    assert len(relative) == 3 and relative[1] in LAYERS, "%s: not in a layer folder of scorer/ (%s)" % (
        path.relative_to(ROOT), ", ".join(LAYERS))
    return relative[1]


def _package(path):
    parts = list(path.relative_to(PROGRAM).with_suffix("").parts)
    return parts[:-1]


def _imported(path):
    """The scorer modules a file imports, as dotted parts under ``scorer`` (at any depth of the file:
    function-level imports too), relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = (node.module or "").split(".")
            else:
                base = package[:len(package) - node.level + 1] + ((node.module or "").split(".") if node.module
                                                                     else [])
            if base[0] != "scorer":
                continue
            if len(base) == 1:  # "from scorer import x": a module or __version__
                for alias in node.names:
                    yield ["scorer", alias.name] if alias.name in LAYERS else ["scorer"]
            elif len(base) == 2 and node.module is None or len(base) == 2 and base[1] in LAYERS and \
                    all((SCORER / base[1] / (alias.name + ".py")).exists() for alias in node.names):
                for alias in node.names:  # "from ..machinery import span_metric"
                    yield base + [alias.name]
            else:
                yield base
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "scorer":
                    yield alias.name.split(".")


def _program_files():
    return sorted(SCORER.rglob("*.py")) + [PROGRAM / "score.py"]


def test_every_scorer_module_is_in_a_layer_folder():
    for path in _program_files():
        _layer(path)


def test_imports_only_go_down_by_folder():
    wrong = []
    for path in _program_files():
        layer = _layer(path)
        for parts in _imported(path):
            target = "readers" if parts == ["scorer"] else parts[1]
            assert target in LAYERS, "%s imports scorer.%s: not a layer folder" % (path.relative_to(ROOT), target)
            where = "%s (%s/) imports %s (%s/)" % (path.relative_to(ROOT), layer, ".".join(parts), target)
            if LAYERS.index(target) < LAYERS.index(layer):
                wrong.append(where)
            is_track = layer == "tracks" and path.stem not in TRACKS_LAYER
            if is_track and target == "tracks" and len(parts) > 2 and parts[2] not in TRACKS_LAYER[1:]:
                wrong.append(where + ": a track module imports another track module")
            if is_track and target == "tracks" and len(parts) > 2 and parts[2] == "registry":
                wrong.append(where + ": a track module imports the registry")
    assert not wrong, "\n".join(wrong)


def test_the_layer_check_sees_an_upward_import(tmp_path):
    """The check above is not vacuous: a machinery module importing the registry is an upward import."""
    path = SCORER / "machinery" / "lcs.py"
    imported = list(_imported(path))
    assert all(parts[1] in ("machinery", "readers") for parts in imported if len(parts) > 1), imported
    tree = "from ..tracks.registry import TRACKS\nfrom scorer.outputs import results_page\n"
    fake = SCORER / "machinery" / "_probe_upward.py"
    fake.write_text(tree, encoding="utf-8")
    try:
        assert [p[:3] for p in _imported(fake)] == [["scorer", "tracks", "registry"], ["scorer", "outputs", "results_page"]]
    finally:
        fake.unlink()


def _declaration_names():
    import sys
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.tracks.contract import DECLARATIONS
    return {declaration.name for declaration in DECLARATIONS}


def test_only_the_contract_reads_a_track_module():
    """Every declaration of a track module is read by ``scorer/tracks/contract.py`` (its ``Track`` view,
    with the contract's defaults): no other file asks a module with ``getattr``/``hasattr`` for a
    declaration, nor reaches for the module behind a track."""
    declarations = _declaration_names()
    contract = ROOT / "scoring_program" / "scorer" / "tracks" / "contract.py"
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
    assert found == [], "read a track's declarations through scorer.tracks.registry's Track view:\n" + "\n".join(found)


def test_a_module_missing_a_required_declaration_is_one_clear_error():
    import sys
    import types
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.tracks.contract import DECLARATIONS, REQUIRED, ContractError, Track
    from scorer.tracks.registry import TRACKS
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
                                      "(scorer/tracks/contract.py)" % declaration.name)
            else:
                raise AssertionError("no error without " + declaration.name)
        else:
            default = declaration.default
            assert getattr(Track(module), declaration.view) == (declaration.convert(default) if declaration.convert
                                                                 else default)
    from scorer.tracks.registry import MODULES
    assert [track.name for track in TRACKS] == list(MODULES)  # a module's NAME is its file's name


def test_the_readme_gives_the_contract_as_its_docstring():
    """docs/track-authors.md, "Adding a track", step 1 is ``scorer/tracks/contract.py``'s docstring, word for word."""
    import sys
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.tracks import contract

    readme = (ROOT / "docs" / "track-authors.md").read_text(encoding="utf-8")
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
    from scorer.tracks.contract import ContractError, Track
    from scorer.run.in_process import scored_files
    from scorer.readers.options import Options

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
    from scorer.tracks.contract import ContractError, Track
    from scorer.readers.options import Options, apply_settings

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
