"""What the checks of an upload found: the lines that passed, the problems, and what each platform's
behaviour was verified against (the build's summary line)."""

from __future__ import annotations

from typing import Dict, List


class Report:
    def __init__(self) -> None:
        self.problems: List[str] = []
        self.lines: List[str] = []
        self.verified: Dict[str, List[str]] = {"Codalab v1.5": [], "Codabench": []}

    def fail(self, line: str) -> None:
        self.problems.append(line)

    def ok(self, line: str) -> None:
        self.lines.append(line)

    def summary(self) -> str:
        return "the upload's runs pass on both platforms (with each held-back zip in place); verified " + "; ".join(
            "on %s: %s" % (platform, ", ".join(items)) for platform, items in self.verified.items())
