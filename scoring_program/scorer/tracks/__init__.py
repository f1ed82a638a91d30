"""One module per track, each declaring everything about its track (file names, keys, readers,
``score``, per-item statistics, public input, baseline, sample gold, benchmark input) and one metric
card ``<name>.md`` beside it; ``scorer/registry.py`` lists them. The contract: README, "Adding a
track"; a short complete example: ``tests/toy_track/toy.py``."""
