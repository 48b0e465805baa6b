// The table page: one WebSocket to the server, which alone applies the rules and gives every
// piece of advice. The page keeps only the player's own layout of the hand (in localStorage)
// and draws everything. The hand itself lives in hand.js, the layout model in layout.js.
import {
  api,
  backEl,
  cardEl,
  codeFromPath,
  el,
  getSeat,
  prettyCard,
  prettyText,
  scoreClass,
  setSeat,
  signed,
} from "/static/cards.js";
import { createHand } from "/static/hand.js";
import {
  allIds,
  applyArrangement,
  cardOf,
  emptyLayout,
  groupCards,
  reconcile,
  sortLoose,
  ungroup,
} from "/static/layout.js";

const $ = (id) => document.getElementById(id);
const code = codeFromPath();
let seatInfo = getSeat(code);
let ws = null;
let state = null; // the last "state" message
let offset = 0; // server clock minus ours, in ms
let nextId = 1;
let busy = false; // an action is on its way
let retry = 0;
let layout = emptyLayout(-1);
let labelCache = new Map(); // group key -> label from the server
let reading = null; // the server's reading of the hand
let readingKey = ""; // ...of which cards
let labelsKey = ""; // the layout whose labels were last received
let inflight = null; // the "groups" request on its way
const pending = new Map(); // message id -> callback(reply)
let openModal = null; // {kind, close, deal?}
let arrangeOnDeal = -1; // the deal whose hand is laid out by the server when it arrives
let dragCards = null; // the cards being dragged (for the drop targets)
let lastTurnKey = "";
let tips = localStorage.getItem("rummy21:tips") !== "off";
let lostAt = null; // when the connection was lost (null: connected, or never connected yet)
let ended = false; // the page stopped for good (ENDINGS): no reconnecting banner

// ------------------------------------------------------------------ helpers
const names = () => (state ? state.room.seats.map((s) => s.name) : []);
const nameOf = (seat) =>
  seat === null || seat === undefined ? "" : seat === state?.you ? "You" : names()[seat] || `Seat ${seat + 1}`;
const deal = () => state?.deal;
const jokers = () => deal()?.jokers || state?.result?.jokers || null;
const now = () => Date.now() + offset;
const groupKey = (cards) => [...cards].sort().join(" ");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const myTurn = () => !!(state && state.room.status === "playing" && deal()?.my_turn);
const phase = () => deal()?.phase;

function send(message, onReply) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    toast("Not connected — reconnecting…");
    return null;
  }
  const id = nextId++;
  if (onReply) pending.set(id, onReply);
  ws.send(JSON.stringify({ ...message, id }));
  return id;
}

function toast(text, kind = "error") {
  const box = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  $("toasts").append(box);
  setTimeout(() => box.remove(), kind === "error" ? 5200 : 3600);
}

function layoutKey() {
  return `rummy21:layout:${code}:${seatInfo?.seat}`;
}

function saveLayout() {
  try {
    localStorage.setItem(layoutKey(), JSON.stringify(layout));
  } catch (_) {
    /* full */
  }
}

function loadLayout(dealNo) {
  try {
    const saved = JSON.parse(localStorage.getItem(layoutKey()) || "null");
    if (saved && saved.deal === dealNo && Array.isArray(saved.groups)) return { ...emptyLayout(dealNo), ...saved };
  } catch (_) {
    /* ignore */
  }
  return null;
}

// ------------------------------------------------------------------ the hand
const hand = createHand($("hand"), {
  layout: () => layout,
  deal,
  jokers,
  jokerKey: () => jokers()?.cut || "",
  label: (cards) => labelCache.get(groupKey(cards)),
  advised: () => advisedId(),
  emptyText: () => {
    const d = deal();
    const standing = d ? d.seats[state.you].standing : null;
    if (standing === "dropped") return "You dropped out of this deal.";
    if (standing === "wrong_declaration") return "Your declaration was wrong: you are out of this deal.";
    return d ? "" : "Your cards appear here when the deal starts.";
  },
  selectionChanged: () => renderActions(),
  layoutChanged: () => {
    saveLayout();
    hand.render();
    renderActions();
    requestLabels();
  },
  ungroup: (index) => {
    ungroup(layout, index);
    saveLayout();
    hand.render();
    requestLabels();
  },
  dragging: (cards) => {
    dragCards = cards;
    markDropTargets();
  },
  refuse: (text) => toast(text),
  discard: (card) => discardCard(card),
  finish: (card) => askDeclare(card),
});

// The id of the advised discard when it is shown (tips on, after drawing, in turn).
function advisedId() {
  if (!tips || !reading || !myTurn() || phase() !== "discard" || !reading.discard) return null;
  if (readingKey !== groupKey(deal().hand)) return null;
  const ids = allIds(layout).filter((id) => cardOf(id) === reading.discard);
  return ids.length ? ids[ids.length - 1] : null;
}

// Keep the player's layout in step with the hand the server says it holds.
function syncLayout() {
  const d = deal();
  if (!d) return;
  const dealNo = state.match.deal;
  if (layout.deal !== dealNo) {
    const saved = loadLayout(dealNo);
    layout = saved || emptyLayout(dealNo);
    labelCache = new Map();
    if (!saved && d.hand.length) arrangeOnDeal = dealNo; // a fresh deal: show its best groups
  }
  reconcile(layout, d.hand, d.my_turn ? d.drawn : null);
  saveLayout();
  if (arrangeOnDeal === dealNo && d.hand.length && !layout.own) {
    arrangeOnDeal = -1;
    send({ type: "arrange" }, (reply) => {
      if (reply.type === "arranged" && !layout.own) useArrangement(reply, []);
    });
  }
}

// ------------------------------------------------------------------ connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(`${scheme}${location.host}/ws/${code}`);
  ws.onopen = () => {
    retry = 0;
    inflight = null;
    ws.send(JSON.stringify({ type: "hello", token: seatInfo.token, id: 0 }));
  };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = (event) => {
    setConn(false);
    busy = false;
    for (const [id, handler] of pending) {
      pending.delete(id);
      handler({ type: "error", error: "connection lost" });
    }
    const ended = ENDINGS[event.code];
    if (ended) {
      endWith(ended);
      return;
    }
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 250 * 2 ** retry);
  };
}

// Close codes after which the page does not reconnect by itself, and what it says.
const ENDINGS = {
  4404: "There is no such table.",
  4401: "This browser's seat key is not valid at this table.",
  4429: "Too many attempts from this address: wait a minute and reload.",
  4409: "This seat is open in another window: reload to play here.",
  4410: "This table could not be restored after a server problem and has been set aside; its finished deals can still be replayed from its history.",
};

