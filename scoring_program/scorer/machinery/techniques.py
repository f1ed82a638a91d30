"""The class lists of the tasks, exact strings in the official file order (= table order).

SemEval-2021 Task 6: ``techniques_list_task1-2.txt`` (20) and ``techniques_list_task3.txt`` (22).
NLP4IF-2019 FLC: ``propaganda-techniques-names.txt`` (18).
"""

SEMEVAL2021_T6_ST1_ST2 = (
    "Appeal to authority",
    "Appeal to fear/prejudice",
    "Black-and-white Fallacy/Dictatorship",
    "Causal Oversimplification",
    "Doubt",
    "Exaggeration/Minimisation",
    "Flag-waving",
    "Glittering generalities (Virtue)",
    "Loaded Language",
    "Misrepresentation of Someone's Position (Straw Man)",
    "Name calling/Labeling",
    "Obfuscation, Intentional vagueness, Confusion",
    "Presenting Irrelevant Data (Red Herring)",
    "Reductio ad hitlerum",
    "Repetition",
    "Slogans",
    "Smears",
    "Thought-terminating clich\u00e9",
    "Whataboutism",
    "Bandwagon",
)

SEMEVAL2021_T6_ST3 = SEMEVAL2021_T6_ST1_ST2 + (
    "Transfer",
    "Appeal to (Strong) Emotions",
)

NLP4IF2019_FLC = (
    "Appeal_to_Authority",
    "Appeal_to_fear-prejudice",
    "Bandwagon",
    "Black-and-White_Fallacy",
    "Causal_Oversimplification",
    "Doubt",
    "Exaggeration,Minimisation",
    "Flag-Waving",
    "Loaded_Language",
    "Name_Calling,Labeling",
    "Obfuscation,Intentional_Vagueness,Confusion",
    "Red_Herring",
    "Reductio_ad_hitlerum",
    "Repetition",
    "Slogans",
    "Straw_Men",
    "Thought-terminating_Cliches",
    "Whataboutism",
)
