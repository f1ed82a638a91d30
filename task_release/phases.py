"""The phases a release speaks of: one per reference folder (Evaluation and Post-Evaluation share
one), and the ones whose gold ``--gold`` puts in it."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from bundle.competition import phase_folder, sorted_phases

from .errors import ReleaseError


class Phase:
    """The phases that share one reference folder (e.g. Evaluation and Post-Evaluation)."""

    def __init__(self, folder: str, labels: List[str]) -> None:
        self.folder, self.labels = folder, labels

    @property
    def named(self) -> str:
        return " / ".join(self.labels)


def phases_of(config: Dict[str, Any]) -> List[Phase]:
    """One ``Phase`` per reference folder, in the order of the phases."""
    phases: List[Phase] = []
    for phase in sorted_phases(config):
        folder = phase_folder(phase)
        known = next((p for p in phases if p.folder == folder), None)
        if known is None:
            phases.append(Phase(folder, [str(phase["label"])]))
        else:
            known.labels.append(str(phase["label"]))
    return phases


def chosen_gold(phases: List[Phase], names: Sequence[str]) -> List[Phase]:
    """The phases of ``--gold`` (a label, case-insensitive, or a folder); one line for a name none has."""
    chosen = []
    for name in names:
        match = [p for p in phases if name == p.folder or name.lower() in (label.lower() for label in p.labels)]
        if not match:
            raise ReleaseError("--gold %s: no such phase in competition.yaml; the phases: %s" % (
                name, "; ".join("%s (folder %s)" % (p.named, p.folder) for p in phases)), 2)
        if match[0] not in chosen:
            chosen.append(match[0])
    return chosen
