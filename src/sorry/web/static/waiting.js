// @ts-check
// The waiting room: every seat (invited, joined, bot), and for the host each invitation's
// link with a copy button and a QR code, a seat turned into a bot, and the start.

import { t, colourName, series } from "./i18n.js";
import { $, el } from "./panels.js";
import qrcode from "./vendor/qrcode.mjs";

/** @typedef {import("./types.js").SeatInfo} SeatInfo */
/** @typedef {import("./types.js").RoomInfo} RoomInfo */

const SVGNS = "http://www.w3.org/2000/svg";

/**
 * A QR code of `text` as an SVG element (drawn here, from the vendored encoder).
 * @param {string} text
 * @param {string} label
 */
export function qrSvg(text, label) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `-4 -4 ${n + 8} ${n + 8}`);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const bg = document.createElementNS(SVGNS, "rect");
  for (const [k, v] of Object.entries({ x: -4, y: -4, width: n + 8, height: n + 8, fill: "#fff" })) bg.setAttribute(k, String(v));
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c} ${r}h1v1h-1z`;
  const path = document.createElementNS(SVGNS, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(bg, path);
  return svg;
}

/**
 * @typedef {object} RoomActions
 * @property {() => void} start
 * @property {() => void} ready
 * @property {(colour: string, level: string) => void} bot
 */

/**
 * @param {RoomInfo} room
 * @param {SeatInfo[]} seats
 * @param {{seat: string | null, host: boolean, links: Record<string, string>, levels: string[], sentences?: Record<string, string>}} me
 * @param {RoomActions} act
 */
export function renderRoom(room, seats, me, act) {
  const panel = $("room");
  panel.hidden = room.started;
  if (room.started) return;
  const key = JSON.stringify([room, seats, me.seat, me.host, Object.keys(me.links)]);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const notes = {
    host: me.host ? t("Send each person their link. Start the game when everyone is here.") : t("The host starts the game when everyone is here."),
    full: t("The game starts when every seat is taken."),
    ready: t("The next game of the match starts when every player is ready."),
    now: "",
  };
  $("room-note").textContent = /** @type {Record<string, string>} */ (notes)[room.start] || "";
  const ul = $("room-seats");
  ul.replaceChildren();
  // a bot level's one sentence (sent in English by /api/meta) in the page's language
  const sentence = (/** @type {string} */ lv) => {
    const s = (me.sentences || {})[lv];
    return s ? t(s) : "";
  };
  /** The host's choice of a level for a seat nobody took, with its sentence under it. */
  const levelChoice = (/** @type {string} */ c) => {
    const level = /** @type {HTMLSelectElement} */ (el("select", { class: "bot-level", "aria-label": t("Bot level") }));
    for (const lv of me.levels) level.append(el("option", { value: lv, text: t(lv) }));
    level.value = me.levels[Math.min(2, me.levels.length - 1)];
    const note = el("p", { class: "level-note", "aria-live": "polite", text: sentence(level.value) });
    level.addEventListener("change", () => (note.textContent = sentence(level.value)));
    const bot = el("button", { type: "button", class: "make-bot", "data-colour": c, text: t("Play it with a bot") });
    bot.addEventListener("click", () => act.bot(c, level.value));
    return [el("div", { class: "row" }, level, bot), note];
  };
  for (const s of seats) {
    const c = s.colour;
    let state;
    if (s.kind === "bot") state = t("bot: {level}", { level: t(s.level || "") });
    else if (!s.claimed) state = s.open ? t("open seat: anyone in the lobby may take it") : t("invited, not here yet");
    else state = s.connected ? t("{name} is here", { name: s.name }) : t("{name} joined (not connected)", { name: s.name });
    if (room.start === "ready" && s.kind === "human") state += " · " + (s.ready ? t("ready") : t("not ready yet"));
    const li = el("li", { class: "room-seat", "data-colour": c }, el("span", { class: "dot bg-" + c, "aria-hidden": "true" }), el("strong", { class: "c-" + c, text: colourName(c) }), el("span", { text: " " + state }));
    const link = me.links[c];
    if (me.host && link && !s.claimed && s.kind === "human") {
      const field = /** @type {HTMLInputElement} */ (el("input", { class: "invite-link", "data-colour": c, value: link, readonly: true, "aria-label": t("Invitation link for {colour}", { colour: colourName(c) }) }));
      const copy = el("button", { type: "button", class: "copy-link", "data-colour": c, text: t("Copy link") });
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          field.select();
          document.execCommand("copy");
        }
        copy.textContent = t("Copied");
      });
      const qrBox = el("div", { class: "qr-box", hidden: true });
      const qrBtn = el("button", { type: "button", class: "show-qr", "data-colour": c, "aria-expanded": "false", text: t("QR code") });
      qrBtn.addEventListener("click", () => {
        if (!qrBox.childElementCount) qrBox.append(qrSvg(link, t("QR code of the invitation for {colour}", { colour: colourName(c) })));
        qrBox.hidden = !qrBox.hidden;
        qrBtn.setAttribute("aria-expanded", qrBox.hidden ? "false" : "true");
      });
      li.append(el("div", { class: "row" }, field, copy, qrBtn), qrBox, ...levelChoice(c));
    } else if (me.host && !s.claimed && s.kind === "human") {
      li.append(...levelChoice(c));
    }
    if (s.kind === "bot" && sentence(s.level || "")) li.append(el("p", { class: "level-note", text: sentence(s.level || "") }));
    ul.append(li);
  }
  const startBtn = $("start-btn");
  startBtn.hidden = !me.host;
  startBtn.onclick = act.start;
  const readyBtn = $("ready-btn");
  const mine = seats.find((s) => s.colour === me.seat);
  readyBtn.hidden = room.start !== "ready" || !mine || mine.ready;
  readyBtn.onclick = act.ready;
}

/**
 * Once the game has started, the seats nobody took yet (an invited friend who has not opened
 * the link, an open seat): who the game is waiting for, and for the host a button that gives
 * each such seat to a bot at once (its level the usual one).
 * @param {RoomInfo} room
 * @param {SeatInfo[]} seats
 * @param {string} status
 * @param {{host: boolean, levels: string[]}} me
 * @param {RoomActions} act
 */
export function renderAbsent(room, seats, status, me, act) {
  const panel = $("absent");
  const empty = room.started && status === "playing" ? seats.filter((s) => s.kind === "human" && !s.claimed) : [];
  panel.hidden = !empty.length;
  const key = JSON.stringify([empty.map((s) => s.colour), me.host]);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  if (!empty.length) return;
  const who = empty.map((s) => colourName(s.colour));
  $("absent-note").textContent =
    empty.length === 1
      ? t("Waiting for {colour}: invited, not here yet.", { colour: who[0] })
      : t("Waiting for {colours}: invited, not here yet.", { colours: series(who) });
  const level = me.levels[Math.min(2, me.levels.length - 1)];
  $("absent-buttons").replaceChildren(
    ...(me.host
      ? empty.map((s) =>
          el("button", {
            type: "button",
            class: "make-bot-now primary",
            "data-colour": s.colour,
            text: t("Let a bot play {colour}", { colour: colourName(s.colour) }),
            onclick: () => act.bot(s.colour, level),
          }),
        )
      : []),
  );
}
