// @ts-check
// The lobby: the form to create a game, the open games to join or watch, and the recently
// finished ones to replay.

import { t, colourName, series } from "./i18n.js";
import { api, creds, saveCreds } from "./net.js";
import { $, el } from "./panels.js";
import { mountLobby, addChoices } from "./account.js";

const COLOURS = ["R", "B", "Y", "G"];

/** @param {string} id @returns {HTMLSelectElement} */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id));
/** @param {string} id @returns {HTMLInputElement} */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

/** @param {string} value @param {string} text */
const option = (value, text) => el("option", { value, text });

/** The rule options that apply to the variant chosen are shown; the others are hidden. */
function showOptionsOf(/** @type {Record<string, string[]>} */ applies) {
  const variant = select("variant").value;
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ ($("options").querySelectorAll("select"))) {
    const name = sel.dataset.option || "";
    const label = /** @type {HTMLElement} */ (sel.closest("label"));
    label.hidden = !!applies[name] && !applies[name].includes(variant);
  }
}

/**
 * A bot level's one sentence (sorry.bots.LEVEL_TABLE, sent in English by /api/meta) in the
 * page's language; "" for a level without one.
 * @param {{level_sentences?: Record<string, string>}} meta
 * @param {string} level
 */
export function levelSentence(meta, level) {
  const s = (meta.level_sentences || {})[level];
  return s ? t(s) : "";
}

/** @param {any} [account] the logged-in account (GET /api/account), null for a guest */
export async function lobbyPage(account) {
  $("lobby-page").hidden = false;
  mountLobby(account || null);
  const meta = await api("/api/meta");
  const variant = select("variant");
  for (const v of meta.variants) variant.append(option(v, t(v)));
  const opts = $("options");
  // each option's label and values' words: the core's table (sorry.rules.OPTIONS)
  for (const [name, [label, values]] of Object.entries(meta.option_words)) {
    const sel = el("select", { "data-option": name });
    for (const [v, words] of /** @type {[string, string][]} */ (values)) sel.append(option(v, t(words)));
    opts.append(el("label", { text: t(label) + " " }, sel));
  }
  const applies = meta.option_variants || {};
  showOptionsOf(applies);
  variant.addEventListener("change", () => showOptionsOf(applies));
  const start = select("start-mode");
  start.append(option("host", t("when I start it")), option("full", t("when every seat is taken")), option("now", t("at once")));
  // a friend invited by default: the game starts when they come, never waiting for them mid-game
  start.value = "full";
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
    // how strong the chosen bot is, in one sentence, under the choice
    const note = el("p", { class: "level-note", id: "level-note-" + c, "aria-live": "polite" });
    const showLevel = () => {
      const v = /** @type {HTMLSelectElement} */ (sel).value;
      note.textContent = v.startsWith("bot:") ? levelSentence(meta, v.slice(4)) : "";
    };
    sel.addEventListener("change", showLevel);
    showLevel();
    seats.append(el("label", { class: "seat-choice" }, el("span", { class: "dot bg-" + c, "aria-hidden": "true" }), el("span", { class: "c-" + c, text: colourName(c) + " " }), sel), note);
  }
  variant.addEventListener("change", () => {
    if (variant.value !== "teams") return;
    for (const c of COLOURS) if (select("seat-" + c).value === "none") select("seat-" + c).value = "invite";
  });
  const kept = localStorage.getItem("sorry:name");
  if (kept) input("host-name").value = kept;
  quickPlay(meta);
  $("create-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    create(opts).catch((e) => ($("create-error").textContent = e.message));
  });
  await showLobby();
  showMine().catch(() => {});
  // the lobby keeps itself up to date while it is on screen
  window.setInterval(() => {
    if (!document.hidden) showLobby().catch(() => {});
  }, LOBBY_REFRESH_MS);
}

const LOBBY_REFRESH_MS = 10000;

/** The seats the computer plays against one person (Red), by how many opponents. */
const QUICK_SEATS = { 1: ["Y"], 2: ["B", "Y"], 3: ["B", "Y", "G"] };

/**
 * Play the computer in one tap: the player's name, how many opponents and their level
 * (remembered), the other choices the usual ones; the game starts at once.
 * @param {any} meta /api/meta
 */
function quickPlay(meta) {
  /** @type {{count?: number, level?: string}} */
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem("sorry:quick") || "{}") || {};
  } catch {
    kept = {};
  }
  const count = select("quick-count");
  for (const n of [1, 2, 3]) count.append(option(String(n), String(n)));
  count.value = String(kept.count && kept.count in QUICK_SEATS ? kept.count : 1);
  const level = select("quick-level");
  for (const lv of meta.bot_levels) level.append(option(lv, t(lv)));
  const levels = /** @type {string[]} */ (meta.bot_levels);
  level.value = kept.level && levels.includes(kept.level) ? kept.level : levels[Math.min(2, levels.length - 1)];
  const note = $("quick-level-note");
  const showLevel = () => (note.textContent = levelSentence(meta, level.value));
  level.addEventListener("change", showLevel);
  showLevel();
  const btn = /** @type {HTMLButtonElement} */ ($("quick-btn"));
  btn.addEventListener("click", () => {
    $("quick-error").textContent = "";
    btn.disabled = true;
    const n = Number(count.value);
    try {
      localStorage.setItem("sorry:quick", JSON.stringify({ count: n, level: level.value }));
    } catch {
      /* private mode */
    }
    const host = input("host-name").value.trim();
    const seats = [{ colour: "R", kind: "invite" }, ...(/** @type {Record<number, string[]>} */ (QUICK_SEATS)[n] || ["Y"]).map((c) => ({ colour: c, kind: "bot", level: level.value }))];
    const body = {
      name: t("{name}'s game", { name: host || t("Player") }),
      variant: "standard",
      public: false,
      options: {},
      seats,
      room: { start: "now", timer: 0, chat: true },
    };
    startGame(body, "R", host).catch((e) => {
      btn.disabled = false;
      $("quick-error").textContent = e.message;
    });
  });
}

