"""Membership oracles, impossible values, line endings.

The membership tests change which ids are gold and keep the submission: every output and stream a
participant can read (exit status, stdout, stderr, scores.txt, scores.json, detailed_results.html)
must be byte for byte the same. The odd inputs (``ODD_INPUTS`` in ``tests/attacks.py``) run
score.py on the small canary gold: every case ends with one clear line per problem and exit 1, or
the official scores; no traceback; no canary.
"""

from __future__ import annotations

import os

import pytest

from conftest import assert_clean_failure, run_score

from attacks import CANARY, GOLD, NLU, ODD_INPUTS

TEST_IDS = [str(n) for n in range(101, 109)]
GOLD_ANSWER = '"""the gold q answer""","""the gold r answer"""'


def nlu_phase(scored):
    """A phase whose test input holds ids 101-108 and whose gold scores ``scored`` (same answers)."""
    test_input = "id,q,r,s\n" + "".join('%s,"""the q %s text""","""the r text""",AGREE\n' % (i, CANARY)
                                          for i in TEST_IDS)
    return {"aicup2022_nlu.csv": "".join("%s,%s\n" % (i, GOLD_ANSWER) for i in scored),
            "aicup2022_nlu_test.csv": test_input}


GOLD_SETS = (TEST_IDS[:4], TEST_IDS[4:])


def submission(answer_of):
    return "id,q,r\n" + "".join('%s,"%s","x"\n' % (i, answer_of(n)) for n, i in enumerate(TEST_IDS))


MEMBERSHIP = {
    # every row over the token cap (one-letter words): refused alike
    "every_row_too_long": submission(lambda n: "w " * 5001),
    # the second half over the cap: refused whichever ids are gold
    "half_too_long": submission(lambda n: "w " * 5001 if n >= 4 else "the gold q answer"),
    # under the word bound, over the token cap once tokenized ("don't" -> do, n't)
    "tokens_over_the_cap": submission(lambda n: "don't " * 2600 if n % 2 else "the gold q answer"),
    # the character cap
    "characters": submission(lambda n: "a" * 100001 if n == 6 else "the gold q answer"),
    # a valid submission, the same answer on every row: the same scores whichever ids are gold
    "valid": submission(lambda n: "the gold q answer"),
}


def participant_view(run):
    """Everything a participant can read of a run, as bytes."""
    outputs = {path.name: path.read_bytes() for path in sorted(run.output.rglob("*")) if path.is_file()}
    return run.returncode, run.stdout, run.stderr, outputs


@pytest.mark.parametrize("case", sorted(MEMBERSHIP))
def test_nlu_outputs_do_not_depend_on_which_ids_are_gold(tmp_path, case):
    views = [participant_view(run_score(tmp_path, nlu_phase(scored), {NLU: MEMBERSHIP[case]}))
             for scored in GOLD_SETS]
    assert "Traceback" not in views[0][1] + views[0][2]
    assert views[0][0] == (0 if case == "valid" else 1), views[0]
    assert sorted(views[0][3]) == ["detailed_results.html", "scores.json", "scores.txt"]
    for name in views[0][3]:
        assert views[0][3][name] == views[1][3][name], name
    assert views[0][:3] == views[1][:3]


def test_nlu_tokenizes_every_row_alike(tmp_path, monkeypatch):
    """No timing channel: the same texts are tokenized whichever ids are gold."""
    import scorer.machinery.nltk_tokens
    from scorer.readers.options import Options
    from scorer.tracks import nlu
    from scorer.tracks.nlu import token_cache
    real = scorer.machinery.nltk_tokens.shared_tokenizer()
    tokenized = []

    class Counting:
        def tokens(self, text):
            tokenized.append(text)
            return real.tokens(text)

    monkeypatch.setattr(scorer.machinery.nltk_tokens, "shared_tokenizer", lambda: Counting())
    monkeypatch.setattr(token_cache, "_GOLD_CACHE", {})
    seen = []
    for k, scored in enumerate(GOLD_SETS):
        ref = tmp_path / ("ref%d" % k)
        ref.mkdir()
        for name, text in nlu_phase(scored).items():
            (ref / name).write_text(text, encoding="utf-8")
        path = tmp_path / NLU
        path.write_text(MEMBERSHIP["valid"].replace('"x"', '"y z"'), encoding="utf-8")
        tokenized.clear()
        nlu.score(str(ref / NLU), str(path), NLU, Options(), str(ref))
        seen.append(sorted(tokenized))
    assert seen[0] == seen[1] and seen[0].count("y z") == len(TEST_IDS)


