"""The scoring program's package; ``score.py`` beside it is the Codalab entry point.

Layers, imports only going down (README, "How the scoring program is built"): the contract
(``score.py``, ``submission``, ``workers``, ``in_process``) -> outputs (``report``,
``error_analysis``, ``signature``, ``resampling``) -> tracks (``registry``, ``tracks/``) -> shared
machinery (metrics, per-item statistics, public-input and sample helpers) -> readers (``readers``,
``records``, ``problems``, ``options``, ``result``).
"""

__version__ = "0.1.0"
