"""``rummy21 play`` driven through standard input, and ``rummy21 simulate``."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from interrupts import interruptible
from typer.testing import CliRunner

import rummy21.cli.play
import rummy21.cli.simulate  # noqa: F401
import rummy21.game.match as match_module
from rummy21.bots import make_bots
from rummy21.bots.advice import advise
from rummy21.cards import Card, parse_cards
from rummy21.cli import app
from rummy21.cli.play import speak
from rummy21.game import Discard, Draw, Match, NotYourTurnError, Source, Table
from rummy21.game.dealing import arrange_shoe
from rummy21.game.events import Drew
from rummy21.ruleset import RuleSet

runner = CliRunner()
ENV = {"COLUMNS": "200"}


def play(args: list[str], lines: list[str]):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["play", *args], input="".join(f"{x}\n" for x in lines), env=ENV)


#: Seat 1's cards in rigged deals: far from any declaration (cut 7D).
OTHER = "2S 5S 9S KS 3H 7H JH 4D 8D QD AC 6C 10C 2H 6D 10D 3C 7C JC 4S 8S"
#: Three pure groups, a set and 53 points loose (cut 7D).
PURE_SAVE = "3C 4C 5C 9H 9S 9D KD QD JD 2S 2H 6S 8H AS AC 10H 10C 4D 5S 6H 7H"
#: A valid declaration, option A (cut 7D; README).
VALID = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"


def rig(
    monkeypatch: pytest.MonkeyPatch, hand: str, open_card: str, stock: str = "", cut: str = "7D"
) -> None:
    """Deal every deal of the next match (2 players) with ``hand`` to you, ``OTHER`` to the
    bot, ``cut`` and ``open_card``, and ``stock`` on top of the stock."""
    shoe = arrange_shoe(
        [parse_cards(hand), parse_cards(OTHER)],
        Card.parse(cut),
        Card.parse(open_card),
        dealer=1,
        printed_jokers=3,
        stock=parse_cards(stock),
    )

    def table(
        players: int, rules: RuleSet, seed: int | None = None, dealer: int | None = None
    ) -> Table:
        return Table(players, rules, dealer=dealer, shoe=shoe)

    monkeypatch.setattr(match_module, "Table", table)


# ------------------------------------------------------------------- play
def test_first_drop_ends_a_heads_up_deal() -> None:
    result = play(
        ["--players", "2", "--bots", "random", "--seed", "1", "--deals", "1"], ["drop", "y"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Drop for 30 points?" in out
    assert "You drop (first drop, 30 points)." in out
    assert "won as the last active player" in out
    assert "deal score -30" in out and "deal score +30" in out
    assert "Running totals" in out


def test_bad_input_gets_readable_errors_and_help_and_hint() -> None:
    result = play(
        ["--players", "3", "--bots", "random", "--seed", "4"],
        ["", "zz", "discard 7H", "7H", "help", "hint", "hand", "q"],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "✗ unknown command 'zz'" in out
    assert "✗ draw a card first" in out
    assert "Commands" in out and "declare 7H" in out
    assert "Draw from the stock" in out or "Take " in out
    assert out.count("Your hand, 21 cards") == 2
    assert "You left the table." in out


def test_hand_is_grouped_and_marked() -> None:
    result = play(["--players", "2", "--bots", "random", "--seed", "3"], ["q"])
    out = result.output
    assert "Cut card" in out and "jokers: every" in out and "Stock" in out
    assert "loose" in out and "*" in out  # jokers are starred
    assert "pays 120 if someone declares now" in out


def test_groups_show_before_the_pure_condition_is_met_with_the_real_penalty_and_why() -> None:
    """Seed 3 deals you J♣ Q♣ K♣ and one other pure group at most: the groups are shown, the
    penalty is the capped full count, and the reason names the pure groups missing."""
    result = play(["--players", "2", "--bots", "greedy", "--seed", "3"], ["q"])
    out = result.output
    assert "  pure sequence     J♣ Q♣ K♣" in out
    assert "  set               A♠ A♦ 9♦*" in out
    assert "It pays 120 if someone declares now: full count 139, capped at 120." in out
    assert "(The pure save needs 3 pure groups, your cards can make 1.)" in out
    assert "loose             J♣" not in out


def test_pure_save_and_dublee_save_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, PURE_SAVE, "KS")
    out = play(["--seed", "1"], ["q"]).output
    assert "It pays 53 if someone declares now: pure save (the loose cards)." in out
    assert out.count("pure sequence") == 3 and "needs 3 pure groups" not in out
    dublees = "2S 2S 5H 5H 9D 9D KC KC QS QS 3H 3H 8C 4D 6S JH 10C AC 5S 2D 3C"
    rig(monkeypatch, dublees, "KS")
    out = play(["--seed", "1"], ["q"]).output
    assert "  dublee            2♠ 2♠" in out
    assert "pays 58 if someone declares now: dublee save (the cards outside dublees)" in out


def test_after_drawing_the_kept_cards_and_the_suggested_discard_are_shown_apart() -> None:
    result = play(["--players", "2", "--bots", "greedy", "--seed", "3"], ["o", "hint", "q"])
    out = result.output
    assert "You take 5♦ from the open pile." in out
    assert "Your hand, 22 cards: keep 21, let one go." in out
    assert "  pure sequence     3♦ 4♦ 5♦◀" in out
    assert "  suggested discard K♠   (type KS)" in out
    assert (
        "After discarding K♠ your hand pays 120 if someone declares now: full count 134, "
        "capped at 120." in out
    )
    assert "your cards can make 2" in out
    assert "Discard K♠: then your hand pays 120" in out  # hint


def scripted_deal(seed: int, players: int, names: list[str]) -> tuple[list[str], tuple[int, ...]]:
    """Play the same deal the CLI will deal, with the human drawing and discarding from the
    stock each turn; return the commands it typed and the deal's scores."""
    match = Match(players, RuleSet(), seed=seed)
    bots = [None, *make_bots(names, seed=seed)]
    table = match.new_deal()
    commands: list[str] = []
    while not table.over:
        seat = table.turn
        assert seat is not None
        bot = bots[seat]
        if bot is None:
            commands.append("s")
            drew = table.apply(Draw(Source.STOCK))
            if table.over:
                break
            assert isinstance(drew, Drew)
            commands.append(str(drew.card).lower())  # a bare card discards it
            table.apply(Discard(drew.card))
        else:
            table.apply(bot.choose(table.view(seat), table.legal_actions()))
    assert table.scores is not None
    return commands, table.scores


