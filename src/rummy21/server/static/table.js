// The table page: one WebSocket to the server, which alone applies the rules and gives every
// piece of advice. Here the parts are put together: the store (state.js: the state and its
// reducer), the socket (net.js), what this browser remembers (seats.js), and the views (views/),
// each redrawn only when what it shows has changed; then the player's intents — buttons, piles,
// keys — which become messages to the store and to the server.
import { codeFromPath, el, prettyCard } from "/static/cards.js";
import { cardOf } from "/static/layout.js";
import { api, openSocket } from "/static/net.js";
import {
  getSeat,
  loadLayout,
  savedName,
  saveLayout,
  seenResult,
  setName,
  setSeat,
  setSeenResult,
  setTips,
  tipsOn,
} from "/static/seats.js";
import {
  apply,
  deal,
  initial,
  lost,
  myTurn,
  phase,
  question,
  releaseProblem,
  selectedCard,
  serverNow,
  wantsArrangement,
} from "/static/state.js";
import { createStore } from "/static/store.js";
import { declareModel, groupsWithout, renderDeclare } from "/static/views/declare.js";
import { fitHand } from "/static/views/fit.js";
import { createHand, handModel } from "/static/views/hand.js";
import { renderResult, renderResultLive, resultLiveModel, resultModel, scoresModel } from "/static/views/result.js";
import {
  actionsModel,
  bannersModel,
  dropTargetsModel,
  feltModel,
  initials,
  logModel,
  meModel,
  opponentsModel,
  readingModel,
  renderActions,
  renderAvatar,
  renderFelt,
  renderLog,
  renderOpponents,
  renderReading,
  renderTools,
  topbarModel,
} from "/static/views/table.js";
import {
  dropModel,
  mount,
  renderArrange,
  renderDrop,
  renderHelp,
  renderScoresWindow,
  renderShare,
} from "/static/views/windows.js";

const $ = (id) => document.getElementById(id);
const code = codeFromPath();
const store = createStore(
  apply,
  initial({ code, seat: getSeat(code), tips: tipsOn(), seen: seenResult(code), now: Date.now() }),
);
const { get, dispatch } = store;
let socket = null;

function toast(text, kind = "error") {
  const box = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  $("toasts").append(box);
  setTimeout(() => box.remove(), kind === "error" ? 5200 : 3600);
}

function send(message, onReply) {
  const id = socket ? socket.send(message, onReply) : null;
  if (id === null) toast("Not connected — reconnecting…");
  return id;
}

// ------------------------------------------------------------------ the connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = openSocket(`${scheme}${location.host}/ws/${code}`, get().seat.token, {
    onMessage,
    onClose: () => dispatch({ type: "closed", at: Date.now() }),
    onEnd: (text) => dispatch({ type: "ended", text }),
  });
}

function onMessage(msg, handled) {
  const s = get();
  if (msg.type === "state") {
    // A new deal's layout may have been saved by this browser before a reload.
    const saved = s.layout.deal !== msg.match.deal ? loadLayout(code, s.seat.seat, msg.match.deal) : null;
    dispatch({ ...msg, at: Date.now(), saved });
    return;
  }
  if (msg.type === "notice") toast(msg.text, "notice");
  const question = s.asking && msg.id === s.asking.id;
  if (msg.type === "error" && !question && (!handled || msg.id === 0)) toast(msg.error);
  dispatch(msg);
}

// ------------------------------------------------------------------ effects of a change
let asking = null;
store.subscribe((s, before) => {
  if (s.seat && s.layout !== before.layout && s.layout.deal >= 0) saveLayout(code, s.seat.seat, s.layout);
  if (s.seen !== before.seen) setSeenResult(code, s.seen);
  if (s.tips !== before.tips) setTips(s.tips);
  if (s.conn.back > before.conn.back) toast("Back online.", "notice");
  // The table's shell is kept by a service worker (once the server is heard from): a page
  // reloaded while the server is down still opens, says so, and reconnects by itself.
  if (s.conn.online && !before.conn.online && "serviceWorker" in navigator)
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  if (s.flash !== before.flash) {
    document.body.classList.add("flash-turn");
    setTimeout(() => document.body.classList.remove("flash-turn"), 1200);
  }
  if (before.window?.kind === "result" && !s.window && s.game?.room.status === "playing")
    toast(`Deal ${s.game.match.deal + 1} has started.`, "notice");
  if (wantsArrangement(s)) {
    dispatch({ type: "arranging" });
    socket.send({ type: "arrange" }, (reply) => dispatch({ type: "arrangement", reply, keep: [], fresh: true }));
  }
  // Ask the server to judge each group and to read the hand (a moment later: moves come in bursts).
  clearTimeout(asking);
  asking = setTimeout(() => {
    const q = question(get());
    if (!q) return;
    const id = socket.send({ type: "groups", groups: q.groups });
    if (id !== null) dispatch({ type: "asking", id, keys: q.keys, hand: q.hand, at: Date.now() });
  }, 40);
});

