"""rank_submissions.py flags prediction files alike across teams (ranking/copies.py) by what the
scorer reads: each track's items as its own reader returns them, wherever the files sit in the
zip, whatever the scorer ignores (white space, key order, extra fields, record order); identical
files and files with the same predictions for >= 95% of their items, only across owners; never
opening a file the scorer does not read, and with a bounded pass when many teams share answers."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402
from ranking import PROGRAM_DIR  # noqa: E402
from ranking.copies import CROWD, NEAR, ItemDigests, alike, submission_digests  # noqa: E402
from ranking.entries import Entry  # noqa: E402
from scorer.readers.options import Options  # noqa: E402
from scorer.tracks.registry import BY_NAME, TRACKS  # noqa: E402

DEV = ROOT / "reference_data" / "dev"
NAMES = [track.name for track in TRACKS]
ST1, ST2, ST3, FLC, ABSITA = (BY_NAME[name] for name in ("t6_st1", "t6_st2", "t6_st3", "flc", "absita"))


def baseline(track, seed: int, folder: Path) -> bytes:
    """The track's own baseline on the development phase's public input."""
    public, out = folder / ("public-%s" % track.name), folder / ("baseline-%s-%d" % (track.name, seed))
    for path in (public, out):
        path.mkdir(parents=True, exist_ok=True)
    track.write_public_input(str(DEV), str(public), track.filename)
    track.write_baseline(str(public), str(out), track.filename, seed=seed)
    return (out / track.filename).read_bytes()


def a_zip(path: Path, files) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def read_table(path: Path):
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8").split("\n", 1)[1])))


def json_records(data: bytes):
    return json.loads(data.decode("utf-8"))


def reversed_lines(data: bytes) -> bytes:
    return b"\n".join(reversed(data.strip(b"\n").split(b"\n"))) + b"\n"


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    """One download of team zips, each pair of rows a case (their seeds apart from every other
    pair's), ranked on the development gold; alike.csv as (team, other team, file) -> row."""
    base = tmp_path_factory.mktemp("copies")
    download = base / "download"
    download.mkdir()
    st1, flc, st2, absita, st3 = (baseline(track, seed, base) for track, seed in (
        (ST1, 1), (FLC, 1), (ST2, 2), (ABSITA, 3), (ST3, 4)))
    # a copy zipped inside a folder
    a_zip(download / "alice.zip", {ST1.filename: st1, FLC.filename: flc})
    a_zip(download / "bob.zip", {"bob/" + ST1.filename: st1, "bob/" + FLC.filename: flc})
    # with an extra field in every record
    a_zip(download / "carol.zip", {ST2.filename: st2})
    a_zip(download / "dave.zip", {ST2.filename: json.dumps([dict(record, confidence=0.9)
                                                            for record in json_records(st2)])})
    # with its records in another order
    a_zip(download / "erin.zip", {ABSITA.filename: absita})
    a_zip(download / "frank.zip", {ABSITA.filename: reversed_lines(absita)})
    # with white space, key order, line endings and a BOM changed
    a_zip(download / "gina.zip", {ST3.filename: st3})
    again = json.dumps([dict(reversed(list(record.items()))) for record in json_records(st3)], indent=4)
    a_zip(download / "hank.zip", {ST3.filename: b"\xef\xbb\xbf" + again.replace("\n", "\r\n").encode("utf-8")})
    # a copy of one track among several: ivan's flc, rows reordered, beside judy's own st1
    a_zip(download / "ivan.zip", {ST1.filename: baseline(ST1, 5, base), FLC.filename: baseline(FLC, 6, base)})
    a_zip(download / "judy.zip", {ST1.filename: baseline(ST1, 7, base),
                                  FLC.filename: reversed_lines(baseline(FLC, 6, base)).replace(b"\n", b"  \n")})
    # nearly identical: one meme of 36 changed
    kate = json_records(baseline(ST1, 8, base))
    leo = [dict(record) for record in kate]
    leo[0]["labels"] = [] if leo[0]["labels"] else ["Smears"]
    a_zip(download / "kate.zip", {ST1.filename: json.dumps(kate)})
    a_zip(download / "leo.zip", {ST1.filename: json.dumps(leo)})
    out = base / "out"
    assert rank_submissions.main([str(download), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--quiet"]) == 0
    return {(row["team"], row["other team"], row["file"]): row for row in read_table(out / "alike.csv")}, len(kate)


def _identical(ranked, first, second, track):
    row = ranked[0].get((first, second, track.filename))
    assert row is not None, sorted(ranked[0])
    assert row["identical"] == "yes" and row["same items"] == row["items"], row


def test_a_copy_zipped_inside_a_folder_is_identical(ranked):
    _identical(ranked, "alice", "bob", ST1)
    _identical(ranked, "alice", "bob", FLC)


def test_a_copy_with_an_extra_field_in_every_record_is_identical(ranked):
    _identical(ranked, "carol", "dave", ST2)


def test_a_copy_with_its_records_reordered_is_identical(ranked):
    _identical(ranked, "erin", "frank", ABSITA)


def test_a_copy_with_white_space_key_order_line_ends_and_a_bom_changed_is_identical(ranked):
    _identical(ranked, "gina", "hank", ST3)


def test_a_copy_of_one_track_among_several_is_that_tracks_pair_only(ranked):
    _identical(ranked, "ivan", "judy", FLC)
    assert ("ivan", "judy", ST1.filename) not in ranked[0]


def test_nearly_identical_and_nothing_else(ranked):
    found, memes = ranked
    near = found[("kate", "leo", ST1.filename)]
    assert (near["identical"], int(near["same items"]), int(near["items"])) == ("no", memes - 1, memes)
    assert (memes - 1) / memes >= NEAR
    assert len(found) == 7, sorted(found)  # no pair across the cases


def _digests(path: Path, track) -> dict:
    return track.prediction_digests(str(path), track.filename, track.options(Options()))


@pytest.mark.registry
@pytest.mark.parametrize("name", NAMES)
def test_each_track_compares_what_its_scorer_reads(tmp_path, name):
    """A file with a BOM and CRLF line ends has the same digest for every item as the file without
    them when it scores the same (a track that reads them apart, as sacreBLEU's LF-only lines,
    gives it other digests); two other submissions of the track differ on some item."""
    track = BY_NAME[name]
    plain, variant = tmp_path / "plain" / track.filename, tmp_path / "variant" / track.filename
    data = baseline(track, 42, tmp_path)
    plain.parent.mkdir()
    variant.parent.mkdir()
    plain.write_bytes(data)
    variant.write_bytes(b"\xef\xbb\xbf" + data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    gold = track.find_gold(str(DEV))
    scores = [track.score(gold, str(path), track.filename, Options(), str(DEV)).scores for path in (plain, variant)]
    digests = _digests(plain, track)
    assert len(digests) > 1, (
        "%s: prediction_digests must give one digest per item of what the scorer reads (contract.py): a track "
        "that declares none compares bytes, and misses a copy with a BOM or CRLF" % track.module_path)
    if scores[0] == scores[1]:
        assert _digests(variant, track) == digests, (
            "%s: a BOM and CRLF line ends change no score, so they must change no digest" % track.module_path)
    else:
        assert _digests(variant, track) != digests, (
            "%s: the scorer reads a BOM and CRLF line ends apart, so must the digests" % track.module_path)
    others = []
    for seed in (1, 2):
        folder = tmp_path / ("generated-%d" % seed)
        (folder / "ref").mkdir(parents=True)
        (folder / "res").mkdir()
        track.write_benchmark_input(str(folder), 1, random.Random(seed))
        others.append(_digests(folder / "res" / track.filename, track))
    assert others[0] != others[1], "%s: two different submissions have the same digests" % track.module_path


def _team(owner: str, answers) -> tuple:
    return Entry(owner, owner, "", owner=owner), {"predictions.json": ItemDigests.of(
        {"item%02d" % i: answer.to_bytes(8, "little") for i, answer in enumerate(answers)})}


def test_many_teams_sharing_common_answers_keep_the_pass_bounded():
    """400 teams give the same answer on 30 of 40 items (the majority baseline's) and random ones
    on the other 10: the crowded answers propose no pair, so the pass proposes a few pairs per team,
    not 400 × 399 / 2; the planted copies are found and the report says what was not compared."""
    rng = random.Random(0)
    teams = [_team("team%03d" % k, [7] * 30 + [rng.randrange(100, 10 ** 6) for _ in range(10)]) for k in range(400)]
    teams[1] = _team("team001", [7] * 30 + list(json_answers(teams[0])))  # identical to team000
    nearly = list(json_answers(teams[2]))
    nearly[0] += 1
    teams[3] = _team("team003", [7] * 30 + nearly)  # 39 of 40 items as team002
    check = alike(teams)
    assert [(p.first.owner, p.second.owner, p.identical, p.shared, p.total) for p in check.pairs] == [
        ("team000", "team001", True, 40, 40), ("team002", "team003", False, 39, 40)]
    assert check.compared <= 10 * len(teams), check.compared
    assert check.crowded == ["copies: predictions.json: on 30 items an answer was given by more than %d files "
                             "(the commonest answers); files that agree only there are not compared" % CROWD]


def json_answers(team) -> list:
    """The last 10 answers of a team made by ``_team``."""
    digests = team[1]["predictions.json"].digests
    return [int.from_bytes(digests[8 * i:8 * i + 8], "little") for i in range(30, 40)]


def test_identical_files_are_paired_across_owners_only(tmp_path):
    def team(folder: str, owner: str, data: bytes):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / ST1.filename).write_bytes(data)
        entry = Entry(folder, folder, str(tmp_path / folder), owner=owner)
        return entry, submission_digests(str(tmp_path / folder), str(DEV), PROGRAM_DIR)

    data = baseline(ST1, 3, tmp_path)
    check = alike([team("a", "alice", data), team("b", "alice", data), team("c", "bob", data),
                   team("d", "carol", data)])
    assert [(p.first.team, p.second.team) for p in check.pairs] == [("a", "c"), ("a", "d"), ("b", "c")]


def test_two_teams_with_a_large_ignored_file_cost_no_memory(tmp_path):
    """A 64 MiB notes.txt beside each of two teams' files: rank_submissions.py's peak RSS stays
    that of the same download without it (the file is unpacked by the scoring, never read)."""
    data = baseline(ST1, 9, tmp_path)
    notes = (b"".join(b"note %06d: not a file of this competition\n" % i for i in range(1 << 14)) * 128)[:64 << 20]
    peaks = []
    for with_notes in (False, True):
        download = tmp_path / ("download-%s" % with_notes)
        download.mkdir()
        for team in ("alice", "bob"):
            a_zip(download / ("%s.zip" % team), dict({ST1.filename: data}, **({"notes.txt": notes} if with_notes
                                                                                else {})))
        script = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
                  "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        process = subprocess.run([sys.executable, "-c", script, sys.executable, str(ROOT / "rank_submissions.py"),
                                  str(download), "--ref", str(DEV), "--out", str(tmp_path / ("out-%s" % with_notes)),
                                  "--resamples", "20", "--quiet"], capture_output=True, text=True,
                                 env=dict(os.environ, MPLBACKEND="Agg"))
        assert process.returncode == 0, process.stderr[-2000:]
        peaks.append(int(process.stdout.split()[-1]))  # KiB
    assert peaks[1] - peaks[0] < 16 * 1024, peaks