@pytest.mark.parametrize("case", ODD_INPUTS, ids=[case.name for case in ODD_INPUTS])
def test_odd_inputs_end_clean(tmp_path, case):
    ref = dict(GOLD, **case.ref)
    run = run_score(tmp_path, ref, case.res)
    text = run.stdout + run.stderr
    for path in run.output.rglob("*"):
        if path.is_file():
            text += path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "internal error" not in text
    assert CANARY not in text and CANARY.lower() not in text
    if case.exit_code:
        assert_clean_failure(run, case.fragment)
        assert all(line.startswith(tuple(case.res) + ("... and ", "submission")) for line in run.stderr.splitlines()), run.stderr
    else:
        assert run.returncode == 0, run.stderr
        for key, value in case.scores.items():
            assert run.scores[key] == pytest.approx(value, rel=1e-12, abs=0), (key, run.stdout)


def test_the_build_refuses_a_later_phase_s_items_in_an_earlier_phase_s_gold(tmp_path):
    """Three Test memes appended to the Development gold would be published in the Development
    public data and kit and scored with details there: the build names the file and the ids."""
    import json
    import shutil
    import subprocess
    import sys
    from conftest import ROOT
    shutil.copytree(ROOT / "reference_data", tmp_path / "ref")
    dev, test = (tmp_path / "ref" / folder / "semeval2021_t6_st1.json" for folder in ("dev", "test"))
    memes = json.loads(dev.read_text(encoding="utf-8"))
    added = json.loads(test.read_text(encoding="utf-8"))[:3]
    dev.write_text(json.dumps(memes + added), encoding="utf-8")
    process = subprocess.run([sys.executable, str(ROOT / "build_bundle.py"), "--no-check", "--reference-data",
                              str(tmp_path / "ref"), "--out", str(tmp_path / "out")],
                             capture_output=True, text=True, cwd=str(ROOT))
    assert process.returncode != 0 and "Traceback" not in process.stderr + process.stdout
    ids = ", ".join(repr(meme["id"]) for meme in added)
    assert any(line.startswith("phase Development: dev/semeval2021_t6_st1.json ") and "Evaluation" in line
               and "3 " in line and ids in line for line in process.stderr.splitlines()), process.stderr
    assert not list((tmp_path / "out").rglob("*.zip"))


IMPOSSIBLE_YAML = [
    ("start_date: 2027-02-30 00:00:00", "start_date: 2027-02-30 00:00:00 is not a date or time that exists "
                                        "(day is out of range for month)"),
    ("start_date: 2027-13-01", "start_date: 2027-13-01 is not a date or time that exists (month must be in 1..12)"),
    ("start_date: 2027-02-01 25:00:00", "start_date: 2027-02-01 25:00:00 is not a date or time that exists "
                                        "(hour must be in 0..23)"),
    ("max_submissions: " + "9" * 5000, "max_submissions: 9999999999999999999999999999999999999999... is not an "
                                       "integer Python reads"),
]


@pytest.mark.parametrize("line,message", IMPOSSIBLE_YAML, ids=[line[:20] for line, _ in IMPOSSIBLE_YAML])
def test_impossible_yaml_values_are_one_line_naming_key_and_place(tmp_path, line, message):
    import sys
    from conftest import ROOT
    sys.path.insert(0, str(ROOT))
    from bundle.competition import load_yaml
    text = (ROOT / "competition.yaml").read_text(encoding="utf-8")
    key = line.split(":")[0]
    lines = text.split("\n")
    at = next(n for n, old in enumerate(lines) if old.strip().startswith(key + ":"))
    lines[at] = lines[at][:len(lines[at]) - len(lines[at].lstrip())] + line
    path = tmp_path / "competition.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    problem = load_yaml(str(path))[2]
    if line.startswith("max_submissions") and sys.version_info < (3, 11):  # (Python reads any integer)
        assert problem == ""
        return
    assert problem.startswith("competition.yaml: line %d, column " % (at + 1)) and message in problem, problem
    assert "\n" not in problem


