"""The table's operations, one rule at a time (RULES §2, §6)."""

from __future__ import annotations

import random

import pytest

from rummy21.cards import Card, Hand, canonical_shoe, parse_cards
from rummy21.game import (
    Action,
    ActionSyntaxError,
    DealEnded,
    Declare,
    Discard,
    Draw,
    Drew,
    Drop,
    DropKind,
    EndReason,
    IllegalActionError,
    Phase,
    ReplayError,
    SetupError,
    Source,
    Standing,
    Table,
    TimeOut,
    dump_log,
    parse_action,
)
from rummy21.game.dealing import arrange_shoe
from rummy21.ruleset import CLASSIC, Judging, RuleSet

VALID_SOON = "7S 8S 9S 10S JS 2H 3H 4H 5H JC QC KC 5D 5D 5D AH AD AC 9C 9H KH"
HOPELESS = "KS QS 9S 6S 3S KH JH 9H 6H 4H 2H KD JD 10D 4D 2D QC 10C 8C 5C 3C"


def table_of(
    hands: list[str],
    cut: str = "7D",
    open_card: str = "3D",
    stock: str = "",
    rules: RuleSet = CLASSIC,
    dealer: int | None = None,
) -> Table:
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    shoe = arrange_shoe(
        [parse_cards(h) for h in hands],
        Card.parse(cut),
        Card.parse(open_card),
        dealer=dealer,
        printed_jokers=rules.printed_jokers,
        stock=parse_cards(stock),
    )
    return Table(players, rules, dealer=dealer, shoe=shoe, seed=0)


def snapshot(table: Table) -> tuple[object, ...]:
    return (
        table.zones(),
        table.log,
        table.turn,
        table.phase,
        table.drawn,
        tuple(table.view(s) for s in range(table.players)),
    )


# ------------------------------------------------------------------ dealing
def test_seeded_deal_follows_rules_section_2() -> None:
    players, dealer, seed = 4, 1, 1234
    shoe = canonical_shoe(3)
    random.Random(seed).shuffle(shoe)
    table = Table(players, seed=seed, dealer=dealer)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(21 * players):
        hands[(dealer + 1 + k) % players].append(shoe[k])
    for seat in range(players):
        assert table.hand(seat) == Hand.of(hands[seat])
        assert tuple(table.hand(seat)) == tuple(sorted(hands[seat]))  # canonical order
    assert table.cut == shoe[84]
    assert table.open_pile[0].card == shoe[85] and table.open_pile[0].discarded_by is None
    assert table.zones()["stock"] == shoe[86:] + [shoe[84]]  # cut card at the bottom
    assert table.turn == (dealer + 1) % players


def test_default_dealer_is_the_last_seat() -> None:
    assert Table(5, seed=1).dealer == 4 and Table(5, seed=1).turn == 0


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(SetupError, match="seats 2 to 6"):
        Table(players, seed=1)


def test_bad_dealer_and_bad_shoe_are_setup_errors() -> None:
    with pytest.raises(SetupError):
        Table(3, seed=1, dealer=3)
    with pytest.raises(SetupError, match="not a full shoe"):
        Table(3, shoe=canonical_shoe(3)[:-1])
    assert issubclass(SetupError, ValueError)


def test_cut_card_is_drawn_last_from_the_stock() -> None:
    table = Table(6, seed=3)
    cut = table.cut
    for _ in range(table.stock_size - 1):
        table.draw("stock")
        table.discard(table.drawn)  # type: ignore[arg-type]
    drew = table.draw("stock")
    assert drew.card == cut  # type: ignore[union-attr]


# ------------------------------------------------------------------- drawing
def test_discarded_joker_cannot_be_taken_but_the_first_open_card_can() -> None:
    # The open card is 7H, a joker (sevens are wild under cut 7D): it may be taken.
    table = table_of([HOPELESS, VALID_SOON], open_card="7H", stock="2S")
    assert table.can_draw("open")
    table.draw("open")
    table.discard("3S")
    # Seat 1 draws 2S and discards 7S — a joker discarded by a player.
    table.draw("stock")
    table.discard("7S")
    assert not table.can_draw("open")
    with pytest.raises(IllegalActionError, match="joker a player discarded"):
        table.draw("open")
    assert Draw(Source.OPEN) not in table.legal_actions()


