"""The repository's folders the build reads: the organiser's pages and phase settings, and the
programs it ships (the scoring program, the starting kit)."""

from __future__ import annotations

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = os.path.join(ROOT, "pages")
PHASE_SETTINGS = os.path.join(ROOT, "phase_settings")
PROGRAM = os.path.join(ROOT, "scoring_program")
KIT = os.path.join(ROOT, "starting_kit")
