// The table page's state, and the one function that changes it: ``apply(state, message)`` (pure:
// it returns a new state and never touches its arguments; the time comes in the messages). The
// messages are the server's (``state``, ``groups``, ``ack``, ``error``, …) and the page's own
// (the connection, the player's moves of cards, windows opened and closed). Selectors below
// read the state for the views; nothing here touches the DOM, the network or the storage.

import { prettyCard } from "/static/cards.js";
import {
  allIds,
  applyArrangement,
  cardOf,
  copyLayout,
  emptyLayout,
  groupCards,
  moveCards,
  reconcile,
  sameLayout,
  sortLoose,
  ungroup,
} from "/static/layout.js";

export const groupKey = (cards) => [...cards].sort().join(" ");

// Windows that give way when the player's turn begins (a turn never starts unseen behind one).
const GIVE_WAY = new Set(["result", "scores", "help"]);

export function initial({ code = null, seat = null, tips = true, seen = -1, now = 0 } = {}) {
  return {
    code,
    seat, // {seat, token, name} of this browser at the table, or null (not seated)
    game: null, // the server's last "state" message
    offset: 0, // the server's clock minus ours, in ms
    now, // our clock at the last tick
    conn: { online: false, lostAt: null, ended: null, back: 0 },
    busy: false, // an action is on its way
    layout: emptyLayout(-1),
    selected: [], // ids of the selected cards
    labels: {}, // group key -> the server's label of that group
    reading: null, // the server's reading of the hand…
    readingKey: "", // …of which cards
    asking: null, // the "groups" question on its way: {id, keys, groups, hand, at}
    asked: { groups: "", hand: "" }, // what the last answer was about
    arrangeOnDeal: -1, // the deal whose hand the server lays out when it arrives
    dragging: null, // the cards being dragged
    turnKey: "",
    flash: 0, // counts the turns that began while the page showed someone else's
    tips,
    seen, // the last deal whose result was dismissed
    readyFor: -1, // the deal after whose result "I'm ready" was sent
    window: null, // the window open: {kind, …}
    status: null, // a sentence from the server in place of the status line
  };
}

// ------------------------------------------------------------------ reading the state
export const deal = (s) => s.game?.deal || null;
export const jokers = (s) => deal(s)?.jokers || s.game?.result?.jokers || null;
export const myTurn = (s) => !!(s.game && s.game.room.status === "playing" && deal(s)?.my_turn);
export const phase = (s) => deal(s)?.phase;
export const serverNow = (s) => s.now + s.offset;
export const lost = (s) => s.conn.lostAt !== null && !s.conn.ended;

export function nameOf(s, seat) {
  if (seat === null || seat === undefined) return "";
  if (seat === s.game?.you) return "You";
  return s.game?.room.seats[seat]?.name || `Seat ${seat + 1}`;
}

// The id of the advised discard when it is shown (tips on, after drawing, in turn).
export function advisedId(s) {
  const r = s.reading;
  if (!s.tips || !r || !myTurn(s) || phase(s) !== "discard" || !r.discard) return null;
  if (s.readingKey !== groupKey(deal(s).hand)) return null;
  const ids = allIds(s.layout).filter((id) => cardOf(id) === r.discard);
  return ids.length ? ids[ids.length - 1] : null;
}

// The reading when it is about the cards held now.
export function currentReading(s) {
  const d = deal(s);
  return d?.hand.length && s.reading && s.readingKey === groupKey(d.hand) ? s.reading : null;
}

export function selectedCard(s) {
  return s.selected.length === 1 ? cardOf(s.selected[0]) : null;
}

// Why the selected card(s) cannot be let go now, or null if one can.
export function releaseProblem(s) {
  const d = deal(s);
  if (!s.selected.length) return "select the card first";
  if (s.selected.length > 1) return "select one card only";
  const card = cardOf(s.selected[0]);
  if (d && d.blocked === card)
    return `${prettyCard(card)} was just taken from the open pile: it cannot leave your hand this turn`;
  return null;
}

