// The table page: one WebSocket to the server, which alone applies the rules. The page keeps
// only the player's own layout of the hand (its groups, in localStorage) and draws everything.
import {
  api, backEl, cardEl, cardPoints, codeFromPath, el, getSeat, prettyCard, RULE_LABELS,
  scoreClass, setSeat, signed,
} from "/static/cards.js";

const $ = (id) => document.getElementById(id);
const code = codeFromPath();
let seatInfo = getSeat(code);
let ws = null;
let state = null;            // the last "state" message
let offset = 0;              // server clock minus ours, in ms
let nextId = 1;
let busy = false;            // an action is on its way
let retry = 0;
let layout = { deal: -1, groups: [], loose: [], drawnId: null };
let selected = null;         // a card id
let labelCache = new Map();  // group key -> label from the server
let reading = null;          // the server's reading of the hand
let readingKey = "";         // ...of which cards
let labelsKey = "";          // the layout whose labels were last received
let inflight = null;         // the "groups" request on its way: {id, groups, hand}
let pending = new Map();     // message id -> callback(reply)
let cardSerial = 0;
let drag = null;
let lastResultShown = -1;

// ------------------------------------------------------------------ helpers
const cardOf = (id) => id.split("#")[0];
const names = () => (state ? state.room.seats.map((s) => s.name) : []);
const nameOf = (seat) => (seat === null || seat === undefined ? "" : seat === state?.you ? "You" : names()[seat] || `Seat ${seat + 1}`);
const deal = () => state && state.deal;
const jokers = () => deal()?.jokers || state?.result?.jokers || null;
const now = () => Date.now() + offset;

function send(message, onReply) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { toast("Not connected — reconnecting…"); return null; }
  const id = nextId++;
  if (onReply) pending.set(id, onReply);
  ws.send(JSON.stringify({ ...message, id }));
  return id;
}

function toast(text, kind = "error") {
  const box = el("div", { class: kind === "error" ? "error" : "notice", role: "status" }, text);
  box.style.position = "fixed"; box.style.left = "50%"; box.style.bottom = "84px";
  box.style.transform = "translateX(-50%)"; box.style.zIndex = "900"; box.style.maxWidth = "92vw";
  document.body.append(box);
  setTimeout(() => box.remove(), 4200);
}

function layoutKey() { return `rummy21:layout:${code}:${seatInfo?.seat}`; }

function saveLayout() {
  try { localStorage.setItem(layoutKey(), JSON.stringify(layout)); } catch (_) { /* full */ }
}

function loadLayout(dealNo) {
  try {
    const saved = JSON.parse(localStorage.getItem(layoutKey()) || "null");
    if (saved && saved.deal === dealNo) return saved;
  } catch (_) { /* ignore */ }
  return { deal: dealNo, groups: [], loose: [], drawnId: null };
}

function newId(card) { cardSerial += 1; return `${card}#${Date.now().toString(36)}${cardSerial}`; }

// Keep the player's groups in step with the hand the server says it holds: cards that left are
// taken out, new ones go to the end of the ungrouped cards.
function reconcile() {
  const d = deal();
  if (!d) return;
  if (layout.deal !== state.match.deal) layout = loadLayout(state.match.deal);
  const need = new Map();
  for (const c of d.hand) need.set(c, (need.get(c) || 0) + 1);
  const keep = (id) => {
    const c = cardOf(id);
    if ((need.get(c) || 0) > 0) { need.set(c, need.get(c) - 1); return true; }
    return false;
  };
  layout.groups = layout.groups.map((g) => g.filter(keep)).filter((g) => g.length);
  layout.loose = layout.loose.filter(keep);
  if (layout.drawnId && !d.drawn) layout.drawnId = null;
  for (const c of d.hand) {
    while ((need.get(c) || 0) > 0) {
      const id = newId(c);
      layout.loose.push(id);
      need.set(c, need.get(c) - 1);
      if (d.drawn === c && d.my_turn) layout.drawnId = id;
    }
  }
  if (selected && !allIds().includes(selected)) selected = null;
  saveLayout();
}

function allIds() { return [...layout.groups.flat(), ...layout.loose]; }
const groupKey = (cards) => [...cards].sort().join(" ");

// ------------------------------------------------------------------ connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(`${scheme}${location.host}/ws/${code}`);
  ws.onopen = () => { retry = 0; inflight = null; ws.send(JSON.stringify({ type: "hello", token: seatInfo.token, id: 0 })); };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = (event) => {
    setConn(false);
    busy = false;
    if (event.code === 4404) { $("status-msg").textContent = "There is no such table."; return; }
    if (event.code === 4401) { $("status-msg").textContent = "This browser's seat key is not valid here."; return; }
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}

