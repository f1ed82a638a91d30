"""One module per track; each exposes ``score(gold_path, submission_path, name, options, reference_dir)``."""
