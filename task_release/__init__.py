"""The task's release for a long-term archive, written by ``release_task.py``."""
