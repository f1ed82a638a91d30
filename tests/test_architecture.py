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

pytestmark = pytest.mark.registry  # follows the registry: run in a copy with new tracks added

PROGRAM = ROOT / "scoring_program"
SCORER = PROGRAM / "scorer"
# The layers, top to bottom: each folder may import its own folder and those below it.
LAYERS = ("run", "outputs", "tracks", "machinery", "readers")
# The modules of the tracks layer that are not track modules.
TRACKS_LAYER = ("__init__", "contract", "registry")


def _layer(path, program=PROGRAM) -> str:
    """The layer of a file of the scoring program: its folder under ``scorer/`` (``score.py`` is the
    top layer; ``scorer/__init__.py``, which holds only ``__version__``, the bottom one). A track
    package's files (``scorer/tracks/<name>/``) are in the tracks layer."""
    relative = path.relative_to(program).parts
    if relative == ("score.py",):
        return "run"
    if relative == ("scorer", "__init__.py"):
        return "readers"
    in_a_layer = len(relative) == 3 and relative[1] in LAYERS
    in_a_track_package = len(relative) == 4 and relative[1] == "tracks" and relative[2] not in TRACKS_LAYER
    assert in_a_layer or in_a_track_package, "%s: not in a layer folder of scorer/ (%s) or a track's package" % (
        path, ", ".join(LAYERS))
    return relative[1]


def _track_of(path, program=PROGRAM):
    """The track a file of the tracks layer belongs to: its module's name, or its package's; None
    for the layer's own modules (the contract, the registry)."""
    relative = path.relative_to(program / "scorer").parts
    if len(relative) == 3:
        return relative[1]
    return None if path.stem in TRACKS_LAYER else path.stem


def _package(path, program=PROGRAM):
    parts = list(path.relative_to(program).with_suffix("").parts)
    return parts[:-1]


def _module_name(path, program=PROGRAM) -> str:
    """The dotted name a file of the program is imported as (a package's ``__init__.py``: the package)."""
    parts = list(path.relative_to(program).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path, program=PROGRAM):
    """The scorer modules a file imports, as dotted parts under ``scorer`` (at any depth of the file:
    function-level imports too), relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package(path, program)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = (node.module or "").split(".")
            else:
                base = package[:len(package) - node.level + 1] + ((node.module or "").split(".") if node.module
                                                                     else [])
            if base[0] != "scorer":
                continue
            for alias in node.names:  # "from ..machinery import span_metric": the module; else its package's
                yield base + [alias.name] if _is_module(base + [alias.name], program) else base
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "scorer":
                    yield alias.name.split(".")


def _is_module(parts, program=PROGRAM) -> bool:
    """Whether dotted ``parts`` under ``scoring_program/`` name a module or a package of the program."""
    path = program.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _program_files(program=PROGRAM):
    return sorted((program / "scorer").rglob("*.py")) + [program / "score.py"]


def _import_cycles(program=PROGRAM):
    """The sets of two or more modules of the program that import each other, directly or through
    the others (imports inside functions counted): the strongly connected components of the
    import graph (Tarjan's algorithm)."""
    graph = {_module_name(path, program): set() for path in _program_files(program)}
    for path in _program_files(program):
        name = _module_name(path, program)
        graph[name] = {".".join(parts) for parts in _imported(path, program)} & set(graph) - {name}
    order, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(module):
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph[module]):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            component = []
            while not component or component[-1] != module:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(cycles)


