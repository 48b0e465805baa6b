"""Take the README's screenshots of the browser table: ``python docs/screenshots.py``.

Real servers and Debian's Chromium, at 1280×800 and 375×740, playing as a person would:
a fresh deal, a hand arranged early in the deal (after drawing: the advised discard laid apart
and selected), several cards selected to be grouped, the declare window, and a deal's result
with the countdown to the next deal. The pictures go to ``docs/screenshots/``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.kit import (  # noqa: E402
    ARGS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    Player,
    Server,
    wait_discard_phase,
    wait_my_turn,
)
from playwright.sync_api import sync_playwright  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES: dict[str, dict[str, Any]] = {"1280": DESKTOP, "375": PHONE}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="rummy21-shots-"))
    common = {"bot_delay": 1.5, "next_deal_seconds": 30.0, "allow_seed": True, "rate_limit": None}
    plain = Server(work / "plain.sqlite3", common, work / "plain.log").start()
    rigged = Server(
        work / "rigged.sqlite3",
        {**common, "bot_delay": 0.3, "table_factory": "rigs:ready_to_declare"},
        work / "rigged.log",
    ).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for size, device in SIZES.items():
                play(browser, device, size, plain, rigged)
            browser.close()
    finally:
        plain.stop()
        rigged.stop()


def shoot(player: Player, name: str) -> None:
    player.page.wait_for_timeout(400)  # let the last answer land
    path = OUT / f"{name}.jpg"  # JPEG: the felt's gradient makes PNGs five times larger
    player.page.screenshot(path=str(path), type="jpeg", quality=85)
    if os.environ.get("RUMMY21_SHOTS_PNG"):  # a lossless copy to look at
        player.page.screenshot(path=str(Path(os.environ["RUMMY21_SHOTS_PNG"]) / f"{name}.png"))
    print(path.relative_to(ROOT))


def play(
    browser: object, device: dict[str, object], size: str, plain: Server, rigged: Server
) -> None:
    made = plain.create(["human", "greedy", "greedy", "greedy"], seed=41, turn_seconds=30, deals=5)
    asha = Player(browser, device, "asha").sit(plain, made)
    page = asha.page
    page.wait_for_selector("#hand .group.pure, #hand .group.ok")
    page.wait_for_selector("#reading .tip")
    shoot(asha, f"fresh_deal_{size}")
    loose = page.locator("#hand [data-group=loose] .card")
    picked = [loose.nth(i) for i in range(min(3, loose.count()))]
    for card in picked:
        asha.tap(card)
    shoot(asha, f"multiselect_{size}")
    for card in picked:
        asha.tap(card)
    wait_my_turn(page)
    page.click("#btn-stock")
    wait_discard_phase(page)
    page.click("#btn-arrange")
    page.wait_for_selector("#hand .card.selected")
    shoot(asha, f"arranged_early_{size}")
    asha.close()

    made = rigged.create(["human", "greedy", "greedy"], turn_seconds=30, deals=3)
    ravi = Player(browser, device, "ravi").sit(rigged, made)
    page = ravi.page
    wait_my_turn(page)
    page.click("#btn-stock")
    wait_discard_phase(page)
    page.wait_for_selector("#reading .tip.go")
    finish = page.locator("#hand .card.advised")
    ravi.drag(finish, page.locator("#finish-slot"))
    page.wait_for_selector(".verdict.ok")
    shoot(ravi, f"declare_window_{size}")
    page.click("#confirm-declare")
    page.wait_for_selector("#next-deal")
    page.wait_for_timeout(1200)
    shoot(ravi, f"result_countdown_{size}")
    ravi.close()


if __name__ == "__main__":
    main()