// The page stops here: said at the table, or in place of it if it never showed.
function endWith(text) {
  ended = true;
  renderConnection();
  setStatus(text);
  if (state) return;
  $("ended-text").textContent = text;
  $("ended").classList.remove("hidden");
  $("join-panel").classList.add("hidden");
}

function setConn(on) {
  const back = on && lostAt !== null;
  lostAt = on ? null : (lostAt ?? Date.now());
  $("conn").className = `dot ${on ? "on" : "off"}`;
  $("conn-text").textContent = on ? "online" : "offline";
  renderConnection();
  if (back) toast("Back online.", "notice");
}

// While the connection is lost (after the page had a table to show): a banner, and the clocks
// stand still — the server, not this page, decides when a turn times out or a deal starts.
function renderConnection() {
  const lost = lostAt !== null && !!state && !ended;
  document.body.classList.toggle("offline", lost);
  const box = $("offline");
  box.classList.toggle("hidden", !lost);
  if (!lost) return;
  const seconds = Math.floor((Date.now() - lostAt) / 1000);
  box.textContent = `Connection lost — reconnecting…${seconds >= 3 ? ` (${seconds} s)` : ""} Nothing you did is lost.`;
}

function setStatus(text) {
  $("status").textContent = text;
}

function onMessage(msg) {
  const handler = msg.id !== undefined && msg.id !== null ? pending.get(msg.id) : null;
  if (handler) pending.delete(msg.id);
  switch (msg.type) {
    case "welcome":
      setConn(true);
      break;
    case "state":
      onState(msg);
      break;
    case "ack":
      busy = false;
      renderActions();
      requestLabels();
      break;
    case "notice":
      toast(msg.text, "notice");
      break;
    case "error":
      busy = false;
      if (inflight && msg.id === inflight.id) {
        // The hand moved on under the question (a discard crossed it): ask again.
        inflight = null;
        labelsKey = readingKeyFull = "";
        requestLabels();
        break;
      }
      if (msg.code === "unauthorized") setStatus(msg.error);
      if (!handler || msg.id === 0) toast(msg.error);
      renderActions();
      break;
    case "groups":
      if (inflight && msg.id === inflight.id) {
        for (const [i, label] of msg.labels.entries()) labelCache.set(inflight.keys[i], label);
        labelsKey = inflight.groups;
        if (msg.reading) {
          reading = msg.reading;
          readingKey = groupKey(msg.hand || []);
        }
        inflight = null;
        hand.render();
        renderReading();
        renderActions();
        requestLabels(); // the layout or the hand may have moved on meanwhile
      }
      break;
    default:
      break;
  }
  if (handler) handler(msg);
}

function onState(msg) {
  $("scores-btn").classList.remove("hidden");
  const before = state;
  offset = msg.server_now - Date.now();
  state = msg;
  syncLayout();
  render();
  requestLabels();
  announceTurn(before);
}

// A new turn for this player: never let it start unseen behind a window.
function announceTurn(before) {
  const d = deal();
  const key = d ? `${state.match.deal}:${d.turns}:${d.turn}` : "";
  if (!myTurn() || key === lastTurnKey) {
    if (!myTurn()) lastTurnKey = "";
    return;
  }
  lastTurnKey = key;
  if (openModal && (openModal.kind === "result" || openModal.kind === "scores" || openModal.kind === "help")) {
    openModal.close();
  }
  if (before && !before.deal?.my_turn) document.body.classList.add("flash-turn");
  setTimeout(() => document.body.classList.remove("flash-turn"), 1200);
}

// Ask the server to judge each group of the layout and to read the hand: one request at a time,
// and only when the layout or the hand differs from what the last answer was about.
let labelTimer = null;
function requestLabels() {
  clearTimeout(labelTimer);
  labelTimer = setTimeout(() => {
    const d = deal();
    if (!d?.hand.length || inflight || !ws || ws.readyState !== WebSocket.OPEN) return;
    if (busy) {
      requestLabels();
      return;
    } // an action is on its way: ask about its result
    const groups = layout.groups.map((g) => g.map(cardOf));
    const keys = groups.map(groupKey);
    const handKey = `${groupKey(d.hand)}|${d.phase}|${d.turn}|${d.blocked}`;
    if (keys.join("|") === labelsKey && handKey === readingKeyFull) return;
    const id = send({ type: "groups", groups });
    if (id !== null) {
      inflight = { id, keys, groups: keys.join("|"), at: Date.now() };
      readingKeyFull = handKey;
    }
  }, 40);
}
let readingKeyFull = "";

// ------------------------------------------------------------------ rendering
function render() {
  $("game").classList.remove("hidden");
  $("join-panel").classList.add("hidden");
  const room = state.room;
  $("code").textContent = room.code;
  const dealNo = state.match.deal;
  $("deal-pill").textContent = dealNo >= 0 ? `Deal ${dealNo + 1}/${room.deals}` : plural(room.deals, "deal");
  $("deal-pill").title = dealNo >= 0 ? `deal ${dealNo + 1} of ${room.deals}` : "";
  $("rules-pill").textContent =
    `${room.rules} · ${room.point_value}/pt${room.turn_seconds ? ` · ${room.turn_seconds}s turns` : " · no timer"}`;
  renderOpponents();
  renderFelt();
  renderMe();
  hand.render();
  renderReading();
  renderActions();
  renderLog();
  manageResult();
  tick();
}

// While the server cannot save the table's moves it says so (state.trouble), and when it
// tries again: a banner above the table, counting down to the next try.
function renderTrouble() {
  const box = $("trouble");
  const trouble = state?.trouble;
  box.classList.toggle("hidden", !trouble);
  if (!trouble) return;
  const wait = trouble.retry_at ? Math.ceil((trouble.retry_at - now()) / 1000) : null;
  const next = wait === null ? "" : wait > 0 ? ` Next try in ${wait} s.` : " Trying again now…";
  box.textContent = `${trouble.text}${next}`;
}

function initials(name) {
  const words = String(name || "?")
    .trim()
    .split(/\s+/);
  return (words.length > 1 ? words[0][0] + words[1][0] : words[0].slice(0, 2)).toUpperCase();
}

// An avatar with a ring: the ring runs down with the turn clock (or pulses without one).
function avatar(name, { turn = false, timed = false, me = false } = {}) {
  const ring = el("span", { class: `ring${turn ? " on" : ""}${turn && !timed ? " pulse" : ""}` });
  if (turn && timed) {
    ring.innerHTML =
      '<svg viewBox="0 0 44 44" aria-hidden="true"><circle class="track" cx="22" cy="22" r="20"/><circle class="left" cx="22" cy="22" r="20" data-timer="1"/></svg>';
  }
  return el(
    "span",
    { class: `avatar${me ? " me" : ""}`, "aria-hidden": "true" },
    ring,
    el("span", { class: "initials" }, initials(name)),
  );
}

