"""The record as a fold of actions over the engine."""

import pytest

from tilecast.engine.actions import ActionError, apply_action, fold
from tilecast.engine.game import new_game


def test_a_record_is_the_fold_of_its_actions(wespa, english):
    actions = [{"type": "play", "coord": "8D", "word": "WINDY"}, {"type": "challenge"},
               {"type": "play", "coord": "7C", "word": "GaLX"}, {"type": "withdraw"},
               {"type": "exchange", "tiles": "AE"}, {"type": "pass"}]
    game = fold(wespa, english, actions)
    assert [t.kind for t in game.turns] == ["play", "challenge", "play", "withdraw",
                                            "exchange", "pass"]
    assert game.scores == (32 + 5, 0)
    step = new_game(wespa, english)
    for action in actions:
        step = apply_action(step, action)
    assert step == game


@pytest.mark.parametrize(("actions", "index", "why"), [
    ([{"type": "pass"}, {"type": "shuffle"}], 1, "unknown action 'shuffle'"),
    ([{"type": "play", "coord": "8D", "word": "WINDY"}, {"type": "play", "coord": "1A",
                                                          "word": "CAT"}], 1, "must touch"),
    ([{"type": "end"}], 0, "cannot end the game"),
    ([{"type": "exchange"}], 0, "tiles"),
])
def test_the_first_action_that_cannot_be_taken_is_named(actions, index, why, wespa, english):
    with pytest.raises(ActionError) as caught:
        fold(wespa, english, actions)
    assert caught.value.index == index and why in str(caught.value)
    assert str(caught.value).startswith(f"action {index} ({actions[index]['type']})")
