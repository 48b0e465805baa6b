// The modules the table page imports link under Node as they do in the browser: every name a
// module imports from another one exists (hand.js imports from cards.js and layout.js; it needs
// no DOM until createHand is called).
import assert from "node:assert/strict";
import { test } from "node:test";

test("hand.js links against cards.js and layout.js", async () => {
  const hand = await import("/static/hand.js");
  assert.equal(typeof hand.createHand, "function");
});

test("an unknown /static/ module is an error, not a silent pass", async () => {
  await assert.rejects(import("/static/no-such-module.js"), { code: "ERR_MODULE_NOT_FOUND" });
});
