// The history page: every finished deal of a table, replayed step by step as this browser's
// seat saw it at the table (its own hand, the other hands as backs with a count, and at the end
// the result as it was shown). The server decides what may be seen; the seat's token (kept by
// the table page) goes with every request.
import { backEl, cardEl, codeFromPath, el, scoreClass, signed } from "/static/cards.js";
import { ApiError, api } from "/static/net.js";
import { getSeat } from "/static/seats.js";
import { scoreRows } from "/static/views/result.js";

const $ = (id) => document.getElementById(id);
const code = codeFromPath();
const mine = getSeat(code);
let names = [];
let viewer = null;
let replay = null;
let step = 0;
let timer = null;
let dealNumber = null;
let review = null; // the coach's review of the deal shown, once loaded
let reviewAsked = 0; // which ask is current (a newer deal or seat makes older answers stale)

// GET with the seat's token; a 403 (a private table, no seat here) says what to do about it.
async function get(path) {
  const headers = mine?.token ? { authorization: `Bearer ${mine.token}` } : {};
  try {
    return await api(path, { headers });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      error.message =
        `${error.message[0].toUpperCase()}${error.message.slice(1)}. ` +
        (mine
          ? "The seat saved in this browser does not belong to this table any more."
          : "Open it in the browser you play this table in, or ask the host for a public table.");
    }
    throw error;
  }
}

function who(seat) {
  const name = names[seat] || `Seat ${seat + 1}`;
  return seat === viewer ? `${name} (you)` : name;
}

function showError(message) {
  $("error").textContent = message;
  $("error").classList.toggle("hidden", !message);
}

async function loadList() {
  $("code").textContent = code;
  $("back").href = `/t/${code}`;
  try {
    const data = await get(`/api/tables/${code}/deals`);
    names = data.names;
    viewer = data.viewer;
    $("viewer-note").textContent =
      viewer === null
        ? "You watch as a spectator: no hand is shown until the end of a deal, and a dropped hand stays folded."
        : `You see this table as ${names[viewer] || "your seat"} saw it: your own hand, the other hands face down, and at the end every hand that was laid out.`;
    $("title").textContent = `Finished deals (${data.finished.length} of ${data.deals})`;
    if (!data.finished.length) $("deals").replaceChildren(el("div", { class: "muted" }, "No deal has finished yet."));
    else
      $("deals").replaceChildren(
        ...data.finished
          .map((d) =>
            el(
              "button",
              {
                class: "deal-item",
                type: "button",
                dataset: { deal: d.deal },
                onclick: () => openDeal(d.deal),
              },
              el(
                "span",
                {},
                el("b", {}, `Deal ${d.deal + 1}`),
                ` · ${d.winner === null ? "wash" : `${who(d.winner)} won`} · ${d.reason === "declared" ? `option ${d.option}` : d.reason.replace("_", " ")} · ${d.turns} turns`,
              ),
              el(
                "span",
                {},
                d.scores.map((s, i) => el("span", { class: scoreClass(s) }, `${i ? " / " : ""}${signed(s)}`)),
              ),
            ),
          )
          .flatMap((item, i) => [
            item,
            el(
              "button",
              {
                class: "btn ghost small review-link",
                type: "button",
                dataset: { review: data.finished[i].deal },
                "aria-label": `Review deal ${data.finished[i].deal + 1}`,
                onclick: async () => {
                  await openDeal(data.finished[i].deal);
                  if (dealNumber === data.finished[i].deal) askReview();
                },
              },
              "Review",
            ),
          ]),
      );
    const totals = $("totals");
    totals.replaceChildren(
      ...scoreRows({ corner: "", heads: names.map((_, i) => who(i)), rows: [], totals: data.totals, money: null }),
    );
    totals.classList.toggle("hidden", !data.finished.length);
    const wanted = new URLSearchParams(location.search).get("deal");
    if (wanted !== null) openDeal(Number(wanted));
  } catch (error) {
    showError(error.message);
    if (error.status === 403) $("title").textContent = "This history is private";
  }
}

