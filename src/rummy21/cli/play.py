"""``rummy21 play``: a match in the terminal, you (seat 0) against 1 to 5 bots.

Everything is read line by line from standard input, so a game can also be scripted:
``printf 's\\n7H\\nq\\n' | rummy21 play --seed 1``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from rummy21.analysis import analyze_counts
from rummy21.bots import Bot, best_release, make_bots, parse_bot_names, penalty_after
from rummy21.cards import Card, counts_of
from rummy21.cli import app
from rummy21.cli.card_text import card_text, cards_text
from rummy21.game import (Declare, Discard, Draw, Drop, IllegalActionError, Match, Phase, Source,
                          Table, TimeOut, parse_action)
from rummy21.game.actions import Action, as_card
from rummy21.game.declaration import judge
from rummy21.game.settlement import SeatResult, Settlement, Standing
from rummy21.game.view import PublicEvent, View, public_event
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

HUMAN = 0
HELP = """Commands
  before drawing:  s | stock      draw the top card of the closed stock
                   o | open       take the top card of the open pile
                   drop           leave the deal (first drop / middle drop points)
  after drawing:   7H | discard 7H            discard a card
                   declare 7H                 finish with 7H and show the other 21 cards
                   declare 7H: AS 2S 3S / …   …laid out in groups of your choice
  any time:        hint   help   hand   quit
Cards: rank A 2-10 J Q K (T for 10) and suit S H D C, e.g. 10H, QS, JK.
Marks: * joker   $ value card (cut, upper, lower)   ◀ the card you just drew"""


class Quit(Exception):
    """The player asked to stop (or standard input ended)."""


def hand_lines(cards: Sequence[Card], jokers: Jokers, rules: RuleSet,
               drawn: Card | None = None) -> tuple[list[Text], int, str]:
    """The hand sorted and grouped by the solver's best arrangement; (lines, penalty, rule)."""
    analysis = analyze_counts(counts_of(cards), jokers, rules)
    penalty = analysis.penalty
    lines = []
    for group in penalty.groups:
        lines.append(_group_line(group.kind.value.replace("_", " "), group.cards, jokers, drawn))
        drawn = None if drawn in group.cards else drawn
    lines.extend(loose_lines(penalty.loose, jokers, "loose", drawn))
    return lines, penalty.points, penalty.rule


def loose_lines(cards: Sequence[Card], jokers: Jokers, label: str,
                drawn: Card | None = None) -> list[Text]:
    """Cards outside groups, one line per suit (printed jokers last)."""
    by_suit: dict[int, list[Card]] = {}
    for card in sorted(cards):
        by_suit.setdefault(4 if card.suit is None else int(card.suit), []).append(card)
    lines = []
    for suit in sorted(by_suit):
        lines.append(_group_line(label, by_suit[suit], jokers, drawn))
        drawn = None if drawn in by_suit[suit] else drawn
    return lines


def _group_line(label: str, cards: Sequence[Card], jokers: Jokers, drawn: Card | None) -> Text:
    line = Text(f"  {label:16} ", style="dim" if label == "loose" else "")
    line.append_text(cards_text(cards, jokers, drawn))
    return line