function setConn(on) {
  $("conn").className = "dot " + (on ? "on" : "off");
  $("conn-text").textContent = on ? "online" : "offline";
}

function onMessage(msg) {
  const handler = msg.id !== undefined && msg.id !== null ? pending.get(msg.id) : null;
  if (handler) pending.delete(msg.id);
  switch (msg.type) {
    case "welcome": setConn(true); break;
    case "state":
      offset = msg.server_now - Date.now();
      state = msg;
      reconcile();
      render();
      requestLabels();
      break;
    case "ack": busy = false; renderActions(); break;
    case "error":
      busy = false;
      if (inflight && msg.id === inflight.id) inflight = null;
      if (msg.code === "unauthorized") { $("status-msg").textContent = msg.error; }
      toast(msg.error);
      renderActions();
      break;
    case "groups":
      if (inflight && msg.id === inflight.id) {
        msg.labels.forEach((label, i) => labelCache.set(inflight.keys[i], label));
        labelsKey = inflight.groups;
        reading = msg.reading;
        readingKey = groupKey(msg.hand || []);
        inflight = null;
        renderHand();
        renderReading();
        requestLabels();   // the layout or the hand may have moved on meanwhile
      }
      break;
    case "arranged": applyArrangement(msg); break;
    case "declare_check": showDeclareCheck(msg); break;
    default: break;
  }
  if (handler) handler(msg);
}

// Ask the server to judge each group of the layout and to read the hand: one request at a time,
// and only when the layout or the hand differs from what the last answer was about.
let labelTimer = null;
function requestLabels() {
  clearTimeout(labelTimer);
  labelTimer = setTimeout(() => {
    const d = deal();
    if (!d || !d.hand.length || inflight || !ws || ws.readyState !== WebSocket.OPEN) return;
    const groups = layout.groups.map((g) => g.map(cardOf));
    const keys = groups.map(groupKey);
    const hand = groupKey(d.hand);
    if (keys.join("|") === labelsKey && hand === readingKey) return;
    const id = send({ type: "groups", groups });
    if (id !== null) inflight = { id, keys, groups: keys.join("|"), hand };
  }, 60);
}

// ------------------------------------------------------------------ rendering
function render() {
  $("game").classList.remove("hidden");
  $("join-panel").classList.add("hidden");
  const room = state.room;
  $("code").textContent = room.code;
  const dealNo = state.match.deal;
  $("deal-pill").textContent = dealNo >= 0 ? `Deal ${dealNo + 1}/${room.deals}` : `${room.deals} deals`;
  $("rules-pill").textContent = `${room.rules} · ${room.point_value}/pt` + (room.turn_seconds ? ` · ${room.turn_seconds}s` : "");
  renderSeats();
  renderFelt();
  renderStatus();
  renderActions();
  renderHand();
  renderReading();
  renderLog();
  maybeShowResult();
}

function renderSeats() {
  const d = deal();
  const box = $("seats");
  box.replaceChildren(...state.room.seats.map((s) => {
    const info = d ? d.seats[s.seat] : null;
    const out = info && info.standing !== "active";
    const turn = d && d.turn === s.seat && state.room.status === "playing";
    const badges = [];
    if (d && d.dealer === s.seat) badges.push(el("span", { class: "badge dealer", title: "dealer" }, "D"));
    if (info && info.standing === "dropped") badges.push(el("span", { class: "badge dropped" }, info.drop === "first" ? "first drop" : "dropped"));
    if (info && info.standing === "wrong_declaration") badges.push(el("span", { class: "badge wrong" }, "wrong decl."));
    if (info && info.standing === "declared") badges.push(el("span", { class: "badge" }, "declared ✓"));
    const total = state.match.totals[s.seat];
    const chip = el("div", {
      class: "seat" + (turn ? " turn" : "") + (s.seat === state.you ? " me" : "") + (out ? " out" : ""),
      dataset: { seat: s.seat },
    },
      el("div", { class: "s-name" },
        s.kind === "human" ? el("span", { class: "dot " + (s.connected ? "on" : "off"), title: s.connected ? "online" : "offline" }) : null,
        el("span", { class: "nm", title: s.name }, s.name),
        s.seat === state.you ? el("span", { class: "badge you" }, "you") : null, ...badges),
      el("div", { class: "s-meta" },
        s.kind === "bot" ? el("span", { class: "badge bot" }, `${s.bot} bot`) : null,
        info ? el("span", { title: "cards held" }, el("i", { class: "mini-card" }), `${info.cards}`) : (s.taken ? el("span", {}, "seated") : el("span", {}, "open seat")),
        el("span", { class: scoreClass(total) }, `${signed(total)} pts`),
        info && info.timeouts ? el("span", { class: "neg", title: "time-outs in a row" }, `${info.timeouts} time-out${info.timeouts > 1 ? "s" : ""}`) : null),
      turn && state.deadline ? el("div", { class: "s-timer", dataset: { timer: "1" } }) : null);
    return chip;
  }));
}