// A taken seat whose player is away and no bot plays for them (an open seat is not offline).
const isOffline = (s) => s.kind === "human" && s.taken && !s.connected && !s.autoplay;

function seatBadges(s, info, d) {
  const badges = [];
  if (d && d.dealer === s.seat) badges.push(el("span", { class: "badge dealer", title: "dealer" }, "D"));
  if (s.kind === "bot") badges.push(el("span", { class: "badge bot" }, `${s.level} bot`));
  if (s.kind === "human" && s.autoplay)
    badges.push(
      el(
        "span",
        { class: "badge bot", title: `the ${s.level} bot plays for ${s.name} until they are back` },
        "bot playing",
      ),
    );
  if (s.kind === "human" && !s.taken) badges.push(el("span", { class: "badge open-seat" }, "open seat"));
  else if (isOffline(s)) badges.push(el("span", { class: "badge off" }, "offline"));
  if (info && info.standing === "dropped")
    badges.push(el("span", { class: "badge out" }, info.drop === "first" ? "first drop" : "dropped"));
  if (info && info.standing === "wrong_declaration")
    badges.push(el("span", { class: "badge out" }, "wrong declaration"));
  if (info && info.standing === "declared") badges.push(el("span", { class: "badge win" }, "declared"));
  if (info?.timeouts)
    badges.push(
      el(
        "span",
        { class: "badge off", title: "time-outs in a row" },
        `${info.timeouts} time-out${info.timeouts > 1 ? "s" : ""}`,
      ),
    );
  return badges;
}

function renderOpponents() {
  const d = deal();
  const seats = state.room.seats;
  const n = seats.length;
  const order = [];
  for (let k = 1; k < n; k++) order.push(seats[(state.you + k) % n]);
  $("opponents").classList.toggle("many", order.length >= 4);
  $("opponents").replaceChildren(
    ...order.map((s) => {
      const info = d ? d.seats[s.seat] : null;
      const turn = !!(d && d.turn === s.seat && state.room.status === "playing");
      const total = state.match.totals[s.seat];
      const out = info && info.standing !== "active";
      const offline = isOffline(s);
      return el(
        "div",
        {
          class: `opp${turn ? " turn" : ""}${out ? " out" : ""}${offline ? " offline" : ""}`,
          dataset: { seat: s.seat },
          role: "group",
          "aria-label": `${s.name}${turn ? ", in turn" : ""}${offline ? ", offline" : ""}: ${info ? plural(info.cards, "card") : s.taken ? "seated" : "open seat"}, ${signed(total)} points`,
        },
        avatar(s.name, { turn, timed: turn && !!state.deadline }),
        el(
          "div",
          { class: "opp-text" },
          el(
            "div",
            { class: "opp-name" },
            el("span", { class: "nm", title: s.name }, s.name),
            ...seatBadges(s, info, d),
          ),
          el(
            "div",
            { class: "opp-meta" },
            info
              ? el(
                  "span",
                  { class: "cards-count" },
                  el("i", { class: "mini-card" }),
                  `${info.cards}`,
                  el("span", { class: "hide-sm" }, info.cards === 1 ? " card" : " cards"),
                )
              : el("span", {}, s.taken ? "seated" : "open seat"),
            el("span", { class: `total ${scoreClass(total)}` }, `${signed(total)} pts`),
          ),
        ),
      );
    }),
  );
}

function renderFelt() {
  const d = deal();
  const j = jokers();
  const stock = $("stock-slot");
  const open = $("open-slot");
  if (!d) {
    stock.replaceChildren(el("div", { class: "empty-slot" }));
    open.replaceChildren(el("div", { class: "empty-slot" }));
    $("open-by").textContent = "";
    $("cut-info").replaceChildren();
    $("discards").replaceChildren();
    $("finish-pile").classList.add("hidden");
    return;
  }
  stock.replaceChildren(backEl(), el("span", { class: "count", title: "cards in the stock" }, d.stock_size));
  const top = d.open_pile[d.open_pile.length - 1];
  open.replaceChildren(
    top ? cardEl(top.card, j) : el("div", { class: "empty-slot" }),
    d.open_count > 1 ? el("span", { class: "count", title: "cards in the open pile" }, d.open_count) : "",
  );
  const topTaken = top && top.by !== null && j && (j.joker_cards || []).includes(top.card) && !d.rules.joker_pickup;
  $("open-by").textContent = top
    ? (top.by === null ? "first open card" : `from ${nameOf(top.by)}`) + (topTaken ? " · joker: stays" : "")
    : "";
  open.setAttribute(
    "aria-label",
    top ? `open pile: ${prettyCard(top.card)}${d.can_take_open ? ", take it" : ""}` : "open pile: empty",
  );
  $("finish-pile").classList.toggle("hidden", !(myTurn() && phase() === "discard"));
  $("cut-info").replaceChildren(
    el("div", { class: "cut-card" }, el("span", { class: "label" }, "Cut"), cardEl(j.cut, j, { size: "small" })),
    el(
      "div",
      { class: "cut-text" },
      el(
        "div",
        {},
        el("b", { class: "joker-mark" }, "★"),
        ` jokers: every ${j.wild_rank}, ${prettyCard(j.upper)}, ${prettyCard(j.lower)}, JK`,
      ),
      el("div", {}, el("b", { class: "value-mark" }, "$"), ` value: ${j.value_cards.map(prettyCard).join(" ")}`),
    ),
  );
  const recent = d.open_pile.slice(0, -1).slice(-4).reverse();
  $("discards").replaceChildren(
    ...(recent.length ? [el("span", { class: "label" }, "Before")] : []),
    ...recent.map((o) =>
      el(
        "div",
        { class: "discard-row" },
        cardEl(o.card, j, { size: "tiny" }),
        el("span", { class: "who" }, o.by === null ? "first" : nameOf(o.by)),
      ),
    ),
  );
  markDropTargets();
}

// While a card is dragged, the piles it may land on light up (the open pile only for a card
// that may be discarded: the rest would be refused).
function markDropTargets() {
  const can = !!dragCards && dragCards.length === 1 && myTurn() && phase() === "discard";
  $("open-slot").classList.toggle("droptarget", can);
  $("finish-slot").classList.toggle("droptarget", can);
}