def test_the_build_says_impossible_values_in_one_line(tmp_path):
    import shutil
    import subprocess
    import sys
    from conftest import ROOT
    root = tmp_path / "repo"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns(".venv", "dist", "build", ".git", "__pycache__",
                                                              "reference_data", "tests", "benchmarks"))
    text = (root / "competition.yaml").read_text(encoding="utf-8")
    first = next(line for line in text.split("\n") if line.strip().startswith("max_submissions:"))
    text = text.replace(first, first.split(":")[0] + ": 2147483648", 1)
    (root / "competition.yaml").write_text(text, encoding="utf-8")
    process = subprocess.run([sys.executable, str(root / "build_bundle.py"), "--no-check", "--reference-data",
                              str(ROOT / "reference_data")], capture_output=True, text=True)
    assert process.returncode == 1 and "Traceback" not in process.stderr + process.stdout
    assert "max_submissions" in process.stderr and "2147483647" in process.stderr  # the key and its bound
    text = text.replace(first.split(":")[0] + ": 2147483648", first.split(":")[0] + ": " + "9" * 5000, 1)
    (root / "competition.yaml").write_text(text, encoding="utf-8")
    process = subprocess.run([sys.executable, str(root / "build_bundle.py"), "--no-check", "--reference-data",
                              str(ROOT / "reference_data")], capture_output=True, text=True)
    assert process.returncode == 1 and "Traceback" not in process.stderr + process.stdout
    problem = process.stderr.splitlines()[0]  # (then "build: no zip was written ...")
    assert ("max_submissions: 9999999999999999999999999999999999999999... " in problem  # the value, cut
            or (sys.version_info < (3, 11) and "max_submissions" in problem and "2147483647" in problem)), problem


def _endings(text, kind):
    if kind == "cr":
        return text.replace("\n", "\r")
    if kind == "mixed":  # every other line end a lone CR
        parts = text.split("\n")
        return "".join(part + ("\r" if n % 2 else "\n") for n, part in enumerate(parts[:-1])) + parts[-1]
    return text


@pytest.mark.parametrize("kind", ["cr", "mixed"])
def test_line_endings_are_read_as_the_official_readers_read_them(tmp_path, kind):
    """FLC's official reader (Python text mode), nlu's (pandas) and absita's (the organisers'
    ndjson) end a line at a lone CR, as at LF or CRLF: the same scores, no warning. (The T6
    tracks are JSON, where CR is whitespace.)"""
    from test_hostile import VALID
    flc = "11\tDoubt\t0\t5\n11\tDoubt\t5\t12\n12\tSlogans\t1\t3\n"
    nlu = "id,q,r\n" + VALID[NLU]
    res = {"nlp4if2019_flc.tsv": flc, NLU: nlu, "evalita2020_absita.ndjson": VALID["evalita2020_absita.ndjson"]}
    lf = run_score(tmp_path, GOLD, res)
    other = run_score(tmp_path, GOLD, {name: _endings(text, kind) for name, text in res.items()})
    assert lf.returncode == 0 and other.returncode == 0, other.stderr
    assert other.all_scores == lf.all_scores and other.stdout == lf.stdout and other.stderr == ""
    assert (other.output / "scores.txt").read_bytes() == (lf.output / "scores.txt").read_bytes()


def test_a_cr_line_past_the_limit_names_its_line(tmp_path):
    """Lines are numbered as universal newlines number them: the bad line of a CR file is named."""
    run = run_score(tmp_path, GOLD, {"nlp4if2019_flc.tsv": "11\tDoubt\t0\t5\r11\tDoubt\t7\r11\tDoubt\t8\t9\r"})
    assert_clean_failure(run, "nlp4if2019_flc.tsv: line 2: expected 4 TAB-separated columns article_id, technique, "
                              "start, end; found 3")
    assert len(run.stderr.splitlines()) == 1