def test_a_whole_deal_through_stdin_matches_the_engine() -> None:
    commands, scores = scripted_deal(seed=9, players=3, names=["random", "random"])
    result = play(["--players", "3", "--bots", "random", "--seed", "9", "--deals", "1"], commands)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "✗" not in out
    for score in scores:
        assert f"deal score {score:+d} · total {score:+d}" in out
    assert "You discard" in out and "Seat 2 (random)" in out


def test_declaring_wrongly_asks_first() -> None:
    match = Match(2, RuleSet(), seed=6)
    table = match.new_deal()
    first = str(table.hand(0)[0])
    result = play(
        ["--players", "2", "--bots", "random", "--seed", "6", "--deals", "1"],
        ["s", f"declare {first}", "n", f"declare {first}", "y"],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("not a valid declaration") == 2
    # The reason, as the engine reads the 21 cards (not only "not valid").
    assert out.count("Not valid: ") == 2 and "pure groups option A needs" in out
    assert "You declare wrongly: 120 points" in out
    assert "wrong declaration" in out and "deal score -120" in out


def test_play_option_errors() -> None:
    result = play(["--players", "7"], [])
    assert result.exit_code == 2 and "--players must be 2 to 6" in result.output
    result = play(["--bots", "clever"], [])
    assert result.exit_code == 2 and "unknown bot 'clever'" in result.output
    result = play(["--rules", "house"], [])
    assert result.exit_code == 2 and "unknown rule set" in result.output


def test_end_of_input_leaves_the_table_cleanly() -> None:
    result = play(["--players", "2", "--bots", "greedy", "--seed", "2"], [])
    assert result.exit_code == 0 and "You left the table." in result.output
    assert "Running totals after 0 deals" in result.output
    assert "Traceback" not in result.output and result.exception is None


def test_a_closed_standard_input_leaves_the_table_cleanly() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummy21.cli", "play", "--seed", "2"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **ENV},
        close_fds=True,
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 0, done.stderr
    assert "You left the table." in done.stdout and "Traceback" not in done.stderr


# --------------------------------------------------------------- simulate
def simulate(args: list[str]):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["simulate", *args], env=ENV)