function statusText() {
  const room = state.room;
  const d = deal();
  if (room.status === "waiting") {
    const open = room.seats.filter((s) => !s.taken).length;
    return `Waiting for ${plural(open, "more player")} — share the link or the code ${room.code}.`;
  }
  if (room.status === "finished") return "The match is over. See the scores and the history.";
  if (room.status === "between") {
    const left = state.next_deal_at ? Math.max(0, Math.ceil((state.next_deal_at - now()) / 1000)) : null;
    return left !== null ? `Deal over. The next deal starts in ${left} s.` : "Deal over.";
  }
  if (!d) return "";
  if (d.my_turn) {
    if (d.phase === "draw")
      return `Your turn: draw from the stock${d.can_take_open ? " or take the open card" : ""} — or drop.`;
    return "Your turn: discard a card (select it, or drag it to the open pile) — or declare.";
  }
  const seat = state.room.seats[d.turn];
  const who = nameOf(d.turn);
  if (seat && isOffline(seat)) {
    const left = state.deadline ? Math.max(0, Math.ceil((state.deadline - now()) / 1000)) : null;
    return `${who} is offline${left !== null ? ` — their turn times out in ${left} s.` : "."}`;
  }
  return `${who} ${d.phase === "draw" ? "is drawing" : "is thinking"}…`;
}

function renderMe() {
  const me = state.room.seats[state.you];
  const d = deal();
  const info = d ? d.seats[state.you] : null;
  const total = state.match.totals[state.you];
  $("my-avatar").replaceChildren(
    avatar(me.name, { turn: myTurn(), timed: myTurn() && !!state.deadline, me: true }),
    el("span", { class: `my-total ${scoreClass(total)}`, title: "your total" }, `${signed(total)} pts`),
  );
  $("me").classList.toggle("turn", myTurn());
  setStatus(statusText());
  // The host may hand the seat of an absent player to a bot.
  const tools = [];
  if (d && state.room.host === state.you && state.room.status === "playing" && d.turn !== state.you) {
    const seat = state.room.seats[d.turn];
    if (seat && isOffline(seat)) {
      tools.push(
        el(
          "button",
          {
            class: "btn small",
            type: "button",
            id: "btn-autoplay",
            onclick: () =>
              send({ type: "autoplay", seat: seat.seat, bot: "greedy" }, (r) => {
                if (r.type === "ack") toast(`A bot plays for ${seat.name} until they are back.`, "notice");
              }),
          },
          `Let a bot play for ${seat.name}`,
        ),
      );
    }
  }
  if (info?.timeouts)
    tools.push(el("span", { class: "badge off" }, `${info.timeouts} time-out${info.timeouts > 1 ? "s" : ""} in a row`));
  $("me-tools").replaceChildren(...tools);
}

// A question about the hand that got no answer (a lost reply, a reconnection in between) is
// asked again, so the reading beside the hand never stays stale.
function watchReading() {
  const d = deal();
  if (!d?.hand.length) return;
  if (inflight && Date.now() - inflight.at > 4000) inflight = null;
  if (!inflight && (!reading || readingKey !== groupKey(d.hand))) {
    labelsKey = readingKeyFull = "";
    requestLabels();
  }
}

function tick() {
  if (!state) return;
  renderConnection();
  if (lostAt !== null && !ended) {
    setStatus("Reconnecting to the table…");
    const countdown = $("next-deal");
    if (countdown) countdown.textContent = "Reconnecting: the next deal waits for the table.";
    return; // no clock runs down while the server cannot be heard
  }
  renderTrouble();
  watchReading();
  const total = (state.room.turn_seconds || 0) * 1000;
  const left = state.deadline ? Math.max(0, state.deadline - now()) : null;
  const span = state.deadline_kind === "absent" ? Math.max(left || 0, 1000) : total;
  document.querySelectorAll("[data-timer]").forEach((circle) => {
    if (left === null || !span) return;
    const fraction = Math.max(0, Math.min(1, left / span));
    circle.style.strokeDashoffset = String(126 * (1 - fraction));
    circle.classList.toggle("low", left < 8000);
  });
  const clockText = left !== null && myTurn() ? `${Math.ceil(left / 1000)}` : "";
  document.querySelectorAll(".avatar.me .initials").forEach((n) => {
    n.textContent = clockText || initials(state.room.seats[state.you].name);
  });
  if (state.room.status === "between" || (left !== null && !myTurn())) setStatus(statusText());
  if (openModal && openModal.kind === "result") openModal.tick();
}

// What the hand would pay if another player declared now, and why (RULES §7).
function penaltyText(r) {
  if (r.rule === "pure_save")
    return [`${r.penalty}`, r.penalty ? " — the cards outside your groups (pure save)" : " — every card is in a group"];
  if (r.rule === "dublee_save")
    return [`${r.penalty}`, ` — the cards outside your ${plural(r.dublees, "dublee")} (dublee save)`];
  const count = r.uncapped > r.cap ? `all cards count: ${r.uncapped}, capped at ${r.cap}` : "all cards count";
  return [
    `${r.penalty}`,
    ` — ${count}; the pure save needs ${r.pure_needed} pure groups, your cards make ${r.pure_groups}`,
  ];
}

function renderReading() {
  const box = $("reading");
  const d = deal();
  if (!d?.hand.length || !reading || readingKey !== groupKey(d.hand)) {
    box.replaceChildren();
    return;
  }
  const parts = [];
  const after = reading.cards > (d.rules.hand_size || 21);
  if (reading.valid && !after)
    parts.push(el("span", { class: "valid" }, `✓ A valid hand (option ${reading.options[0]}). `));
  const [points, why] = penaltyText(reading);
  parts.push(
    el(
      "span",
      { class: "penalty" },
      after ? `After discarding ${prettyCard(reading.discard)} you'd pay ` : "You'd pay ",
      el("b", {}, points),
      " if someone declared now",
      el("span", { class: "why" }, why),
      ".",
    ),
  );
  if (reading.value.points)
    parts.push(
      el(
        "span",
        { class: "value" },
        ` Value cards ${reading.value.points} pts` +
          (reading.value.marriages ? ` (${plural(reading.value.marriages, "marriage")})` : "") +
          ".",
      ),
    );
  const tip = tipText(d);
  if (tip) parts.push(el("div", { class: `tip${tip.go ? " go" : ""}` }, tip.text));
  box.replaceChildren(...parts);
}

function tipText(d) {
  if (!reading || !myTurn()) return null;
  if (phase() === "discard" && reading.declare)
    return {
      go: true,
      text: `✓ You can declare: finish with ${prettyCard(reading.discard)} (option ${reading.options[0]}).`,
    };
  if (!tips) return null;
  if (phase() === "discard" && reading.discard) return { text: `Tip: discard ${prettyCard(reading.discard)}.` };
  if (phase() === "draw" && reading.draw === "open") {
    const top = d.open_pile[d.open_pile.length - 1];
    return {
      text:
        `Tip: take ${prettyCard(top.card)} from the open pile` +
        (reading.gain ? ` (penalty −${reading.gain}).` : " (it fits your groups)."),
    };
  }
  if (phase() === "draw") return { text: "Tip: draw from the stock." };
  return null;
}

