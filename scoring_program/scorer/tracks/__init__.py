"""One module per track (or one package, when its concerns fill several files), each declaring
everything about its track (file names, keys, readers, ``score``, per-item statistics, public input,
baseline, sample gold, benchmark input) and one metric card ``<name>.md`` beside it; ``registry.py``
here lists them and ``contract.py`` says what a module declares (a track may not be named
``contract`` or ``registry``). The contract: docs/track-authors.md, "Adding a track"; a short
complete example: ``tests/toy_track/toy.py``."""