// ------------------------------------------------------------------ the views
// The hand is fitted to the room the page leaves it after every change that redrew a part of
// the page (in the same task: no frame ever shows it unfitted), and when the screen turns.
let dirty = false;
function fit() {
  dirty = false;
  if (get().game && !hand.holding()) fitHand($("hand")); // never resize the cards under a finger
}
function fitSoon() {
  dirty = true;
  requestAnimationFrame(() => dirty && fit()); // a redraw outside a change (a drop let go)
}
addEventListener("resize", fit);

// A view: drawn when its model changes.
function show(model, draw) {
  store.view(model, (m, s) => {
    draw(m, s);
    dirty = true;
  });
}

const hand = createHand($("hand"), {
  get,
  dispatch,
  refuse: (text) => toast(text),
  discard: (card) => discardCard(card),
  finish: (card) => askDeclare(card),
  drawn: fitSoon,
});

show(
  (s) => ({ table: !!s.game, ended: !s.game && s.conn.ended }),
  (m) => {
    $("game").classList.toggle("hidden", !m.table);
    if (m.table) $("join-panel").classList.add("hidden");
    $("scores-btn").classList.toggle("hidden", !m.table && !get().seat);
    if (m.ended) {
      $("ended-text").textContent = m.ended;
      $("ended").classList.remove("hidden");
      $("join-panel").classList.add("hidden");
    }
  },
);
show(topbarModel, (m) => {
  if (!m) return;
  $("code").textContent = m.code;
  $("deal-pill").textContent = m.deal;
  $("deal-pill").title = m.dealTitle;
  $("rules-pill").textContent = m.rules;
});
show(
  (s) => ({
    on: s.conn.online,
    off: !s.conn.online && (s.conn.lostAt !== null || !!s.conn.ended),
    seated: !!s.seat,
  }),
  (m) => {
    $("conn").className = `dot${m.on ? " on" : m.off ? " off" : ""}`;
    $("conn-text").textContent = !m.seated ? "not seated" : m.on ? "online" : m.off ? "offline" : "connecting";
  },
);
// While the connection is lost: a banner, and the clocks stand still — the server, not this
// page, decides when a turn times out or a deal starts.
show(bannersModel, (m) => {
  document.body.classList.toggle("offline", !!m.offline);
  $("offline").classList.toggle("hidden", !m.offline);
  $("offline").textContent = m.offline || "";
  $("trouble").classList.toggle("hidden", !m.trouble);
  $("trouble").textContent = m.trouble || "";
});
show(opponentsModel, (m) => {
  $("opponents").classList.toggle("many", !!m?.many);
  $("opponents").replaceChildren(...renderOpponents(m));
});
const feltParts = {
  stock: $("stock-slot"),
  open: $("open-slot"),
  by: $("open-by"),
  finish: $("finish-pile"),
  cut: $("cut-info"),
  discards: $("discards"),
};
show(feltModel, (m) => renderFelt(m, feltParts));
show(dropTargetsModel, (can) => {
  $("open-slot").classList.toggle("droptarget", can);
  $("finish-slot").classList.toggle("droptarget", can);
});
show(meModel, (m) => {
  $("status").textContent = m.status;
  if (m.name === undefined) return;
  $("my-avatar").replaceChildren(...renderAvatar(m));
  $("me").classList.toggle("turn", m.turn);
  $("me-tools").replaceChildren(...renderTools(m, { autoplay: letABotPlay }));
  paintClocks(get());
});
show(readingModel, (m) => $("reading").replaceChildren(...renderReading(m)));
const buttons = {
  bar: $("actions"),
  stock: $("btn-stock"),
  open: $("btn-open"),
  drop: $("btn-drop"),
  discard: $("btn-discard"),
  declare: $("btn-declare"),
  group: $("btn-group"),
  sort: $("btn-sort"),
  arrange: $("btn-arrange"),
  stockSlot: $("stock-slot"),
  openSlot: $("open-slot"),
  finishSlot: $("finish-slot"),
};
show(
  (s) => (s.game ? actionsModel(s) : null),
  (m) => m && renderActions(m, buttons),
);
show(logModel, (m) => renderLog(m, $("log")));
show(handModel, (m) => hand.render(m));