async function openDeal(number) {
  stop();
  for (const n of document.querySelectorAll(".deal-item")) {
    n.classList.toggle("active", Number(n.dataset.deal) === number);
  }
  try {
    replay = await get(`/api/tables/${code}/deals/${number}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  names = replay.names;
  viewer = replay.viewer;
  dealNumber = number;
  resetReview();
  $("viewer").classList.remove("hidden");
  $("viewer-title").textContent = `Deal ${number + 1} — step by step`;
  $("slider").max = String(replay.frames.length - 1);
  show(0);
  $("viewer").scrollIntoView({ behavior: "smooth", block: "start" });
}

function show(index) {
  step = Math.max(0, Math.min(index, replay.frames.length - 1));
  const frame = replay.frames[step];
  const j = replay.jokers;
  $("slider").value = String(step);
  $("step").textContent = `${step + 1} / ${replay.frames.length}`;
  $("events").replaceChildren(...frame.events.map((e) => el("div", {}, e.text)));
  const top = frame.open_pile[frame.open_pile.length - 1];
  $("replay-felt").replaceChildren(
    el(
      "div",
      { class: "pile" },
      el("span", { class: "label" }, "Stock"),
      el("div", { class: "slot" }, backEl("small"), el("span", { class: "count" }, frame.stock_size)),
    ),
    el(
      "div",
      { class: "pile" },
      el("span", { class: "label" }, "Open pile"),
      el(
        "div",
        { class: "slot" },
        top ? cardEl(top.card, j, { size: "small" }) : el("div", { class: "empty-slot" }),
        frame.open_count > 1 ? el("span", { class: "count" }, frame.open_count) : null,
      ),
      el("div", { class: "by" }, top ? (top.discarded_by === null ? "first open card" : who(top.discarded_by)) : ""),
    ),
    el(
      "div",
      { class: "pile" },
      el("span", { class: "label" }, "Cut card"),
      el("div", { class: "slot" }, cardEl(j.cut, j, { size: "small" })),
    ),
  );
  $("replay-seats").replaceChildren(
    ...frame.hands.map((hand, seat) =>
      el(
        "div",
        {
          class: `replay-seat${frame.turn === seat ? " turn" : ""}${seat === viewer ? " mine" : ""}`,
        },
        el(
          "span",
          { class: "who" },
          who(seat),
          el("div", { class: "small muted" }, frame.standing[seat].replace("_", " ")),
        ),
        hand === null
          ? hiddenHand(frame.counts[seat], frame.standing[seat])
          : !hand.length
            ? el("span", { class: "small muted" }, OUT_OF_THE_DEAL[frame.standing[seat]] || "no cards")
            : el(
                "div",
                { class: "cards-row" },
                hand.map((c) => cardEl(c, j, { size: "tiny" })),
              ),
      ),
    ),
  );
  showStepVerdict();
  const last = step === replay.frames.length - 1;
  $("replay-result").replaceChildren(last ? resultTable(replay.result) : "");
  $("play").textContent = timer ? "Pause" : "Play";
}

// What an own hand with no cards left says (it left the deal).
const OUT_OF_THE_DEAL = {
  dropped: "folded (you dropped)",
  wrong_declaration: "out of the deal (wrong declaration)",
};

// A hand this seat did not see: face down, with how many cards it held.
function hiddenHand(count, standing) {
  if (!count) return el("span", { class: "small muted" }, standing === "dropped" ? "folded (dropped)" : "no cards");
  const back = backEl("tiny");
  back.title = `${count} cards, face down`;
  return el(
    "div",
    { class: "cards-row", "aria-label": `${count} cards, face down` },
    back,
    el("span", { class: "small muted" }, `× ${count}`),
  );
}

function resultTable(r) {
  return el(
    "div",
    { class: "table-scroll" },
    el(
      "table",
      { class: "scores" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", {}, "Seat"),
          el("th", {}, "Pays"),
          el("th", {}, "Value"),
          el("th", {}, "Score"),
          el("th", {}, "Money"),
        ),
      ),
      el(
        "tbody",
        {},
        r.seats.map((s) =>
          el(
            "tr",
            {},
            el("td", {}, who(s.seat) + (s.seat === r.winner ? " ★" : "") + (s.hidden ? " (folded)" : "")),
            el("td", {}, s.rule ? `${s.penalty} (${s.rule_label})` : "—"),
            el("td", {}, `${s.value} → ${signed(s.value_net)}`),
            el("td", { class: scoreClass(s.score) }, signed(s.score)),
            el("td", {}, s.money),
          ),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ the coach's review
const VERDICT_WORDS = {
  best: "best",
  good: "good",
  inaccuracy: "inaccuracy",
  mistake: "mistake",
  blunder: "blunder",
};

function resetReview() {
  review = null;
  reviewAsked += 1;
  $("review").classList.add("hidden");
  $("review").replaceChildren();
  $("review-progress").textContent = "";
  $("step-verdict").classList.add("hidden");
  const select = $("review-seat");
  select.classList.toggle("hidden", viewer !== null);
  if (viewer === null) {
    select.replaceChildren(...names.map((n, i) => el("option", { value: String(i) }, n || `Seat ${i + 1}`)));
  }
  $("review-btn").textContent = viewer === null ? "Review this seat" : "Review my play";
  $("review-btn").disabled = false;
}

async function askReview() {
  const asked = ++reviewAsked;
  const seat = viewer === null ? Number($("review-seat").value) : viewer;
  const query = viewer === null ? `?seat=${seat}` : "";
  $("review-btn").disabled = true;
  $("review-progress").textContent = "Reviewing…";
  try {
    for (;;) {
      const answer = await get(`/api/tables/${code}/deals/${dealNumber}/review${query}`);
      if (asked !== reviewAsked) return; // another deal or seat was asked for since
      if (answer.status === "done") {
        review = answer.review;
        $("review-progress").textContent = "";
        renderReview(seat);
        show(step);
        return;
      }
      const total = answer.total === null ? "…" : answer.total;
      $("review-progress").textContent = `Reviewing… ${answer.done} of ${total} decisions`;
      await new Promise((done) => setTimeout(done, 400));
    }
  } catch (error) {
    if (asked === reviewAsked) {
      $("review-progress").textContent = "";
      showError(error.message);
    }
  } finally {
    if (asked === reviewAsked) $("review-btn").disabled = false;
  }
}

function decisionButton(d) {
  const changed = d.best !== d.played;
  return el(
    "button",
    {
      class: `decision v-${d.verdict}`,
      type: "button",
      dataset: { step: d.step },
      onclick: () => {
        stop();
        show(d.step);
      },
    },
    el("span", { class: "turn" }, `Turn ${d.turn + 1}`),
    el("span", { class: "played" }, d.played),
    el("span", { class: `chip v-${d.verdict}` }, VERDICT_WORDS[d.verdict]),
    changed ? el("span", { class: "best" }, `better: ${d.best}`) : null,
    d.loss ? el("span", { class: "loss" }, `−${d.loss.toFixed(1)} ± ${d.stderr.toFixed(1)}`) : null,
    d.reason ? el("span", { class: "why" }, d.reason) : null,
  );
}

function renderReview(seat) {
  const s = review.summary;
  const counts = Object.entries(s.verdicts)
    .filter(([, n]) => n)
    .map(([v, n]) => `${n} ${v}`)
    .join(", ");
  const chart = el("img", {
    class: "review-chart",
    alt: `points lost through the deal: ${s.loss} in all`,
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(review.chart)}`,
  });
  const biggest = review.biggest.map((i) => review.decisions[i]);
  $("review").replaceChildren(
    el(
      "div",
      { class: "review-head" },
      el("b", {}, `${who(seat)}: accuracy ${s.accuracy.toFixed(1)}`),
      ` · ${s.loss.toFixed(1)} points lost over ${review.decisions.length} decisions (${counts})`,
    ),
    chart,
    biggest.length
      ? el("div", { class: "biggest" }, el("h3", {}, "Biggest losses"), ...biggest.map(decisionButton))
      : el("p", { class: "small muted" }, "No inaccuracy: every decision was best or as good."),
    el(
      "details",
      { class: "all-decisions" },
      el("summary", {}, "Every decision"),
      ...review.decisions.map(decisionButton),
    ),
  );
  $("review").classList.remove("hidden");
}

