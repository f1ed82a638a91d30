"""Shared test helpers: where ../shared is, how to run score.py the way Codalab does, and the
session-scoped fixtures every test module may use (``repository_build``, ``nlu_gold_with_tokens``:
documented where they are defined)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "scoring_program"
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared")).resolve()
DATA = SHARED / "data"

sys.path.insert(0, str(PROGRAM))
sys.path.insert(0, str(ROOT / "starting_kit"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared; fails in CI (CI=true) and skips elsewhere when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = "needs %s (the shared data beside the project)" % path
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def nltk_data_dir() -> Optional[Path]:
    path = SHARED / "nltk_data"
    return path if path.is_dir() else None


def parse_scores_v15(text: str) -> Dict[str, float]:
    """scores.txt as Codalab v1.5 reads it: every non-empty line split on its one colon, float()."""
    scores: Dict[str, float] = {}
    for line in text.split("\n"):
        if not line:
            continue
        key, value = line.split(":")  # exactly two parts, or the platform fails the submission
        key = key.strip()
        assert key not in scores, "duplicate key %s" % key
        scores[key] = float(value)
    return scores


class Run:
    def __init__(self, process: subprocess.CompletedProcess, output: Path) -> None:
        self.returncode = process.returncode
        self.stdout = process.stdout
        self.stderr = process.stderr
        self.output = output
        self.items = output.parent / "items"

    @property
    def all_scores(self) -> Dict[str, float]:
        """scores.txt as v1.5 reads it: every leaderboard key, not-entered tracks included."""
        return parse_scores_v15((self.output / "scores.txt").read_text(encoding="ascii"))

    @property
    def scores(self) -> Dict[str, float]:
        """The scores of the tracks the submission entered (without the not-entered values)."""
        from scorer.outputs.scores_files import not_entered_value
        return {key: value for key, value in self.all_scores.items() if value != not_entered_value(key)}

    @property
    def scores_json(self) -> Dict[str, float]:
        """The scores of scores.json (as Codabench stores them: the leaderboard keys)."""
        written = json.loads((self.output / "scores.json").read_text(encoding="ascii"))
        return {key: value for key, value in written.items() if key != "signature"}

    @property
    def signatures(self) -> Dict[str, str]:
        """scores.json's signatures: track -> signature."""
        return json.loads((self.output / "scores.json").read_text(encoding="ascii"))["signature"]


def run_score(tmp_path: Path, ref: Dict[str, object], res: Dict[str, object],
              python: str = sys.executable, env: Optional[Dict[str, str]] = None, items: bool = False,
              program: Path = PROGRAM) -> Run:
    """Stage input/ref and input/res (values: bytes, str, or a Path to copy), run score.py;
    ``items``: as a local run asking for the per-item details (``--items <run>/items``);
    ``program``: another copy of the scoring program."""
    base = tmp_path / ("run%d" % len(list(tmp_path.glob("run*"))))
    for folder, files in (("ref", ref), ("res", res)):
        target = base / "input" / folder
        target.mkdir(parents=True)
        for name, content in files.items():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                if content.is_dir():
                    shutil.copytree(content, destination)
                else:
                    shutil.copyfile(content, destination)
            elif isinstance(content, bytes):
                destination.write_bytes(content)
            else:
                destination.write_text(str(content), encoding="utf-8")
    output = base / "output"
    run_env = dict(os.environ)
    if nltk_data_dir() is not None:
        run_env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    run_env.update(env or {})
    command = [python, str(program / "score.py"), str(base / "input"), str(output)]
    if items:
        command += ["--items", str(base / "items")]
    process = subprocess.run(command, capture_output=True, text=True, cwd=str(base), env=run_env, timeout=600)
    return Run(process, output)


def assert_clean_failure(run: Run, *fragments: str) -> None:
    """Exit 1, no traceback, and every fragment somewhere in stderr."""
    assert run.returncode == 1, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    for fragment in fragments:
        assert fragment in run.stderr, (fragment, run.stderr)


