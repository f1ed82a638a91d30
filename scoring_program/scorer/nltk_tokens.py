"""The ``nlu`` track's tokens: nltk 3.7 ``word_tokenize`` with the English Punkt model.

The one setting that says where the model is: ``PUNKT_SEARCH_PATH`` (the scoring program's own
``nltk_data/`` first, then the folders of the ``NLTK_DATA`` environment variable). The model is
never downloaded; its sha256 is checked before it is unpickled, and the unpickler accepts only
the classes a Punkt model is made of.

nltk is imported here, on first use, so that scoring the other tracks never loads it, and only
its two tokenizer modules are loaded (see ``import_nltk``). When the scoring program ships nltk
itself (the bundle's ``vendor/`` folder), that copy comes first.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import io
import os
import pickle
import string
import sys
import types
from typing import Callable, List, Optional

from .problems import ProgramError

intern = sys.intern

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
    """Builds only the classes a Punkt model is made of, taken from the modules given."""

    def __init__(self, data: bytes, punkt_module) -> None:
        super().__init__(io.BytesIO(data))
        self._punkt_module = punkt_module

    def find_class(self, module: str, name: str):  # noqa: D401 - pickle API
        if (module, name) not in _ALLOWED_GLOBALS:
            raise pickle.UnpicklingError("the Punkt model refers to %s.%s" % (module, name))
        if module == "nltk.tokenize.punkt":  # our copy, without importing nltk by name
            return getattr(self._punkt_module, name)
        return super().find_class(module, name)


def find_punkt() -> str:
    for folder in PUNKT_SEARCH_PATH:
        path = os.path.join(folder, PUNKT_FILE)
        if os.path.isfile(path):
            return path
    raise ProgramError("the English Punkt model %s is in none of: %s"
                       % (PUNKT_FILE, ", ".join(PUNKT_SEARCH_PATH)))


def load_punkt(path: str, punkt_module=None):
    with open(path, "rb") as handle:
        data = handle.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != PUNKT_SHA256:
        raise ProgramError("%s has sha256 %s, expected %s; refusing to load it"
                           % (path, digest, PUNKT_SHA256))
    return _PunktUnpickler(data, punkt_module or import_nltk()[1]).load()


def _unavailable(reason: str) -> ProgramError:
    return ProgramError("nltk %s is needed for the nlu track and cannot be "
                        "imported (%s)" % (NLTK_VERSION, reason))


def import_nltk():
    """(nltk.tokenize.destructive, nltk.tokenize.punkt) of nltk 3.7, vendor/ first when there is one.

    Only these two modules and what they import are loaded: ``nltk/__init__.py`` imports every
    nltk module and, through them, numpy, scipy and scikit-learn when they are installed (as on
    the stock images); that took 2 s and 130 MB for nothing. The two modules are nltk's own code,
    unchanged. Our loading leaves no trace in ``sys.modules``, so a later ``import nltk`` gets the
    whole package as usual.
    """
    if os.path.isdir(VENDOR_DIR) and VENDOR_DIR not in sys.path:
        sys.path.insert(0, VENDOR_DIR)
    if "nltk" in sys.modules:  # already imported whole (a test comparing with nltk itself)
        try:
            import nltk.tokenize.destructive
            import nltk.tokenize.punkt
        except ImportError as error:
            raise _unavailable(str(error)) from None
        _check_version(nltk.__version__)
        return nltk.tokenize.destructive, nltk.tokenize.punkt
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        raise _unavailable("no module named 'nltk'")
    package_dir = list(spec.submodule_search_locations)[0]
    try:
        with open(os.path.join(package_dir, "VERSION"), encoding="utf-8") as handle:
            version = handle.read().strip()
    except OSError as error:
        raise _unavailable("no VERSION file: %s" % error) from None
    _check_version(version)  # another version's modules are not loaded at all
    before = set(sys.modules)
    for name, folder in (("nltk", package_dir), ("nltk.tokenize", os.path.join(package_dir, "tokenize"))):
        package = types.ModuleType(name)  # the package without its __init__.py
        package.__path__ = [folder]  # type: ignore[attr-defined]
        package.__file__ = os.path.join(folder, "__init__.py")
        package.__version__ = version  # type: ignore[attr-defined]
        sys.modules[name] = package
    try:
        destructive = importlib.import_module("nltk.tokenize.destructive")
        punkt = importlib.import_module("nltk.tokenize.punkt")
    except ImportError as error:
        raise _unavailable(str(error)) from None
    finally:
        for name in set(sys.modules) - before:
            if name == "nltk" or name.startswith("nltk."):
                del sys.modules[name]
    return destructive, punkt


def _check_version(version: str) -> None:
    if version != NLTK_VERSION:
        raise ProgramError("the nlu track needs nltk %s exactly (its tokens "
                           "define the score); found nltk %s" % (NLTK_VERSION, version))


class Tokenizer:
    """``tokens(text)`` = nltk 3.7 ``word_tokenize(text)`` minus 1-character punctuation tokens."""

    def __init__(self, punkt_path: Optional[str] = None) -> None:
        destructive, punkt = import_nltk()
        self._sentences: Callable[[str], List[str]] = load_punkt(punkt_path or find_punkt(), punkt).tokenize
        self._words: Callable[[str], List[str]] = destructive.NLTKWordTokenizer().tokenize

    def word_tokenize(self, text: str) -> List[str]:
        """What ``nltk.word_tokenize(text)`` returns in nltk 3.7 (language english, Punkt)."""
        return [token for sentence in self._sentences(text) for token in self._words(sentence)]

    def tokens(self, text: str) -> List[str]:
        """The scored tokens; equal tokens are one string object (``sys.intern``).

        Interning costs little and keeps the tokens of a whole test set in a few MB: most of them
        are common words, held once instead of once per occurrence.
        """
        return [intern(token) for token in self.word_tokenize(text)
                if not (len(token) == 1 and token in PUNCTUATION)]


_SHARED: List[Tokenizer] = []


def shared_tokenizer() -> Tokenizer:
    """One tokenizer per process (loading nltk and the model costs a second)."""
    if not _SHARED:
        _SHARED.append(Tokenizer())
    return _SHARED[0]