def test_joker_pickup_rule_allows_taking_discarded_jokers() -> None:
    table = table_of([HOPELESS, VALID_SOON], stock="2S", rules=RuleSet(joker_pickup=True))
    table.draw("stock")
    table.discard("2S")
    table.draw("stock")
    table.discard("7S")
    assert table.can_draw("open")


def test_card_taken_from_open_pile_cannot_be_discarded_or_finished() -> None:
    table = table_of([HOPELESS, VALID_SOON])
    table.draw("open")  # 3D
    with pytest.raises(IllegalActionError, match="just taken from the open pile"):
        table.discard("3D")
    with pytest.raises(IllegalActionError, match="cannot be finished"):
        table.declare("3D")
    assert Discard(Card.parse("3D")) not in table.legal_actions()
    allowed = table_of([HOPELESS, VALID_SOON], rules=RuleSet(discard_taken_card=True))
    allowed.draw("open")
    allowed.discard("3D")


def test_a_copy_of_the_taken_card_is_blocked_too() -> None:
    # Copies are interchangeable: "no card of that rank and suit" (RULES §6.2).
    table = table_of(["3D" + HOPELESS[2:], VALID_SOON])
    table.draw("open")
    assert table.hand(0).count(Card.parse("3D")) == 2
    assert not table.can_discard("3D")


def test_empty_open_pile_and_wash_on_empty_stock() -> None:
    table = table_of([HOPELESS, VALID_SOON])
    table.draw("open")
    table.discard("KS")
    table.draw("open")
    table.discard("KH")
    assert len(table.open_pile) == 1
    table._stock.clear()  # the only way to reach it: the pile never shrinks below 1 + draws
    table._open = table._open[-1:]
    ended = table.draw("stock")
    assert isinstance(ended, DealEnded)
    assert table.over and ended.reason is EndReason.WASH and table.scores == (0, 0)


def test_reshuffle_keeps_the_top_card_and_uses_the_deal_generator() -> None:
    a, b = Table(2, seed=77), Table(2, seed=77)
    for table in (a, b):
        while table.stock_size:
            table.draw("stock")
            table.discard(table.drawn)  # type: ignore[arg-type]
        top = table.open_pile[-1]
        table.draw("stock")
        assert table.open_pile == (top,)
    assert a.zones()["stock"] == b.zones()["stock"]


# ---------------------------------------------------------- illegal actions
def test_actions_out_of_phase_or_turn_raise_and_change_nothing() -> None:
    table = Table(3, seed=5)
    before = snapshot(table)
    cases: list[tuple[Action, str]] = [
        (Discard(table.hand(0)[0]), "draw a card first"),
        (Declare(table.hand(0)[0]), "draw a card before declaring"),
        (Draw(Source.STOCK), "turn"),
    ]
    for action, message in cases:
        seat = 1 if isinstance(action, Draw) else None
        with pytest.raises(IllegalActionError, match=message):
            table.apply(action, seat)
        assert not table.can_apply(action, seat)
        assert snapshot(table) == before
    table.draw("stock")
    before = snapshot(table)
    with pytest.raises(IllegalActionError, match="drawn already"):
        table.draw("open")
    with pytest.raises(IllegalActionError, match="only at the start of your turn"):
        table.drop()
    with pytest.raises(IllegalActionError, match="you hold no"):
        table.discard(next(c for c in map(Card, range(52)) if c not in table.hand(0)))
    with pytest.raises(ActionSyntaxError, match="unknown card"):  # not a move: unreadable
        table.discard("ZZ")
    with pytest.raises(IllegalActionError, match=r"the layout shows .*, which you do not hold"):
        table.declare(table.hand(0)[0], groups=[["JK", "JK", "JK", "JK"]])
    assert snapshot(table) == before


