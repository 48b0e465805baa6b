// What this browser remembers, in localStorage: the seats it holds (their tokens), and for each
// table the player's own layout of the hand, the last result seen, the tips switch and the name.
// Every function takes the storage last (localStorage by default; tests pass their own).

const SEAT = "rummy21:seat:";
const local = () => globalThis.localStorage;

function read(key, storage) {
  try {
    return JSON.parse(storage.getItem(key) || "null");
  } catch (_) {
    return null;
  }
}

function write(key, value, storage) {
  try {
    storage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  } catch (_) {
    /* full, or storage is off: the page goes on without remembering */
  }
}

export function getSeat(code, storage = local()) {
  return read(SEAT + code, storage);
}

export function setSeat(code, data, storage = local(), now = Date.now()) {
  write(SEAT + code, { ...data, saved: now }, storage);
}

// Every seat this browser holds, the most recently taken first.
export function mySeats(storage = local()) {
  const out = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith(SEAT)) continue;
    const seat = read(key, storage);
    if (seat) out.push({ code: key.slice(SEAT.length), ...seat });
  }
  return out.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

const layoutKey = (code, seat) => `rummy21:layout:${code}:${seat}`;

// The layout saved for this deal, or null (another deal's, or none).
export function loadLayout(code, seat, deal, storage = local()) {
  const saved = read(layoutKey(code, seat), storage);
  return saved && saved.deal === deal && Array.isArray(saved.groups) ? saved : null;
}

export function saveLayout(code, seat, layout, storage = local()) {
  write(layoutKey(code, seat), layout, storage);
}

// The last deal whose result this browser has dismissed at this table (-1: none).
export function seenResult(code, storage = local()) {
  const value = Number(storage.getItem(`rummy21:seen:${code}`) ?? -1);
  return Number.isFinite(value) ? value : -1;
}

export function setSeenResult(code, deal, storage = local()) {
  write(`rummy21:seen:${code}`, String(deal), storage);
}

export function tipsOn(storage = local()) {
  return storage.getItem("rummy21:tips") !== "off";
}

export function setTips(on, storage = local()) {
  write("rummy21:tips", on ? "on" : "off", storage);
}

export function savedName(storage = local()) {
  return storage.getItem("rummy21:name") || "";
}

export function setName(name, storage = local()) {
  write("rummy21:name", name, storage);
}
