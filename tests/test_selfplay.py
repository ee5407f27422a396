"""Self-play: complete games that the replay checker accepts, the same for a seed, and the
players' choices between playing, exchanging and passing."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tilecast.commands import selfplay as command
from tilecast.config import load_profile, load_tileset
from tilecast.engine.board import Board, parse_coord
from tilecast.engine.game import OVER
from tilecast.engine.gcg import format_gcg, parse_gcg
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.play import placements_for
from tilecast.engine.replay import replay
from tilecast.engine.rules import Rules
from tilecast.engine.selfplay import choose, leave_value, self_play
from tilecast.engine.tiles import TileSet
from tilecast.lexicons import load_lexicon


@pytest.fixture(scope="module")
def tileset() -> TileSet:
    return load_tileset("english")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_profile("wespa")


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    return load_lexicon()


def checked(record, rules: Rules, tileset: TileSet):
    """Replay the written GCG text, as `tilecast gcg check` does, and return the replay."""
    return replay(parse_gcg(format_gcg(record).encode("utf-8")), rules, tileset)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_games_end_properly_and_replay_without_discrepancies(
    seed: int, enable: Lexicon, tileset: TileSet, rules: Rules
) -> None:
    game = self_play(enable, tileset, rules, seed)
    assert game.game.phase == OVER
    done = checked(game.record, rules, tileset)
    assert done.discrepancies == ()
    assert done.events == len(game.record.events)
    assert done.game.scores == game.game.scores
    plays = [e for e in game.record.events if e.kind == "play"]
    assert all(e.rack for e in plays)  # every play shows the rack it came from
    assert game.record.events[-1].kind == "end_rack"
    assert sum(len(t.placed) for t in game.game.turns) == len(game.game.board.faces())


def test_a_seed_always_gives_the_same_game(enable: Lexicon, tileset: TileSet, rules: Rules) -> None:
    first = format_gcg(self_play(enable, tileset, rules, 5).record)
    assert format_gcg(self_play(enable, tileset, rules, 5).record) == first
    assert format_gcg(self_play(enable, tileset, rules, 6).record) != first


def test_same_game_across_processes_with_different_hash_seeds(tmp_path: Path) -> None:
    # Until `selfplay` is listed in tilecast.cli, run the command module through its own parser.
    code = (
        "import argparse, sys; from tilecast.commands import selfplay; "
        "p = argparse.ArgumentParser(); selfplay.register(p.add_subparsers()); "
        "a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"game{hash_seed}.gcg"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run(
            [sys.executable, "-c", code, "selfplay", "--seed", "3", "-o", str(out)],
            env=env,
            check=True,
            capture_output=True,
        )
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]


def test_no_word_to_play_means_exchanges_then_a_scoreless_end(
    tileset: TileSet, rules: Rules
) -> None:
    game = self_play(Lexicon(["ZZZZZZZZ"]), tileset, rules, seed=4)
    kinds = [t.kind for t in game.game.turns]
    assert kinds == ["exchange"] * rules.scoreless_turns + ["rack", "rack"]
    assert checked(game.record, rules, tileset).discrepancies == ()
    assert game.game.scores[0] < 0 and game.game.scores[1] < 0


def test_leave_value_prefers_good_balanced_tiles() -> None:
    assert leave_value("?S") > leave_value("ES") > leave_value("EE") > leave_value("UU")
    assert leave_value("QVW") < leave_value("") < leave_value("AERST")
    assert leave_value("AEIOU") < leave_value("AEIRT")


def test_a_poor_rack_is_exchanged_only_when_the_bag_allows(tileset: TileSet, rules: Rules) -> None:
    lexicon = Lexicon(["UVA"])
    rack = "AIQUVWW"
    swap = choose(Board(), rack, 50, 0, lexicon, tileset, rules)
    assert swap.kind == "exchange"
    kept = Counter(rack) - Counter(swap.tiles)
    assert not Counter(swap.tiles) - Counter(rack)
    assert kept and not set(kept) & set("QVW")
    late = choose(Board(), rack, rules.exchange_min_bag - 1, 0, lexicon, tileset, rules)
    assert late.kind == "play" and late.move.word == "UVA"
    assert choose(Board(), "WWW", 3, 0, lexicon, tileset, rules).kind == "pass"


def test_a_good_play_is_kept_over_an_exchange(tileset: TileSet, rules: Rules) -> None:
    pick = choose(Board(), "RETAINS", 80, 0, Lexicon(["RETAINS", "AT"]), tileset, rules)
    assert pick.kind == "play" and pick.move.word == "RETAINS" and pick.move.score >= 64


def test_with_the_bag_empty_going_out_is_worth_twice_the_other_rack(
    tileset: TileSet, rules: Rules
) -> None:
    lexicon = Lexicon(["BE", "BEE", "AXE", "AX", "EX"])
    board = Board().with_tiles(
        (p.row, p.col, p.tile) for p in placements_for(Board(), parse_coord("8G"), "BE")
    )
    # EX at 9G scores most; AXE at I6 (making BEE) scores one less but empties the rack.
    assert str(choose(board, "AXE", 0, 0, lexicon, tileset, rules).move) == "9G EX 24"
    assert str(choose(board, "AXE", 0, 1, lexicon, tileset, rules).move) == "I6 AXE 23"
    assert str(choose(board, "AXE", 9, 1, lexicon, tileset, rules).move) == "9G EX 24"


def test_command_writes_a_record_that_gcg_check_accepts(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(["AA", "AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN"]))
    out = tmp_path / "game.gcg"
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    args = parser.parse_args(["selfplay", "--seed", "2", "--lexicon", str(words), "-o", str(out)])
    assert args.func(args) == 0
    text = out.read_text(encoding="utf-8")
    assert "#lexicon words" in text and "#description Tilecast self-play, seed 2" in text
    check = subprocess.run(
        [sys.executable, "-m", "tilecast.cli", "gcg", "check", str(out)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout
    assert "0 with discrepancies" in check.stdout


def test_command_reports_a_bad_lexicon(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    args = parser.parse_args(["selfplay", "--lexicon", str(tmp_path / "missing.txt")])
    assert args.func(args) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_phonies_are_withdrawn_and_pass_the_turn(
    enable: Lexicon, tileset: TileSet, rules: Rules
) -> None:
    game = self_play(enable, tileset, rules, 2, phonies=0.2)
    turns = game.game.turns
    withdrawn = [i for i, t in enumerate(turns) if t.kind == "withdraw"]
    assert len(withdrawn) >= 2
    for i in withdrawn:
        phony = turns[i - 1]
        assert phony.kind == "play" and phony.player == turns[i].player
        assert any(w.text not in enable for w in phony.words)
        after = next(t for t in turns[i + 1 :] if t.kind in ("play", "pass", "exchange"))
        assert after.player != phony.player  # WESPA: the turn passes to the opponent
    done = checked(game.record, rules, tileset)
    assert done.discrepancies == ()
    assert done.game.scores == game.game.scores
