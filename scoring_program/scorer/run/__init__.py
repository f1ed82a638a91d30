"""Running the scorer (the top layer): ``score.py``'s contract with the platforms (``input/ref``,
``input/res``, ``output/``, exit codes, the v1.5 worker's timing), finding the submitted files, the
one scoring loop (``in_process``), the installed scorer's API and command (``api``, ``cli``), and
how every command of the repository ends on a closed pipe (``closed_pipe``).
Imports the layers below it: outputs, tracks, machinery, readers."""
