"""The Development page's intervals from reduced statistics (``scorer/outputs/fast_intervals.py``) against
the plain definition (the naive oracle below: every column of every drawn item summed by
``per_item.column_totals``, the track's aggregate on each resample, sorted, nearest rank).

Every track (asked of the registry), on its benchmark generator's inputs at the task's size and on
the repository's development sample: bit-identical where the score reads only integer sums; to
1e-12 where it reads float sums, which are summed exactly and rounded once (the module's docstring
and the cards). The count lanes the build writes (``scorer/outputs/resample_counts.py``) give the
drawn resamples' values bit for bit.
"""

from __future__ import annotations

import os
import random
import shutil

import pytest

from conftest import ROOT
from scorer.outputs.drawn_resamples import PackedSums, drawn_resamples, resampled_values
from scorer.outputs.fast_intervals import ResampleSums, _Reads, columns_read, pooled_statistics
from scorer.run.in_process import score_in_process
from scorer.machinery.per_item import ItemStatistics, column_totals
from scorer.tracks.registry import TRACKS
from scorer.outputs.resampling import (CONFIDENCE, aggregate, confidence_interval, interval_positions,
                               ranking_intervals, resample_indices)

PROGRAM_DIR = str(ROOT / "scoring_program")
DEV = ROOT / "reference_data" / "dev"


def naive_interval(statistics, key, resamples):
    """The intervals as they were computed before the reduced statistics: the oracle."""
    values = sorted(aggregate(statistics, column_totals(statistics, indices), key=key)[key] for indices in resamples)
    low, high = interval_positions(len(values), CONFIDENCE)
    return values[low], values[high]


def exact_expected(statistics, key):
    """True where the reduced statistics must give the oracle's floats bit for bit: the score reads
    integer sums only (float sums are summed exactly and rounded once)."""
    track = next(track for track in TRACKS if track.name == statistics.track)
    form = pooled_statistics(statistics) if key in track.pooled_keys else None
    form = form if form is not None else statistics
    read = columns_read(form, key)
    positions = [form.columns.index(column) for column in (form.columns if read is None else read)]
    return all(type(row[position]) is int for row in form.rows for position in positions)  # noqa: E721


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """track -> its result on the benchmark generator's ×1 input (gold and submission)."""
    results = {}
    for track in TRACKS:
        base = tmp_path_factory.mktemp("generated-" + track.name)
        (base / "ref").mkdir()
        (base / "res").mkdir()
        track.write_benchmark_input(str(base), 1, random.Random(1))
        shutil.copyfile(str(ROOT / "scoring_program" / "scoring_config.json"), str(base / "ref" / "scoring_config.json"))
        found, refused, problems = score_in_process(str(base / "ref"), str(base / "res"), PROGRAM_DIR)
        assert not refused and not problems, (refused, problems)
        results[track.name] = found[track.name]
    return results


def test_the_draws_are_resample_indices():
    for n_items, resamples, seed in ((1, 3, 0), (7, 20, 5), (200, 30, 0), (2016, 3, 11), (65537, 2, 1)):
        assert list(drawn_resamples(n_items, resamples, seed)) == resample_indices(n_items, resamples, seed)


@pytest.mark.parametrize("track", [track.name for track in TRACKS])
def test_ranking_intervals_equal_the_plain_definition(generated, track):
    result = generated[track]
    statistics = result.statistics
    draws = resample_indices(len(statistics.items), 300, 0)
    intervals = ranking_intervals(result, 300, 0)
    assert intervals, track
    for key, found in intervals.items():
        expected = naive_interval(statistics, key, draws)
        if exact_expected(statistics, key):
            assert found == expected, (track, key)
        else:
            assert found == pytest.approx(expected, rel=0, abs=1e-12), (track, key)
        assert confidence_interval(statistics, key, draws) == found


