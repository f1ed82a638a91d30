"""The checks of a built upload, one concern per module, run in order by ``bundle/checker.py``."""