function renderFelt() {
  const d = deal();
  const j = jokers();
  const stock = $("stock-slot");
  const open = $("open-slot");
  stock.replaceChildren();
  open.replaceChildren();
  $("discard-list").replaceChildren();
  $("jokers-info").replaceChildren();
  if (!d) return;
  const canDraw = d.my_turn && d.phase === "draw" && !busy;
  stock.append(backEl(), el("span", { class: "count", title: "cards in the stock" }, d.stock_size));
  stock.classList.toggle("clickable", canDraw);
  const top = d.open_pile[d.open_pile.length - 1];
  if (top) open.append(cardEl(top.card, j)); else open.append(el("div", { class: "empty-slot" }));
  if (d.open_count > 1) open.append(el("span", { class: "count", title: "cards in the open pile" }, d.open_count));
  open.classList.toggle("clickable", canDraw && d.can_take_open);
  $("open-by").textContent = top ? (top.by === null ? "first open card" : `discarded by ${nameOf(top.by)}`) : "";
  const recent = d.open_pile.slice(0, -1).slice(-5).reverse();
  $("discard-list").replaceChildren(...recent.map((o) => el("div", { class: "discard-row" },
    cardEl(o.card, j, { size: "tiny" }), el("span", { class: "who" }, o.by === null ? "first open card" : nameOf(o.by)))));
  const info = $("jokers-info");
  const wild = j.wild_rank;
  info.append(el("span", { class: "label" }, "Cut card & jokers"),
    el("div", { class: "cards-row" }, cardEl(j.cut, j, { size: "small" }),
      cardEl(j.upper, j, { size: "small" }), cardEl(j.lower, j, { size: "small" })),
    el("div", {}, el("b", {}, "★ "), `jokers: every ${wild}, ${prettyCard(j.upper)} (upper), ${prettyCard(j.lower)} (lower), JK`),
    el("div", {}, el("b", {}, "$ "), `value cards: ${j.value_cards.map(prettyCard).join(" ")}`));
}

function statusText() {
  const room = state.room;
  const d = deal();
  if (room.status === "waiting") {
    const open = room.seats.filter((s) => !s.taken).length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"} — share the link or the code ${room.code}.`;
  }
  if (room.status === "finished") return "The match is over. See the scores and the history.";
  if (room.status === "between") {
    const left = state.next_deal_at ? Math.max(0, Math.ceil((state.next_deal_at - now()) / 1000)) : null;
    return left !== null ? `Deal over. The next deal starts in ${left}s (or when everyone is ready).` : "Deal over.";
  }
  if (!d) return "";
  if (d.my_turn) {
    if (d.phase === "draw") return `Your turn: draw from the stock${d.can_take_open ? " or take the open card" : ""}.`;
    return "Discard a card (select it, or drag it onto the open pile) — or declare.";
  }
  const who = nameOf(d.turn);
  return `${who} ${d.phase === "draw" ? "is drawing" : "is thinking"}…`;
}

function renderStatus() {
  const d = deal();
  $("status-msg").textContent = statusText();
  $("status").classList.toggle("mine", !!(d && d.my_turn && state.room.status === "playing"));
  tick();
}

function tick() {
  if (!state) return;
  const clock = $("clock");
  const total = (state.room.turn_seconds || 0) * 1000;
  if (state.deadline && total) {
    const left = Math.max(0, state.deadline - now());
    clock.textContent = `${Math.ceil(left / 1000)}s`;
    clock.classList.toggle("low", left < 8000);
    document.querySelectorAll("[data-timer]").forEach((bar) => {
      bar.style.width = `${Math.min(100, (100 * left) / total)}%`;
      bar.classList.toggle("low", left < 8000);
    });
  } else {
    clock.textContent = "";
  }
  if (state.room.status === "between") $("status-msg").textContent = statusText();
}

