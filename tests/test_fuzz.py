"""Property-based fuzzing of every track's reader: random bytes, random structures, mutations.

Whatever the submission, a track either returns scores within their ranges or raises
SubmissionError (one clear line per problem); any other exception is a bug.
"""

from __future__ import annotations

import json
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.readers.options import Options
from scorer.readers.problems import SubmissionError
from scorer.tracks.registry import BY_FILE
from test_hostile import GOLD, VALID

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    ref = tmp_path_factory.mktemp("ref")
    for name, content in GOLD.items():
        path = ref / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return ref


def score_bytes(reference, name, data: bytes):
    track = BY_FILE[name]
    path = os.path.join(str(reference), "..", "fuzz_" + name)
    with open(path, "wb") as handle:
        handle.write(data)
    try:
        result = track.score(track.find_gold(str(reference)), path, name, Options(), str(reference))
    except SubmissionError as error:
        assert error.lines and all(isinstance(line, str) and line for line in error.lines)
        assert all(line.startswith((name + ": ", "... and ")) for line in error.lines), error.lines
        return None
    for key, value in result.scores.items():
        assert key in track.keys and math.isfinite(value)
        if key == "sa_rmse":
            assert value >= 0
        else:
            assert 0.0 <= value <= 1.0, (key, value)
    return result


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10 ** 20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["1", "2", "Smears", "Transfer", "r1", "r2", "batteria"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["id", "labels", "technique", "start", "end", "text", "id_sentence", "aspects",
                         "polarities", "score"]) | st.text(max_size=5), children, max_size=6),
    max_leaves=25)

NAMES = sorted(VALID)


def mutate(data: bytes, edits) -> bytes:
    data = bytearray(data)
    for position, kind, byte in edits:
        if not data:
            data.append(byte)
            continue
        position %= len(data)
        if kind == 0:
            data[position] = byte
        elif kind == 1:
            del data[position]
        else:
            data.insert(position, byte)
    return bytes(data)


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes(reference, name, data):
    score_bytes(reference, name, data)


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(edits=st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 2),
                                st.sampled_from(list(b'\t\n\r",:[]{}0123456789-.e\\ x\xff\xc3'))),
                      min_size=1, max_size=6))
def test_mutations_of_a_valid_file(reference, name, edits):
    score_bytes(reference, name, mutate(VALID[name].encode("utf-8"), edits))


@pytest.mark.parametrize("name", [n for n in NAMES if n.endswith(".json")])
@FUZZ
@given(value=json_values)
def test_random_json_structures(reference, name, value):
    score_bytes(reference, name, json.dumps(value).encode("utf-8"))


@FUZZ
@given(lines=st.lists(json_values, min_size=1, max_size=4))
def test_random_ndjson_structures(reference, lines):
    name = "evalita2020_absita.ndjson"
    score_bytes(reference, name, "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8"))


cells = st.sampled_from(["11", "12", "7", "8", "9", "Doubt", "Smears", "0", "5", "12", "-1", "1e3", "",
                         '"', '""', '"a,b"', "x\ty", "10000000000000000000000", "\\\"", " "]) | st.text(max_size=6)


@pytest.mark.parametrize("name,separator", [("nlp4if2019_flc.tsv", "\t"), ("aicup2022_nlu.csv", ",")])
@FUZZ
@given(rows=st.lists(st.lists(cells, min_size=0, max_size=6), min_size=0, max_size=6))
def test_random_tabular_rows(reference, name, separator, rows):
    score_bytes(reference, name, "".join(separator.join(row) + "\n" for row in rows).encode("utf-8"))


@pytest.mark.parametrize("name", NAMES)
def test_the_valid_files_score(reference, name):
    assert score_bytes(reference, name, VALID[name].encode("utf-8")) is not None
