"""The score checker on small crafted records: each kind of mistake is found, and only once."""

from tilecast.engine.gcg import parse_gcg
from tilecast.engine.replay import replay
from tilecast.engine.rules import Rules

HEAD = "#player1 Ann Ann A\n#player2 Bob Bob B\n"


def check(body, english, rules=None):
    record = parse_gcg(HEAD + body, source="t.gcg")
    return replay(record, rules or Rules(), english)


def kinds(result):
    return [(d.line, d.kind) for d in result.discrepancies]


def test_correct_record_has_no_discrepancy(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n>Bob: ADEEGIL 7C GALE +16 16\n"
    result = check(body, english)
    assert result.discrepancies == () and result.events == 2
    assert result.game.scores == (32, 16)


def test_wrong_score_is_reported_once_not_in_every_later_total(english):
    body = (
        ">Ann: DINNVWY 8D WINDY +30 30\n"  # should be 32; total agrees with the wrong score
        ">Bob: ADEEGIL 7C GALE +16 16\n"
        ">Ann: AEJNOSV E3 JAVE..N +34 64\n"
    )
    result = check(body, english)
    assert kinds(result) == [(3, "score")]
    d = result.discrepancies[0]
    assert (d.recorded, d.computed, d.player) == (30, 32, "Ann")


def test_arithmetic_slip_in_a_total(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n>Bob: ADEEGIL 7C GALE +16 61\n"
    result = check(body, english)
    assert kinds(result) == [(4, "total")]
    assert result.discrepancies[0].computed == 16


def test_played_tile_not_on_rack_and_off_turn_moves(english):
    body = ">Ann: AAAAAAA 8D WINDY +32 32\n>Ann: ADEEGIL 7C GALE +16 48\n"
    result = check(body, english)
    assert [k for _, k in kinds(result)] == ["illegal", "illegal"]
    assert "not-in-rack" in result.discrepancies[0].reason
    assert "off-turn" in result.discrepancies[1].reason


def test_withdrawn_phony_must_give_back_its_score(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n>Ann: DINNVWY -- -32 0\n>Bob: ABCDEFG 8D BAD +10 10\n"
    assert kinds(check(body, english)) == [(5, "illegal")]  # an empty board again: not centred
    body_ok = ">Ann: DINNVWY 8D WINDY +32 32\n>Ann: DINNVWY -- -32 0\n>Bob: ABDEFGH 8G BAD +12 12\n"
    result = check(body_ok, english)
    assert result.discrepancies == ()
    wrong = ">Ann: DINNVWY 8D WINDY +32 32\n>Ann: DINNVWY -- +0 32\n"
    assert kinds(check(wrong, english)) == [(4, "score")]


def test_challenge_bonus_per_profile(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n>Ann: DINNVWY (challenge) +5 37\n"
    assert check(body, english, Rules(challenge="points", challenge_points=5)).discrepancies == ()
    free = check(body, english, Rules(challenge="free"))
    assert kinds(free) == [(4, "score")] and free.discrepancies[0].computed == 0


def test_exchange_with_too_few_in_the_bag_is_illegal(english):
    # 86 in the bag at the start; play long enough to empty it is slow, so use a tiny bag check:
    body = ">Ann: ABCDEFG -ABC +0 0\n>Bob: ABCDEFG -7 +0 0\n"
    assert check(body, english).discrepancies == ()
    assert check(body, english, Rules(exchange_min_bag=90)).discrepancies[0].kind == "illegal"


def test_six_scoreless_turns_then_own_racks(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n" + "".join(
        f">{p}: ABC - +0 {t}\n" for p, t in [("Bob", 0), ("Ann", 32)] * 3
    )
    body += ">Bob: ABC (ABC) -7 -7\n>Ann: QI (QI) -11 21\n"
    result = check(body, english)
    assert result.discrepancies == ()
    assert result.game.phase == "over" and result.game.scores == (21, -7)
    early = ">Ann: DINNVWY 8D WINDY +32 32\n>Bob: QI (QI) -11 -11\n"
    assert check(early, english).discrepancies[0].kind == "illegal"


def test_time_penalty_after_the_end_only_and_in_whole_minutes(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n>Bob: (time) -10 -10\n"
    assert check(body, english).discrepancies[0].kind == "illegal"
    ended = ">Ann: DINNVWY 8D WINDY +32 32\n" + "".join(
        f">{p}: ABC - +0 {t}\n" for p, t in [("Bob", 0), ("Ann", 32)] * 3
    )
    ended += ">Bob: ABC (ABC) -7 -7\n>Ann: QI (QI) -11 21\n"
    assert check(ended + ">Bob: (time) -20 -27\n", english).discrepancies == ()
    capped = check(ended + ">Bob: (time) -70 -77\n", english, Rules(time_penalty_cap=50))
    assert kinds(capped) == [(12, "score")] and capped.discrepancies[0].computed == -50
    odd = check(ended + ">Bob: (time) -15 -22\n", english)
    assert kinds(odd) == [(12, "score")]


def test_a_time_forfeit_may_end_the_game_early(english):
    body = ">Ann: DINNVWY 8D WINDY +32 32\n>Bob: (time) -100 -100\n"
    result = check(body, english)
    assert result.discrepancies == ()
    assert result.game.phase == "over" and result.game.forfeited == 1
