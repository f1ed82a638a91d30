"""The absita track's name and the name of its file: every module of the package names them."""

NAME = "absita"
FILE_NAME = "evalita2020_absita.ndjson"
