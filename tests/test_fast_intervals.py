"""The Development page's intervals from reduced statistics (``scorer/fast_intervals.py``) against
the plain definition (the naive oracle below: every column of every drawn item summed by
``per_item.column_totals``, the track's aggregate on each resample, sorted, nearest rank).

Every track (asked of the registry), on its benchmark generator's inputs at the task's size and on
the repository's development sample: bit-identical where the ranking score reads only integer
sums, or float sums that are not pooled; to 1e-12 where pooled float sums are grouped per item
first (the span tracks' precision and recall sums: the module's docstring and the cards).
"""

from __future__ import annotations

import random
import shutil

import pytest

from conftest import ROOT
from scorer.outputs.fast_intervals import (ResampleSums, _Reads, columns_read, drawn_resamples, pooled_statistics,
                                   resampled_values)
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
    """True where the reduced statistics must give the oracle's floats bit for bit."""
    track = next(track for track in TRACKS if track.name == statistics.track)
    if key not in track.pooled_keys:
        return True
    pooled = pooled_statistics(statistics)
    return pooled is None or all(type(value) is int for row in pooled.rows for value in row)  # noqa: E721


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
    sums = ResampleSums(statistics, statistics.columns)
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
    sums = ResampleSums(statistics, statistics.columns, exact_floats=True)
    for indices in resample_indices(250, 40, 2):
        found = sums.totals(indices)
        for j, column in enumerate(("p", "n", "q")):
            exact = sum((Fraction(rows[i][j]) for i in indices), Fraction(0))
            assert found[column] == (float(exact) if column != "n" else int(exact)), column
            assert type(found[column]) is (int if column == "n" else float)


def test_tracks_with_as_many_items_share_their_draws():
    from scorer.outputs import fast_intervals
    first = fast_intervals._shared_draws(200, 50, 0)
    assert fast_intervals._shared_draws(200, 50, 0) is first
    assert first == resample_indices(200, 50, 0)
    assert fast_intervals._shared_draws(201, 50, 0) == resample_indices(201, 50, 0)
