"""The ground floor: bounded streaming readers, problem lines and the scorer's errors, settings, the
result record. Imports nothing else of the scorer."""