def test_simulate_json_is_reproducible_and_complete() -> None:
    args = [
        "--players",
        "4",
        "--deals",
        "6",
        "--seed",
        "7",
        "--bots",
        "random",
        "--turn-limit",
        "80",
        "--json",
    ]
    first, second = simulate(args), simulate(args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    deals, summary = lines[:-1], lines[-1]["summary"]
    assert [d["deal"] for d in deals] == list(range(6))
    for deal in deals:
        assert set(deal) == {"deal", "seed", "winner", "reason", "option", "turns", "scores"}
        assert sum(deal["scores"]) == 0 and deal["turns"] <= 80
        assert deal["reason"] in ("declared", "last_active", "wash")
        assert (deal["winner"] is None) == (deal["reason"] == "wash")
    assert summary["totals"] == [sum(d["scores"][s] for d in deals) for s in range(4)]
    assert sum(summary["reasons"].values()) == 6
    other = simulate(args[:5] + ["8"] + args[6:])
    assert other.stdout != first.stdout


def test_simulate_with_greedy_and_a_rule_set() -> None:
    result = simulate(
        [
            "--players",
            "3",
            "--deals",
            "1",
            "--seed",
            "5",
            "--bots",
            "greedy,random",
            "--turn-limit",
            "12",
            "--rules",
            "adda52",
            "--json",
        ]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.splitlines()[-1])["summary"]
    assert summary["bots"] == ["greedy", "random", "greedy"] and summary["rules"] == "adda52"


def test_simulate_table_output() -> None:
    result = simulate(["--players", "2", "--deals", "3", "--seed", "1", "--turn-limit", "50"])
    assert result.exit_code == 0, result.output
    assert "mean per deal" in result.stdout and "3 deals" in result.stdout


def test_simulate_argument_errors() -> None:
    assert simulate(["--players", "1"]).exit_code == 2
    assert simulate(["--bots", "x"]).exit_code == 2
    assert simulate(["--deals", "-1"]).exit_code == 2
    for absurd in ("0", "1000001", "1000000000000"):  # nothing to play, or days of it
        result = simulate(["--deals", absurd])
        assert result.exit_code == 2
        assert f"error: --deals must be 1 to 1,000,000, not {absurd}" in result.output
    result = simulate(["--turn-limit", "-5"])
    assert result.exit_code == 2
    assert "error: --turn-limit must be a positive number of turns" in result.output


def test_simulate_counts_read_as_english() -> None:
    result = simulate(["--players", "2", "--deals", "1", "--seed", "1", "--turn-limit", "0"])
    assert result.exit_code == 0, result.output
    assert "1 deal, rules classic" in result.stdout and "no turn limit" in result.stdout


def test_a_declared_layout_is_explained_group_by_group() -> None:
    match = Match(2, RuleSet(), seed=6)
    hand = [str(c) for c in match.new_deal().hand(0)]
    assert hand[:6] == ["2S", "7S", "10S", "JS", "QS", "QS"]
    result = play(
        ["--players", "2", "--bots", "random", "--seed", "6"],
        ["s", "declare 2S: 10S JS QS / 7S QS", "n", "q"],
    )
    out = result.output
    assert "✓ pure sequence" in out and "✗" in out
    assert (
        "As shown: 1 pure group (option A needs 3), 1 group not valid, 16 cards outside "
        "groups — not a declaration as laid out." in out
    )
    assert "  left out          " in out and "16 cards in no group of yours" in out
    assert "not a valid declaration: a wrong declaration costs 120" in out


# ------------------------------------------------------------- the coach
def test_hint_before_drawing_is_the_coachs() -> None:
    out = play(["--players", "2", "--bots", "greedy", "--seed", "3"], ["hint", "q"]).output
    assert (
        "Take 5♦ from the open pile: it goes into 3♦ 4♦ 5♦ (pure sequence); 72 points "
        "left loose instead of 89; then discard K♠." in out
    )


def test_hint_never_names_the_card_just_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """K♠ fits nothing: the coach says draw from the stock, and once you take it anyway it
    would be the card to let go, but it may not leave your hand this turn."""
    rig(monkeypatch, PURE_SAVE, "KS")
    out = play(["--seed", "1"], ["hint", "o", "hint", "q"]).output
    assert "Draw from the stock: K♠ would not help your hand." in out
    table = Table(
        2,
        RuleSet(),
        shoe=arrange_shoe(
            [parse_cards(PURE_SAVE), parse_cards(OTHER)],
            Card.parse("7D"),
            Card.parse("KS"),
            dealer=1,
            printed_jokers=3,
        ),
    )
    table.draw(Source.OPEN)
    release = advise(table.view(0)).release
    assert release is not None and release != Card.parse("KS")
    assert f"  suggested discard {release.pretty()}" in out
    assert f"Discard {release.pretty()}: then your hand pays" in out
    assert "Discard K♠" not in out and "suggested discard K♠" not in out


def test_a_valid_hand_is_announced_and_the_hint_says_declare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rig(monkeypatch, VALID, "2C", stock="KS")
    out = play(["--seed", "1"], ["s", "hint", "q"]).output
    assert "A valid declaration (option A): draw, then finish with a card you do not need." in out
    assert "It pays 0 if someone declares now: pure save (no card left loose)." in out
    assert "  finish with       " in out and "the other 21 cards are a valid declaration" in out
    assert "Declare! Finish with" in out


# --------------------------------------------------------------- commands
def test_refusals_speak_to_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, PURE_SAVE, "KS")
    out = play(
        ["--seed", "1"],
        [
            "discard",
            "d",
            "7H",
            "draw sideways",
            "s",
            "discard",
            "drop",
            "declare 2D",
            "discard 2D",
            "timeout",
            "zz 7H",
            "q",
        ],
    ).output
    refusals = re.findall(r"✗ [^\n]*", out)
    assert refusals == [
        "✗ 'discard' needs a card, e.g. 'discard 7H'",
        "✗ 'discard' needs a card, e.g. 'discard 7H'",
        "✗ draw a card first (from the stock or the open pile)",
        "✗ draw from 'stock' or 'open', not 'sideways'",
        "✗ 'discard' needs a card, e.g. 'discard 7H'",
        "✗ you can drop only at the start of your turn, before drawing",
        "✗ you hold no 2♦",
        "✗ you hold no 2♦",
        "✗ time-outs come from the clock, not from you",
        "✗ unknown command 'zz 7H': type s or o to draw, a card such as '7H' to discard, "
        "'declare 7H', drop, hint, help or quit",
    ]
    assert "[y/N]" not in out  # nothing to confirm: the table refused first
    assert "seat 0" not in out.lower()