class Session:
    """One terminal match: reads commands, lets the bots play, prints what happens."""

    def __init__(self, console: Console, match: Match, bots: Sequence[Bot | None]) -> None:
        self.out = console
        self.match = match
        self.bots = bots
        self.names = ["You"] + [f"Seat {s} ({b.name})" for s, b in enumerate(bots) if b]
        self._seen = 0

    # ------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        self.out.print(Text(prompt, style="bold cyan"), end="")
        line = sys.stdin.readline()
        if not line:
            self.out.print()
            raise Quit
        return line.strip()

    def confirm(self, prompt: str) -> bool:
        return self.ask(prompt + " [y/N] ").lower() in ("y", "yes")

    # ------------------------------------------------------------ the match
    def run(self, deals: int) -> None:
        played = 0
        try:
            while True:
                table = self.match.new_deal()
                self._seen = 0
                self.out.rule(f"Deal {played + 1} · {self.names[table.dealer]} dealt")
                self.play(table)
                self.match.record(table)
                self.show_result(table)
                played += 1
                if deals and played >= deals:
                    break
                answer = self.ask("Enter for the next deal, q to quit: ").lower()
                if answer in ("q", "quit", "exit"):
                    break
        except Quit:
            self.out.print("[yellow]You left the table.[/yellow]")
        self.show_totals()

    def play(self, table: Table) -> None:
        while not table.over:
            self.narrate(table)
            seat = table.turn
            assert seat is not None
            bot = self.bots[seat]
            if bot is None:
                self.human_turn(table)
            else:
                table.apply(bot.choose(table.view(seat), table.legal_actions()))
        self.narrate(table)

    # --------------------------------------------------------- narration
    def narrate(self, table: Table) -> None:
        log = table.log
        for event in log[self._seen:]:
            line = self.describe(public_event(event), table)
            if line:
                self.out.print(line)
        self._seen = len(log)

    def describe(self, event: PublicEvent, table: Table) -> Text | None:
        who = self.names[event.seat] if event.seat is not None else ""
        j = table.jokers
        act = event.action
        if act == "dealt":
            head = Text("Cut card ")
            head.append_text(card_text(j.cut, j))
            head.append(f"  wild rank {j.wild_rank_name}  upper ")
            head.append_text(card_text(j.upper, j))
            head.append("  lower ")
            head.append_text(card_text(j.lower, j))
            head.append("  open card ")
            assert event.card is not None
            head.append_text(card_text(event.card, j))
            return head
        if act == "drew":
            if event.seat == HUMAN:
                return None   # shown with the hand
            text = Text(f"{who} takes ")
            if event.card is None:
                return Text(f"{who} draws from the stock.")
            return text.append_text(card_text(event.card, j)).append(" from the open pile.")
        if act == "discarded":
            if event.seat == HUMAN:
                return None
            assert event.card is not None
            return Text(f"{who} discards ").append_text(card_text(event.card, j)).append(".")
        if act == "reshuffled":
            return Text(f"The stock ran out: {event.number} cards of the open pile were "
                        "shuffled into a new stock.", style="yellow")
        if act == "dropped":
            return Text(f"{who} drop{'' if event.seat == HUMAN else 's'} ({event.detail} drop, "
                        f"{event.number} points).", style="yellow")
        if act == "declared_wrongly":
            return Text(f"{who} declared wrongly: {table.rules.wrong_declaration} points and out "
                        "of the deal.", style="red")
        if act == "declared":
            return Text(f"{who} declare{'' if event.seat == HUMAN else 's'} "
                        f"(option {event.detail})!", style="bold green")
        if act == "timed_out":
            return Text(f"{who} timed out ({event.number} in a row).", style="yellow")
        if act == "deal_ended":
            reason = {"declared": "a valid declaration", "last_active": "the last player left",
                      "wash": "a wash"}[event.detail or ""]
            turns = f"{event.number} turn{'' if event.number == 1 else 's'}"
            return Text(f"The deal ends after {turns}: {reason}.", style="bold")
        return None

    # -------------------------------------------------------------- display
    def show_table(self, view: View) -> None:
        j = view.jokers
        line = Text(f"Stock {view.stock_size}   Open pile ")
        top = view.top
        if top is None:
            line.append("(empty)")
        else:
            line.append_text(card_text(top.card, j))
            by = "dealt" if top.discarded_by is None else f"from {self.names[top.discarded_by]}"
            line.append(f" ({by})")
        line.append("   Cut ")
        line.append_text(card_text(j.cut, j))
        self.out.print(line)
        others = []
        for s in view.seats:
            if s.seat == view.seat:
                continue
            state = f"{s.cards} cards" if s.standing is Standing.ACTIVE else \
                (f"dropped ({s.drop.value})" if s.drop else s.standing.value.replace("_", " "))
            others.append(f"{self.names[s.seat]}: {state}")
        self.out.print("   ".join(others), style="dim")

    def show_hand(self, view: View) -> None:
        lines, points, rule = hand_lines(view.hand, view.jokers, view.rules, view.drawn)
        count = len(view.hand)
        note = f"penalty now {points} by {rule.replace('_', ' ')}" if count == \
            view.rules.hand_size else "draw taken: let one card go"
        self.out.print(Text(f"Your hand, {count} cards ({note}):", style="bold"))
        for line in lines:
            self.out.print(line)

    # ----------------------------------------------------------- your turn
    def human_turn(self, table: Table) -> None:
        view = table.view(HUMAN)
        self.out.print()
        self.show_table(view)
        self.show_hand(view)
        while table.turn == HUMAN and not table.over:
            view = table.view(HUMAN)
            if view.phase is Phase.DRAW:
                top = view.top
                takeable = table.can_draw(Source.OPEN)
                offer = f", [o]pen {top.card.pretty()}" if top is not None and takeable else ""
                prompt = f"Draw: [s]tock{offer}, drop, hint, help, quit > "
            else:
                prompt = "Discard a card (e.g. 7H), declare CARD, hint, help, quit > "
            command = self.ask(prompt)
            if not command:
                continue
            word = command.lower()
            if word in ("q", "quit", "exit"):
                raise Quit
            if word in ("h", "help", "?"):
                self.out.print(HELP)
                continue
            if word == "hint":
                self.out.print(self.hint(view, table.can_draw(Source.OPEN)), style="green")
                continue
            if word in ("hand", "show", "table"):
                self.show_table(view)
                self.show_hand(view)
                continue
            try:
                action = self.parse(command, view)
                if action is None:
                    continue
                table.apply(action, seat=HUMAN)
            except IllegalActionError as error:
                self.out.print(f"✗ {error}", style="red")
                continue
            if isinstance(action, Draw) and not table.over:
                drawn = table.drawn
                assert drawn is not None
                where = "the stock" if action.source is Source.STOCK else "the open pile"
                self.out.print(Text("You drew ").append_text(card_text(drawn, view.jokers))
                               .append(f" from {where}."))
                self.show_hand(table.view(HUMAN))
            elif isinstance(action, Discard):
                self.out.print(Text("You discard ").append_text(
                    card_text(action.card, view.jokers)).append("."))

    def parse(self, command: str, view: View) -> Action | None:
        """The action a command asks for; ``None`` if the player thought better of it."""
        try:
            action = parse_action(command)
        except IllegalActionError:
            if view.phase is Phase.DISCARD and len(command.split()) == 1:
                return Discard(as_card(command))   # a bare card discards it
            raise
        if isinstance(action, TimeOut):
            raise IllegalActionError("time-outs come from the clock, not from you")
        if isinstance(action, Drop):
            me = view.seats[view.seat]
            points = view.rules.first_drop if me.played == 0 else view.rules.middle_drop
            if view.phase is Phase.DRAW and not self.confirm(f"Drop for {points} points?"):
                return None
        if isinstance(action, Declare) and view.phase is Phase.DISCARD:
            shown = list(view.hand)
            if action.finish not in shown:
                raise IllegalActionError(f"you hold no {action.finish}")
            shown.remove(action.finish)
            try:
                verdict = judge(shown, action.groups, view.jokers, view.rules)
            except ValueError:
                raise IllegalActionError("the layout shows cards you do not hold "
                                         "(besides the finish card)") from None
            if verdict.layout is not None:   # explain the player's own layout, group by group
                for shown_group in verdict.layout.shown:
                    mark = "✓ " + shown_group.group.kind.value.replace("_", " ") \
                        if shown_group.group else f"✗ {shown_group.reason}"
                    self.out.print(_group_line("shown", shown_group.cards, view.jokers, None)
                                   .append(f"  {mark}"))
                for reason in verdict.layout.reasons:
                    self.out.print(f"  {reason}", style="dim")
            if not verdict.valid and not self.confirm(
                    "These 21 cards are not a valid declaration: a wrong declaration costs "
                    f"{view.rules.wrong_declaration}. Declare anyway?"):
                return None
        return action

    def hint(self, view: View, can_take_open: bool) -> str:
        """The greedy bot's advice for this moment."""
        rules, jokers = view.rules, view.jokers
        counts = counts_of(view.hand)
        if view.phase is Phase.DRAW:
            now = penalty_after(counts, jokers.cut, rules)
            top = view.top
            if top is not None and can_take_open:
                counts[top.card.index] += 1
                blocked = None if rules.discard_taken_card else top.card
                after = best_release(counts, blocked, jokers, rules)
                if after.declare:
                    return f"Take {top.card} from the open pile and declare, finishing with " \
                           f"{after.card}."
                if after.reading.points < now.points:
                    return (f"Take {top.card} from the open pile, then discard {after.card}: "
                            f"penalty {now.points} → {after.reading.points}.")
                return (f"Draw from the stock: {top.card} would not lower your penalty "
                        f"({now.points}).")
            return f"Draw from the stock (penalty now {now.points})."
        blocked = view.drawn if view.drawn_from is Source.OPEN \
            and not rules.discard_taken_card else None
        release = best_release(counts, blocked, jokers, rules)
        if release.declare:
            return f"Declare! Finish with {release.card}: the other 21 cards are valid."
        return f"Discard {release.card}: penalty {release.reading.points} afterwards."

    # ------------------------------------------------------------ results
    def show_result(self, table: Table) -> None:
        result = table.result
        assert result is not None
        j = table.jokers
        self.out.rule("Hands")
        for seat in result.seats:
            self.out.print(Text(f"{self.names[seat.seat]} — {self._standing(seat, result)}",
                                style="bold"))
            if seat.standing is Standing.ACTIVE and not seat.groups:
                lines = hand_lines(seat.cards, j, table.rules)[0]   # arrange it for display
            else:
                lines = [_group_line(g.kind.value.replace("_", " "), g.cards, j, None)
                         for g in seat.groups]
                lines += loose_lines(seat.loose, j, "loose" if seat.standing is
                                     Standing.DECLARED else "cards")
            for line in lines:
                self.out.print(line)
            rule = f" ({seat.rule.replace('_', ' ')})" if seat.rule else ""
            marriages = f", {seat.marriages} marriage{'s' if seat.marriages != 1 else ''}" \
                if seat.marriages else ""
            self.out.print(f"  pays {seat.penalty}{rule} · value cards {seat.value}{marriages}"
                           f" (net {seat.value_net:+d})"
                           + (f" · loss cap {seat.cap_adjustment:+d}" if seat.cap_adjustment
                              else "")
                           + f" · deal score [bold]{seat.score:+d}[/bold] · total "
                           f"{self.match.totals[seat.seat]:+d}")

    @staticmethod
    def _standing(seat: SeatResult, result: Settlement) -> str:
        if seat.standing is Standing.DECLARED:
            return f"declared (option {result.option})"
        if seat.standing is Standing.DROPPED:
            return f"dropped ({seat.drop.value if seat.drop else ''} drop)"
        if seat.standing is Standing.WRONG:
            return "wrong declaration"
        if result.winner == seat.seat:
            return "won as the last active player"
        return "wash" if result.winner is None else "lost"

    def show_totals(self) -> None:
        match = self.match
        table = RichTable("player", "deals", "total points", f"money (× {match.point_value})",
                          title="Running totals")
        for seat, name in enumerate(self.names):
            table.add_row(name, str(len(match.deals)), f"{match.totals[seat]:+d}",
                          f"{match.money(seat):+}")
        self.out.print(table)


