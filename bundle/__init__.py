"""Building and checking the competition bundle (used by ``build_bundle.py``)."""