// The question to ask the server about the hand now ({groups, keys, hand}), or null: one at a
// time, and only when the layout or the hand differs from what the last answer was about.
export function question(s) {
  const d = deal(s);
  if (!d?.hand.length || s.asking || s.busy || !s.conn.online) return null;
  const groups = s.layout.groups.map((g) => g.map(cardOf));
  const keys = groups.map(groupKey);
  const hand = `${groupKey(d.hand)}|${d.phase}|${d.turn}|${d.blocked}`;
  if (keys.join("|") === s.asked.groups && hand === s.asked.hand) return null;
  return { groups, keys, hand };
}

// Whether the fresh deal's best groups are to be asked for now.
export function wantsArrangement(s) {
  return s.arrangeOnDeal >= 0 && s.arrangeOnDeal === s.game?.match.deal && !!deal(s)?.hand.length && !s.layout.own;
}

// ------------------------------------------------------------------ changing it
export function apply(s, m) {
  switch (m.type) {
    case "tick":
      return tick(s, m.now);
    case "joined":
      return { ...s, seat: m.seat };
    case "welcome":
      return { ...s, conn: { ...s.conn, online: true, lostAt: null, back: s.conn.back + (s.conn.lostAt !== null) } };
    case "closed":
      return {
        ...s,
        busy: false,
        asking: null,
        conn: { ...s.conn, online: false, lostAt: s.conn.lostAt ?? m.at },
      };
    case "ended":
      return { ...s, busy: false, asking: null, conn: { ...s.conn, online: false, ended: m.text } };
    case "state":
      return onState(s, m);
    case "ack":
      return { ...s, busy: false };
    case "error":
      return onError(s, m);
    case "groups":
      return onGroups(s, m);
    case "asking":
      return {
        ...s,
        asking: { id: m.id, keys: m.keys, groups: m.keys.join("|"), at: m.at },
        asked: { ...s.asked, hand: m.hand },
      };
    case "arranging":
      return { ...s, arrangeOnDeal: -1 };
    case "arrangement":
      return arranged(s, m);
    case "acting":
      return { ...s, busy: true };
    case "acted":
      // The reply to an action: a move that went through clears the selection (not a draw).
      return { ...s, busy: false, selected: m.reply.type === "ack" && m.action !== "draw" ? [] : s.selected };
    case "select":
      return { ...s, selected: present(s.layout, m.ids) };
    case "move":
      return changeLayout(s, (layout) => moveCards(layout, m.ids, m.target));
    case "group":
      return { ...changeLayout(s, (layout) => groupCards(layout, m.ids)), selected: [] };
    case "ungroup":
      return changeLayout(s, (layout) => ungroup(layout, m.index));
    case "sort":
      return changeLayout(s, (layout) => sortLoose(layout, layout.sort === "suit" ? "rank" : "suit"));
    case "dragging":
      return { ...s, dragging: m.cards };
    case "tips":
      return { ...s, tips: m.on };
    case "open":
      return { ...s, window: m.window };
    case "close":
      // A window closed: only the one asked (a newer one may have replaced it meanwhile).
      return !m.kind || s.window?.kind === m.kind ? { ...s, window: null } : s;
    case "ready":
      return { ...s, seen: Math.max(s.seen, m.deal), readyFor: m.deal };
    case "seen":
      return { ...s, seen: Math.max(s.seen, m.deal), window: s.window?.kind === "result" ? null : s.window };
    default:
      return s;
  }
}

function present(layout, ids) {
  const all = new Set(allIds(layout));
  return ids.filter((id) => all.has(id));
}

function changeLayout(s, change) {
  const layout = copyLayout(s.layout);
  change(layout);
  if (sameLayout(layout, s.layout)) return s;
  return { ...s, layout, selected: present(layout, s.selected) };
}

