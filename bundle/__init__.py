"""Building and checking the competition bundle (``build_bundle.py``; ``release_task.py`` and
``codabench_client`` read some of its pieces)."""
