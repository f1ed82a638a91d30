"""The participants' own descriptions of their systems, one shape for every platform: (team,
system, description, external data) from Codabench's fact-sheet answers (its results export) or
from Codalab v1.5's ``method.txt`` files."""

from __future__ import annotations

import os
import re
import zipfile
from typing import Dict, List, Optional, Tuple

from .codabench_export import ExportEntry, read_results_export
from .downloads import discover
from .entries import Download


def fact_sheet_description(answers: Dict[str, str]) -> Dict[str, str]:
    """(team, system, description, external data) from fact-sheet answers, by question key: the
    first key naming a team, a method or system, a description, external data or resources
    (the bundle's default sheet: ``team_name``, ``system_name``, ``description``,
    ``external_data`` (a checkbox: yes or no)).

    >>> fact_sheet_description({"team_name": "T", "system_name": "S", "description": "D", "external_data": "True"})
    {'team': 'T', 'system': 'S', 'description': 'D', 'external data': 'yes'}
    """
    def first(*words: str, exclude: Tuple[str, ...] = ()) -> str:
        for key, value in answers.items():
            low = key.lower()
            if any(w in low for w in words) and not any(x in low for x in exclude):
                return value
        return ""

    external = one_line(first("external", "resource", "data", exclude=("desc",)))
    return {"team": one_line(first("team")),
            "system": one_line(first("system", "method", "name", exclude=("team", "desc", "url"))),
            "description": one_line(first("desc", "approach", "summary")),
            "external data": {"True": "yes", "False": "no", "true": "yes", "false": "no"}.get(external, external)}


def method_description(fields: Dict[str, str]) -> Dict[str, str]:
    return {"team": one_line(fields.get("team_name", "")), "system": one_line(fields.get("method_name", "")),
            "description": one_line(fields.get("method_description", "")), "external data": ""}


def one_line(text: str) -> str:
    """A description for a table cell: its lines joined by spaces (other characters stay, to be
    shown by ``names.shown``)."""
    return re.sub(r"\s*[\r\n\t]+\s*", " ", text).strip()


def read_descriptions(path: str) -> Dict[str, Dict[str, str]]:
    """owner -> description, from a results export, a v1.5 download, or a folder of method.txt."""
    if os.path.isdir(path) or zipfile.is_zipfile(path):
        try:
            found = discover(path)
        except SystemExit:
            found = Download()
        if found.descriptions:
            return method_descriptions(found)
    entries, _ = read_results_export(path)
    return export_descriptions(entries)


def method_descriptions(found: Download) -> Dict[str, Dict[str, str]]:
    """owner -> description, from the download's method.txt files (Codalab v1.5)."""
    return {owner: method_description(fields) for owner, fields in found.descriptions.items()}


def export_descriptions(export: List[ExportEntry]) -> Dict[str, Dict[str, str]]:
    """``<owner>-<submission id>`` -> description, from a results export's fact-sheet answers."""
    return {entry.key(): fact_sheet_description(entry.answers) for entry in export if entry.answers}


def participant_descriptions(found: Download, export: Optional[List[ExportEntry]], path: Optional[str]
                             ) -> Dict[str, Dict[str, str]]:
    """Participant (owner, or Codabench's "<owner>-<id>") -> system, description, external data: the
    download's method.txt files, then the results export's fact sheets, then the ``--descriptions``
    file, each over the one before."""
    described = method_descriptions(found)
    if export:
        described.update(export_descriptions(export))
    if path:
        described.update(read_descriptions(path))
    return described
