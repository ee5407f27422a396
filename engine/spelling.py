"""How much a string of letters looks like a word of a lexicon: a letter 4-gram model.

A blank's letter is invisible to the camera. When the lexicon allows several letters, or none (a
word from another list, or a phony), the recorder still has to write one down until the
operator says which: the letter that makes the words read most like the lexicon's own words is
right far more often than the first of the alphabet (Q?OP is QUOP, PRONES? is PRONEST).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

ORDER = 4
# Interpolation weights of the 1- to 4-letter estimates (the shorter ones cover unseen contexts).
WEIGHTS = (0.02, 0.1, 0.3, 0.58)
START, STOP = "^", "$"


class SpellingModel:
    """For n = 1..4, how often each n-gram ends at a letter or the end of a word (words padded
    with n - 1 START marks), and how often its first n - 1 characters are followed at all."""

    __slots__ = ("_grams", "_contexts")

    def __init__(self, words: Iterable[str]) -> None:
        grams: list[Counter[str]] = [Counter() for _ in range(ORDER + 1)]
        for word in words:
            for n in range(1, ORDER + 1):
                padded = START * (n - 1) + word.upper() + STOP
                grams[n].update(padded[i : i + n] for i in range(len(padded) - n + 1))
        contexts: list[Counter[str]] = [Counter() for _ in range(ORDER + 1)]
        for n in range(1, ORDER + 1):
            for gram, count in grams[n].items():
                contexts[n][gram[:-1]] += count
        self._grams, self._contexts = grams, contexts

    def log_likelihood(self, word: str) -> float:
        """Natural log of the model's probability of `word` (any case), end marker included."""
        grams, contexts = self._grams, self._contexts
        padded = START * (ORDER - 1) + word.upper() + STOP
        total = 0.0
        for i in range(ORDER - 1, len(padded)):
            p = WEIGHTS[0] * (grams[1][padded[i]] + 1) / (contexts[1][""] + 28)
            for n in range(2, ORDER + 1):
                gram = padded[i - n + 1 : i + 1]
                seen = contexts[n][gram[:-1]]
                if seen:
                    p += WEIGHTS[n - 1] * grams[n][gram] / seen
            total += math.log(p)
        return total