def test_turn_errors_name_the_player_in_turn() -> None:
    names = ["You", "Seat 1 (greedy)"]
    table = Table(2, seed=1)
    turn = table.turn
    assert turn is not None
    with pytest.raises(NotYourTurnError) as refused:
        table.draw("stock", seat=1 - turn)
    assert str(refused.value) == f"it is not your turn: Seat {turn + 1} is to play"
    assert refused.value.values == {"turn": turn}
    names = ["You", "Ravi"] if turn == 1 else ["Ravi", "You"]
    assert speak(refused.value, names) == f"it is not your turn: {names[turn]} is playing"
    assert (
        speak("7H was just taken from the open pile: it cannot be discarded this turn", names)
        == "7♥ was just taken from the open pile: it cannot be discarded this turn"
    )


def test_a_layout_that_leaves_cards_out_is_confirmed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, VALID, "2C", stock="KS")
    partial = "declare KS: 7S 8S 9S 10S / 2H 3H 4H / JC QC KC / 5D 5D 5D / AH AD AC"
    result = play(["--seed", "1", "--deals", "1"], ["s", partial, "n", partial, "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("  left out          9♥ 6♦*$ 8♦*$ 4♣ 9♣  ✗ 5 cards in no group of yours") == 2
    assert "As shown: 5 cards outside groups — not a declaration as laid out." in out
    assert "But the 21 cards are a valid declaration (option A): the cards count" in out
    assert out.count("Your layout leaves 5 cards out. Declare anyway? [y/N]") == 2
    assert out.count("You declare — option A!") == 1
    assert "declared (option A)" in out and "wrong declaration" not in out


def test_a_middle_drop_is_confirmed_at_its_cost() -> None:
    commands, _ = scripted_deal(seed=9, players=3, names=["random", "random"])
    result = play(
        ["--players", "3", "--bots", "random", "--seed", "9", "--deals", "1"],
        commands[:2] + ["drop", "n", "drop", "y"],
    )
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("Drop for 70 points? [y/N]") == 2
    assert "You drop (middle drop, 70 points)." in out


def test_no_raw_names_in_the_plain_output() -> None:
    commands, _ = scripted_deal(seed=9, players=3, names=["random", "random"])
    out = play(
        ["--players", "3", "--bots", "random", "--seed", "9", "--deals", "1"], commands
    ).output
    for raw in (
        "pure_sequence",
        "impure_sequence",
        "joker_group",
        "full_count",
        "pure_save",
        "dublee_save",
        "wrong_declaration",
    ):
        assert raw not in out
    assert "♠" in out and "♥" in out and "♦" in out and "♣" in out
    assert "\x1b[" not in out  # no colour codes


# ---------------------------------------------------------- match, options
def test_running_totals_after_every_deal() -> None:
    result = play(
        ["--players", "2", "--bots", "greedy", "--seed", "1", "--deals", "2"],
        ["drop", "y", "", "drop", "y"],
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Deal 1 of 2" in out and "Deal 2 of 2" in out
    assert len(re.findall(r"Running totals after 1 deal\b", out)) == 1
    assert len(re.findall(r"Running totals after 2 deals\b", out)) == 1
    assert "1 deals" not in out


@pytest.mark.parametrize("value", ["inf", "abc", "NaN", "-1", "0.12345", "1e7"])
def test_bad_point_values_are_refused(value: str) -> None:
    result = play(["--point-value", value], [])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: the point value ")
    assert "Traceback" not in result.output and "class" not in result.output


def test_point_value_and_deals_options() -> None:
    result = play(["--point-value", "0.25", "--seed", "1", "--deals", "1"], ["drop", "y"])
    assert result.exit_code == 0, result.output
    assert "money (× 0.25)" in result.output and "-7.50" in result.output
    for absurd in ("-1", "1000001"):
        result = play(["--deals", absurd], [])
        assert result.exit_code == 2
        assert f"error: --deals must be 0 (until you quit) to 1,000,000, not {absurd}" in (
            result.output
        )


def _read_until(process: subprocess.Popen[bytes], marker: bytes, timeout: float = 60) -> bytes:
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([process.stdout], [], [], max(left, 0))
        assert ready, f"no {marker!r} in {seen!r}"
        chunk = os.read(process.stdout.fileno(), 65536)
        assert chunk, f"output ended before {marker!r}: {seen!r}"
        seen += chunk
    return seen


def test_ctrl_c_at_a_prompt_ends_cleanly_with_status_130() -> None:
    process = subprocess.Popen(
        interruptible("rummy21.cli", "play", "--seed", "3"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        _read_until(process, b"quit > ")
        os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert b"Traceback" not in err and b"Traceback" not in out and b"Aborted" not in out + err
    text = out.decode()
    assert "You left the table. The deal in progress does not count." in text
    assert "Running totals after 0 deals" in text


def test_a_dropped_hand_stays_folded_but_for_its_own_player() -> None:
    """One rule with the browser (game.settlement.hand_shown): at the end of the deal the
    player sees their own dropped hand, never a bot's."""
    result = play(
        ["--players", "3", "--bots", "random", "--seed", "1", "--deals", "1"], ["drop", "y", ""]
    )
    out = result.output
    hands = out[out.index("Hands") :]
    mine = hands[hands.index("You — dropped") : hands.index("Seat 2")]
    assert "cards" in mine and "folded" not in mine
    theirs = hands[hands.index("Seat 3 (random) — dropped") :]
    assert "hand folded" in theirs.splitlines()[1]


def test_after_a_deal_the_player_may_review_their_play() -> None:
    result = play(["--players", "2", "--bots", "random", "--seed", "1"], ["drop", "y", "r", "q"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "r to review your play" in out
    assert "Your decisions in this deal" in out
    assert "drop" in out.split("Your decisions in this deal")[1]
    assert "accuracy" in out and "the deal scored -30" in out
