"""competition.yaml as the build reads it: the file itself (its problems named by line and column),
its phases in order, the gold folder and settings of each, and the tracks it hosts.

A phase's reference data is named ``<folder>_reference_data.zip``, or ``<folder>-<name>_reference_data.zip``
for a phase with its own settings on the gold of ``<folder>``: the names the organiser's folders,
``phase_settings/`` and the build's outputs follow.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

import yaml

REFERENCE_ZIP = re.compile(r"^((\w+?)(?:-\w+)?)_reference_data\.zip$")


class _Loader(yaml.SafeLoader):
    """yaml's safe loader, whose dates and integers that cannot be values (``2027-02-30``, hour 25,
    an integer of more digits than Python converts) are errors naming their place, as syntax
    errors are, rather than a ValueError from deep inside the constructor."""


def _checked(construct, what: str):
    def constructor(loader, node):
        try:
            return construct(loader, node)
        except (ValueError, OverflowError) as error:
            reason = str(error).split(":")[0] if "digits" in str(error) else str(error)
            raise yaml.constructor.ConstructorError(
                None, None, "%s is not %s (%s)" % (str(node.value)[:40] + ("..." if len(str(node.value)) > 40 else ""),
                                                     what, reason), node.start_mark) from None
    return constructor


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _checked(yaml.SafeLoader.construct_yaml_timestamp,
                                                                 "a date or time that exists"))
_Loader.add_constructor("tag:yaml.org,2002:int", _checked(yaml.SafeLoader.construct_yaml_int,
                                                           "an integer Python reads"))


def load_yaml(path: str) -> Tuple[str, Any, str]:
    """(text, value, problem) of competition.yaml; the problem is one line naming the place."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        return "", None, ("competition.yaml: line %d, column %d: byte 0x%02x is not UTF-8; save the file as UTF-8 "
                          "(both platforms read it as UTF-8)" % (line, column, data[error.start]))
    try:
        return text, yaml.load(text, Loader=_Loader), ""
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = "line %d, column %d: " % (mark.line + 1, mark.column + 1) if mark else ""
        line = text.split("\n")[mark.line] if mark and mark.line < text.count("\n") + 1 else ""
        key = line.split(":")[0].strip().lstrip("- ")
        if isinstance(error, yaml.constructor.ConstructorError) and key:
            hint = "%s: %s" % (key[:60], error.problem)
        else:
            hint = ("YAML indents with spaces only; replace the TAB character(s) on that line with spaces"
                    if "\t" in line or "\t" in str(getattr(error, "problem", "")) else
                    "not valid YAML (%s)" % getattr(error, "problem", error))
        return text, None, "competition.yaml: %s%s" % (where, hint)


def sorted_phases(config: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The phases of ``config`` by ``phasenumber``."""
    return sorted(config["phases"].values(), key=lambda phase: phase["phasenumber"])


def competition_tracks(config: Dict[str, Any], tracks: Sequence) -> List:
    """The competition's tracks: those with a key among the leaderboard's columns, in registry order."""
    columns = set((config.get("leaderboard") or {}).get("columns") or {})
    return [track for track in tracks if columns & set(track.keys)]


def phase_folder(phase: Dict[str, Any]) -> str:
    """The folder of the gold of a phase: ``dev_reference_data.zip`` -> ``dev``; a phase sharing another
    phase's gold with its own settings names it ``<folder>-<name>``: ``test-blind_reference_data.zip``
    -> ``test``."""
    match = REFERENCE_ZIP.match(str(phase.get("reference_data", "")))
    return match.group(2) if match else ""


def settings_name(phase: Dict[str, Any]) -> str:
    """The name of a phase's settings, ``phase_settings/<name>.json``: its reference data's name
    (``test-blind_reference_data.zip`` -> ``test-blind``)."""
    match = REFERENCE_ZIP.match(str(phase.get("reference_data", "")))
    return match.group(1) if match else ""