/** @param {HTMLElement} opts */
async function create(opts) {
  $("create-error").textContent = "";
  const host = input("host-name").value.trim();
  /** @type {any} */
  const body = {
    // unnamed: named after its host, in the host's language
    name: input("game-name").value.trim() || t("{name}'s game", { name: host || t("Player") }),
    variant: select("variant").value,
    public: input("public").checked,
    options: {},
    seats: [],
    room: { start: select("start-mode").value, timer: Number(select("timer").value), chat: input("chat-on").checked },
  };
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (opts.querySelectorAll("select"))) {
    if (sel.selectedIndex !== 0 && !(/** @type {HTMLElement} */ (sel.closest("label")).hidden)) body.options[sel.dataset.option || ""] = sel.value;
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
  addChoices(body, me);
  await startGame(body, me, host);
}

/**
 * Make the game, take the host's own seat (if any) and go to it.
 * @param {any} body the POST /api/games body
 * @param {string | null} me the colour the host plays
 * @param {string} host the host's name
 */
async function startGame(body, me, host) {
  const res = await api("/api/games", body);
  /** @type {Record<string, string>} */
  const links = {};
  for (const s of res.seats) if (s.link && s.colour !== me) links[s.colour] = s.link;
  saveCreds(res.id, { host: res.host_token, links });
  if (me) {
    const mine = res.seats.find((/** @type {any} */ s) => s.colour === me);
    const name = host || t("Player");
    localStorage.setItem("sorry:name", name);
    const joined = await api(`/api/games/${res.id}/join`, { seat: me, name, token: mine.token });
    saveCreds(res.id, { seat: me, token: joined.token, joined: true });
  }
  location.href = "/g/" + res.id;
}

/** At most this many of the player's own games are listed. */
const MINE_SHOWN = 8;

/**
 * The games this browser holds a seat in that are not over (a game left, against the
 * computer, waits there for its player), newest first as far as the browser remembers.
 */
async function showMine() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i) || "";
    const id = key.slice("sorry:".length);
    if (key.startsWith("sorry:") && /^[\w-]{8,}$/.test(id) && creds(id).token && creds(id).seat) ids.push(id);
  }
  /** @type {any[]} */
  const games = [];
  for (const id of ids.reverse()) {
    if (games.length >= MINE_SHOWN) break;
    let g;
    try {
      g = await api("/api/games/" + id);
    } catch {
      continue; // gone (a server's database started anew)
    }
    if (g.status !== "over") games.push(g);
  }
  const list = $("my-games");
  list.replaceChildren(
    ...games.map((g) => {
      const seat = creds(g.id).seat;
      const state = g.room && !g.room.started ? t("waiting to start") : g.to_move === seat ? t("Your turn") : t("turn {n}", { n: g.turn });
      return el(
        "li",
        { class: "game-card" },
        el("div", { class: "game-title" }, el("strong", { text: g.name }), el("span", { class: "variant", text: t(g.variant) })),
        el("div", { class: "row" }, el("span", { class: "game-state", text: state }), el("a", { class: "button", href: "/g/" + g.id, text: t("Back to the game") })),
      );
    }),
  );
  $("mine").hidden = !games.length;
}

async function showLobby() {
  const lobby = await api("/api/games");
  const open = $("open-games");
  const done = $("finished-games");
  const key = JSON.stringify(lobby.games);
  if (open.dataset.key === key) return; // unchanged: keep the focus where it is
  open.dataset.key = key;
  open.replaceChildren();
  done.replaceChildren();
  for (const g of lobby.games) {
    const over = g.status === "over";
    const free = g.seats.filter((/** @type {any} */ s) => s.open && !s.claimed);
    // each seat: its colour as a dot and (for screen readers) in words, then who sits there
    const players = g.seats.map((/** @type {any} */ s) =>
      el(
        "span",
        { class: "who c-" + s.colour },
        el("span", { class: "dot bg-" + s.colour, "aria-hidden": "true" }),
        el("span", { class: "sr-only", text: colourName(s.colour) + ": " }),
        s.kind === "bot" ? t("bot: {level}", { level: t(s.level) }) : s.claimed ? s.name : s.open ? t("open seat") : t("invited"),
      ),
    );
    const outcome = over
      ? g.winners.length
        ? t("{names} won!", { names: series(g.winners.map(colourName)) })
        : t("Game over")
      : g.room && !g.room.started
        ? t("waiting to start")
        : t("turn {n}", { n: g.turn });
    // who resigned, as the game page says it: "Yellow won! Red resigned."
    const gone = g.seats.filter((/** @type {any} */ s) => s.resigned).map((/** @type {any} */ s) => colourName(s.colour));
    const resigned = gone.length ? t("{names} resigned.", { names: series(gone) }) : "";
    const state = resigned ? (over ? outcome + " " + resigned : outcome + " · " + resigned) : outcome;
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
