"""The nlu track's name and the names of its files: every module of the package names them."""

NAME = "nlu"
FILE_NAME = "aicup2022_nlu.csv"
TEST_INPUT = "aicup2022_nlu_test.csv"  # optional in ref/: the released test input (id,q,r,s)
# The same file in a phase's public data, named for every phase (the Development phase's input is
# no test set); a public folder of an older kit may still hold it as TEST_INPUT.
PUBLIC_INPUT = "aicup2022_nlu_input.csv"
