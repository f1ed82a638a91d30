"""How the release refuses: one line naming the place and the reason."""

from __future__ import annotations


class ReleaseError(Exception):
    """One line naming the place and the reason; ``code``: 2 for the arguments, 1 otherwise."""

    def __init__(self, line: str, code: int = 1) -> None:
        super().__init__(line)
        self.code = code
