"""The public side of a track's files, shared by the track modules: a phase's public input made
from its gold (the answers removed), the ids in it, and a stand-in gold made back from the public
input (the right ids and texts, no answers) so that a submission's format can be checked without
the gold.

Each track module defines ``write_public_input(gold_dir, public_dir, filename)``,
``public_ids(public_dir, filename)`` and ``write_stand_in_gold(public_dir, gold_dir, filename)``
with these helpers; the bundle build and the starting kit's format checker only call them.
Organiser and participant tools, not the scoring path: plain whole-file reading is fine here.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, List, Optional, Sequence


def read_json(path: str) -> Any:
    with open(path, encoding="utf-8-sig") as handle:
        return json.load(handle)


def write_json(path: str, value: Any) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(json.dumps(value, indent=1, ensure_ascii=False) + "\n")


def read_ndjson(path: str) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8-sig") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def write_ndjson(path: str, records: Sequence[Dict[str, Any]]) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def write_text(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def public_json_list(gold_dir: str, public_dir: str, filename: str, fields: Sequence[str]) -> List[str]:
    """A JSON list of records keeping only ``fields`` (the inputs); [filename] or []."""
    gold = os.path.join(gold_dir, filename)
    if not os.path.isfile(gold):
        return []
    write_json(os.path.join(public_dir, filename),
               [{key: record[key] for key in fields if key in record} for record in read_json(gold)])
    return [filename]


def json_list_ids(public_dir: str, filename: str, field: str = "id") -> Optional[List[str]]:
    path = os.path.join(public_dir, filename)
    return [str(record[field]) for record in read_json(path)] if os.path.isfile(path) else None


def stand_in_json_list(public_dir: str, gold_dir: str, filename: str,
                       answers: Callable[[Dict[str, Any]], Dict[str, Any]]) -> List[str]:
    """The public records with ``answers(record)`` added (empty answers); [filename] or []."""
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    write_json(os.path.join(gold_dir, filename), [dict(record, **answers(record)) for record in read_json(path)])
    return [filename]


class MemeList:
    """The public side of a track whose files are JSON lists of memes ``{"id", ..., "labels"}``
    (the three SemEval-2021 Task 6 tracks): the inputs keep ``fields``; the stand-in gold has
    ``"labels": []``. A track module binds its three functions from one instance."""

    def __init__(self, fields: Sequence[str]) -> None:
        self.fields = tuple(fields)

    def write_public_input(self, gold_dir: str, public_dir: str, filename: str) -> List[str]:
        return public_json_list(gold_dir, public_dir, filename, self.fields)

    def public_ids(self, public_dir: str, filename: str) -> Optional[List[str]]:
        return json_list_ids(public_dir, filename)

    def write_stand_in_gold(self, public_dir: str, gold_dir: str, filename: str) -> List[str]:
        return stand_in_json_list(public_dir, gold_dir, filename, lambda record: {"labels": []})
