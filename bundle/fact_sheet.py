"""Codabench's fact sheet (the questions a participant answers with each submission), checked as
Codabench checks it; what the organisers get back is in docs/organisers.md ("System descriptions").

Read in codabench ``src/apps/api/serializers/competitions.py`` (``CompetitionSerializer.
validate_fact_sheet``: run on the competition the unpacker creates). Reimplemented here from
reading it, so that the build and CI refuse what the platform would refuse, and say so in one line;
the answers of each submission are the platform's to check.
"""

from __future__ import annotations

from typing import Any, List

QUESTION_FIELDS = ("key", "type", "title", "selection", "is_required", "is_on_leaderboard")
QUESTION_TYPES = ("checkbox", "text", "select")  # "textarea" is refused by Codabench

# The questions when competition.yaml's ``codabench.fact_sheet`` sets none. Text questions, because
# Codabench refuses a "textarea" type; yes/no questions are checkboxes (a required checkbox cannot be
# left empty: False is an answer).
DEFAULT_FACT_SHEET = {
    "team_name": {"key": "team_name", "type": "text", "title": "Team name", "selection": "",
                  "is_required": "true", "is_on_leaderboard": "true"},
    "system_name": {"key": "system_name", "type": "text", "title": "System name", "selection": "",
                    "is_required": "true", "is_on_leaderboard": "true"},
    "description": {"key": "description", "type": "text", "title": "Short description of the system",
                    "selection": "", "is_required": "true", "is_on_leaderboard": "false"},
    "external_data": {"key": "external_data", "type": "checkbox", "title": "External data used",
                      "selection": [True, False], "is_required": "false", "is_on_leaderboard": "false"},
    "paper_planned": {"key": "paper_planned", "type": "checkbox", "title": "A system description paper is planned",
                      "selection": [True, False], "is_required": "false", "is_on_leaderboard": "false"},
}


def fact_sheet_problems(fact_sheet: Any) -> List[str]:
    """What Codabench's ``validate_fact_sheet`` refuses (an empty sheet is "no sheet"), plus what it
    accepts but then misreads: ``is_required``/``is_on_leaderboard`` are compared with the string
    ``'true'`` (a YAML boolean silently makes the question optional, or hides it from the board)."""
    if not fact_sheet:
        return []
    if not isinstance(fact_sheet, dict):
        return ["must be a mapping of questions keyed by their key (Codabench: 'Not valid JSON')"]
    problems = []
    for key, question in fact_sheet.items():
        if not isinstance(question, dict):
            problems.append("question %s must be a mapping of %s" % (key, ", ".join(QUESTION_FIELDS)))
            continue
        wrong = sorted(set(QUESTION_FIELDS).symmetric_difference(question), key=str)
        if wrong:
            problems.append("question %s must have exactly the fields %s; missing or extra: %s"
                            % (key, ", ".join(QUESTION_FIELDS), ", ".join(map(str, wrong))))
            continue
        if key != question["key"]:
            problems.append("question %s: key %r must equal the question's own key" % (key, question["key"]))
        if question["type"] not in QUESTION_TYPES:
            problems.append("question %s: type %r is not one of %s (write a long answer as text)"
                            % (key, question["type"], ", ".join(QUESTION_TYPES)))
        for field in ("is_required", "is_on_leaderboard"):
            if question[field] not in ("true", "false"):
                problems.append("question %s: %s must be the string \"true\" or \"false\" (Codabench compares "
                                "with == 'true'; %r would read as \"false\")" % (key, field, question[field]))
        selection = question["selection"]
        if question["type"] == "select" and not (isinstance(selection, list) and selection):
            problems.append("question %s: a select question needs a non-empty list of choices in selection" % key)
        if question["type"] == "checkbox" and selection != [True, False]:
            problems.append("question %s: a checkbox's selection must be [true, false] (the answers it sends)" % key)
        if question["type"] == "text" and selection:
            problems.append("question %s: a text question's selection must be empty (\"\"), or every answer "
                            "must be one of it" % key)
    return problems