function renderActions() {
  if (!state) return;
  const d = deal();
  const playing = state.room.status === "playing" && d && d.my_turn;
  const draw = playing && d.phase === "draw";
  const discard = playing && d.phase === "discard";
  const card = selected ? cardOf(selected) : null;
  $("btn-stock").disabled = busy || !draw;
  $("btn-open").disabled = busy || !draw || !d.can_take_open;
  $("btn-drop").disabled = busy || !draw;
  $("btn-drop").replaceChildren("Drop ", el("small", {}, d ? `(${d.drop_cost})` : ""));
  $("btn-discard").disabled = busy || !discard || !card || card === d.blocked;
  $("btn-discard").replaceChildren("Discard", card ? el("small", {}, " " + prettyCard(card)) : "");
  $("btn-declare").disabled = busy || !discard || !card || card === d.blocked;
  $("btn-arrange").disabled = !d || !d.hand.length;
  $("btn-open").classList.toggle("hidden", !!discard);
  $("btn-stock").classList.toggle("hidden", !!discard);
  $("btn-drop").classList.toggle("hidden", !!discard);
  $("btn-discard").classList.toggle("hidden", !discard);
  $("btn-declare").classList.toggle("hidden", !discard);
  $("stock-slot").classList.toggle("clickable", !!draw && !busy);
  $("open-slot").classList.toggle("clickable", !!draw && !busy && d.can_take_open);
}

function labelFor(cards) {
  return labelCache.get(groupKey(cards));
}

function groupBox(ids, index) {
  const cards = ids.map(cardOf);
  const label = labelFor(cards);
  const j = jokers();
  let cls = "group";
  let head;
  if (!label) head = el("span", { class: "k" }, "…");
  else if (label.valid) { cls += label.pure ? " pure" : " ok"; head = el("span", { class: "k" }, label.label + (label.pure ? " ✓" : "")); }
  else { cls += " bad"; head = el("span", { class: "k" }, "not valid"); }
  const points = cards.reduce((sum, c) => sum + cardPoints(c, j), 0);
  return el("div", { class: cls, dataset: { group: String(index) } },
    el("div", { class: "g-label" }, head, el("span", { class: "muted" }, `${points} pts`)),
    label && !label.valid ? el("div", { class: "g-reason" }, label.reason) : null,
    el("div", { class: "g-cards" }, ids.map(cardNode)));
}

function cardNode(id) {
  const d = deal();
  const c = cardOf(id);
  const node = cardEl(c, jokers());
  node.dataset.id = id;
  if (id === selected) node.classList.add("selected");
  if (id === layout.drawnId && d.drawn) node.classList.add("drawn");
  if (d.blocked === c && id === layout.drawnId) { node.classList.add("blocked"); node.title += " — just taken: cannot be discarded this turn"; }
  node.addEventListener("pointerdown", onPointerDown);
  return node;
}

function renderHand() {
  const d = deal();
  const box = $("hand");
  if (!d || !d.hand.length) {
    const standing = d ? d.seats[state.you].standing : null;
    box.replaceChildren(el("div", { class: "muted" },
      standing === "dropped" ? "You dropped out of this deal." :
        standing === "wrong_declaration" ? "Your declaration was wrong: you are out of this deal." :
          d ? "" : "Your cards appear here when the deal starts."));
    return;
  }
  const j = jokers();
  const loosePoints = layout.loose.map(cardOf).reduce((s, c) => s + cardPoints(c, j), 0);
  const loose = el("div", { class: "group loose", dataset: { group: "loose" } },
    el("div", { class: "g-label" }, el("span", { class: "k" }, "ungrouped"), el("span", { class: "muted" }, `${loosePoints} pts`)),
    el("div", { class: "g-cards" }, layout.loose.map(cardNode)));
  box.replaceChildren(...layout.groups.map(groupBox), loose,
    el("div", { class: "newgroup", dataset: { group: "new" } }, "drop here for a new group"));
}

function renderReading() {
  const box = $("reading");
  const d = deal();
  if (!d || !d.hand.length || !reading || readingKey !== groupKey(d.hand)) { box.replaceChildren(); return; }
  const parts = [];
  if (reading.cards === 22) {
    if (reading.valid) parts.push(el("span", { class: "valid" }, `✓ You can declare: finish with ${prettyCard(reading.discard)} (option ${reading.options[0]}). `));
    parts.push(`Best discard ${prettyCard(reading.discard)} → penalty `, el("b", {}, reading.penalty), ` (${RULE_LABELS[reading.rule] || reading.rule})`);
  } else {
    if (reading.valid) parts.push(el("span", { class: "valid" }, "✓ A valid hand. "));
    parts.push("Penalty if someone declares now: ", el("b", {}, reading.penalty), ` (${RULE_LABELS[reading.rule] || reading.rule})`);
  }
  if (reading.value.points) parts.push(` · value cards ${reading.value.points} pts` + (reading.value.marriages ? ` (${reading.value.marriages} marriage)` : ""));
  box.replaceChildren(...parts);
}