def register_track(program_dir: Path, name: str) -> None:
    """Add ``name`` to ``MODULES`` in a copy's ``scorer/tracks/registry.py``, as docs/track-authors.md "Adding a track" step 3
    says: the tuple is found by parsing the file (``ast``), and its last item gets the new name after it."""
    import ast
    path = Path(program_dir) / "scorer" / "tracks" / "registry.py"
    text = path.read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["MODULES"]:
            last = node.value.elts[-1]  # type: ignore[attr-defined]
            lines = text.split("\n")
            line = lines[last.end_lineno - 1]
            lines[last.end_lineno - 1] = line[:last.end_col_offset] + ", %r" % name + line[last.end_col_offset:]
            path.write_text("\n".join(lines), encoding="utf-8")
            return
    raise AssertionError("no MODULES = (...) in %s" % path)


def copy_program(target: Path) -> Path:
    """A copy of the scoring program (``scoring_program/``) in ``target``, without caches."""
    shutil.copytree(str(PROGRAM), str(target), ignore=shutil.ignore_patterns("__pycache__"))
    return target


# --- shared across the whole test run (session-scoped: made once per test process, on first use;
# ./run_tests.sh runs one process per core, pytest-xdist) -------------------------------------------
#
# ``repository_build``: the repository's own build, ``build_bundle.py --out DIR`` with its checks,
# as an organiser runs it: every test that reads what the unmodified repository builds (the upload,
# the kits, the wheel) takes it from here instead of building again. Read it, never write into it
# (copy what you change). A test that builds something else (another yaml, a copy with another
# track, other flags) builds its own.
#
# ``nlu_gold_with_tokens``: a folder holding the real AI CUP 2022 nlu gold (``../shared``) and the
# token cache the build writes beside it (``nlu.reference_data_extras``): for the tests that only
# need nlu's scores on the real data (the tokenizer's own tests tokenize the gold themselves).


class Build:
    """``out``: the build's output folder (``competition_bundle.zip``, ``starting_kit.zip``, the wheel,
    ``release_test/``); ``stdout``: what the build printed."""

    def __init__(self, out: Path, stdout: str) -> None:
        self.out = out
        self.stdout = stdout


# A folder for the session's build (``dist/`` and its output ``build.log``) in place of a temporary
# one: the test that adds tracks to a copy checks the build its registry-driven tests made there.
BUILD_FOLDER = "TEST_REPOSITORY_BUILD_FOLDER"


@pytest.fixture(scope="session")
def repository_build(tmp_path_factory) -> Build:
    folder = os.environ.get(BUILD_FOLDER)
    if folder:
        os.makedirs(folder, exist_ok=True)
        out = Path(folder) / "dist"
    else:
        out = tmp_path_factory.mktemp("repository-build")
    process = subprocess.run([sys.executable, str(ROOT / "build_bundle.py"), "--out", str(out)],
                             capture_output=True, text=True, cwd=str(ROOT))
    if folder:
        Path(folder, "build.log").write_text(process.stdout + process.stderr, encoding="utf-8")
    assert process.returncode == 0, process.stdout + process.stderr
    return Build(out, process.stdout)


@pytest.fixture(scope="session")
def nlu_gold_with_tokens(tmp_path_factory) -> Path:
    """The folder; its ``aicup2022_nlu.csv`` is the real 1,598-id gold."""
    gold = shared_path("data", "aidea_nlu", "train_answers_subset_1598ids.csv")
    from scorer.tracks import nlu
    folder = tmp_path_factory.mktemp("nlu-gold-with-tokens")
    shutil.copyfile(str(gold), str(folder / nlu.FILE_NAME))
    for name, data in nlu.reference_data_extras(str(folder)).items():
        (folder / name).write_bytes(data)
    return folder


