"""A scripted evening at the table: six deals, one player against three bots, made from the
lobby and played through the page — draws from both piles, drags between groups and onto the
pile and the finish slot, declarations when the cards allow, drops, two reloads in the middle
of deals and one server killed and restarted — without a single page or console error.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from browser.kit import DESKTOP, Player, Server, groups_count

DEALS = 6
# Reload once in the middle of a deal from each of these on, and restart the server once from
# RESTART_FROM on. A bot may declare before the player's second turn, which puts what was due
# off to the next deal: the last of these is early enough (deal 4, 0-based, opens with a drop,
# and deal 5 is the last) that two deals are left to take it.
RELOAD_FROM = (1, 2)
RESTART_FROM = 3
WAIT = (
    "() => { const s = document.querySelector('#btn-stock');"
    " return (!s.classList.contains('hidden') && !s.disabled)"
    " || !document.querySelector('#btn-discard').classList.contains('hidden')"
    " || !!document.querySelector('#result-continue:not([disabled])')"
    " || document.querySelector('#status').textContent.includes('match is over'); }"
)


def my_move(asha: Player, deal: int, turn: int) -> None:
    """One turn, as a player plays it: most deals a few turns and a drop, some a declaration."""
    page = asha.page
    if turn == 0 and deal % 5 == 4:
        page.click("#btn-drop")
        page.click("#confirm-drop")
        return
    if turn >= 6:
        page.click("#btn-drop")
        page.click("#confirm-drop")
        return
    page.wait_for_selector("#reading .tip")
    take = "take" in page.inner_text("#reading .tip") and page.is_visible("#btn-open")
    page.click("#btn-open" if take else "#btn-stock")
    page.wait_for_selector("#btn-discard:not(.hidden)")
    page.wait_for_selector("#hand .card.advised")
    page.wait_for_timeout(250)  # as a person would: look before moving cards
    if turn % 2 and page.locator("#hand [data-group=loose] .card:not(.advised)").count():
        before = groups_count(page)
        asha.drag(
            page.locator("#hand [data-group=loose] .card:not(.advised)").first,
            page.locator("#hand .newgroup"),
        )
        assert groups_count(page) == before + 1
    advised = page.locator("#hand .card.advised")
    if page.locator("#reading .tip.go").count():  # the cards allow a declaration
        asha.drag(advised, page.locator("#finish-slot"))
        page.wait_for_selector(".verdict.ok")
        page.click("#confirm-declare")
    elif turn % 2:
        asha.drag(advised, page.locator("#open-slot"))
    else:
        asha.tap(advised)
        page.click("#btn-discard")
    page.wait_for_function(
        "() => document.querySelector('#btn-discard').classList.contains('hidden')"
    )


@pytest.mark.slow
def test_an_evening_of_six_deals(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory(bot_delay=0.0, next_deal_seconds=3.0, allow_seed=False)
    asha = players(DESKTOP, "asha")
    page = asha.page
    page.goto(server.url + "/")
    page.fill("#c-name", "Asha")
    page.select_option("#c-players", "4")
    page.fill("#c-deals", str(DEALS))
    page.fill("#c-timer", "90")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    turns: dict[int, int] = {}
    reloaded: set[int] = set()
    restarted = False
    declared = 0
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        page.wait_for_function(WAIT, timeout=120_000)
        if "match is over" in page.inner_text("#status"):
            break
        if page.locator("#result-continue:not([disabled])").count():
            if "finished" in asha.state()["room"]["status"]:
                break
            page.click("#result-continue")
            page.wait_for_selector("#result-title", state="detached", timeout=30_000)
            continue
        state: dict[str, Any] = asha.state()
        deal = state["match"]["deal"]
        due = [d for d in RELOAD_FROM if deal >= d and d not in reloaded]
        if due and turns.get(deal, 0) >= 1:
            reloaded.add(due[0])
            page.reload()
            page.wait_for_selector("#hand .card")
            continue
        if deal >= RESTART_FROM and not restarted and turns.get(deal, 0) >= 1:
            restarted = True
            asha.server_down = True
            server.restart()
            page.wait_for_selector("#conn.on", timeout=30_000)
            asha.server_down = False
            continue
        if not page.is_visible("#btn-discard"):
            my_move(asha, deal, turns.get(deal, 0))
            declared += bool(page.locator(".verdict").count())
            turns[deal] = turns.get(deal, 0) + 1
        else:  # a reload or restart in the middle of a turn: finish it with the advice
            page.wait_for_selector("#hand .card.advised")
            asha.tap(page.locator("#hand .card.advised"))
            page.click("#btn-discard")
    final = asha.state()
    assert final["room"]["status"] == "finished"
    assert len(final["match"]["history"]) == DEALS and sum(final["match"]["totals"]) == 0
    assert restarted and reloaded == set(RELOAD_FROM)
    # The history of the evening, step by step.
    page.goto(f"{server.url}/t/{final['room']['code']}/history")
    page.click(".deal-item >> nth=0")
    page.wait_for_selector(".replay-seat")
    page.click("#last")
    page.wait_for_selector("#replay-result table")
    assert not asha.errors, asha.errors