// The windows: one at a time, drawn from the state when it opens.
let shown = null;
const close = (kind) => () => dispatch({ type: "close", kind });
store.view(
  (s) => s.window,
  (w, s) => {
    shown?.remove();
    shown = null;
    if (!w) return;
    shown = mount($("modal-root"), windowFor(w, s), close(w.kind));
  },
);
store.view(resultLiveModel, (m) => m && shown && renderResultLive(m, shown.box));
store.subscribe(() => dirty && fit()); // last: after every view of this change has drawn

function windowFor(w, s) {
  const cancel = close(w.kind);
  if (w.kind === "result") {
    const m = resultModel(s);
    return {
      wide: true,
      label: `result of deal ${m.deal + 1}`,
      content: renderResult(m, scoresModel(s), code, { ready: () => ready(m) }),
    };
  }
  if (w.kind === "declare") {
    const content = renderDeclare(declareModel(s, w.check), {
      cancel,
      declare: (card, groups) => {
        cancel();
        act({ action: "declare", card, groups });
      },
    });
    return { wide: true, label: "declare", content };
  }
  if (w.kind === "drop")
    return renderDrop(dropModel(s), {
      cancel,
      drop: () => {
        cancel();
        act({ action: "drop" });
      },
    });
  if (w.kind === "arrange")
    return renderArrange(w.groups, {
      cancel,
      all: () => {
        cancel();
        runArrange([]);
      },
      rest: () => {
        cancel();
        runArrange(get().layout.groups.map((_, i) => i));
      },
    });
  if (w.kind === "scores") return renderScoresWindow(s, code, { cancel });
  if (w.kind === "help") return renderHelp(s.tips, { cancel, tips: (on) => dispatch({ type: "tips", on }) });
  return renderShare(code, `${location.origin}/t/${code}`, { cancel });
}

// The turn clock: the ring around the avatar runs down and the player's own shows the seconds.
function paintClocks(s) {
  if (!s.game || lost(s)) return; // no clock runs down while the server cannot be heard
  const total = (s.game.room.turn_seconds || 0) * 1000;
  const left = s.game.deadline ? Math.max(0, s.game.deadline - serverNow(s)) : null;
  const span = s.game.deadline_kind === "absent" ? Math.max(left || 0, 1000) : total;
  for (const circle of document.querySelectorAll("[data-timer]")) {
    if (left === null || !span) continue;
    const fraction = Math.max(0, Math.min(1, left / span));
    circle.style.strokeDashoffset = String(126 * (1 - fraction));
    circle.classList.toggle("low", left < 8000);
  }
  const clock = left !== null && myTurn(s) ? `${Math.ceil(left / 1000)}` : "";
  for (const n of document.querySelectorAll(".avatar.me .initials")) {
    n.textContent = clock || initials(s.game.room.seats[s.game.you].name);
  }
}

setInterval(() => {
  dispatch({ type: "tick", now: Date.now() });
  paintClocks(get());
}, 250);

// ------------------------------------------------------------------ the player's intents
function act(message) {
  if (get().busy) return;
  dispatch({ type: "acting" });
  const id = send({ type: "action", ...message }, (reply) =>
    dispatch({ type: "acted", reply, action: message.action }),
  );
  if (id === null) dispatch({ type: "acted", reply: { type: "error" }, action: message.action });
}

