"""NLTK's Treebank tokenizer and ``wordpunct_tokenize`` loaded from the installed NLTK without running its package
initialisers, with its regular-expression timer off."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from sentemb.core.errors import SentembError


def nltk_tokenizers() -> ModuleType:
    """NLTK's ``nltk.tokenize.destructive`` (the Treebank tokenizer) and ``nltk.tokenize.regexp``
    (``wordpunct_tokenize``) loaded from the installed NLTK without running its package initialisers, with the
    regular-expression timer off (:func:`untimed_nltk_regexes`). Returns ``nltk.tokenize.regexp``; the Treebank
    tokenizer is ``sys.modules["nltk.tokenize.destructive"]``.

    ``import nltk`` (and so ``from nltk.tokenize import …``) runs ``nltk/__init__.py``, which imports most of NLTK:
    ``nltk.metrics`` brings scipy.stats, ``nltk.classify`` scikit-learn when installed, 2-3 s here, where the two
    tokenizers need four small modules of their own (``nltk.redos``, ``nltk.internals``, ``nltk.tokenize.api``,
    ``nltk.tokenize.util``: 0.1 s). So the two packages are entered as empty placeholders holding only their folder
    (``__path__``) while the tokenizer modules load, then removed: the modules are NLTK's own files, unchanged, and a
    later ``import nltk`` runs NLTK's initialisers as usual and reuses the modules already loaded
    (``tests/test_text.py`` checks both, and the tokens against a plain ``from nltk.tokenize import …``). Where NLTK
    is already imported, its modules are used as they are.
    """
    if "nltk" not in sys.modules:
        spec = importlib.util.find_spec("nltk")
        if spec is None or not spec.submodule_search_locations:
            raise SentembError("the tokenizer needs NLTK: pip install 'nltk>=3.10,<3.11'")
        folder = Path(next(iter(spec.submodule_search_locations)))
        placeholders = {"nltk": ModuleType("nltk"), "nltk.tokenize": ModuleType("nltk.tokenize")}
        placeholders["nltk"].__path__ = [str(folder)]
        placeholders["nltk.tokenize"].__path__ = [str(folder / "tokenize")]
        sys.modules.update(placeholders)
        try:
            for name in ("nltk.tokenize.destructive", "nltk.tokenize.regexp"):
                importlib.import_module(name)
        finally:
            for name, package in placeholders.items():
                if sys.modules.get(name) is package:
                    del sys.modules[name]
    for name in ("nltk.tokenize.destructive", "nltk.tokenize.regexp"):  # loaded above, or NLTK's own import's
        importlib.import_module(name)
    untimed_nltk_regexes(sys.modules["nltk.redos"])
    return sys.modules["nltk.tokenize.regexp"]


def untimed_nltk_regexes(redos: ModuleType) -> None:
    """Let NLTK's own regular expressions run without its wall-clock cap.

    NLTK ≥ 3.10 runs every pattern through ``nltk.redos``: the ``regex`` engine, each match under a timeout
    (``nltk.redos.DEFAULT_TIMEOUT``, 5 s), a backstop against catastrophically backtracking *caller-supplied*
    patterns. The tokenizers here apply NLTK's fixed patterns only; the timer is a third of their time. Setting the
    module's documented default to ``None`` keeps the engine and the tokens (the same tokens on 28,889 corpus
    sentences; ``tests/test_text.py`` checks both tokenizers) and tokenises about 1.5× faster.
    """
    redos.DEFAULT_TIMEOUT = None
