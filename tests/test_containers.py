"""The shared container readers (``scorer/readers/containers.py``): line numbers, split semantics,
bounds, and one clear problem line for a broken file."""

from __future__ import annotations

import pytest

from conftest import ROOT  # noqa: F401 (puts the scoring program on sys.path)
from scorer.readers.containers import iter_rows, iter_token_blocks
from scorer.readers.problems import Problems, SubmissionError


def _file(tmp_path, text, name="x.tsv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


def test_tsv_rows_keep_empty_fields_and_number_lines(tmp_path):
    path = _file(tmp_path, "\ufeffa\t1\tX,Y\r\n\n b\t2\t\n")
    assert list(iter_rows(path, "x.tsv", None, ("article", "paragraph", "labels"))) == [
        (1, ["a", "1", "X,Y"]), (3, [" b", "2", ""])]


def test_whitespace_split_as_perl_scorers_split(tmp_path):
    path = _file(tmp_path, "EU  NNP B-ORG\tB-ORG\n")
    assert list(iter_rows(path, "x", None, delimiter=None)) == [(1, ["EU", "NNP", "B-ORG", "B-ORG"])]


def test_a_wrong_column_count_names_the_line_and_columns(tmp_path):
    path = _file(tmp_path, "a\t1\tX\nb\t2\n")
    with pytest.raises(SubmissionError) as error:
        list(iter_rows(path, "x.tsv", None, ("article", "paragraph", "labels")))
    assert error.value.lines == ["x.tsv: line 2: expected 3 tab-separated columns (article, paragraph, labels), "
                                 "found 2"]
    problems = Problems("x.tsv")
    assert list(iter_rows(path, "x.tsv", None, ("article", "paragraph", "labels"), problems=problems)) == [
        (1, ["a", "1", "X"])]
    assert problems.lines == ["x.tsv: line 2: expected 3 tab-separated columns (article, paragraph, labels), "
                              "found 2"]


def test_a_header_line_is_skipped(tmp_path):
    path = _file(tmp_path, "id\tlabel\n1\tA\n")
    assert list(iter_rows(path, "x", None, ("id", "label"), header=("id", "label"))) == [(2, ["1", "A"])]


def test_bounds_and_encoding(tmp_path):
    with pytest.raises(SubmissionError, match="line 2: the line is longer than 10 bytes"):
        list(iter_rows(_file(tmp_path, "a\tb\n" + "x" * 50 + "\n"), "x", None, max_line_bytes=10))
    with pytest.raises(SubmissionError, match="x: .*UTF-8"):
        list(iter_rows(_file(tmp_path, b"a\t\xff\n"), "x", None))
    with pytest.raises(SubmissionError):
        list(iter_rows(_file(tmp_path, "a\tb\n" * 100), "x", 50))


def test_token_blocks_split_on_blank_lines_and_docstart(tmp_path):
    text = "-DOCSTART- -X- O O\n\nEU NNP B-ORG\nrejects VBZ O\n\n\nPeter NNP B-PER\n"
    blocks = list(iter_token_blocks(_file(tmp_path, text), "x", None, min_columns=3))
    assert blocks == [(3, [(3, ["EU", "NNP", "B-ORG"]), (4, ["rejects", "VBZ", "O"])]),
                      (7, [(7, ["Peter", "NNP", "B-PER"])])]
    with pytest.raises(SubmissionError, match="line 2: expected at least 3 columns, found 2"):
        list(iter_token_blocks(_file(tmp_path, "EU NNP B-ORG\nrejects VBZ\n"), "x", None, min_columns=3))
    with pytest.raises(SubmissionError, match="line 4: a sentence of more than 3 tokens"):
        list(iter_token_blocks(_file(tmp_path, "a O\n" * 5), "x", None, max_tokens=3))


def test_a_positional_track_names_predictions_for_another_phase_first():
    from scorer.readers.records import check_item_sequence, content_id
    gold, dev = ["EU rejects it", "Peter smiles"], ["Rain today", "Sun tomorrow", "Wind"]
    problems = Problems("x.txt")
    check_item_sequence(gold, dev, ["line 1", "line 3", "line 5"], problems,
                        other_phases={"public_data/dev": frozenset(map(content_id, dev))})
    assert problems.lines == [
        "x.txt: these are predictions for the public_data/dev phase's inputs (3 of the 3 ids not in this phase are "
        "its ids); run your system on this phase's inputs (its public data) and submit those",
        "x.txt: line 1: sentence 1 is not the phase's input: 'Rain today'; write the public input's sentences in order",
        "x.txt: 3 sentences; the phase's input has 2"]
    problems = Problems("x.txt")
    check_item_sequence(gold, ["EU rejects it", "Peter frowns"], ["line 1", "line 5"], problems)
    assert problems.lines == ["x.txt: line 5: sentence 2 is not the phase's input: 'Peter frowns'; write the public "
                              "input's sentences in order"]
    problems = Problems("x.txt")
    check_item_sequence(gold, list(gold), ["line 1", "line 5"], problems)
    assert not problems


def test_a_track_without_ids_or_inputs_checks_the_count_and_says_when_phases_cannot_be_told_apart(tmp_path):
    """One prediction per line, nothing else (``records.check_item_count``): a count that is another
    phase's names that phase first; the right count is scored, with a note when another phase has as
    many items (its predictions would be scored too); the counts come from the build's
    ``other_phases.json`` (``options.other_phase_counts``: repeated content ids counted)."""
    import json
    from scorer.readers.options import OTHER_PHASES, other_phase_counts
    from scorer.readers.records import check_item_count, content_id
    (tmp_path / OTHER_PHASES).write_text(json.dumps({
        "public_data/dev": {"hyp.txt": [content_id(s) for s in ("Thanks.", "Thanks.", "Rain today.")]},
        "public_data/train": {"other.json": ["a"]}}), encoding="utf-8")
    counts = other_phase_counts(str(tmp_path), "hyp.txt")
    assert counts == {"public_data/dev": 3}
    problems = Problems("hyp.txt")
    assert check_item_count(2, 3, problems, other_counts=counts) == ""
    assert problems.lines == [
        "hyp.txt: these are predictions for the public_data/dev phase's inputs (by their count: 3 lines, as many as "
        "its input has); run your system on this phase's inputs (its public data) and submit those",
        "hyp.txt: 3 lines; the phase's input has 2"]
    problems = Problems("hyp.txt")
    assert check_item_count(2, 5, problems, other_counts=counts) == "" and problems.lines == [
        "hyp.txt: 5 lines; the phase's input has 2"]
    problems = Problems("hyp.txt")
    assert check_item_count(2, 2, problems, other_counts=counts) == "" and not problems
    note = check_item_count(3, 3, problems, "sentence", counts)
    assert not problems and "public_data/dev" in note and "3 sentences" in note
    assert other_phase_counts(str(tmp_path / "nowhere"), "hyp.txt") == {}