function draw(source) {
  const s = get();
  const d = deal(s);
  if (!myTurn(s) || phase(s) !== "draw" || s.busy) return;
  if (source === "open" && !d.can_take_open) {
    const top = d.open_pile[d.open_pile.length - 1];
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
  const s = get();
  const d = deal(s);
  if (!d || !myTurn(s) || d.phase !== "discard") {
    toast(myTurn(s) ? "Draw a card first." : "Wait for your turn.");
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

function askDeclare(card) {
  const s = get();
  const d = deal(s);
  const finish = card || selectedCard(s);
  if (!d || !myTurn(s) || d.phase !== "discard") {
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
  const groups = groupsWithout(
    s.layout.groups.map((g) => g.map(cardOf)),
    finish,
  );
  send({ type: "check_declare", card: finish, groups }, (reply) => {
    if (reply.type === "declare_check") dispatch({ type: "open", window: { kind: "declare", check: reply } });
    else if (reply.error) toast(reply.error);
  });
}

function askDrop() {
  if (myTurn(get()) && phase(get()) === "draw") dispatch({ type: "open", window: { kind: "drop" } });
}

function runArrange(keep) {
  const groups = get().layout.groups;
  send({ type: "arrange", keep: keep.map((i) => groups[i].map(cardOf)) }, (reply) =>
    dispatch({ type: "arrangement", reply, keep }),
  );
}

// Arrange asks first once the player has changed the groups: keep them, or start again.
function arrange() {
  const s = get();
  if (!deal(s)?.hand.length) return;
  if (!s.layout.own || !s.layout.groups.length) runArrange([]);
  else dispatch({ type: "open", window: { kind: "arrange", groups: s.layout.groups.length } });
}

function groupSelected() {
  const ids = get().selected;
  if (ids.length < 2) {
    toast("Select two or more cards to group first (tap them, or Space on each).");
    return;
  }
  dispatch({ type: "group", ids });
}

function ready(m) {
  if (m.finished) {
    dispatch({ type: "seen", deal: m.deal });
    return;
  }
  dispatch({ type: "ready", deal: m.deal });
  send({ type: "ready" });
}

function letABotPlay(seat) {
  send({ type: "autoplay", seat: seat.seat, bot: "greedy" }, (r) => {
    if (r.type === "ack") toast(`A bot plays for ${seat.name} until they are back.`, "notice");
  });
}

function showScores() {
  if (get().game) dispatch({ type: "open", window: { kind: "scores" } });
}

function showHelp() {
  dispatch({ type: "open", window: { kind: "help" } });
}

async function share() {
  const url = `${location.origin}/t/${code}`;
  try {
    await navigator.clipboard.writeText(url);
    toast(`Link copied: ${url}`, "notice");
  } catch (_) {
    dispatch({ type: "open", window: { kind: "share" } });
  }
}

// A tap on a pile: draw from it in the draw phase; in the discard phase, let the selected card
// go there (the open pile: discard it; the finish slot: declare with it).
function pileClick(which) {
  const s = get();
  if (!myTurn(s)) return;
  if (phase(s) === "draw") {
    if (which !== "finish") draw(which);
    return;
  }
  if (phase(s) !== "discard" || which === "stock") return;
  const problem = releaseProblem(s);
  if (problem) {
    toast(`${which === "open" ? "To discard" : "To declare"}, ${problem}.`);
    return;
  }
  if (which === "open") discardCard(selectedCard(s));
  else askDeclare(selectedCard(s));
}

// ------------------------------------------------------------------ joining
async function showJoin() {
  $("join-panel").classList.remove("hidden");
  $("scores-btn").classList.add("hidden"); // not at the table yet: no scores to show
  $("join-code").textContent = code;
  $("join-name").value = savedName();
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
  setName(name);
  try {
    const joined = await api(`/api/tables/${code}/join`, { method: "POST", body: { name } });
    const seat = { seat: joined.seat, token: joined.token, name };
    setSeat(code, seat);
    dispatch({ type: "joined", seat });
    $("join-panel").classList.add("hidden");
    connect();
  } catch (error) {
    showJoinError(error.message);
  }
}

// ------------------------------------------------------------------ start
$("btn-stock").addEventListener("click", () => draw("stock"));
$("btn-open").addEventListener("click", () => draw("open"));
$("stock-slot").addEventListener("click", () => pileClick("stock"));
$("open-slot").addEventListener("click", () => pileClick("open"));
$("finish-slot").addEventListener("click", () => pileClick("finish"));
$("btn-discard").addEventListener("click", () => {
  const card = selectedCard(get());
  if (card) discardCard(card);
});
$("btn-declare").addEventListener("click", () => askDeclare());
$("btn-drop").addEventListener("click", askDrop);
$("btn-arrange").addEventListener("click", arrange);
$("btn-group").addEventListener("click", groupSelected);
$("btn-sort").addEventListener("click", () => dispatch({ type: "sort" }));
$("scores-btn").addEventListener("click", showScores);
$("help-btn").addEventListener("click", showHelp);
$("code").addEventListener("click", share);
$("join-form").addEventListener("submit", join);
$("history-link").href = `/t/${code}/history`;
$("code").textContent = code || "";
// On a phone the reading is one line; a tap shows the whole of it.
$("reading").addEventListener("click", () => $("reading").classList.toggle("open"));

// Keyboard shortcuts (not while typing, and not with a window open).
document.addEventListener("keydown", (event) => {
  const s = get();
  if (!s.game || s.window || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, textarea, select")) return;
  const actions = {
    s: () => (event.shiftKey ? showScores() : draw("stock")),
    o: () => draw("open"),
    x: () => {
      const card = selectedCard(get());
      if (card) discardCard(card);
      else toast(`To discard, ${releaseProblem(get())}.`);
    },
    f: () => askDeclare(),
    g: groupSelected,
    r: () => dispatch({ type: "sort" }),
    a: arrange,
    "?": showHelp,
  };
  const run = actions[event.key.toLowerCase()];
  if (!run) return;
  event.preventDefault();
  run();
});

if (!code) location.href = "/";
else if (get().seat?.token) connect();
else showJoin();