@app.command("play")
def play_command(
    players: int = typer.Option(2, "--players", "-p", help="Seats, you included (2-6)."),
    bots: str = typer.Option("greedy", "--bots",
                             help="Comma-separated bots for the other seats, repeated to fill "
                                  "them: greedy, random."),
    rules: str = typer.Option("classic", "--rules", help="Rule set: classic or adda52."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for reproducible deals."),
    deals: int = typer.Option(0, "--deals", help="Stop after this many deals (0: until you "
                                                 "quit)."),
    point_value: str = typer.Option("1", "--point-value", help="Money per point."),
) -> None:
    """Play 21 Card Rummy in the terminal against bots."""
    err = Console(stderr=True)
    try:
        rule_set = RuleSet.preset(rules)
        if not rule_set.min_players <= players <= rule_set.max_players:
            raise ValueError(f"--players must be {rule_set.min_players} to "
                             f"{rule_set.max_players} (you and 1 to "
                             f"{rule_set.max_players - 1} bots), not {players}")
        names = parse_bot_names(bots, players - 1)
        value = Decimal(point_value)
    except (ValueError, InvalidOperation) as error:
        err.print(f"error: {error}")
        raise typer.Exit(2)
    seated: list[Bot | None] = [None, *make_bots(names, seed=seed)]
    match = Match(players, rule_set, seed=seed, point_value=value)
    console = Console(highlight=False)
    console.print(f"21 Card Rummy — rules [bold]{rule_set.name}[/bold], you against "
                  f"{', '.join(names)}. Type [bold]help[/bold] for commands.")
    Session(console, match, seated).run(deals)