function tick(s, now) {
  const next = { ...s, now };
  if (lost(s) || !deal(s)?.hand.length) return next;
  // A question that got no answer (a lost reply, a reconnection in between) is asked again, so
  // the reading beside the hand never stays stale.
  if (s.asking && now - s.asking.at > 4000) next.asking = null;
  if (!next.asking && (!s.reading || s.readingKey !== groupKey(deal(s).hand))) next.asked = { groups: "", hand: "" };
  return next;
}

function onState(s, m) {
  const { type, at, saved, ...game } = m;
  const before = s.game;
  const next = { ...s, game, offset: game.server_now - at, now: at, status: null };
  // Keep the player's layout in step with the hand the server says the seat holds.
  const d = game.deal;
  if (d) {
    const dealNo = game.match.deal;
    let layout = s.layout;
    if (layout.deal !== dealNo) {
      const kept = saved && saved.deal === dealNo && Array.isArray(saved.groups) ? saved : null;
      layout = kept ? { ...emptyLayout(dealNo), ...kept } : emptyLayout(dealNo);
      next.labels = {};
      if (!kept && d.hand.length) next.arrangeOnDeal = dealNo; // a fresh deal: show its best groups
    }
    const synced = copyLayout(layout);
    reconcile(synced, d.hand, d.my_turn ? d.drawn : null);
    next.layout = sameLayout(synced, s.layout) ? s.layout : synced;
    next.selected = present(next.layout, s.selected);
  }
  // A new turn for this player: the windows that would hide it give way.
  if (myTurn(next)) {
    const key = `${game.match.deal}:${d.turns}:${d.turn}`;
    if (key !== s.turnKey) {
      next.turnKey = key;
      if (next.window && GIVE_WAY.has(next.window.kind)) next.window = null;
      if (before && !before.deal?.my_turn) next.flash = s.flash + 1;
    }
  } else next.turnKey = "";
  // The last deal's result stays up between deals; it closes by itself when the next deal starts.
  const result = game.result;
  const between = game.room.status === "between" || game.room.status === "finished";
  if (next.window?.kind === "result" && (!result || result.deal !== next.window.deal || !between)) next.window = null;
  if (result && between && result.deal > next.seen && next.window?.kind !== "result")
    next.window = { kind: "result", deal: result.deal };
  return next;
}

function onError(s, m) {
  const next = { ...s, busy: false };
  if (s.asking && m.id === s.asking.id) {
    // The hand moved on under the question (a discard crossed it): ask again.
    next.asking = null;
    next.asked = { groups: "", hand: "" };
  }
  if (m.code === "unauthorized") next.status = m.error;
  return next;
}

function onGroups(s, m) {
  if (!s.asking || m.id !== s.asking.id) return s;
  const labels = { ...s.labels };
  for (const [i, label] of m.labels.entries()) labels[s.asking.keys[i]] = label;
  const next = { ...s, labels, asking: null, asked: { ...s.asked, groups: s.asking.groups } };
  if (m.reading) {
    next.reading = m.reading;
    next.readingKey = groupKey(m.hand || []);
  }
  return next;
}

// The server's arrangement of the hand: ``keep`` (indexes of the player's groups kept first);
// ``fresh``: the one asked for a new deal, which gives way to any group the player made since.
function arranged(s, m) {
  const r = m.reply;
  if (r.type !== "arranged" || (m.fresh && s.layout.own)) return s;
  const layout = copyLayout(s.layout);
  const apart = applyArrangement(
    layout,
    { groups: r.groups.map((g) => g.cards), loose: r.loose, apart: r.discard },
    m.keep,
  );
  const labels = { ...s.labels };
  for (const g of r.groups) labels[groupKey(g.cards)] = { valid: true, kind: g.kind, label: g.label, pure: g.pure };
  const next = { ...s, layout, labels, selected: present(layout, s.selected) };
  if (r.reading) {
    next.reading = r.reading;
    next.readingKey = groupKey(deal(s)?.hand || []);
  }
  if (apart && myTurn(s) && phase(s) === "discard") next.selected = [apart];
  return next;
}