function selectedCard() {
  const ids = hand.selected();
  return ids.length === 1 ? cardOf(ids[0]) : null;
}

// Why the selected card(s) cannot be let go now, or null if one can.
function releaseProblem() {
  const ids = hand.selected();
  const d = deal();
  if (!ids.length) return "select the card first";
  if (ids.length > 1) return "select one card only";
  if (d && d.blocked === cardOf(ids[0]))
    return `${prettyCard(d.blocked)} was just taken from the open pile: it cannot leave your hand this turn`;
  return null;
}

function show(id, on) {
  $(id).classList.toggle("hidden", !on);
}

function renderActions() {
  if (!state) return;
  const d = deal();
  const playing = myTurn();
  const draw = playing && phase() === "draw";
  const discard = playing && phase() === "discard";
  const holding = !!d?.hand.length;
  show("btn-stock", draw);
  show("btn-open", draw && d.can_take_open);
  show("btn-drop", draw);
  show("btn-discard", discard);
  show("btn-declare", discard);
  $("actions").classList.toggle("waiting", !playing);
  $("btn-stock").disabled = busy;
  $("btn-open").disabled = busy;
  $("btn-drop").disabled = busy;
  if (d) $("btn-drop").replaceChildren("Drop ", el("small", {}, `−${d.drop_cost}`));
  const problem = releaseProblem();
  const card = selectedCard();
  $("btn-discard").disabled = busy || !!problem;
  $("btn-declare").disabled = busy || !!problem;
  $("btn-discard").replaceChildren("Discard", card ? el("small", {}, ` ${prettyCard(card)}`) : "");
  $("btn-discard").title = problem ? `Cannot discard: ${problem}.` : `Discard ${prettyCard(card)} (X)`;
  $("btn-declare").title = problem
    ? `Cannot declare: ${problem}.`
    : `Declare with ${prettyCard(card)} on the finish slot (F)`;
  const count = hand.selected().length;
  show("btn-group", holding);
  show("btn-sort", holding);
  show("btn-arrange", holding);
  $("btn-group").disabled = count < 2;
  $("btn-group").classList.toggle("idle", count < 2);
  $("btn-group").title =
    count < 2 ? "Select two or more cards to group them (G)" : `Group the ${count} selected cards (G)`;
  $("btn-group").replaceChildren("Group", count ? el("small", {}, ` ${count}`) : "");
  $("btn-sort").replaceChildren(
    "Sort",
    el("small", { class: "hide-sm" }, layout.sort === "suit" ? " by suit" : " by rank"),
  );
  $("btn-sort").title = `Sort your ungrouped cards ${layout.sort === "suit" ? "by rank" : "by suit"} next (R)`;
  $("stock-slot").classList.toggle("clickable", draw && !busy);
  $("open-slot").classList.toggle("clickable", (draw && !busy && d.can_take_open) || (discard && !problem));
  $("finish-slot").classList.toggle("clickable", discard && !problem);
}

function renderLog() {
  const d = deal();
  const list = $("log");
  if (!d) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(
    ...d.history
      .slice()
      .reverse()
      .map((e) => el("li", {}, e.text)),
  );
  list.setAttribute("start", String(d.events));
}

// ------------------------------------------------------------------ actions
function act(message, done) {
  if (busy) return;
  busy = true;
  renderActions();
  const id = send({ type: "action", ...message }, (reply) => {
    busy = false;
    if (reply.type === "ack" && message.action !== "draw") hand.clear();
    renderActions();
    if (done) done(reply);
  });
  if (id === null) {
    busy = false;
    renderActions();
  }
}

function draw(source) {
  if (!myTurn() || phase() !== "draw" || busy) return;
  if (source === "open" && !deal().can_take_open) {
    const top = deal().open_pile[deal().open_pile.length - 1];
    toast(
      top
        ? `${prettyCard(top.card)} is a joker a player discarded: it cannot be taken from the open pile.`
        : "The open pile is empty.",
    );
    return;
  }
  act({ action: "draw", source });
}

function discardCard(card) {
  const d = deal();
  if (!d || !myTurn() || d.phase !== "discard") {
    toast(myTurn() ? "Draw a card first." : "Wait for your turn.");
    return;
  }
  if (card === d.blocked) {
    toast(
      `${prettyCard(card)} was just taken from the open pile: it cannot be discarded this turn. Discard another card.`,
    );
    return;
  }
  act({ action: "discard", card });
}

function useArrangement(reply, keepGroups) {
  const apart = applyArrangement(
    layout,
    {
      groups: reply.groups.map((g) => g.cards),
      loose: reply.loose,
      apart: reply.discard,
    },
    keepGroups,
  );
  for (const g of reply.groups) {
    labelCache.set(groupKey(g.cards), { valid: true, kind: g.kind, label: g.label, pure: g.pure });
  }
  if (reply.reading) {
    reading = reply.reading;
    readingKey = groupKey(deal().hand);
  }
  saveLayout();
  if (apart && myTurn() && phase() === "discard") hand.select([apart]);
  else hand.render();
  renderReading();
  renderActions();
  requestLabels();
}

function arrange() {
  const d = deal();
  if (!d?.hand.length) return;
  const run = (keep) =>
    send({ type: "arrange", keep: keep.map((i) => layout.groups[i].map(cardOf)) }, (reply) => {
      if (reply.type === "arranged") useArrangement(reply, keep);
    });
  if (!layout.own || !layout.groups.length) {
    run([]);
    return;
  }
  const close = modal("arrange", [
    el("h2", {}, "Arrange your hand?"),
    el(
      "p",
      {},
      `You have changed your groups. Keep your ${plural(layout.groups.length, "group")} as they are and lay out only the ungrouped cards, or start again from the best groups?`,
    ),
    el(
      "div",
      { class: "buttons" },
      el("button", { class: "btn ghost", type: "button", onclick: () => close() }, "Cancel"),
      el(
        "button",
        {
          class: "btn",
          type: "button",
          id: "arrange-all",
          onclick: () => {
            close();
            run([]);
          },
        },
        "Replace my groups",
      ),
      el(
        "button",
        {
          class: "btn primary",
          type: "button",
          id: "arrange-rest",
          onclick: () => {
            close();
            run(layout.groups.map((_, i) => i));
          },
        },
        "Keep mine, arrange the rest",
      ),
    ),
  ]);
}

function groupSelected() {
  const ids = hand.selected();
  if (ids.length < 2) {
    toast("Select two or more cards to group first (tap them, or Space on each).");
    return;
  }
  groupCards(layout, ids);
  hand.clear();
  saveLayout();
  hand.render();
  requestLabels();
}

