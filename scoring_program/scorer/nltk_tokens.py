"""The ``nlu`` track's tokens: nltk 3.7 ``word_tokenize`` with the English Punkt model.

The one setting that says where the model is: ``PUNKT_SEARCH_PATH`` (the scoring program's own
``nltk_data/`` first, then the folders of the ``NLTK_DATA`` environment variable). The model is
never downloaded; its sha256 is checked before it is unpickled, and the unpickler accepts only
the classes a Punkt model is made of.

nltk is imported here, on first use, so that scoring the other tracks never loads it. When the
scoring program ships nltk itself (the bundle's ``vendor/`` folder), that copy comes first.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import string
import sys
from typing import Callable, List, Optional

from .problems import ReferenceDataError

NLTK_VERSION = "3.7"
PROGRAM_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENDOR_DIR = os.path.join(PROGRAM_DIR, "vendor")
PUNKT_FILE = os.path.join("tokenizers", "punkt", "PY3", "english.pickle")  # what nltk 3.7 loads
PUNKT_SHA256 = "5cad3758596392364e3be9803dbd7ebeda384b68937b488a01365f5551bb942c"
PUNKT_SEARCH_PATH = [os.path.join(PROGRAM_DIR, "nltk_data")] + [
    folder for folder in os.environ.get("NLTK_DATA", "").split(os.pathsep) if folder]

PUNCTUATION = frozenset(string.punctuation)  # !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~

_ALLOWED_GLOBALS = {
    ("nltk.tokenize.punkt", "PunktSentenceTokenizer"),
    ("nltk.tokenize.punkt", "PunktParameters"),
    ("nltk.tokenize.punkt", "PunktLanguageVars"),
    ("nltk.tokenize.punkt", "PunktToken"),
    ("builtins", "int"),
    ("builtins", "set"),
    ("collections", "defaultdict"),
}


class _PunktUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):  # noqa: D401 - pickle API
        if (module, name) not in _ALLOWED_GLOBALS:
            raise pickle.UnpicklingError("the Punkt model refers to %s.%s" % (module, name))
        return super().find_class(module, name)


def find_punkt() -> str:
    for folder in PUNKT_SEARCH_PATH:
        path = os.path.join(folder, PUNKT_FILE)
        if os.path.isfile(path):
            return path
    raise ReferenceDataError(["scoring program: the English Punkt model %s is in none of: %s"
                              % (PUNKT_FILE, ", ".join(PUNKT_SEARCH_PATH))])


def load_punkt(path: str):
    with open(path, "rb") as handle:
        data = handle.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != PUNKT_SHA256:
        raise ReferenceDataError(["scoring program: %s has sha256 %s, expected %s; refusing to load it"
                                  % (path, digest, PUNKT_SHA256)])
    return _PunktUnpickler(io.BytesIO(data)).load()


def import_nltk():
    """nltk 3.7, from the scoring program's vendor/ folder when it has one."""
    if os.path.isdir(VENDOR_DIR) and VENDOR_DIR not in sys.path:
        sys.path.insert(0, VENDOR_DIR)
    try:
        import nltk  # noqa: F401  (lazy on purpose)
        from nltk.tokenize.destructive import NLTKWordTokenizer
    except ImportError as error:
        raise ReferenceDataError(["scoring program: nltk %s is needed for the nlu track and cannot be "
                                  "imported (%s)" % (NLTK_VERSION, error)]) from None
    if nltk.__version__ != NLTK_VERSION:
        raise ReferenceDataError(["scoring program: the nlu track needs nltk %s exactly (its tokens "
                                  "define the score); found nltk %s" % (NLTK_VERSION, nltk.__version__)])
    return NLTKWordTokenizer


class Tokenizer:
    """``tokens(text)`` = nltk 3.7 ``word_tokenize(text)`` minus 1-character punctuation tokens."""

    def __init__(self, punkt_path: Optional[str] = None) -> None:
        word_tokenizer_class = import_nltk()
        self._sentences: Callable[[str], List[str]] = load_punkt(punkt_path or find_punkt()).tokenize
        self._words: Callable[[str], List[str]] = word_tokenizer_class().tokenize

    def word_tokenize(self, text: str) -> List[str]:
        """What ``nltk.word_tokenize(text)`` returns in nltk 3.7 (language english, Punkt)."""
        return [token for sentence in self._sentences(text) for token in self._words(sentence)]

    def tokens(self, text: str) -> List[str]:
        return [token for token in self.word_tokenize(text)
                if not (len(token) == 1 and token in PUNCTUATION)]


_SHARED: List[Tokenizer] = []


def shared_tokenizer() -> Tokenizer:
    """One tokenizer per process (loading nltk and the model costs a second)."""
    if not _SHARED:
        _SHARED.append(Tokenizer())
    return _SHARED[0]