def test_every_key_of_every_track_on_the_development_sample(tmp_path):
    """Every score key (not only the ranking ones) of a random baseline of every track, on the
    repository's development sample, over 200 resamples."""
    import sys
    sys.path.insert(0, str(ROOT))
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    derive_public_data(str(DEV), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "random"), seed=1)
    results, _, _ = score_in_process(str(DEV), str(tmp_path / "random"), PROGRAM_DIR)
    assert results
    for track, result in results.items():
        statistics = result.statistics
        draws = resample_indices(len(statistics.items), 200, 3)
        values = resampled_values(statistics, list(result.scores), draws)
        for key in result.scores:
            expected = [aggregate(statistics, column_totals(statistics, d), key=key)[key] for d in draws]
            if exact_expected(statistics, key):
                assert values[key] == expected, (track, key)
            else:
                assert values[key] == pytest.approx(expected, rel=0, abs=1e-12), (track, key)


@pytest.mark.parametrize("track", [track.name for track in TRACKS])
def test_the_columns_read_are_all_that_the_score_depends_on(generated, track):
    """Changing every column a score does not read changes no value of it."""
    statistics = generated[track].statistics
    totals = column_totals(statistics)
    for key in generated[track].scores:
        read = columns_read(statistics, key)
        assert read is not None, key
        changed = {column: (value if column in read else value * 3 + 1) for column, value in totals.items()}
        assert aggregate(statistics, changed)[key] == aggregate(statistics, totals)[key], key


def test_an_aggregate_that_branches_on_a_total_falls_back_to_every_column():
    with pytest.raises(TypeError):
        bool(_Reads(("a",)) > 0)


def test_packed_and_float_sums_equal_column_totals():
    rng = random.Random(4)
    rows = [(rng.randrange(5), rng.random(), rng.randrange(1 << 70), 0, -rng.randrange(3), rng.choice([0, 0.5]))
            for _ in range(300)]
    statistics = ItemStatistics("nlu", [str(i) for i in range(300)], ["a", "b", "c", "d", "e", "f"], rows)
    sums = PackedSums(ResampleSums(statistics, statistics.columns))
    for indices in resample_indices(300, 50, 9) + [[0], [299] * 300]:
        found = sums.totals(indices)
        expected = column_totals(statistics, indices)
        assert found == expected
        assert [type(found[c]) for c in "abcef"] == [type(expected[c]) for c in "abcef"]


def test_exact_float_sums_are_the_correctly_rounded_sums():
    """The pooled form's float columns: summed exactly and rounded once (Fraction is the oracle)."""
    from fractions import Fraction
    rng = random.Random(8)
    rows = [(rng.random() * rng.choice([1, 3, 1e-9]), rng.randrange(4), rng.choice([0.0, 0.5, 1 / 3]))
            for _ in range(250)]
    statistics = ItemStatistics("t6_st2", [str(i) for i in range(250)], ["p", "n", "q"], rows)
    sums = PackedSums(ResampleSums(statistics, statistics.columns, exact_floats=True))
    for indices in resample_indices(250, 40, 2):
        found = sums.totals(indices)
        for j, column in enumerate(("p", "n", "q")):
            exact = sum((Fraction(rows[i][j]) for i in indices), Fraction(0))
            assert found[column] == (float(exact) if column != "n" else int(exact)), column
            assert type(found[column]) is (int if column == "n" else float)


def test_tracks_with_as_many_items_share_their_draws():
    from scorer.outputs.drawn_resamples import shared_draws
    first = shared_draws(200, 50, 0)
    assert shared_draws(200, 50, 0) is first
    assert first == resample_indices(200, 50, 0)
    assert shared_draws(201, 50, 0) == resample_indices(201, 50, 0)


# --- the count lanes the build writes (scorer/outputs/resample_counts.py) -------------------------

def _lanes_folder(tmp_path, sizes, resamples, seed=0):
    from bundle.resample_counts import file_bytes
    from scorer.outputs.resample_counts import FILE_NAME
    (tmp_path / FILE_NAME).write_bytes(file_bytes(sizes, resamples, seed))
    return tmp_path


