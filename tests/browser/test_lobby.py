"""The lobby states no rule of its own: the turn timer it offers is the chosen rule set's, as
the server lists it (GET /api/rules), and a timer left empty is the server's to choose."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from browser.kit import DESKTOP, Player, Server


def test_the_lobby_offers_the_rule_set_s_turn_timer(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    listed = httpx.get(f"{server.url}/api/rules", timeout=10).json()["rules"]
    timers = {rules["name"]: str(rules["turn_seconds"]) for rules in listed}
    page = players(DESKTOP).page
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelector('#c-timer').value !== ''")
    assert page.input_value("#c-rules") == "classic"
    assert page.input_value("#c-timer") == timers["classic"]
    page.select_option("#c-rules", "adda52")
    assert page.input_value("#c-timer") == timers["adda52"]
    page.fill("#c-timer", "")  # left to the server: the rule set's
    page.fill("#c-name", "Asha")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    info = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
    assert (info["rules"], str(info["turn_seconds"])) == ("adda52", timers["adda52"])
