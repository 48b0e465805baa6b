// net.js and seats.js: the table's socket (a fake WebSocket here) and what the browser remembers
// (a fake storage here), and the service worker's list of the pages' files.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { backoff, openSocket } from "/static/net.js";
import {
  getSeat,
  loadLayout,
  mySeats,
  saveLayout,
  seenResult,
  setSeat,
  setSeenResult,
  setTips,
  tipsOn,
} from "/static/seats.js";

class FakeSocket {
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  open() {
    this.readyState = 1;
    this.onopen();
  }
  receive(msg) {
    this.onmessage({ data: JSON.stringify(msg) });
  }
  close(code = 1006) {
    this.readyState = 3;
    this.onclose({ code });
  }
}

function socket() {
  FakeSocket.made = [];
  const log = { messages: [], closed: 0, ended: null, later: [] };
  const conn = openSocket("ws://x/ws/ABCD", "secret", {
    onMessage: (msg, handled) => log.messages.push([msg.type, handled]),
    onClose: () => (log.closed += 1),
    onEnd: (text) => (log.ended = text),
    WebSocket: FakeSocket,
    later: (fn, ms) => log.later.push([fn, ms]),
  });
  return { conn, log, ws: () => FakeSocket.made.at(-1) };
}

describe("the table's socket", () => {
  test("says hello with the seat's token, then numbers each request and matches its reply", () => {
    const { conn, log, ws } = socket();
    assert.equal(conn.send({ type: "ready" }), null, "nothing is sent before the socket opens");
    ws().open();
    assert.deepEqual(ws().sent[0], { type: "hello", token: "secret", id: 0 });
    const replies = [];
    const id = conn.send({ type: "groups", groups: [] }, (reply) => replies.push(reply.type));
    assert.deepEqual(ws().sent[1], { type: "groups", groups: [], id });
    ws().receive({ type: "state" });
    ws().receive({ type: "groups", id });
    assert.deepEqual(log.messages, [
      ["state", false],
      ["groups", true],
    ]);
    assert.deepEqual(replies, ["groups"]);
  });

  test("a lost connection fails the requests on their way and tries again, waiting longer each time", () => {
    const { conn, log, ws } = socket();
    ws().open();
    const replies = [];
    conn.send({ type: "arrange" }, (reply) => replies.push(reply.error));
    ws().close();
    assert.deepEqual(replies, ["connection lost"]);
    assert.equal(log.closed, 1);
    assert.deepEqual(
      log.later.map(([, ms]) => ms),
      [backoff(1)],
    );
    log.later[0][0](); // the pause is over: a new socket
    assert.equal(FakeSocket.made.length, 2);
    ws().close();
    assert.equal(log.later[1][1], backoff(2));
    assert.ok(backoff(2) > backoff(1) && backoff(9) === backoff(5), "growing, to a ceiling");
  });

  test("closed for good (no such table, a seat open elsewhere): says why and stops", () => {
    const { log, ws } = socket();
    ws().open();
    ws().close(4409);
    assert.match(log.ended, /open in another window/);
    assert.equal(log.later.length, 0);
    assert.equal(log.closed, 0);
  });
});

class FakeStorage {
  constructor() {
    this.items = new Map();
  }
  get length() {
    return this.items.size;
  }
  key(i) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

describe("what the browser remembers", () => {
  test("seats by table, the latest first", () => {
    const storage = new FakeStorage();
    setSeat("AAAA", { seat: 0, token: "a" }, storage, 1);
    setSeat("BBBB", { seat: 2, token: "b" }, storage, 2);
    assert.equal(getSeat("AAAA", storage).token, "a");
    assert.deepEqual(
      mySeats(storage).map((s) => s.code),
      ["BBBB", "AAAA"],
    );
    assert.equal(getSeat("CCCC", storage), null);
  });

  test("a layout is given back only for its own deal; the seen result and the tips switch", () => {
    const storage = new FakeStorage();
    saveLayout("AAAA", 0, { deal: 3, groups: [["2S#1"]], loose: [] }, storage);
    assert.deepEqual(loadLayout("AAAA", 0, 3, storage).groups, [["2S#1"]]);
    assert.equal(loadLayout("AAAA", 0, 4, storage), null);
    assert.equal(seenResult("AAAA", storage), -1);
    setSeenResult("AAAA", 2, storage);
    assert.equal(seenResult("AAAA", storage), 2);
    assert.equal(tipsOn(storage), true);
    setTips(false, storage);
    assert.equal(tipsOn(storage), false);
  });

  test("storage that cannot be read is no seat, not an error", () => {
    const storage = new FakeStorage();
    storage.setItem("rummy21:seat:AAAA", "{not json");
    assert.equal(getSeat("AAAA", storage), null);
    assert.deepEqual(mySeats(storage), []);
  });
});

test("the service worker keeps every file the pages load", () => {
  const root = new URL("../../src/rummy21/server/static/", import.meta.url);
  const files = [];
  for (const entry of readdirSync(root, { recursive: true })) {
    const name = String(entry).replaceAll("\\", "/");
    if (/\.(js|css|html|svg)$/.test(name) && name !== "sw.js") files.push(`/static/${name}`);
  }
  const worker = readFileSync(new URL("sw.js", root), "utf8");
  const kept = [...worker.matchAll(/"(\/static\/[^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual([...new Set(kept)].sort(), files.sort());
});