function cycleSort() {
  sortLoose(layout, layout.sort === "suit" ? "rank" : "suit");
  saveLayout();
  hand.render();
  renderActions();
}

function modal(kind, content, { wide = false, label = null } = {}) {
  if (openModal) openModal.close();
  const root = $("modal-root");
  const before = document.activeElement;
  const box = el(
    "div",
    { class: `modal${wide ? " wide" : ""}`, role: "dialog", "aria-modal": "true", "aria-label": label || kind },
    content,
  );
  const overlay = el("div", { class: "overlay" }, box);
  overlay.addEventListener("click", (e) => {
    if (e.target === overlay) close();
  });
  overlay.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    }
  });
  root.replaceChildren(overlay);
  const entry = { kind, close, tick: () => {} };
  openModal = entry;
  function close() {
    if (openModal === entry) openModal = null;
    if (root.contains(overlay)) root.replaceChildren();
    if (before?.focus && document.contains(before)) before.focus({ preventScroll: true });
  }
  // The main action first, in this order (a selector list would take the first in the page's
  // order: the result window's History link before its "I'm ready").
  const first = [".buttons .btn.primary", ".buttons .btn.go", ".buttons .btn"]
    .map((selector) => box.querySelector(selector))
    .find((found) => found);
  if (first) first.focus({ preventScroll: true });
  return close;
}

function askDeclare(card) {
  const d = deal();
  const finish = card || selectedCard();
  if (!d || !myTurn() || d.phase !== "discard") {
    toast("You can declare only in your turn, after drawing.");
    return;
  }
  if (!finish) {
    toast("Select the card to finish with (or drop it on the finish slot).");
    return;
  }
  if (finish === d.blocked) {
    toast(`${prettyCard(finish)} was just taken from the open pile: finish with another card.`);
    return;
  }
  // The layout shown: the player's groups without the finish card (one copy of it).
  let removed = false;
  const groups = layout.groups
    .map((g) =>
      g.map(cardOf).filter((c) => {
        if (!removed && c === finish) {
          removed = true;
          return false;
        }
        return true;
      }),
    )
    .filter((g) => g.length);
  send({ type: "check_declare", card: finish, groups }, (reply) => {
    if (reply.type === "declare_check") showDeclareCheck(reply);
    else if (reply.error) toast(reply.error);
  });
}

function checkGroup(cards, label, j) {
  return el(
    "div",
    { class: `group ${label.valid ? (label.pure ? "pure" : "ok") : "bad"}` },
    el("div", { class: "g-label" }, el("span", { class: "k" }, label.valid ? label.label : "not valid")),
    label.valid ? null : el("div", { class: "g-reason" }, prettyText(label.reason)),
    el(
      "div",
      { class: "g-cards" },
      cards.map((c) => cardEl(c, j)),
    ),
  );
}

function showDeclareCheck(msg) {
  const j = jokers();
  const ok = msg.valid;
  // Valid cards in a layout that does not show it: show the arrangement that does.
  const shown = msg.proof
    ? {
        groups: msg.proof.groups.map((g) => checkGroup(g.cards, { valid: true, pure: g.pure, label: g.label }, j)),
        loose: msg.proof.loose,
      }
    : { groups: msg.groups.map((g, i) => checkGroup(g.cards, msg.labels[i], j)), loose: msg.loose };
  const groups = el(
    "div",
    { class: "check-groups" },
    shown.groups,
    shown.loose.length
      ? el(
          "div",
          { class: "group loose" },
          el("div", { class: "g-label" }, el("span", { class: "k" }, ok ? "free cards" : "ungrouped")),
          el(
            "div",
            { class: "g-cards" },
            shown.loose.map((c) => cardEl(c, j)),
          ),
        )
      : null,
    el(
      "div",
      { class: "group finish-group" },
      el("div", { class: "g-label" }, el("span", { class: "k" }, "finish")),
      el("div", { class: "g-cards" }, cardEl(msg.finish, j)),
    ),
  );
  const reasons = msg.proof ? [] : msg.reasons;
  const close = modal(
    "declare",
    [
      el("h2", {}, `Declare with ${prettyCard(msg.finish)} on the finish slot?`),
      el(
        "div",
        { class: `verdict ${ok ? "ok" : "bad"}` },
        ok
          ? `✓ A valid declaration (option ${msg.option}).`
          : `✗ Not a valid declaration: declaring now costs ${msg.cost_if_wrong} points and puts you out of the deal.`,
      ),
      reasons.length
        ? el(
            "ul",
            { class: "reasons" },
            reasons.map((r) => el("li", {}, prettyText(r))),
          )
        : null,
      el(
        "div",
        { class: "small muted" },
        msg.proof
          ? "Your own layout does not show it, but the cards count: they will be laid out like this."
          : "Your layout, group by group:",
      ),
      groups,
      el(
        "div",
        { class: "buttons" },
        el("button", { class: "btn ghost", type: "button", onclick: () => close() }, "Cancel"),
        el(
          "button",
          {
            class: `btn ${ok ? "go" : "danger"}`,
            type: "button",
            id: "confirm-declare",
            onclick: () => {
              close();
              const layoutShown = msg.proof ? msg.proof.groups.map((g) => g.cards) : msg.groups.map((g) => g.cards);
              act({ action: "declare", card: msg.finish, groups: layoutShown });
            },
          },
          ok ? "Declare" : `Declare anyway (−${msg.cost_if_wrong})`,
        ),
      ),
    ],
    { wide: true, label: "declare" },
  );
}

function askDrop() {
  const d = deal();
  if (!myTurn() || phase() !== "draw") return;
  const first = d.seats[state.you].played === 0;
  const close = modal(
    "drop",
    [
      el("h2", {}, "Drop out of this deal?"),
      el(
        "p",
        {},
        `A ${first ? "first" : "middle"} drop costs `,
        el("b", {}, `${d.drop_cost} points`),
        `${first ? " (before your first draw)" : ""}. Your cards leave play and you wait for the next deal.`,
      ),
      el(
        "div",
        { class: "buttons" },
        el("button", { class: "btn primary", type: "button", onclick: () => close() }, "Keep playing"),
        el(
          "button",
          {
            class: "btn danger",
            type: "button",
            id: "confirm-drop",
            onclick: () => {
              close();
              act({ action: "drop" });
            },
          },
          `Drop (−${d.drop_cost})`,
        ),
      ),
    ],
    { label: "drop" },
  );
}

// ------------------------------------------------------------------ results and scores
function seenKey() {
  return `rummy21:seen:${code}`;
}