def test_a_lone_surrogate_in_an_absita_aspect_reaches_the_error_analysis(tmp_path):
    """With --items, an aspect holding a lone surrogate (JSON "\\ud800") is written into
    error_analysis.html escaped."""
    res = {"evalita2020_absita.ndjson": '{"id_sentence": "r1", "aspects": ["\\\\ud800x"], "polarities": [[1, 0]], '
                                        '"score": 4}\n{"id_sentence": "r2", "aspects": [], "polarities": [], '
                                        '"score": 2}\n'}
    run = run_score(tmp_path, GOLD, res, items=True)
    assert run.returncode == 0 and "internal error" not in run.stderr, run.stderr
    assert "\\ud800x" in (run.items / "error_analysis.html").read_text(encoding="utf-8")


def test_score_locally_says_what_a_named_pipe_is(tmp_path):
    """A path that exists but is neither a file nor a folder is named as such."""
    import subprocess
    import sys
    from conftest import ROOT
    fifo = tmp_path / "pipe"
    os.mkfifo(str(fifo))
    process = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "score_locally.py"), str(fifo), "--ref",
                              str(ROOT / "reference_data" / "dev")], capture_output=True, text=True, timeout=60)
    assert process.returncode == 2 and "Traceback" not in process.stderr
    line = process.stderr.strip()
    assert "\n" not in line and line.startswith("score_locally: %s " % fifo) and "not a regular file or a folder" in line


def test_a_failed_submission_s_page_says_first_that_nothing_was_recorded(tmp_path):
    """The scores of the files that could be read are not presented as the board's."""
    import html
    from test_hostile import VALID
    run = run_score(tmp_path, GOLD, {"semeval2021_t6_st1.json": VALID["semeval2021_t6_st1.json"],
                                     "nlp4if2019_flc.tsv": "11\tDoubt\t5\n"})
    assert run.returncode == 1
    from scorer.outputs.verdict import FAILED
    assert run.stdout.splitlines()[-1].startswith(FAILED) and "the scores above" in run.stdout.splitlines()[-1]
    page = html.unescape((run.output / "detailed_results.html").read_text(encoding="utf-8"))
    body = page[page.index("<body>"):]
    assert body.index("This submission failed") < body.index("Problems")  # said first, then why
    assert "Not recorded" in page and "ordered by this column" not in page  # its scores are not the board's


def test_check_format_names_predictions_for_another_phase_first(tmp_path):
    """The kit's check, given Development predictions and the Evaluation phase's public data
    (the Evaluation phase's kit holds both), says first, for each file, which phase they were made for."""
    import subprocess
    import sys
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    from conftest import ROOT
    for folder in ("dev", "test"):
        derive_public_data(str(ROOT / "reference_data" / folder), str(tmp_path / "public_data" / folder))
    write_submission(str(tmp_path / "public_data" / "dev"), str(tmp_path / "dev_predictions"))
    process = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "check_format.py"),
                              str(tmp_path / "dev_predictions"), "--public", str(tmp_path / "public_data" / "test")],
                             capture_output=True, text=True, timeout=300)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    from scorer.tracks.registry import TRACKS
    names = {track.filename for track in TRACKS}
    first = {}
    for line in process.stderr.splitlines():
        name, _, text = line.partition(": ")
        if name in names:
            first.setdefault(name, text)
    # every track says it first, whatever its items are (ids, or a positional track's item fingerprints)
    assert set(first) == names and all("public_data/dev" in text for text in first.values()), first


def test_check_format_fails_when_a_file_is_ignored_for_its_name(tmp_path):
    """A file the scoring program ignores (semeval2021_task6_st1.json) means its track is
    not entered: the check exits 1, so a script checking the status sees it."""
    import shutil
    import subprocess
    import sys
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    from conftest import ROOT
    derive_public_data(str(ROOT / "reference_data" / "dev"), str(tmp_path / "public_data" / "dev"))
    write_submission(str(tmp_path / "public_data" / "dev"), str(tmp_path / "sub"))
    shutil.move(str(tmp_path / "sub" / "semeval2021_t6_st1.json"), str(tmp_path / "sub" / "semeval2021_task6_st1.json"))
    process = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "check_format.py"), str(tmp_path / "sub"),
                              "--public", str(tmp_path / "public_data" / "dev")], capture_output=True, text=True,
                             timeout=300)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    last = process.stderr.strip().splitlines()[-1]  # the file it did not check, and the exit status
    assert last.startswith("check_format: ") and "semeval2021_task6_st1.json" in last and "exit status 1" in last