def test_finished_deal_refuses_everything() -> None:
    table = Table(2, seed=1)
    table.drop()
    assert table.over and table.turn is None and table.legal_actions() == []
    for action in (Draw(Source.STOCK), Drop(), TimeOut(), Discard(Card.parse("AS"))):
        with pytest.raises(IllegalActionError, match="the deal is over"):
            table.apply(action)


def test_legal_actions_are_exactly_the_allowed_ones() -> None:
    table = Table(4, seed=9)
    for _ in range(30):
        legal = table.legal_actions()
        assert legal and all(table.can_apply(a) for a in legal)
        candidates: list[Action] = [Draw(Source.STOCK), Draw(Source.OPEN), Drop()]
        candidates += [Discard(c) for c in map(Card, range(53))]
        candidates += [Declare(c) for c in map(Card, range(53))]
        assert {a for a in candidates if table.can_apply(a)} == set(legal)
        choice = next((a for a in legal if isinstance(a, (Draw, Discard))), legal[0])
        table.apply(choice)


# ------------------------------------------------------------ declarations
def test_valid_declaration_ends_the_deal() -> None:
    table = table_of([VALID_SOON, HOPELESS], stock="9D")
    table.draw("stock")
    event = table.declare("KH")
    assert event.valid and event.option == "A"
    assert table.over and table.result is not None and table.result.winner == 0
    assert table.standing(0) is Standing.DECLARED and table.zones()["finish"] == [Card.parse("KH")]


def test_wrong_declaration_removes_the_player_and_play_passes_on() -> None:
    table = table_of([HOPELESS, VALID_SOON, HOPELESS.replace("KS", "AS")], stock="2S")
    pile = table.open_pile
    table.draw("stock")
    event = table.declare("2S")
    assert not event.valid
    assert table.standing(0) is Standing.WRONG and len(table.zones()["out 0"]) == 22
    assert table.open_pile == pile and table.turn == 1 and table.phase is Phase.DRAW


def test_as_shown_judging_uses_the_submitted_groups() -> None:
    rules = RuleSet(judging=Judging.AS_SHOWN)
    groups = ["7S 8S 9S 10S JS", "2H 3H 4H 5H", "JC QC KC", "5D 5D 5D", "AH AD AC", "9C 9H 9D"]
    good = table_of([VALID_SOON, HOPELESS], stock="9D", rules=rules)
    good.draw("stock")
    assert good.declare("KH", [parse_cards(g) for g in groups]).valid
    auto = table_of([VALID_SOON, HOPELESS], stock="9D", rules=rules)
    auto.draw("stock")
    assert auto.declare("KH").valid  # no layout: the solver's own arrangement is shown
    bad = table_of([VALID_SOON, HOPELESS], stock="9D", rules=rules)
    bad.draw("stock")
    assert not bad.declare("KH", [parse_cards(g) for g in groups[:3]]).valid
    judged_on_cards = table_of([VALID_SOON, HOPELESS], stock="9D")
    judged_on_cards.draw("stock")
    assert judged_on_cards.declare("KH", [parse_cards(g) for g in groups[:3]]).valid


# ------------------------------------------------------------------ drops
def test_first_and_middle_drops() -> None:
    table = Table(4, seed=2)
    first = table.drop()
    assert first.drop is DropKind.FIRST and first.points == 30
    table.draw("stock")
    table.discard(table.drawn)  # type: ignore[arg-type]
    table.draw("stock")
    table.discard(table.drawn)  # type: ignore[arg-type]
    table.draw("stock")
    table.discard(table.drawn)  # type: ignore[arg-type]
    assert table.turn == 1  # seat 0 is skipped
    middle = table.drop()
    assert middle.drop is DropKind.MIDDLE and middle.points == 70
    assert len(table.zones()["out 1"]) == 21