// The last deal's result stays up between deals, with a countdown; it closes by itself when the
// next deal starts, so that no turn ever starts behind it.
function manageResult() {
  const result = state.result;
  const between = state.room.status === "between" || state.room.status === "finished";
  if (openModal && openModal.kind === "result" && (!result || result.deal !== openModal.deal || !between)) {
    openModal.close();
    if (state.room.status === "playing") toast(`Deal ${state.match.deal + 1} has started.`, "notice");
  }
  if (!result || !between) return;
  const seen = Number(localStorage.getItem(seenKey()) ?? -1);
  if (result.deal <= seen || (openModal && openModal.kind === "result")) return;
  showResult(result);
}

function resultHeadline(r) {
  const who = nameOf(r.winner);
  if (r.reason === "wash") return "A wash: nobody wins this deal.";
  if (r.reason === "declared") return `${who} declared — option ${r.option}.`;
  return `${who} won: everyone else dropped or declared wrongly.`;
}

function showResult(r) {
  const j = r.jokers;
  const finished = state.room.status === "finished";
  // The winner first (on a phone the result's seats run below the fold), then seat order.
  const ordered = [...r.seats].sort((a, b) => (b.seat === r.winner) - (a.seat === r.winner) || a.seat - b.seat);
  const seats = ordered.map((s) => {
    const groups = s.groups.map((g) =>
      el(
        "div",
        { class: `group ${g.pure ? "pure" : "ok"}` },
        el("div", { class: "g-label" }, el("span", { class: "k" }, g.label)),
        el(
          "div",
          { class: "g-cards" },
          g.cards.map((c) => cardEl(c, j)),
        ),
      ),
    );
    const looseLabel =
      s.standing === "dropped" ? "hand at the drop" : s.rule === "full_count" ? "all cards count" : "loose";
    if (s.loose.length)
      groups.push(
        el(
          "div",
          { class: "group loose" },
          el("div", { class: "g-label" }, el("span", { class: "k" }, looseLabel)),
          el(
            "div",
            { class: "g-cards" },
            s.loose.map((c) => cardEl(c, j)),
          ),
        ),
      );
    if (s.seat === r.winner && r.finish)
      groups.push(
        el(
          "div",
          { class: "group" },
          el("div", { class: "g-label" }, el("span", { class: "k" }, "finish")),
          el("div", { class: "g-cards" }, cardEl(r.finish, j)),
        ),
      );
    const detail = [];
    if (s.seat === r.winner) detail.push("winner");
    if (s.rule) detail.push(`pays ${s.penalty} (${s.rule_label})`);
    if (s.value || s.value_net)
      detail.push(
        `value cards ${s.value}${s.marriages ? ` incl. ${plural(s.marriages, "marriage")}` : ""} → net ${signed(s.value_net)}`,
      );
    if (s.cap_adjustment) detail.push(`loss cap ${signed(s.cap_adjustment)}`);
    if (s.hidden) detail.push("hand folded");
    return el(
      "div",
      { class: `result-seat${s.seat === r.winner ? " winner" : ""}`, dataset: { seat: s.seat } },
      el(
        "div",
        { class: "r-head" },
        el("span", { class: "r-name" }, s.seat === state.you ? `${s.name} (you)` : s.name),
        el(
          "span",
          { class: `r-score ${scoreClass(s.score)}` },
          `${signed(s.score)} pts`,
          // Money only when it says something the points do not (a point worth other than 1).
          Number(s.money) !== s.score ? el("small", { class: "muted" }, ` · ${s.money}`) : null,
        ),
      ),
      el("div", { class: "r-detail" }, detail.join(" · ")),
      el("div", { class: "r-groups" }, groups),
    );
  });
  const countdown = el("div", { class: "countdown", id: "next-deal", role: "timer", "aria-live": "off" });
  const ready = el(
    "button",
    {
      class: "btn primary",
      type: "button",
      id: "result-continue",
      onclick: () => {
        localStorage.setItem(seenKey(), String(r.deal));
        if (finished) {
          close();
          return;
        }
        send({ type: "ready" });
        ready.disabled = true;
        ready.textContent = "Waiting for the others…";
      },
    },
    finished ? "Close" : "I'm ready",
  );
  const close = modal(
    "result",
    [
      el("h2", { id: "result-title" }, `Deal ${r.deal + 1}: ${resultHeadline(r)}`),
      el(
        "div",
        { class: "small muted" },
        `Cut card ${prettyCard(j.cut)} · scores sum to zero · money at ${state.room.point_value} a point`,
      ),
      countdown,
      el("div", { class: "result-seats" }, seats),
      scoreTable(),
      el("div", { class: "buttons" }, el("a", { class: "btn ghost", href: `/t/${code}/history` }, "History"), ready),
    ],
    { wide: true, label: `result of deal ${r.deal + 1}` },
  );
  openModal.deal = r.deal;
  openModal.tick = () => {
    if (finished) {
      countdown.textContent = "The match is over.";
      return;
    }
    const left = state.next_deal_at ? Math.max(0, Math.ceil((state.next_deal_at - now()) / 1000)) : null;
    const waiting = state.room.seats
      .filter((s) => !state.ready.includes(s.seat))
      .map((s) => (s.seat === state.you ? "you" : s.name));
    countdown.textContent =
      (left !== null ? `Deal ${r.deal + 2} starts in ${left} s` : `Deal ${r.deal + 2} starts soon`) +
      (waiting.length
        ? ` — or as soon as ${waiting.join(", ")} ${waiting.length === 1 && waiting[0] !== "you" ? "is" : "are"} ready.`
        : ".");
  };
  openModal.tick();
}

function scoreTable() {
  const m = state.match;
  const seats = state.room.seats;
  return el(
    "div",
    { class: "table-scroll" },
    el(
      "table",
      { class: "scores", "aria-label": "match scores" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", {}, "Deal"),
          seats.map((s) => el("th", {}, s.seat === state.you ? "You" : s.name)),
        ),
      ),
      el(
        "tbody",
        {},
        m.history.map((h) =>
          el(
            "tr",
            {},
            el("td", {}, `${h.deal + 1}${h.winner !== null ? ` · ${nameOf(h.winner)}` : " · wash"}`),
            h.scores.map((v) => el("td", { class: scoreClass(v) }, signed(v))),
          ),
        ),
      ),
      el(
        "tfoot",
        {},
        el(
          "tr",
          {},
          el("td", {}, "Total"),
          m.totals.map((v) => el("td", { class: scoreClass(v) }, signed(v))),
        ),
        el(
          "tr",
          {},
          el("td", {}, "Money"),
          m.money.map((v) => el("td", {}, v)),
        ),
      ),
    ),
  );
}

