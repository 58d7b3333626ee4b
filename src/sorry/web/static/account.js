// @ts-check
// The account in the lobby and the game page: the session (its CSRF token goes with every
// request net.js makes), the header's links, the new-game form's rated and correspondence
// choices and invitation by name, "your turn in N games", the seat an account holds (its
// session opens it: no link needed), the rating change on the end screen, hidden chat of
// blocked players and reporting a chat line. The players' own pages are people.js's.

import { t, tn, colourName } from "./i18n.js";
import { setCsrf, csrfToken } from "./net.js";
import { $, el } from "./panels.js";

/** @typedef {import("./types.js").SeatInfo} SeatInfo */

/** The logged-in account (null: a guest) and the names it blocked. */
export const me = { name: /** @type {string | null} */ (null), blocked: /** @type {Set<string>} */ (new Set()) };

/** The per-move times of a correspondence game (seconds) and their words. */
const PER_MOVE = [
  [3600, "1 hour a move"],
  [6 * 3600, "6 hours a move"],
  [12 * 3600, "12 hours a move"],
  [86400, "1 day a move"],
  [2 * 86400, "2 days a move"],
  [3 * 86400, "3 days a move"],
];

/** Read the session, put the account's links in the header. */
export async function loadSession() {
  try {
    const r = await fetch("/api/session", { credentials: "same-origin" });
    const s = await r.json();
    if (s.account) {
      me.name = s.account.name;
      setCsrf(s.csrf || "");
    }
  } catch {
    /* no session: a guest */
  }
  const header = document.querySelector("header");
  // the lobby: the leaderboard and the account; a game's page, where the header is full
  // already: the account only (a guest's none)
  const inGame = location.pathname.startsWith("/g/");
  if (header && (me.name || !inGame)) {
    const nav = el("nav", { class: "people-nav", "aria-label": t("Players") });
    if (!inGame) nav.append(el("a", { href: "/leaderboard", class: "wide", text: t("Leaderboard") }));
    nav.append(el("a", { id: "nav-account", href: me.name ? "/u/" + encodeURIComponent(me.name) : "/account", text: me.name || t("Log in") }));
    const menu = header.querySelector(".lang-menu");
    header.insertBefore(nav, menu);
  }
  if (me.name) {
    try {
      const r = await fetch("/api/account", { credentials: "same-origin" });
      const a = await r.json();
      me.blocked = new Set(a.blocked || []);
      return a;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The lobby: the rated and correspondence choices under the seats, invitation by name, and
 * the games waiting for this account.
 * @param {any} account GET /api/account (null: a guest)
 */
export function mountLobby(account) {
  const form = $("create-form");
  const submit = $("create-btn");
  const pace = el("select", { id: "per-move" });
  pace.append(el("option", { value: "0", text: t("Live: everyone on the page") }));
  for (const [s, words] of PER_MOVE) pace.append(el("option", { value: String(s), text: t(String(words)) }));
  const paceLabel = el("label", {}, t("Pace") + " ", pace);
  const onTimeout = el("select", { id: "on-timeout" });
  onTimeout.append(el("option", { value: "wait", text: t("the game waits for them") }), el("option", { value: "bot", text: t("a bot plays for them") }));
  const timeoutLabel = el("label", { id: "on-timeout-label", hidden: true }, t("When a move's time runs out") + " ", onTimeout);
  pace.addEventListener("change", () => {
    const slow = /** @type {HTMLSelectElement} */ (pace).value !== "0";
    timeoutLabel.hidden = !slow;
    const timer = /** @type {HTMLSelectElement} */ ($("timer"));
    timer.disabled = slow;
    if (slow) timer.value = "0";
  });
  const timerLabel = /** @type {HTMLElement} */ ($("timer").closest("label"));
  form.insertBefore(paceLabel, timerLabel);
  form.insertBefore(timeoutLabel, timerLabel);
  if (me.name) {
    const host = /** @type {HTMLInputElement} */ ($("host-name"));
    if (!host.value) host.value = me.name;
    const rated = el("input", { type: "checkbox", id: "rated" });
    form.insertBefore(el("label", { class: "check" }, rated, " " + t("Rated (every player needs an account)")), submit);
    const invite = el("input", { id: "invite-account", maxlength: "20", autocomplete: "off", value: new URLSearchParams(location.search).get("invite") || "" });
    form.insertBefore(el("label", {}, t("Invite an account by name (the first invited seat)") + " ", invite), submit);
  } else {
    form.insertBefore(el("p", {}, el("a", { href: "/account?next=/", text: t("Log in to play rated games and keep your games.") })), submit);
  }
  if (account) {
    const turn = account.your_turn || [];
    const invited = account.invitations || [];
    const box = el("div", { id: "waiting-for-you" });
    if (turn.length) box.append(el("p", { class: "your-turn" }, el("a", { href: "/g/" + turn[0], text: tn("Your turn in {n} game", "Your turn in {n} games", turn.length) })));
    for (const id of invited) box.append(el("p", {}, el("a", { href: "/g/" + id, text: t("Open the game you are invited to") })));
    $("lobby").prepend(box);
  }
}

/**
 * What the new-game form adds for accounts: the room's choices and the invited account.
 * @param {any} body the POST /api/games body being built
 * @param {string | null} mine the colour the host plays
 */
export function addChoices(body, mine) {
  const pace = Number(/** @type {HTMLSelectElement} */ ($("per-move")).value);
  if (pace) {
    body.room.per_move = pace;
    body.room.on_timeout = /** @type {HTMLSelectElement} */ ($("on-timeout")).value;
    body.room.timer = 0;
  }
  const rated = /** @type {HTMLInputElement | null} */ (document.getElementById("rated"));
  if (rated && rated.checked) body.room.rated = true;
  const invite = /** @type {HTMLInputElement | null} */ (document.getElementById("invite-account"));
  const name = invite ? invite.value.trim() : "";
  if (name) {
    const seat = body.seats.find((/** @type {any} */ s) => s.kind === "invite" && s.colour !== mine);
    if (seat) seat.account = name;
  }
}

/**
 * The seat this account holds in a game, if any (its session opens it).
 * @param {{seats: SeatInfo[]}} summary
 */
export function heldSeat(summary) {
  if (!me.name) return null;
  const s = summary.seats.find((x) => x.account === me.name);
  return s ? s.colour : null;
}

/** Colours whose chat is hidden: the seats of accounts this account blocked. @param {SeatInfo[]} seats @param {Set<string>} muted */
export function withBlocked(muted, seats) {
  if (!me.blocked.size) return muted;
  const out = new Set(muted);
  for (const s of seats) if (s.account && me.blocked.has(s.account)) out.add(s.colour);
  return out;
}

let ratingsShown = "";

/**
 * The end screen of a rated game: each account's rating change (asked again while the
 * server is still rating it).
 * @param {string} gameId
 * @param {boolean} over
 * @param {boolean} rated
 */
export function showRatingChange(gameId, over, rated) {
  const panel = document.getElementById("over-panel");
  if (!panel || !over || !rated || ratingsShown === gameId) return;
  ratingsShown = gameId;
  let box = document.getElementById("rating-change");
  if (!box) {
    box = el("ul", { id: "rating-change", class: "plain-list", "aria-live": "polite" });
    panel.insertBefore(box, $("match").nextSibling);
  }
  const target = box;
  let tries = 0;
  const ask = async () => {
    const r = await fetch(`/api/games/${gameId}/ratings`);
    const data = await r.json();
    if (data.pending && tries++ < 30) {
      setTimeout(ask, 1000);
      return;
    }
    target.replaceChildren(
      ...data.changes.map((/** @type {any} */ c) => {
        const sign = c.delta >= 0 ? "+" : "−";
        const line = t("{name} ({colour}): {before} → {after} ({change})", {
          name: c.name,
          colour: colourName(c.colour),
          before: c.before,
          after: c.after,
          change: sign + Math.abs(c.delta),
        });
        return el("li", { class: c.delta >= 0 ? "delta-up" : "delta-down", "data-colour": c.colour, text: line });
      }),
    );
  };
  ask().catch(() => {});
}

/** The chat lines reported from this page ("game:n"): the chat is drawn again at each new
 * line, and a line reported stays reported. */
const reported = new Set();

/**
 * A report button on each chat line of a seat held by another account (logged in only).
 * @param {string} gameId
 * @param {SeatInfo[]} seats
 */
export function reportButtons(gameId, seats) {
  if (!me.name) return;
  for (const li of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#chat-log li[data-n]"))) {
    if (li.querySelector(".report")) continue;
    const colour = li.dataset.colour || "";
    const seat = seats.find((s) => s.colour === colour);
    if (!seat || !seat.account || seat.account === me.name) continue;
    const n = Number(li.dataset.n);
    const key = `${gameId}:${n}`;
    const b = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "report link", text: t("Report") }));
    if (reported.has(key)) {
      b.textContent = t("Reported");
      b.disabled = true;
    }
    b.addEventListener("click", async () => {
      b.disabled = true;
      const r = await fetch(`/api/games/${gameId}/report`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
        body: JSON.stringify({ n }),
      });
      if (r.ok) reported.add(key);
      b.textContent = r.ok ? t("Reported") : t("Something went wrong.");
    });
    li.append(b);
  }
}
