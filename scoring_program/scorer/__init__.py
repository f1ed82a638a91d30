"""Scoring program for the six tracks; ``score.py`` beside this package is the Codalab entry point."""

__version__ = "0.1.0"
