"""``results.md``: every board as a Markdown table, then the appendix."""

from __future__ import annotations

from typing import Dict, List, Sequence

import pandas as pd

from .names import SHOWN_LIMIT, shown
from .statistics import ALPHA, Board
from .tables import (DESCRIPTION_LIMIT, EXPLANATIONS, Report, appendix_frames, four_decimals, group_text, other_keys,
                     range_text, rank_text, team_label)


def _md(text: str, limit: int = SHOWN_LIMIT) -> str:
    return shown(text, limit).replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("*", "\\*") \
        .replace("_", "\\_").replace("<", "&lt;").replace("[", "\\[")


def markdown(boards: Sequence[Board], keys_of: Dict[str, List[str]], report: Report) -> str:
    lines = ["# Results", "", "Signature: `%s`" % report.signature.replace("`", "'"), "",
             report.selection, "", report.settings, ""]
    lines += ["- **%s**: %s" % (name, text.format(resamples=report.resamples, alpha=ALPHA))
              for name, text in EXPLANATIONS] + [""]
    for board in boards:
        others = other_keys(board, keys_of[board.name])
        records = []
        for i, scored in enumerate(board.rows):
            scores = scored.scores[board.track]
            record = {"Rank": rank_text(board, i, "–"), "Team": _md(team_label(scored)),
                      "System": _md(scored.entry.system or scored.entry.submission),
                      report.labels[board.key]: four_decimals(board.scores[i]),
                      "95% CI": "[%s, %s]" % (four_decimals(board.ci[i, 0]), four_decimals(board.ci[i, 1])),
                      "Rank range": range_text(board, i, "–"), "Group": group_text(board, i, "–")}
            for key in others:
                record[report.labels[key]] = four_decimals(scores[key]) if key in scores else "–"
            records.append(record)
        frame = pd.DataFrame.from_records(records)
        lines += ["## %s" % report.board_title(board), "",
                  frame.to_markdown(index=False, disable_numparse=True, colalign=_md_align(frame)), ""]
    for title, frame in appendix_frames(report, _md, lambda text: _md(text, DESCRIPTION_LIMIT),
                                         lambda text: _md(text, 400)):
        lines += ["## %s" % title, "", frame.to_markdown(index=False, disable_numparse=True), ""]
    return "\n".join(lines)


def _md_align(frame: pd.DataFrame) -> List[str]:
    return ["left" if c in ("Team", "System") else "right" for c in frame.columns]
