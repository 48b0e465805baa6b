"""The tables' API: the bots a seat may get, the rule sets a table may use, creating a table,
its public facts, taking a seat."""

from __future__ import annotations

from typing import Any, get_args

from fastapi import APIRouter

from rummy21.bots import LEVELS, level_of
from rummy21.ruleset import PRESETS, RuleSet
from rummy21.server.api.deps import AddressDep, CodeDep, ServicesDep
from rummy21.server.model import BotName, RoomConfig, RoomError
from rummy21.server.protocol import CreateTable, JoinTable

router = APIRouter(prefix="/api")


@router.get("/bots")
async def bots() -> dict[str, Any]:
    """The bots a seat may be given, weakest first, with the level players are shown."""
    names = sorted(get_args(BotName), key=list(LEVELS).index)
    return {"bots": [{"name": name, "level": level_of(name)} for name in names]}


@router.get("/rules")
async def rules() -> dict[str, Any]:
    """The rule sets a table may be created with (RULES §9), each with the turn timer a table
    gets when its creator does not choose one (``RuleSet.turn_seconds``): what the lobby
    offers, so that it states no default of its own."""
    names = get_args(CreateTable.model_fields["rules"].annotation)
    return {"rules": [{"name": name, "turn_seconds": PRESETS[name].turn_seconds} for name in names]}


@router.post("/tables", status_code=201)
async def create_table(
    body: CreateTable, server: ServicesDep, address: AddressDep
) -> dict[str, Any]:
    if body.seed is not None and not server.settings.allow_seed:
        raise RoomError(
            "forbidden",
            "this server deals live tables from a secure shuffle; it does not accept seeds",
        )
    config = RoomConfig(
        len(body.seats),
        body.rules,
        body.point_value,
        RuleSet.preset(body.rules).turn_seconds if body.turn_seconds is None else body.turn_seconds,
        body.deals,
        tuple(body.seats),
        host=body.seats.index("human"),
        public_history=body.public_history,
    )
    code, seat, token = await server.tables.create(config, body.name, body.seed, address)
    return {"code": code, "seat": seat, "token": token, "url": f"/t/{code}"}


@router.get("/tables/{code}")
async def table_info(code: CodeDep, server: ServicesDep) -> dict[str, Any]:
    return await server.tables.info(code)


@router.post("/tables/{code}/join")
async def join_table(code: CodeDep, body: JoinTable, server: ServicesDep) -> dict[str, Any]:
    seat, token = await server.tables.join(code, body.name, body.seat)
    return {"code": code, "seat": seat, "token": token}
