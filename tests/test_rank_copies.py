"""rank_submissions.py flags prediction files alike across teams (ranking/copies.py): identical
files and files with the same predictions for >= 95% of their items, only across owners."""

from __future__ import annotations

import json
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT))
from ranking.copies import NEAR, alike, describe, items_of  # noqa: E402
from ranking.entries import Entry  # noqa: E402


def submission(folder, records):
    folder.mkdir(parents=True)
    (folder / "semeval2021_t6_st1.json").write_text(json.dumps(records), encoding="utf-8")
    return folder


def records(n, changed=0):
    return [{"id": str(i), "labels": ["Smears"] if i >= changed else ["Doubt"]} for i in range(n)]


def entry(folder, owner):
    return Entry(owner, owner, str(folder), owner=owner)


def test_identical_and_nearly_identical_files_across_owners_are_flagged(tmp_path):
    a = entry(submission(tmp_path / "a", records(100)), "alice")
    b = entry(submission(tmp_path / "b", records(100)), "bob")  # the same bytes
    c = entry(submission(tmp_path / "c", records(100, changed=4)), "carol")  # 96 of 100 the same
    d = entry(submission(tmp_path / "d", records(100, changed=6)), "dave")  # 94 of 100: not flagged against a
    e = entry(submission(tmp_path / "e", records(100)), "alice")  # alice's own second file: not compared
    found = {(p.first.owner, p.second.owner): p for p in alike([a, b, c, d, e])}
    assert found[("alice", "bob")].identical and describe(found[("alice", "bob")]) == \
        "semeval2021_t6_st1.json: identical"
    near = found[("alice", "carol")]
    assert not near.identical and (near.shared, near.total) == (96, 100) and near.fraction >= NEAR
    assert "96 of 100 items (96.0%)" in describe(near)
    assert ("alice", "dave") not in found and ("carol", "dave") in found  # 98 of 100 alike
    assert ("alice", "alice") not in found


def test_items_are_records_whatever_the_layout(tmp_path):
    (tmp_path / "x.json").write_text('[{"b": 1, "a": 2}]')
    (tmp_path / "y.ndjson").write_text('{"a": 2, "b": 1}\n\n')
    (tmp_path / "z.csv").write_text("id,q\n 1,x \n")
    assert items_of(str(tmp_path / "x.json")) == items_of(str(tmp_path / "y.ndjson")) == ['{"a": 2, "b": 1}']
    assert items_of(str(tmp_path / "z.csv")) == ["id,q", "1,x"]
