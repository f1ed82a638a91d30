"""Technique lists for the baselines (the same strings as ``scoring_program/scorer/techniques.py``;
a test keeps the two in step)."""

ST1_ST2 = (
    "Appeal to authority", "Appeal to fear/prejudice", "Black-and-white Fallacy/Dictatorship",
    "Causal Oversimplification", "Doubt", "Exaggeration/Minimisation", "Flag-waving",
    "Glittering generalities (Virtue)", "Loaded Language",
    "Misrepresentation of Someone's Position (Straw Man)", "Name calling/Labeling",
    "Obfuscation, Intentional vagueness, Confusion", "Presenting Irrelevant Data (Red Herring)",
    "Reductio ad hitlerum", "Repetition", "Slogans", "Smears", "Thought-terminating clich\u00e9",
    "Whataboutism", "Bandwagon",
)
ST3 = ST1_ST2 + ("Transfer", "Appeal to (Strong) Emotions")
