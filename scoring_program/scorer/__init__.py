"""The scoring program's package; ``score.py`` beside it is the Codalab entry point.

Layers, one sub-folder each, imports only going down (docs/architecture.md, "How the scoring program is built";
``tests/test_architecture.py`` checks it): ``run/`` (``score.py`` beside this package, ``submission``,
``workers``, ``in_process``, ``api``, ``cli``) -> ``outputs/`` (``run_outputs``, ``scores_files``,
``results_page``, ``support_chart``, ``page_style``, ``item_files``, ``error_analysis``, ``signature``,
``resampling``, ``groups``, ``blind``) -> ``tracks/`` (``contract``, ``registry`` and
the track modules) -> ``machinery/`` (metrics, per-item statistics, public-input and sample helpers)
-> ``readers/`` (``readers``, ``records``, ``problems``, ``options``, ``result``).
"""

__version__ = "0.1.0"