function showScores() {
  if (!state) return;
  const close = modal(
    "scores",
    [
      el("h2", {}, `Scores — ${state.match.history.length} of ${plural(state.room.deals, "deal")} played`),
      scoreTable(),
      el(
        "div",
        { class: "buttons" },
        el("a", { class: "btn ghost", href: `/t/${code}/history` }, "History"),
        el("button", { class: "btn primary", type: "button", onclick: () => close() }, "Close"),
      ),
    ],
    { label: "scores" },
  );
}

function showHelp() {
  const tipsBox = el("input", {
    type: "checkbox",
    id: "tips-toggle",
    checked: tips,
    onchange: (e) => {
      tips = e.target.checked;
      localStorage.setItem("rummy21:tips", tips ? "on" : "off");
      hand.render();
      renderReading();
    },
  });
  const keys = [
    ["S", "draw from the stock"],
    ["O", "take the open card"],
    ["X", "discard the selected card"],
    ["F", "declare with the selected card"],
    ["G", "group the selected cards"],
    ["R", "sort by suit / by rank"],
    ["A", "arrange the hand"],
    ["← →", "move between cards"],
    ["↑ ↓", "move between groups"],
    ["Space", "select a card"],
    ["Shift + arrows", "move the card"],
    ["Esc", "clear the selection"],
  ];
  const close = modal(
    "help",
    [
      el("h2", {}, "Playing at this table"),
      el(
        "p",
        {},
        "Tap cards to select them, then Group; drag a card (or a selection) between groups, onto the open pile to discard it, or onto the finish slot to declare. Your groups are checked as you build them; what you would pay is worked out from your best arrangement, whatever your layout.",
      ),
      el(
        "table",
        { class: "keys" },
        el(
          "tbody",
          {},
          keys.map(([k, what]) => el("tr", {}, el("td", {}, el("kbd", {}, k)), el("td", {}, what))),
        ),
      ),
      el("label", { class: "check" }, tipsBox, " Show tips (where to draw, what to discard)"),
      el(
        "div",
        { class: "buttons" },
        el("button", { class: "btn primary", type: "button", onclick: () => close() }, "Close"),
      ),
    ],
    { label: "help" },
  );
}

async function share() {
  const url = `${location.origin}/t/${code}`;
  try {
    await navigator.clipboard.writeText(url);
    toast(`Link copied: ${url}`, "notice");
  } catch (_) {
    const close = modal("share", [
      el("h2", {}, "Share this table"),
      el("p", {}, "Code ", el("b", { class: "pill code" }, code)),
      el("input", { value: url, readonly: true, class: "share-url", onfocus: (e) => e.target.select() }),
      el(
        "div",
        { class: "buttons" },
        el("button", { class: "btn primary", type: "button", onclick: () => close() }, "Done"),
      ),
    ]);
  }
}

// ------------------------------------------------------------------ joining
async function showJoin() {
  $("join-panel").classList.remove("hidden");
  // Not at the table yet: no socket, no scores to show.
  $("scores-btn").classList.add("hidden");
  $("conn-text").textContent = "not seated";
  $("join-code").textContent = code;
  $("join-name").value = localStorage.getItem("rummy21:name") || "";
  try {
    const info = await api(`/api/tables/${code}`);
    $("join-seats").replaceChildren(
      ...info.seats.map((s) =>
        el(
          "div",
          { class: "seat" },
          el("div", { class: "s-name" }, s.taken ? s.name : "Open seat"),
          el("div", { class: "s-meta" }, s.kind === "bot" ? `${s.bot} bot` : s.taken ? "player" : "free"),
        ),
      ),
    );
    if (!info.seats.some((s) => !s.taken)) {
      $("join-btn").disabled = true;
      showJoinError("This table is full.");
    }
  } catch (error) {
    showJoinError(error.message);
    $("join-btn").disabled = true;
  }
}

function showJoinError(message) {
  $("join-error").textContent = message;
  $("join-error").classList.toggle("hidden", !message);
}

async function join(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  localStorage.setItem("rummy21:name", name);
  try {
    const joined = await api(`/api/tables/${code}/join`, { method: "POST", body: { name } });
    seatInfo = { seat: joined.seat, token: joined.token, name };
    setSeat(code, seatInfo);
    $("join-panel").classList.add("hidden");
    connect();
  } catch (error) {
    showJoinError(error.message);
  }
}

// ------------------------------------------------------------------ start
function pileClick(which) {
  if (myTurn() && phase() === "draw") {
    if (which === "stock") draw("stock");
    else if (which === "open") draw("open");
    return;
  }
  if (myTurn() && phase() === "discard") {
    const card = selectedCard();
    const problem = releaseProblem();
    if (which === "stock") return;
    if (problem) {
      toast(`${which === "open" ? "To discard" : "To declare"}, ${problem}.`);
      return;
    }
    if (which === "open") discardCard(card);
    else askDeclare(card);
  }
}

$("btn-stock").addEventListener("click", () => draw("stock"));
$("btn-open").addEventListener("click", () => draw("open"));
$("stock-slot").addEventListener("click", () => pileClick("stock"));
$("open-slot").addEventListener("click", () => pileClick("open"));
$("finish-slot").addEventListener("click", () => pileClick("finish"));
$("btn-discard").addEventListener("click", () => {
  const c = selectedCard();
  if (c) discardCard(c);
});
$("btn-declare").addEventListener("click", () => askDeclare());
$("btn-drop").addEventListener("click", askDrop);
$("btn-arrange").addEventListener("click", arrange);
$("btn-group").addEventListener("click", groupSelected);
$("btn-sort").addEventListener("click", cycleSort);
$("scores-btn").addEventListener("click", showScores);
$("help-btn").addEventListener("click", showHelp);
$("code").addEventListener("click", share);
$("join-form").addEventListener("submit", join);
$("history-link").href = `/t/${code}/history`;
$("code").textContent = code || "";

// Keyboard shortcuts (not while typing, and not with a window open).
document.addEventListener("keydown", (event) => {
  if (!state || openModal || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, textarea, select")) return;
  const key = event.key.toLowerCase();
  const actions = {
    s: () => (event.shiftKey ? showScores() : draw("stock")),
    o: () => draw("open"),
    x: () => {
      const c = selectedCard();
      if (c) discardCard(c);
      else toast(`To discard, ${releaseProblem()}.`);
    },
    f: () => askDeclare(),
    g: groupSelected,
    r: cycleSort,
    a: arrange,
    "?": showHelp,
  };
  const run = actions[key];
  if (!run) return;
  event.preventDefault();
  run();
});
setInterval(tick, 250);

if (!code) {
  location.href = "/";
} else if (seatInfo?.token) {
  connect();
} else {
  showJoin();
}
