// @ts-check
// The connection to the server and the last state it sent. The server is authoritative: the
// page only shows what it is sent and sends back one of the legal moves it was given, with
// the sequence number it saw.

import { t } from "./i18n.js";

/** @typedef {import("./types.js").StateMessage} StateMessage */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").ChatLine} ChatLine */

/** Chat lines and reactions kept while the connection is down: a connection may send four at
 * once (sorry.web.chat.BURST). */
const OUTBOX = 4;

/** The account session's CSRF token (account.js): requests made for an account carry it. */
let csrf = "";

/** @param {string} token */
export function setCsrf(token) {
  csrf = token;
}

export function csrfToken() {
  return csrf;
}

/**
 * @param {string} path
 * @param {unknown} [body] POSTed as JSON when given
 * @returns {Promise<any>}
 */
export async function api(path, body) {
  /** @type {Record<string, string>} */
  const headers = csrf ? { "X-CSRF-Token": csrf } : {};
  /** @type {RequestInit} */
  const opts =
    body === undefined
      ? { headers }
      : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: r.statusText }));
  // the server's errors are English; the ones a player can meet are in the page's catalog
  if (!r.ok) throw new Error(t(data.error || r.statusText));
  return data;
}

/**
 * What this browser keeps per game: the seat and its token, and for the game's host the
 * host token and the invitation links.
 * @typedef {{seat?: string, token?: string, joined?: boolean, host?: string,
 *   links?: Record<string, string>}} Creds
 */

/** @param {string} id @returns {Creds} */
export function creds(id) {
  try {
    return JSON.parse(localStorage.getItem("sorry:" + id) || "null") || {};
  } catch {
    return {};
  }
}

/** @param {string} id @param {Creds} c */
export function saveCreds(id, c) {
  try {
    localStorage.setItem("sorry:" + id, JSON.stringify({ ...creds(id), ...c }));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

/** @param {string} id */
export function forgetSeat(id) {
  const c = creds(id);
  delete c.seat;
  delete c.token;
  delete c.joined;
  try {
    localStorage.setItem("sorry:" + id, JSON.stringify(c));
  } catch {
    /* private mode */
  }
}

export class Connection {
  /**
   * @param {string} id the game
   * @param {(m: ServerMessage) => void} onMessage
   * @param {(up: boolean) => void} onStatus
   */
  constructor(id, onMessage, onStatus) {
    this.id = id;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {string | null} */
    this.seat = null;
    /** @type {string | null} */
    this.token = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.retry = 0;
    /** @type {StateMessage | null} the last state, deltas applied (see expand) */
    this.state = null;
    /** @type {ClientMessage[]} chat lines and reactions sent while the socket was not open */
    this.outbox = [];
  }

  /** Sit at a seat (or watch with null), reconnecting with the new identity. */
  identify(/** @type {string | null} */ seat, /** @type {string | null} */ token) {
    this.seat = seat;
    this.token = token;
    if (this.ws) this.ws.close();
    else this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${this.id}`);
    this.ws = ws;
    this.state = null; // a new connection starts with a whole state
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus(true);
      /** @type {ClientMessage} */
      // a seat without a token: the seat the session's account holds (account.js)
      const hello = this.seat ? (this.token ? { type: "hello", seat: this.seat, token: this.token } : { type: "hello", seat: this.seat }) : { type: "hello" };
      ws.send(JSON.stringify(hello));
      for (const msg of this.outbox.splice(0)) ws.send(JSON.stringify(msg));
    };
    ws.onmessage = (ev) => {
      const m = this.expand(JSON.parse(ev.data));
      if (m) this.onMessage(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onStatus(false);
      setTimeout(() => this.open(), Math.min(5000, 300 * 2 ** this.retry++));
    };
  }

  /**
   * The server sends the whole state after hello and resync, then only what changed: a
   * delta becomes here the state it leads to (its fields replace the last state's, the
   * view's field by field; its `last` is the move it adds to the log), so the page only ever
   * sees whole states. sorry.web.protocol.apply_delta is the same in Python.
   * @param {ServerMessage} m
   * @returns {ServerMessage | null}
   */
  expand(m) {
    if (m.type === "state") {
      this.state = m;
    } else if (m.type === "seats" && this.state) {
      this.state = { ...this.state, seats: m.seats };
    } else if (m.type === "delta") {
      const prev = this.state;
      if (!prev) {
        this.send({ type: "resync" }); // nothing to apply it to: ask for the whole state
        return null;
      }
      /** @type {StateMessage} */
      const next = { ...prev, ...m, type: "state", view: m.view ? { ...prev.view, ...m.view } : prev.view };
      delete next.log;
      this.state = next;
      return next;
    }
    return m;
  }

  /** @param {ClientMessage} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /**
   * Send now, or as soon as the connection is back: what a person wrote is not lost to a
   * reconnection (at most OUTBOX waiting, what a connection may send at once).
   * @param {ClientMessage} msg
   */
  sendSoon(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (this.outbox.length < OUTBOX) this.outbox.push(msg);
  }
}

/**
 * The game as the server last told it: the state message, the whole log and the chat.
 */
export class GameStore {
  constructor() {
    /** @type {StateMessage | null} */
    this.state = null;
    /** @type {LogEntry[]} */
    this.log = [];
    /** @type {ChatLine[]} */
    this.chat = [];
    /** @type {string | null} */
    this.role = null;
    /** the state before the last one (for what changed) */
    /** @type {StateMessage | null} */
    this.previous = null;
  }

  /**
   * Take in a message; returns the log entry it added, if any.
   * @param {ServerMessage} m
   * @returns {LogEntry | null}
   */
  apply(m) {
    if (m.type === "welcome") this.role = m.role;
    else if (m.type === "state") {
      let added = null;
      if (m.log) this.log = m.log;
      else if (m.last && (!this.log.length || this.log[this.log.length - 1].seq < m.last.seq)) {
        this.log.push(m.last);
        added = m.last;
      }
      this.previous = this.state;
      this.state = m;
      return added;
    } else if (m.type === "seats" && this.state) this.state = { ...this.state, seats: m.seats };
    else if (m.type === "chat") {
      if (!this.chat.some((c) => c.n === m.message.n)) this.chat.push(m.message);
      if (this.chat.length > 200) this.chat.shift();
    } else if (m.type === "chat_history") this.chat = m.messages;
    return null;
  }
}
