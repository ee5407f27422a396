"""The letter model that guesses a blank's letter when the lexicon cannot."""

from tilecast.engine.lexicon import Lexicon
from tilecast.engine.spelling import SpellingModel

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
