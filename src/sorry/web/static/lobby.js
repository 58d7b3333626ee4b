// @ts-check
// The lobby: the form to create a game, the open games to join or watch, and the recently
// finished ones to replay.

import { t, colourName } from "./i18n.js";
import { api, saveCreds } from "./net.js";
import { $, el } from "./panels.js";

const COLOURS = ["R", "B", "Y", "G"];

/** @param {string} id @returns {HTMLSelectElement} */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id));
/** @param {string} id @returns {HTMLInputElement} */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

/** @param {string} value @param {string} text */
const option = (value, text) => el("option", { value, text });

export async function lobbyPage() {
  $("lobby-page").hidden = false;
  const meta = await api("/api/meta");
  const variant = select("variant");
  for (const v of meta.variants) variant.append(option(v, t(v)));
  const opts = $("options");
  for (const [name, values] of Object.entries(meta.options)) {
    if (name === "turn_limit") continue;
    const sel = el("select", { "data-option": name });
    for (const v of /** @type {string[]} */ (values)) sel.append(option(v, t(v)));
    opts.append(el("label", { text: t(name) + " " }, sel));
  }
  const start = select("start-mode");
  start.append(option("host", t("when I start it")), option("full", t("when every seat is taken")), option("now", t("at once")));
  const timer = select("timer");
  timer.append(option("0", t("none")), option("30", t("{s} seconds", { s: 30 })), option("60", t("{s} seconds", { s: 60 })), option("120", t("2 minutes")));
  const seats = $("seat-choices");
  /** @type {Record<string, string>} */
  const defaults = { R: "me", B: "invite", Y: "bot:" + meta.bot_levels[Math.min(2, meta.bot_levels.length - 1)], G: "none" };
  for (const c of COLOURS) {
    const sel = el("select", { id: "seat-" + c });
    sel.append(option("none", t("not playing")), option("me", t("me")), option("invite", t("invite a person")), option("open", t("open seat (lobby)")));
    for (const lv of meta.bot_levels) sel.append(option("bot:" + lv, t("bot: {level}", { level: t(lv) })));
    /** @type {HTMLSelectElement} */ (sel).value = defaults[c];
    seats.append(el("label", { class: "seat-choice" }, el("span", { class: "dot bg-" + c, "aria-hidden": "true" }), el("span", { class: "c-" + c, text: colourName(c) + " " }), sel));
  }
  variant.addEventListener("change", () => {
    if (variant.value !== "teams") return;
    for (const c of COLOURS) if (select("seat-" + c).value === "none") select("seat-" + c).value = "invite";
  });
  const kept = localStorage.getItem("sorry:name");
  if (kept) input("host-name").value = kept;
  $("create-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    create(opts).catch((e) => ($("create-error").textContent = e.message));
  });
  await showLobby();
}

/** @param {HTMLElement} opts */
async function create(opts) {
  $("create-error").textContent = "";
  /** @type {any} */
  const body = {
    name: input("game-name").value,
    variant: select("variant").value,
    public: input("public").checked,
    options: {},
    seats: [],
    room: { start: select("start-mode").value, timer: Number(select("timer").value), chat: input("chat-on").checked },
  };
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (opts.querySelectorAll("select"))) {
    if (sel.selectedIndex !== 0) body.options[sel.dataset.option || ""] = sel.value;
  }
  let me = null;
  for (const c of COLOURS) {
    const v = select("seat-" + c).value;
    if (v === "none") continue;
    if (v === "me") {
      if (me) throw new Error(t("choose 'me' once"));
      me = c;
    }
    if (v.startsWith("bot:")) body.seats.push({ colour: c, kind: "bot", level: v.slice(4) });
    else body.seats.push({ colour: c, kind: v === "open" ? "open" : "invite" });
  }
  const res = await api("/api/games", body);
  /** @type {Record<string, string>} */
  const links = {};
  for (const s of res.seats) if (s.link && s.colour !== me) links[s.colour] = s.link;
  saveCreds(res.id, { host: res.host_token, links });
  if (me) {
    const mine = res.seats.find((/** @type {any} */ s) => s.colour === me);
    const name = input("host-name").value.trim() || t("Player");
    localStorage.setItem("sorry:name", name);
    const joined = await api(`/api/games/${res.id}/join`, { seat: me, name, token: mine.token });
    saveCreds(res.id, { seat: me, token: joined.token, joined: true });
  }
  location.href = "/g/" + res.id;
}

async function showLobby() {
  const lobby = await api("/api/games");
  const open = $("open-games");
  const done = $("finished-games");
  open.replaceChildren();
  done.replaceChildren();
  for (const g of lobby.games) {
    const over = g.status === "over";
    const free = g.seats.filter((/** @type {any} */ s) => s.open && !s.claimed);
    const players = g.seats.map((/** @type {any} */ s) =>
      el("span", { class: "who c-" + s.colour, text: s.kind === "bot" ? t("bot: {level}", { level: t(s.level) }) : s.claimed ? s.name : s.open ? t("open seat") : t("invited") }),
    );
    const state = over
      ? g.winners.length
        ? t("{names} won!", { names: g.winners.map(colourName).join(" + ") })
        : t("Game over")
      : g.room && !g.room.started
        ? t("waiting to start")
        : t("turn {n}", { n: g.turn });
    const action = over ? t("Replay") : free.length ? t("Join") : t("Watch");
    const li = el(
      "li",
      { class: "game-card" },
      el("div", { class: "game-title" }, el("strong", { text: g.name }), el("span", { class: "variant", text: t(g.variant) })),
      el("div", { class: "players" }, ...players),
      el("div", { class: "row" }, el("span", { class: "game-state", text: state }), el("a", { class: "button", href: "/g/" + g.id, text: action })),
    );
    (over ? done : open).append(li);
  }
  if (!open.children.length) open.append(el("li", { text: t("No open games right now.") }));
  if (!done.children.length) done.append(el("li", { text: t("No finished games yet.") }));
}