def _fake_program(root, files):
    """A program folder under ``root`` with ``files`` (path under it -> text) and empty package files."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in [root / "scorer"] + [path for path in (root / "scorer").rglob("*") if path.is_dir()]:
        if not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("", encoding="utf-8")
    (root / "score.py").write_text("", encoding="utf-8")
    return root


def test_every_scorer_module_is_in_a_layer_folder():
    for path in _program_files():
        _layer(path)


def test_imports_only_go_down_by_folder():
    """Imports go down by folder; a track's files import no other track (the files of one track's
    package import each other) and not the registry."""
    wrong = []
    for path in _program_files():
        layer = _layer(path)
        track = _track_of(path) if layer == "tracks" else None
        for parts in _imported(path):
            target = "readers" if parts == ["scorer"] else parts[1]
            assert target in LAYERS, "%s imports scorer.%s: not a layer folder" % (path.relative_to(ROOT), target)
            where = "%s (%s/) imports %s (%s/)" % (path.relative_to(ROOT), layer, ".".join(parts), target)
            if LAYERS.index(target) < LAYERS.index(layer):
                wrong.append(where)
            if track is None or target != "tracks" or len(parts) < 3:
                continue
            if parts[2] == "registry":
                wrong.append(where + ": a track module imports the registry")
            elif parts[2] not in (track, "contract"):
                wrong.append(where + ": a track module imports another track module")
    assert not wrong, "\n".join(wrong)


def test_the_layer_check_sees_an_upward_import(tmp_path):
    """The check above is not vacuous: a machinery module importing the registry is an upward import."""
    path = SCORER / "machinery" / "lcs.py"
    imported = list(_imported(path))
    assert all(parts[1] in ("machinery", "readers") for parts in imported if len(parts) > 1), imported
    program = _fake_program(tmp_path, {"scorer/tracks/registry.py": "",
                                       "scorer/machinery/probe.py": "from ..tracks.registry import TRACKS\n"
                                                                    "import scorer.outputs\n"})
    assert list(_imported(program / "scorer" / "machinery" / "probe.py", program)) == [
        ["scorer", "tracks", "registry"], ["scorer", "outputs"]]


def test_the_track_check_sees_a_package_file_importing_another_track(tmp_path):
    """In a track's package, ``from . import x`` is the package's own module and ``from .. import x``
    (inside a function too) another track's."""
    program = _fake_program(tmp_path, {
        "scorer/tracks/flc.py": "", "scorer/tracks/nlu/names.py": "", "scorer/machinery/lcs.py": "",
        "scorer/tracks/nlu/probe.py": "from . import names\n\ndef f():\n    from .. import flc\n"
                                      "    from ...machinery import lcs\n"})
    probe = program / "scorer" / "tracks" / "nlu" / "probe.py"
    assert _layer(probe, program) == "tracks" and _track_of(probe, program) == "nlu"
    assert list(_imported(probe, program)) == [["scorer", "tracks", "nlu", "names"], ["scorer", "tracks", "flc"],
                                               ["scorer", "machinery", "lcs"]]


def test_no_import_cycle():
    """No module of the scoring program imports itself through others, counting the imports inside
    functions (a lazy import hides a cycle from Python, not from a reader)."""
    assert _import_cycles() == []


def test_the_cycle_check_sees_a_cycle_through_a_function_level_import(tmp_path):
    program = _fake_program(tmp_path, {
        "scorer/outputs/a.py": "from .b import x\n",
        "scorer/outputs/b.py": "x = 1\n\ndef f():\n    from . import c\n",
        "scorer/outputs/c.py": "from scorer.outputs.a import y\n",
        "scorer/outputs/d.py": "from . import a\n"})
    assert _import_cycles(program) == [["scorer.outputs.a", "scorer.outputs.b", "scorer.outputs.c"]]


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


def test_item_error_and_its_words_are_declared_together():
    """Contract, ``item_error``: a module declaring an item's error without saying what it measures
    (``ITEM_ERROR``), or the words without the function, is one error naming the module."""
    from scorer.tracks.contract import ContractError, Track

    for changes in ({"item_error": lambda totals: 0.0}, {"ITEM_ERROR": "the wrong labels"}):
        try:
            Track(_toy_module(**changes))
        except ContractError as error:
            assert str(error).startswith("track module renamed: item_error and ITEM_ERROR go together"), str(error)
        else:
            raise AssertionError("a track with only %s" % ", ".join(changes))
    assert Track(_toy_module(item_error=lambda totals: 0.0, ITEM_ERROR="the wrong labels")).item_error({}) == 0.0