def test_a_mistyped_yaml_key_or_setting_gets_a_did_you_mean(tmp_path):
    """A near miss names the key it meant, not the 656-character list of every key."""
    import json
    import sys
    import yaml
    from conftest import ROOT
    sys.path.insert(0, str(ROOT))
    from bundle.rules import validate
    from scorer.readers.options import load_options
    from scorer.readers.problems import ReferenceDataError
    from scorer.tracks.registry import LOWER_IS_BETTER, TRACKS
    config = yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))
    phase = next(iter(config["phases"].values()))
    phase["max_submision"] = phase.pop("max_submissions")
    config["titel"] = config["title"]
    problems = validate(config, str(ROOT / "pages"), str(ROOT / "reference_data"), TRACKS, LOWER_IS_BETTER)
    typo = [p for p in problems if "'max_submision'" in p]
    assert typo and "'max_submissions'?" in typo[0] and len(typo[0]) < 200, typo
    assert any("'titel' (did you mean 'title'?)" in p for p in problems), problems
    (tmp_path / "scoring_config.json").write_text(json.dumps({"nlu_max_answer_token": 10}), encoding="utf-8")
    with pytest.raises(ReferenceDataError) as error:
        load_options(str(ROOT / "scoring_program"), str(tmp_path))
    assert error.value.public[0].endswith("unknown setting nlu_max_answer_token (did you mean 'nlu_max_answer_tokens'?)")


def test_a_one_track_competition_made_by_deleting_columns_is_told_what_to_mark(tmp_path):
    """Deleting the other tracks' columns may delete selection_default; the build says none is
    left and which column to mark; and it names a description that speaks of tasks not hosted."""
    import sys
    import yaml
    from conftest import ROOT
    sys.path.insert(0, str(ROOT))
    from bundle.pages import pages_to_edit
    from bundle.rules import validate
    from scorer.tracks.registry import LOWER_IS_BETTER, TRACKS
    config = yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))
    columns = config["leaderboard"]["columns"]
    for key in [key for key in columns if not key.startswith("flc_")]:
        del columns[key]
    problems = validate(config, str(ROOT / "pages"), str(ROOT / "reference_data"), TRACKS, LOWER_IS_BETTER)
    first = min(columns, key=lambda key: columns[key]["rank"])
    assert any(p.startswith("competition.yaml: ") and "selection_default" in p and first in p
               for p in problems), problems  # the key to set, and the column to set it on
    flc = [track for track in TRACKS if track.name == "flc"]
    lines = pages_to_edit(config, str(ROOT / "pages"), flc, TRACKS)
    assert any(line.startswith("competition.yaml: description speaks of 'SemEval-2021'") for line in lines), lines


def test_score_locally_names_predictions_for_another_phase_first(tmp_path):
    """Score_locally.py in a kit (public_data/<phase> beside it) names the phase whose
    inputs the predictions were made for, first, as the platform does."""
    import shutil
    import subprocess
    import sys
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    from conftest import ROOT
    kit = tmp_path / "kit"
    shutil.copytree(ROOT / "starting_kit", kit, ignore=shutil.ignore_patterns("__pycache__", "*.ipynb"))
    shutil.copytree(ROOT / "scoring_program", kit / "scoring_program", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("dev", "test"):
        derive_public_data(str(ROOT / "reference_data" / folder), str(kit / "public_data" / folder))
    write_submission(str(kit / "public_data" / "test"), str(tmp_path / "test_predictions"))
    process = subprocess.run([sys.executable, str(kit / "score_locally.py"), str(tmp_path / "test_predictions"),
                              "--ref", str(ROOT / "reference_data" / "dev"), "--out", str(tmp_path / "out")],
                             capture_output=True, text=True, timeout=300)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    first = {}
    for line in process.stderr.splitlines():
        name, _, text = line.partition(": ")
        first.setdefault(name, text)
    assert "public_data/test" in first["semeval2021_t6_st1.json"] and "public_data/test" in first["aicup2022_nlu.csv"]
