"""The one line a failed run ends its stdout with: what the participant did not get, and where the
reasons are.

On Codabench the row of a ``Failed`` submission in *My Submissions* has no link to its detailed
results page (the eye icon is drawn for ``Finished`` rows only), its tooltip is the worker's
``Child task failed or non-zero return code``, and a blind phase hides the logs (``hide_output``).
The page is there all the same, for its owner, at ``DETAILED_RESULTS``: the competition's number is
in the address of its page, the submission's in the *ID #* column of *My Submissions*. The
competition's pages and the starting kit's README give the same address.
"""

from __future__ import annotations

DETAILED_RESULTS = "/competitions/<competition id>/detailed_results/<submission id>/"
FAILED = "the submission failed: "  # how the line starts (the starting kit prints its own verdict instead)


def failed_line(scores_shown: bool) -> str:
    """``scores_shown``: stdout holds the scores of the files that could be read."""
    return ("%snothing of it is recorded on the leaderboard%s; the reasons are on stderr and on its detailed "
            "results page (on Codabench: %s)"
            % (FAILED, ", not even the scores above (of the files that could be read)" if scores_shown else "",
               DETAILED_RESULTS))