function describe(e) {
  const who = nameOf(e.seat);
  const card = e.card ? prettyCard(e.card) : "";
  switch (e.action) {
    case "dealt": return `Deal started: cut card ${prettyCard(e.detail)}, open card ${card}.`;
    case "drew": return e.card ? `${who} took ${card} from the open pile.` : `${who} drew from the stock.`;
    case "discarded": return `${who} discarded ${card}${e.detail === "forced" ? " (time-out)" : ""}.`;
    case "reshuffled": return `The open pile (${e.number} cards) was shuffled into a new stock.`;
    case "declared": return `${who} declared (option ${e.detail}).`;
    case "declared_wrongly": return `${who} declared wrongly and is out.`;
    case "dropped": return `${who} dropped (${e.detail} drop, ${e.number} points).`;
    case "timed_out": return `${who} ran out of time (${e.number} in a row).`;
    case "deal_ended": return e.detail === "wash" ? "The deal ended in a wash." : `The deal is over: ${who} wins.`;
    default: return e.action;
  }
}

function renderLog() {
  const d = deal();
  const list = $("log");
  if (!d) { list.replaceChildren(); return; }
  list.replaceChildren(...d.history.slice().reverse().map((e) => el("li", {}, describe(e))));
  list.setAttribute("start", String(d.events));
}

// ------------------------------------------------------------------ drag and drop
function onPointerDown(event) {
  if (event.button !== 0) return;
  const node = event.currentTarget;
  drag = { id: node.dataset.id, node, x: event.clientX, y: event.clientY, active: false, target: null, pointer: event.pointerId };
  node.setPointerCapture(event.pointerId);
  node.addEventListener("pointermove", onPointerMove);
  node.addEventListener("pointerup", onPointerUp);
  node.addEventListener("pointercancel", onPointerCancel);
}

function onPointerMove(event) {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.active) {
    if (Math.hypot(dx, dy) < 7) return;
    drag.active = true;
    const rect = drag.node.getBoundingClientRect();
    drag.dx = drag.x - rect.left; drag.dy = drag.y - rect.top;
    drag.ghost = cardEl(cardOf(drag.id), jokers());
    drag.ghost.classList.add("drag-ghost");
    document.body.append(drag.ghost);
    drag.node.classList.add("dragging");
    const d = deal();
    if (d && d.my_turn && d.phase === "discard" && cardOf(drag.id) !== d.blocked) $("open-slot").classList.add("droptarget");
  }
  drag.ghost.style.left = `${event.clientX - drag.dx}px`;
  drag.ghost.style.top = `${event.clientY - drag.dy}px`;
  findTarget(event.clientX, event.clientY);
}

function clearMarks() {
  document.querySelectorAll(".group.target, .newgroup.target").forEach((n) => n.classList.remove("target"));
  document.querySelectorAll(".card.insert-before, .card.insert-after").forEach((n) => n.classList.remove("insert-before", "insert-after"));
}

function findTarget(x, y) {
  clearMarks();
  drag.target = null;
  const under = document.elementFromPoint(x, y);
  if (!under) return;
  if (under.closest("#open-slot") && $("open-slot").classList.contains("droptarget")) { drag.target = { kind: "discard" }; return; }
  const box = under.closest("[data-group]");
  if (!box) return;
  box.classList.add("target");
  const which = box.dataset.group;
  if (which === "new") { drag.target = { kind: "new" }; return; }
  const cards = [...box.querySelectorAll(".g-cards .card")].filter((n) => n !== drag.node);
  let index = 0;
  for (const n of cards) {
    const r = n.getBoundingClientRect();
    if (r.bottom < y || (r.top <= y && r.left + r.width / 2 < x)) index += 1;
  }
  if (cards.length) {
    if (index < cards.length) cards[index].classList.add("insert-before");
    else cards[cards.length - 1].classList.add("insert-after");
  }
  drag.target = { kind: which === "loose" ? "loose" : "group", group: which === "loose" ? null : Number(which), index };
}

function endDrag() {
  if (!drag) return;
  drag.node.removeEventListener("pointermove", onPointerMove);
  drag.node.removeEventListener("pointerup", onPointerUp);
  drag.node.removeEventListener("pointercancel", onPointerCancel);
  if (drag.ghost) drag.ghost.remove();
  drag.node.classList.remove("dragging");
  $("open-slot").classList.remove("droptarget");
  clearMarks();
}