# The tests left out of the quick loop (``./run_tests.sh --quick``, ``pytest -m "not slow"``): each
# takes 5 s or more of a loaded 2-core machine in a whole run (``pytest --durations`` shows it), and
# the modules they exercise are also exercised by a quicker test. A node id, or a prefix of node ids.
SLOW = (
    "tests/test_nltk_tokens.py::test_random_and_adversarial_strings_give_nltks_tokens",
    "tests/test_nltk_tokens.py::test_every_real_text_gives_nltks_tokens",
    "tests/test_nltk_tokens.py::test_lower_finds_every_case_insensitive_contraction_but_for_dotted_i",
    "tests/test_nltk_tokens.py::test_the_token_cache_gives_the_same_scores_and_a_stale_one_is_noted",
    "tests/test_nltk_tokens.py::test_the_answer_bound_on_real_texts",
    "tests/test_nltk_tokens.py::test_final_period_equals_nltks_expression",
    "tests/test_adding_a_track.py",
    "tests/test_rank_submissions.py::test_every_output_is_byte_identical_across_two_runs",
    "tests/test_rank_submissions.py::test_codabench_results_export",
    "tests/test_rank_submissions.py::test_select_best_and_all",
    "tests/test_rank_submissions.py::test_codalab_leaderboard_download_layout",
    "tests/test_rank_submissions.py::test_codabench_bulk_download_one_row_per_team",
    "tests/test_rank_hostile.py",
    "tests/test_rank_copies.py::test_a_copy",
    "tests/test_rank_copies.py::test_nearly_identical_and_nothing_else",
    "tests/test_rank_copies.py::test_two_teams_with_a_large_ignored_file_cost_no_memory",
    "tests/test_hostile.py::test_resources_fifty_megabytes",
    "tests/test_bundle.py::test_two_builds_are_byte_identical",
    "tests/test_bundle.py::test_score_locally_reads_the_tasks_released_folders_as_downloaded",
    "tests/test_bundle.py::test_a_custom_fact_sheet_ends_up_in_the_codabench_yaml",
    "tests/test_bundle.py::test_one_bad_file_fails_the_whole_submission_and_the_tools_say_so",
    "tests/test_bundle.py::test_the_kit_readme_zip_command_works_without_a_shell_glob",
    "tests/test_release.py::test_a_three_track_competition_builds_checks_and_scores_only_its_tracks",
    "tests/test_fuzz.py",
    "tests/test_installed_scorer.py::test_the_command_gives_score_pys_numbers_on_the_real_data",
    "tests/test_installed_scorer.py::test_the_command_gives_score_pys_numbers_on_the_benchmark_inputs",
    "tests/test_aicup2022_nlu.py::test_degenerate_generated_answers_are_scored_as_the_reference",
    "tests/test_aicup2022_nlu.py::test_the_tokenizer_loads_two_nltk_modules_and_leaves_no_trace",
    "tests/test_aicup2022_nlu.py::test_bit_parallel_lcs_equals_the_dynamic_program",
    "tests/test_nlp4if2019_flc.py::test_blocks_read_as_the_line_by_line_reader",
    "tests/test_detailed_tables.py::test_the_development_page_shows_the_intervals_score_locally_prints",
    "tests/test_narrow_screens.py",
    "tests/test_detailed_results.py::test_page_renders_without_errors_or_overflow",
    "tests/test_detailed_results.py::test_sorting_script_sorts_and_the_page_works_without_it",
    "tests/test_detailed_results.py::test_page_prints",
    "tests/test_platforms.py::test_on_the_v15_worker_the_watcher_uploads_the_complete_page_on_every_exit_path",
    "tests/test_hostile_resources.py::test_kit_tools_name_every_broken_archive",
    "tests/test_rank_selected.py::test_select_last_scores_from_the_latest_backwards",
    "tests/test_rank_selected.py::test_results_export_scores_its_entries_only",
    "tests/test_release_predictions.py::test_verify_on_python_3_7_and_the_newest",
    "tests/test_upload_holds_nothing_later.py::test_no_file_outside_the_release_holds_a_test_text_or_gold",
    "tests/test_nlu_known_tokens.py::test_prize_winning_files_score_the_same_with_the_gold_texts_known",
)


def pytest_collection_modifyitems(config, items):
    """Mark the tests of ``SLOW`` with ``slow`` (pytest.ini)."""
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
