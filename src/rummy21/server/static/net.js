// The pages' network: JSON requests to the API, and the table's WebSocket (hello with the seat's
// token, numbered requests matched to their replies, reconnecting by itself with a growing pause
// unless the server closed for good).

// A request the server refused: its message, and the HTTP status (403: not allowed, …).
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(path, options = {}) {
  const init = { ...options, headers: { "content-type": "application/json", ...(options.headers || {}) } };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error || data?.detail || `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status);
  }
  return data;
}

// Close codes after which the page does not reconnect by itself, and what it says.
export const ENDINGS = {
  4404: "There is no such table.",
  4401: "This browser's seat key is not valid at this table.",
  4429: "Too many attempts from this address: wait a minute and reload.",
  4409: "This seat is open in another window: reload to play here.",
  4410: "This table could not be restored after a server problem and has been set aside; its finished deals can still be replayed from its history.",
};

// The pause before the n-th attempt in a row to reconnect (n from 1), in ms.
export const backoff = (n) => 250 * 2 ** Math.min(n, 5);

// One table's socket. ``onMessage(msg, handled)`` gets every message from the server (``handled``:
// a reply someone waits for); ``onClose()`` each lost connection; ``onEnd(text)`` a close for good.
// ``WebSocket`` and ``setTimeout`` may be replaced (tests).
export function openSocket(
  url,
  token,
  { onMessage, onClose, onEnd, WebSocket: Socket = globalThis.WebSocket, later = globalThis.setTimeout },
) {
  let ws = null;
  let nextId = 1;
  let retry = 0;
  const pending = new Map(); // message id -> callback(reply)

  function connect() {
    ws = new Socket(url);
    ws.onopen = () => {
      retry = 0;
      ws.send(JSON.stringify({ type: "hello", token, id: 0 }));
    };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      const handler = msg.id !== undefined && msg.id !== null ? pending.get(msg.id) : null;
      if (handler) pending.delete(msg.id);
      onMessage(msg, !!handler);
      if (handler) handler(msg);
    };
    ws.onclose = (event) => {
      for (const [id, handler] of pending) {
        pending.delete(id);
        handler({ type: "error", error: "connection lost" });
      }
      const ended = ENDINGS[event.code];
      if (ended) {
        onEnd(ended);
        return;
      }
      onClose();
      retry += 1;
      later(connect, backoff(retry));
    };
  }

  connect();
  return {
    open: () => ws?.readyState === 1,
    // Send a message; ``onReply`` gets the reply to it. Returns its id, or null when not connected.
    send(message, onReply) {
      if (ws?.readyState !== 1) return null;
      const id = nextId++;
      if (onReply) pending.set(id, onReply);
      ws.send(JSON.stringify({ ...message, id }));
      return id;
    },
  };
}