function onPointerCancel() { endDrag(); drag = null; }

function onPointerUp() {
  const current = drag;
  endDrag();
  drag = null;
  if (!current) return;
  if (!current.active) { selected = selected === current.id ? null : current.id; renderHand(); renderActions(); return; }
  const target = current.target;
  if (!target) return;
  if (target.kind === "discard") { discardCard(cardOf(current.id)); return; }
  moveCard(current.id, target);
}

// Move a card of the layout: into a group at a position, the ungrouped cards, or a new group.
function moveCard(id, target) {
  const from = layout.groups.findIndex((g) => g.includes(id));
  const source = from >= 0 ? layout.groups[from] : layout.loose;
  source.splice(source.indexOf(id), 1);
  if (target.kind === "new") layout.groups.push([id]);
  else if (target.kind === "loose") layout.loose.splice(Math.min(target.index, layout.loose.length), 0, id);
  else {
    const group = layout.groups[target.group] || (layout.groups[target.group] = []);
    group.splice(Math.min(target.index, group.length), 0, id);
  }
  layout.groups = layout.groups.filter((g) => g.length);
  saveLayout();
  renderHand();
  requestLabels();
}

// ------------------------------------------------------------------ actions
function act(message) {
  if (busy) return;
  busy = true;
  renderActions();
  const id = send({ type: "action", ...message }, (reply) => {
    busy = false;
    if (reply.type === "ack" && message.action !== "draw") selected = null;
    renderActions();
  });
  if (id === null) { busy = false; renderActions(); }
}

function discardCard(card) {
  const d = deal();
  if (!d || !d.my_turn || d.phase !== "discard") return;
  if (card === d.blocked) { toast(`${prettyCard(card)} was just taken from the open pile: it cannot be discarded this turn.`); return; }
  act({ action: "discard", card });
}

function applyArrangement(msg) {
  const pool = new Map();
  for (const id of allIds()) {
    const c = cardOf(id);
    if (!pool.has(c)) pool.set(c, []);
    pool.get(c).push(id);
  }
  const take = (c) => { const ids = pool.get(c); return ids && ids.length ? ids.shift() : newId(c); };
  const groups = msg.groups.map((g) => g.cards.map(take));
  msg.groups.forEach((g) => labelCache.set(groupKey(g.cards), { valid: true, kind: g.kind, label: g.label, pure: g.kind === "pure_sequence" || g.kind === "tunnela" }));
  const loose = msg.loose.map(take);
  if (msg.discard) loose.push(take(msg.discard));
  for (const ids of pool.values()) loose.push(...ids);
  layout.groups = groups;
  layout.loose = loose;
  if (msg.discard) selected = loose[loose.length - 1];
  saveLayout();
  renderHand();
  renderActions();
  requestLabels();
}

function modal(content, { wide = false } = {}) {
  const root = $("modal-root");
  const box = el("div", { class: "modal", role: "dialog", "aria-modal": "true" }, content);
  if (!wide) box.style.maxWidth = "640px";
  const overlay = el("div", { class: "overlay" }, box);
  overlay.addEventListener("click", (e) => { if (e.target === overlay) close(); });
  root.replaceChildren(overlay);
  function close() { root.replaceChildren(); }
  return close;
}

function showDeclareCheck(msg) {
  const j = jokers();
  const ok = msg.valid;
  const groups = el("div", { class: "check-groups" }, msg.groups.map((g, i) => {
    const label = msg.labels[i];
    return el("div", { class: "group " + (label.valid ? (label.pure ? "pure" : "ok") : "bad") },
      el("div", { class: "g-label" }, el("span", { class: "k" }, label.valid ? label.label : "not valid")),
      label.valid ? null : el("div", { class: "g-reason" }, label.reason),
      el("div", { class: "g-cards" }, g.cards.map((c) => cardEl(c, j))));
  }), msg.loose.length ? el("div", { class: "group loose" }, el("div", { class: "g-label" }, el("span", { class: "k" }, "ungrouped")),
    el("div", { class: "g-cards" }, msg.loose.map((c) => cardEl(c, j)))) : null);
  const close = modal([
    el("h2", {}, `Declare with ${prettyCard(msg.finish)} on the finish slot?`),
    el("div", { class: "verdict " + (ok ? "ok" : "bad") }, ok
      ? `✓ A valid declaration (option ${msg.option}).`
      : `✗ Not a valid declaration: declaring now costs ${msg.cost_if_wrong} points and puts you out of the deal.`),
    msg.reasons.length ? el("ul", { class: "reasons" }, msg.reasons.map((r) => el("li", {}, r))) : null,
    el("div", { class: "small muted" }, "Your layout, group by group:"),
    groups,
    el("div", { class: "buttons" },
      el("button", { class: "btn ghost", type: "button", onclick: () => close() }, "Cancel"),
      el("button", {
        class: "btn " + (ok ? "go" : "danger"), type: "button", id: "confirm-declare",
        onclick: () => { close(); act({ action: "declare", card: msg.finish, groups: msg.groups.map((g) => g.cards) }); },
      }, ok ? "Declare" : `Declare anyway (−${msg.cost_if_wrong})`)),
  ]);
}