function showStepVerdict() {
  const box = $("step-verdict");
  const d = review?.decisions.find((x) => x.step === step);
  box.classList.toggle("hidden", !d);
  if (!d) return;
  box.className = `step-verdict v-${d.verdict}`;
  box.replaceChildren(
    el("span", { class: `chip v-${d.verdict}` }, VERDICT_WORDS[d.verdict]),
    ` ${d.played}`,
    d.best !== d.played ? ` — better: ${d.best} (${d.loss.toFixed(1)} points)` : "",
    d.reason ? el("div", { class: "small" }, d.reason) : null,
  );
}

$("review-btn").addEventListener("click", askReview);

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  if (replay) $("play").textContent = "Play";
}

function play() {
  if (timer) {
    stop();
    return;
  }
  if (step >= replay.frames.length - 1) show(0);
  timer = setInterval(() => {
    if (step >= replay.frames.length - 1) {
      stop();
      return;
    }
    show(step + 1);
  }, 700);
  $("play").textContent = "Pause";
}

$("first").addEventListener("click", () => {
  stop();
  show(0);
});
$("prev").addEventListener("click", () => {
  stop();
  show(step - 1);
});
$("next").addEventListener("click", () => {
  stop();
  show(step + 1);
});
$("last").addEventListener("click", () => {
  stop();
  show(replay.frames.length - 1);
});
$("play").addEventListener("click", play);
$("slider").addEventListener("input", (e) => {
  stop();
  show(Number(e.target.value));
});
document.addEventListener("keydown", (e) => {
  if (!replay) return;
  if (e.key === "ArrowRight") {
    stop();
    show(step + 1);
  }
  if (e.key === "ArrowLeft") {
    stop();
    show(step - 1);
  }
});
loadList();
