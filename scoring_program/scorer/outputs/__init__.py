"""What a run writes: ``scores.txt``, ``scores.json``, the detailed results page and its tables by
group, local error analysis, signatures, resampled intervals, a blind phase's outputs, a failed
run's last line (``verdict.py``), decided in one place (``run_outputs.py``). Asks the registry
(``tracks``); imports only tracks, machinery and readers."""