function askDeclare() {
  const d = deal();
  if (!selected || !d) return;
  const finish = cardOf(selected);
  const groups = layout.groups.map((g) => g.filter((id) => id !== selected).map(cardOf)).filter((g) => g.length);
  send({ type: "check_declare", card: finish, groups });
}

function askDrop() {
  const d = deal();
  const first = d.seats[state.you].played === 0;
  const close = modal([
    el("h2", {}, "Drop out of this deal?"),
    el("p", {}, `A ${first ? "first" : "middle"} drop costs `, el("b", {}, `${d.drop_cost} points`),
      `${first ? " (before your first draw)" : ""}. Your cards leave play and you wait for the next deal.`),
    el("div", { class: "buttons" },
      el("button", { class: "btn ghost", type: "button", onclick: () => close() }, "Keep playing"),
      el("button", { class: "btn danger", type: "button", id: "confirm-drop", onclick: () => { close(); act({ action: "drop" }); } }, `Drop (−${d.drop_cost})`)),
  ]);
}

// ------------------------------------------------------------------ results and scores
function seenKey() { return `rummy21:seen:${code}`; }

function maybeShowResult() {
  const result = state.result;
  if (!result) return;
  const seen = Number(localStorage.getItem(seenKey()) ?? -1);
  if (result.deal <= seen || result.deal === lastResultShown) return;
  lastResultShown = result.deal;
  showResult(result);
}

function resultHeadline(r) {
  const who = nameOf(r.winner);
  if (r.reason === "wash") return "A wash: nobody wins this deal.";
  if (r.reason === "declared") return `${who} declared${who === "You" ? "" : ""} — option ${r.option}.`;
  return `${who} won: everyone else dropped or declared wrongly.`;
}

function showResult(r) {
  const j = r.jokers;
  const finished = state.room.status === "finished";
  const seats = r.seats.map((s) => {
    const groups = s.groups.map((g) => el("div", { class: "group " + (g.kind === "pure_sequence" || g.kind === "tunnela" ? "pure" : "ok") },
      el("div", { class: "g-label" }, el("span", { class: "k" }, g.label)),
      el("div", { class: "g-cards" }, g.cards.map((c) => cardEl(c, j)))));
    if (s.loose.length) groups.push(el("div", { class: "group loose" }, el("div", { class: "g-label" }, el("span", { class: "k" }, "loose")),
      el("div", { class: "g-cards" }, s.loose.map((c) => cardEl(c, j)))));
    if (s.seat === r.winner && r.finish) groups.push(el("div", { class: "group" }, el("div", { class: "g-label" }, el("span", { class: "k" }, "finish")),
      el("div", { class: "g-cards" }, cardEl(r.finish, j))));
    const detail = [];
    if (s.seat === r.winner) detail.push("winner");
    if (s.rule) detail.push(`pays ${s.penalty} (${RULE_LABELS[s.rule] || s.rule})`);
    if (s.value || s.value_net) detail.push(`value cards ${s.value}${s.marriages ? ` incl. ${s.marriages} marriage` : ""} → net ${signed(s.value_net)}`);
    if (s.cap_adjustment) detail.push(`loss cap ${signed(s.cap_adjustment)}`);
    if (s.hidden) detail.push("hand folded");
    return el("div", { class: "result-seat" + (s.seat === r.winner ? " winner" : ""), dataset: { seat: s.seat } },
      el("div", { class: "r-head" },
        el("span", { class: "r-name" }, s.seat === state.you ? `${s.name} (you)` : s.name),
        el("span", { class: "r-score " + scoreClass(s.score) }, `${signed(s.score)} pts`, el("small", { class: "muted" }, ` · ${s.money}`))),
      el("div", { class: "r-detail" }, detail.join(" · ")),
      el("div", { class: "r-groups" }, groups));
  });
  const close = modal([
    el("h2", { id: "result-title" }, `Deal ${r.deal + 1}: ${resultHeadline(r)}`),
    el("div", { class: "small muted" }, `Cut card ${prettyCard(j.cut)} · scores sum to zero · money at ${state.room.point_value} a point`),
    el("div", { class: "result-seats" }, seats),
    scoreTable(),
    el("div", { class: "buttons" },
      el("a", { class: "btn ghost", href: `/t/${code}/history` }, "History"),
      el("button", {
        class: "btn primary", type: "button", id: "result-continue",
        onclick: () => { localStorage.setItem(seenKey(), String(r.deal)); close(); if (!finished) send({ type: "ready" }); },
      }, finished ? "Close" : "Next deal")),
  ], { wide: true });
}