def test_last_active_player_wins() -> None:
    table = Table(3, seed=4)
    table.drop()
    table.drop()
    result = table.result
    assert result is not None and result.reason is EndReason.LAST_ACTIVE and result.winner == 2
    assert result.scores == (-30, -30, 60)


# --------------------------------------------------------------- time-outs
def test_timeout_before_drawing_draws_and_discards_from_the_stock() -> None:
    table = Table(2, seed=6)
    top = table.zones()["stock"][0]
    event = table.timeout()
    assert event.consecutive == 1
    assert table.open_pile[-1].card == top and table.turn == 1 and len(table.hand(0)) == 21


def test_timeout_after_drawing_from_the_stock_discards_the_drawn_card() -> None:
    table = Table(2, seed=6)
    drew = table.draw("stock")
    table.timeout()
    assert table.open_pile[-1].card == drew.card  # type: ignore[union-attr]


def test_own_action_resets_the_consecutive_timeouts() -> None:
    table = Table(2, seed=6)
    for _ in range(2):
        table.timeout()  # seat 0
        table.draw("stock")
        table.discard(table.drawn)  # type: ignore[arg-type]
    table.draw("stock")
    table.discard(table.drawn)  # type: ignore[arg-type]  # seat 0
    table.draw("stock")
    table.discard(table.drawn)  # type: ignore[arg-type]
    assert table.timeout().consecutive == 1


def test_third_timeout_after_a_draw_discards_then_drops() -> None:
    table = Table(2, seed=6)
    for _ in range(2):
        table.timeout()
        table.draw("stock")
        table.discard(table.drawn)  # type: ignore[arg-type]
    table.draw("stock")
    table.timeout()
    result = table.result
    assert result is not None and result.reason is EndReason.LAST_ACTIVE
    assert len(table.zones()["out 0"]) == 21 and result.seats[0].rule == "middle_drop"


def test_timeout_for_the_wrong_seat_is_illegal() -> None:
    table = Table(3, seed=6)
    with pytest.raises(IllegalActionError):
        table.timeout(seat=2)
    assert table.can_timeout(seat=0)


# --------------------------------------------------------------- turn limit
def test_turn_limit_makes_a_wash() -> None:
    table = Table(3, RuleSet().with_(turn_limit=5), seed=1)
    table.drop()
    while not table.over:
        table.draw("stock")
        table.discard(table.drawn)  # type: ignore[arg-type]
    assert table.turns == 5 and table.scores == (0, 0, 0)
    assert table.result is not None and table.result.reason is EndReason.WASH


# ------------------------------------------------------------------ replay
def test_replay_rejects_tampered_logs() -> None:
    table = Table(2, seed=3)
    table.draw("stock")
    table.discard(table.drawn)  # type: ignore[arg-type]
    lines = dump_log(table.log).splitlines()
    drew = table.log[1]
    assert isinstance(drew, Drew)
    card = str(drew.card)
    tampered = lines[1].replace(card, "JK") if card != "JK" else lines[1].replace("JK", "AS")
    with pytest.raises(ReplayError, match="record 2 differs"):
        Table.replay([lines[0], tampered, lines[2]])
    with pytest.raises(ReplayError, match="starts with"):
        Table.replay(lines[1:])
    with pytest.raises(ReplayError, match="not JSON"):
        Table.replay(lines[:1] + ["{oops"])
    illegal = (
        dump_log(table.log) + '{"event": "drew", "seat": 0, "source": "open", '
        '"card": "AS", "forced": false}\n{"event": "drew", "seat": 0, "source": "open", '
        '"card": "AS", "forced": false}\n'
    )
    with pytest.raises(ReplayError, match="illegal"):
        Table.replay(illegal)


def test_text_actions_drive_the_table() -> None:
    table = Table(2, seed=3)
    table.apply(parse_action("s"))
    table.apply(parse_action(f"discard {table.drawn}"))
    assert table.turn == 1