def test_the_count_lanes_count_the_drawn_resamples(tmp_path):
    from scorer.outputs.resample_counts import count_lanes
    folder = _lanes_folder(tmp_path, [1, 7, 200], 30, 5)
    for n_items in (1, 7, 200):
        lanes = count_lanes(str(folder), n_items, 30, 5)
        for resample, indices in enumerate(resample_indices(n_items, 30, 5)):
            assert [(lane >> (32 * resample)) & 0xFFFFFFFF for lane in lanes] == [
                indices.count(item) for item in range(n_items)], (n_items, resample)
    assert count_lanes(str(folder), 8, 30, 5) is None  # no set of 8 items
    assert count_lanes(str(folder), 7, 31, 5) is None  # other resamples
    assert count_lanes(str(folder), 7, 30, 6) is None  # another seed


@pytest.mark.registry
@pytest.mark.parametrize("track", [track.name for track in TRACKS])
def test_the_count_lanes_give_the_drawn_values_bit_for_bit(generated, track, tmp_path):
    from scorer.outputs.fast_intervals import lane_values
    from scorer.outputs.resample_counts import count_lanes
    result = generated[track]
    statistics = result.statistics
    n_items = len(statistics.items)
    resamples = max(1, min(300, 1_000_000 // n_items))
    lanes = count_lanes(str(_lanes_folder(tmp_path, [n_items], resamples)), n_items, resamples, 0)
    assert lanes is not None
    keys = list(result.scores)
    found = lane_values(statistics, keys, lanes, resamples)
    expected = resampled_values(statistics, keys, resample_indices(n_items, resamples, 0))
    if found is None:  # a column read is not of nonnegative numbers: the draws (not with today's tracks' data)
        return
    for key in keys:
        assert found[key] == expected[key], (track, key)
    assert ranking_intervals(result, resamples, 0, reference_dir=str(tmp_path)) == ranking_intervals(
        result, resamples, 0)


def test_lane_totals_are_the_sums_over_each_resample():
    from scorer.outputs.resample_counts import lane_totals
    rng = random.Random(12)
    for n_items, tops in ((50, [3]), (300, [1 << 24]), (300, [1 << 70, 5, 1 << 60, 0, 9]), (1, [1 << 40, 1]),
                          (1000, [7, 7, 7, 7])):
        columns = [[rng.choice([0, rng.randrange(top + 1)]) for _ in range(n_items)] for top in tops]
        draws = resample_indices(n_items, 20, 4)
        lanes = [sum(draws[r].count(item) << (32 * r) for r in range(20)) for item in range(n_items)]
        assert lane_totals(lanes, columns, 20) == [[sum(values[i] for i in draw) for draw in draws]
                                                   for values in columns], (n_items, tops)
    assert lane_totals([1] * (1 << 24), [[0] * (1 << 24)], 1) is None  # too many items for pieces of a byte


def test_a_count_file_that_does_not_fit_is_not_used_and_the_intervals_are_drawn(generated, tmp_path):
    """Truncated, a count changed in the first resample or in a later one, not JSON, another
    format, a link: the run draws (the same intervals)."""
    from scorer.outputs import resample_counts
    from bundle.resample_counts import file_bytes
    from scorer.outputs.resample_counts import FILE_NAME, count_lanes
    result = generated["t6_st1"] if "t6_st1" in generated else next(iter(generated.values()))
    n_items = len(result.statistics.items)
    good = file_bytes([n_items], 100, 0)
    header = len(good.split(b"\n", 1)[0]) + 1
    drawn = ranking_intervals(result, 100, 0)
    later = header + 4 * 50  # item 0, resample 50
    cases = {"truncated": good[:-1], "first resample": good[:header] + b"\x07" + good[header + 1:],
             "later resample": good[:later] + bytes([good[later] ^ 1]) + good[later + 1:],
             "not json": b"[" + good[1:], "format": good.replace(b'"format":1', b'"format":2', 1)}
    for name, data in cases.items():
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        (folder / FILE_NAME).write_bytes(data)
        resample_counts._READ.clear()
        assert count_lanes(str(folder), n_items, 100, 0) is None, name
        assert ranking_intervals(result, 100, 0, reference_dir=str(folder)) == drawn, name
    linked = tmp_path / "link"
    linked.mkdir()
    (tmp_path / "elsewhere.bin").write_bytes(good)
    os.symlink(str(tmp_path / "elsewhere.bin"), str(linked / FILE_NAME))
    assert count_lanes(str(linked), n_items, 100, 0) is None


def test_the_build_gives_the_development_phase_the_lanes_of_every_track(repository_build, tmp_path):
    """The phase whose settings show intervals holds a set for each of its tracks' numbers of
    items (asked of the registry through the sample submission); the other phases hold none."""
    import json
    import zipfile
    from scorer.outputs.resample_counts import FILE_NAME, count_lanes
    from scorer.outputs.resampling import INTERVAL_SEED
    with zipfile.ZipFile(str(repository_build.out / "competition_bundle.zip")) as bundle:
        bundle.extractall(str(tmp_path / "bundle"))
    with_lanes = []
    for name in sorted(os.listdir(str(tmp_path / "bundle"))):
        if not name.endswith("_reference_data.zip"):
            continue
        with zipfile.ZipFile(str(tmp_path / "bundle" / name)) as archive:
            if "scoring_config.json" not in archive.namelist():
                continue
            settings = json.loads(archive.read("scoring_config.json").decode("utf-8"))
            shows = settings.get("detailed_results", "full") == "full" and settings.get("interval_resamples", 0)
            assert (FILE_NAME in archive.namelist()) == bool(shows and not settings.get("blind")), name
            if FILE_NAME in archive.namelist():
                archive.extractall(str(tmp_path / name))
                with_lanes.append((name, settings["interval_resamples"]))
    assert with_lanes, "no phase shows intervals"
    sample = tmp_path / "bundle" / "sample"
    for name, resamples in with_lanes:
        with zipfile.ZipFile(str(tmp_path / "bundle" / name.replace("reference_data", "sample_submission"))) as z:
            z.extractall(str(sample))
        results, refused, problems = score_in_process(str(tmp_path / name), str(sample), PROGRAM_DIR)
        assert results and not refused and not problems
        for track, result in results.items():
            assert count_lanes(str(tmp_path / name), len(result.statistics.items), resamples, INTERVAL_SEED), track


def test_the_page_is_the_same_with_and_without_the_count_lanes_on_every_python(tmp_path):
    """score.py's Development page (each ranking score's interval) for a random baseline on the
    repository's development sample, with the count lanes the build writes and without them (the
    resamples drawn), on each Python 3.7-3.13 found: the same bytes, and the same page on all."""
    import json
    import subprocess
    import sys
    from registry_inputs import STDLIB_TRACKS
    from test_score_contract import _pythons
    sys.path.insert(0, str(ROOT))
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    from bundle.resample_counts import phase_count_lanes
    from scorer.outputs.resample_counts import FILE_NAME
    settings = (ROOT / "phase_settings" / "dev.json").read_bytes()
    derive_public_data(str(DEV), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "random"), seed=1)
    for with_lanes in (False, True):
        ref = tmp_path / ("lanes" if with_lanes else "drawn") / "input" / "ref"
        shutil.copytree(str(DEV), str(ref))
        (ref / "scoring_config.json").write_bytes(settings)
        res = ref.parent / "res"
        res.mkdir()
        for track in STDLIB_TRACKS:  # (the stock images have no nltk)
            shutil.copyfile(str(tmp_path / "random" / track.filename), str(res / track.filename))
        if with_lanes:
            lanes = phase_count_lanes(PROGRAM_DIR, str(ref), str(res), settings, STDLIB_TRACKS)
            assert FILE_NAME in lanes
            (ref / FILE_NAME).write_bytes(lanes[FILE_NAME])
    pages = {}
    for python in _pythons() or [sys.executable]:
        for kind in ("drawn", "lanes"):
            out = tmp_path / kind / ("output-" + os.path.basename(os.path.dirname(os.path.dirname(python))))
            run = subprocess.run([python, str(ROOT / "scoring_program" / "score.py"), str(tmp_path / kind / "input"),
                                  str(out)], capture_output=True, text=True,
                                 env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
            assert run.returncode == 0, (python, run.stderr)
            page = (out / "detailed_results.html").read_text(encoding="utf-8")
            assert "ci95|bootstrap:1000|seed:0" in page, python
            pages.setdefault(kind, set()).add(page)
            assert json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert len(pages["lanes"]) == 1 and pages["lanes"] == pages["drawn"], "the pages differ"