function scoreTable() {
  const m = state.match;
  const seats = state.room.seats;
  return el("div", { class: "table-scroll" }, el("table", { class: "scores", "aria-label": "match scores" },
    el("thead", {}, el("tr", {}, el("th", {}, "Deal"), seats.map((s) => el("th", {}, s.seat === state.you ? "You" : s.name)))),
    el("tbody", {}, m.history.map((h) => el("tr", {}, el("td", {}, `${h.deal + 1}${h.winner !== null ? " · " + nameOf(h.winner) : " · wash"}`),
      h.scores.map((v) => el("td", { class: scoreClass(v) }, signed(v)))))),
    el("tfoot", {},
      el("tr", {}, el("td", {}, "Total"), m.totals.map((v) => el("td", { class: scoreClass(v) }, signed(v)))),
      el("tr", {}, el("td", {}, "Money"), m.money.map((v) => el("td", {}, v))))));
}

function showScores() {
  if (!state) return;
  const close = modal([
    el("h2", {}, `Scoreboard — ${state.match.history.length} of ${state.room.deals} deals played`),
    scoreTable(),
    el("div", { class: "buttons" },
      el("a", { class: "btn ghost", href: `/t/${code}/history` }, "History"),
      el("button", { class: "btn primary", type: "button", onclick: () => close() }, "Close")),
  ]);
}

async function share() {
  const url = `${location.origin}/t/${code}`;
  try {
    await navigator.clipboard.writeText(url);
    toast(`Link copied: ${url}`, "notice");
  } catch (_) {
    const close = modal([el("h2", {}, "Share this table"),
      el("p", {}, "Code ", el("b", { class: "pill code" }, code)),
      el("input", { value: url, readonly: true, class: "pill", onfocus: (e) => e.target.select() }),
      el("div", { class: "buttons" }, el("button", { class: "btn primary", type: "button", onclick: () => close() }, "Done"))]);
  }
}

// ------------------------------------------------------------------ joining
async function showJoin() {
  $("join-panel").classList.remove("hidden");
  $("join-code").textContent = code;
  $("join-name").value = localStorage.getItem("rummy21:name") || "";
  try {
    const info = await api(`/api/tables/${code}`);
    $("join-seats").replaceChildren(...info.seats.map((s) => el("div", { class: "seat" },
      el("div", { class: "s-name" }, s.taken ? s.name : "Open seat"),
      el("div", { class: "s-meta" }, s.kind === "bot" ? `${s.bot} bot` : s.taken ? "player" : "free"))));
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
$("btn-stock").addEventListener("click", () => act({ action: "draw", source: "stock" }));
$("btn-open").addEventListener("click", () => act({ action: "draw", source: "open" }));
$("stock-slot").addEventListener("click", () => { if ($("stock-slot").classList.contains("clickable")) act({ action: "draw", source: "stock" }); });
$("open-slot").addEventListener("click", () => { if ($("open-slot").classList.contains("clickable")) act({ action: "draw", source: "open" }); });
$("btn-discard").addEventListener("click", () => { if (selected) discardCard(cardOf(selected)); });
$("btn-declare").addEventListener("click", askDeclare);
$("btn-drop").addEventListener("click", askDrop);
$("btn-arrange").addEventListener("click", () => send({ type: "arrange" }));
$("scores-btn").addEventListener("click", showScores);
$("share").addEventListener("click", share);
$("code").addEventListener("click", share);
$("join-form").addEventListener("submit", join);
$("history-link").href = `/t/${code}/history`;
$("code").textContent = code || "";
setInterval(tick, 250);

if (!code) {
  location.href = "/";
} else if (seatInfo && seatInfo.token) {
  connect();
} else {
  showJoin();
}
