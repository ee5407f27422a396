"""The letter model that guesses a blank's letter when the lexicon cannot."""

import math

import pytest

from tilecast.engine.lexicon import Lexicon
from tilecast.engine.spelling import WEIGHTS, SpellingModel

QU = ["QUIT", "QUOTE", "QUAD", "SQUAT", "EQUIP", "STOP", "CROP", "DROP"]


def test_words_like_the_lexicons_are_likelier_than_strings_unlike_them() -> None:
    model = SpellingModel(QU)
    assert model.log_likelihood("QUOP") > model.log_likelihood("QROP")
    assert model.log_likelihood("STOP") > model.log_likelihood("TSOP")
    assert model.log_likelihood("quop") == model.log_likelihood("QUOP")  # any case


def test_the_word_end_counts() -> None:
    model = SpellingModel(["CASTES", "TASTES", "WASTES", "PASTED"])
    assert model.log_likelihood("PASTES") > model.log_likelihood("PASTED")  # as three words end
    assert model.log_likelihood("PASTES") > model.log_likelihood("PASTESX")


def test_a_lexicon_walks_its_words_in_order_and_builds_its_model_once() -> None:
    lexicon = Lexicon(QU)
    assert list(lexicon.words()) == sorted(QU)
    assert lexicon.spelling is lexicon.spelling


def test_a_word_start_is_estimated_from_word_starts_alone() -> None:
    # With one word, every 2- to 4-letter estimate of its letters (and of its end) is certain,
    # at the word's start too, however many marks pad it for the longer n-grams; only the
    # smoothed single-letter share (each of A, B and the end: 1 + 1 of 3 + 28) is not.
    model = SpellingModel(["AB"])
    each = sum(WEIGHTS[1:]) + WEIGHTS[0] * 2 / 31
    assert model.log_likelihood("AB") == pytest.approx(3 * math.log(each))


def test_a_live_run_builds_the_letter_model_before_its_first_frame(tmp_path, monkeypatch):
    from tilecast import cli
    from tilecast.engine import lexicon as module

    built = []
    monkeypatch.setattr(module, "SpellingModel", lambda words: built.append(len(list(words))))
    (tmp_path / "words.txt").write_text("CAT\nDOG\n")
    (tmp_path / "frames").mkdir()  # no frames at all: the run stops at once, with a message
    code = cli.main(["run", "--source", str(tmp_path / "frames"), "--lexicon",
                     str(tmp_path / "words.txt"), "--out-dir", str(tmp_path / "out")])
    assert built == [2]
    assert code == 2
