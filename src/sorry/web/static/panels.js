// @ts-check
// The panels around the board, each drawn from what is shown (the live game or a replay
// frame) and a little UI state: the turn banner, the waiting room, the actions, the seats,
// the move list, the log, the end of the game, the chat. Text from people is only ever
// put in the page with textContent.

import { t, tn, colourName, series } from "./i18n.js";
import { cardName } from "./board.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").SeatInfo} SeatInfo */
/** @typedef {import("./types.js").MoveChance} MoveChance */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").LegalMove} LegalMove */
/** @typedef {import("./types.js").ChatLine} ChatLine */
/** @typedef {import("./types.js").RoomInfo} RoomInfo */

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error("missing #" + id);
  return e;
}

/**
 * @param {string} tag
 * @param {Record<string, any>} [attrs] "text" sets textContent; "on..." adds a listener
 * @param {...(Node | string)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = String(v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  e.append(...children);
  return e;
}

/**
 * What the page shows: the live game, or a frame of the replay, in one shape.
 * @typedef {object} Shown
 * @property {View} view
 * @property {SeatInfo[]} seats
 * @property {string} status
 * @property {LogEntry[]} log
 * @property {LogEntry | null} last
 * @property {Record<string, string[]> | null} hands
 * @property {boolean} replay
 * @property {RoomInfo} room
 * @property {string[][] | null} teams
 */

/** @param {string[]} colours */
const names = (colours) => series(colours.map((c) => colourName(c)));

/**
 * @param {Shown} s
 * @param {string | null} seat
 * @param {number | null} secondsLeft
 */
export function renderBanner(s, seat, secondsLeft) {
  const v = s.view;
  const banner = $("banner");
  let text;
  let mine = false;
  if (!s.room.started) text = t("Waiting for the start");
  else if (s.status === "over") text = v.winners.length ? t("{names} won!", { names: names(v.winners) }) : t("Game over");
  else if (seat && v.to_move === seat && !s.replay) {
    text = t("Your turn");
    mine = true;
  } else text = t("{colour} to move", { colour: colourName(v.to_move) });
  if (s.replay) text = t("Replay: {text}", { text });
  $("status").textContent = text;
  $("seat-note").textContent = seat ? t(" — you are {colour}", { colour: colourName(seat) }) : s.replay ? "" : t(" — watching");
  banner.className = "turn-" + (s.status === "over" && v.winners.length ? v.winners[0] : v.to_move) + (mine ? " mine" : "");
  const clock = $("clock");
  clock.hidden = secondsLeft === null || s.replay;
  if (secondsLeft !== null) {
    clock.textContent = t("{s} s", { s: Math.ceil(secondsLeft) });
    clock.classList.toggle("low", secondsLeft <= 10);
    clock.setAttribute("aria-label", t("{s} seconds left", { s: Math.ceil(secondsLeft) }));
    if (secondsLeft >= 600) {
      // a correspondence game's move: hours (and days) left
      const h = Math.floor(secondsLeft / 3600);
      const m = Math.floor((secondsLeft % 3600) / 60);
      clock.textContent = h >= 48 ? t("{d} d {h} h", { d: Math.floor(h / 24), h: h % 24 }) : t("{h} h {m} min", { h, m });
      clock.setAttribute("aria-label", t("{h} h {m} min left", { h, m }));
    }
  }
}

/**
 * @param {Shown} s
 * @param {string | null} seat
 * @param {Set<string>} muted
 * @param {(key: string) => void} toggleMute
 */
export function renderSeats(s, seat, muted, toggleMute) {
  const ul = $("seats");
  ul.replaceChildren();
  const v = s.view;
  /** @type {Record<string, string>} */
  const partner = {};
  for (const team of s.teams || []) for (const c of team) partner[c] = team.find((x) => x !== c) || c;
  for (const info of s.seats) {
    const c = info.colour;
    // a seat nobody took has no name yet (its tag says invited or open)
    const who = info.kind === "bot" ? t("bot: {level}", { level: t(info.level || "") }) : info.claimed ? info.name : "";
    const tags = [];
    if (c === seat) tags.push(t("you"));
    if (info.kind !== "bot" && !info.claimed) tags.push(info.open ? t("open seat") : t("invited"));
    else if (info.away) tags.push(t("away"));
    else if (info.kind !== "bot" && !info.connected) tags.push(t("disconnected"));
    if (info.bot_playing || info.away) tags.push(t("a bot is playing for them"));
    if (partner[c]) tags.push(t("partner: {colour}", { colour: colourName(partner[c]) }));
    if (v.variant === "points") tags.push(tn("{n} card", "{n} cards", v.hand_sizes[c] || 0));
    if (v.scores && c in v.scores) tags.push(t("{n} points", { n: v.scores[c] }));
    const home = (v.pawns[c] || []).filter((l) => l === "H").length;
    tags.push(t("{n} of 4 home", { n: home }));
    const li = el(
      "li",
      { class: "seat" + (v.to_move === c && s.status === "playing" && s.room.started ? " to-move" : ""), "data-colour": c },
      el("span", { class: "dot bg-" + c, "aria-hidden": "true" }),
      el("span", { class: "seat-colour c-" + c, text: colourName(c) }),
      el("span", { class: "seat-name", text: who }),
    );
    if (info.kind === "human" && c !== seat && info.claimed) {
      const on = muted.has(c);
      li.append(
        el("button", {
          type: "button",
          class: "mute",
          "aria-pressed": on ? "true" : "false",
          "aria-label": on ? t("Unmute {name}", { name: info.name }) : t("Mute {name}", { name: info.name }),
          text: on ? t("Unmute") : t("Mute"),
          onclick: () => toggleMute(c),
        }),
      );
    }
    li.append(el("span", { class: "tags", text: tags.join(" · ") }));
    if (s.hands && s.hands[c] && s.hands[c].length) {
      li.append(el("span", { class: "revealed", text: t("hand: {cards}", { cards: s.hands[c].map(cardName).join(" ") }) }));
    }
    ul.append(li);
  }
  if (s.teams) ul.append(el("li", { class: "teams", text: t("Teams: {teams}", { teams: s.teams.map(names).join(t(" against ")) }) }));
  const pile = [];
  pile.push(tn("{n} card to draw", "{n} cards to draw", v.draw_count));
  if (v.discard_pile.length) pile.push(t("last played: {card}", { card: cardName(v.discard_pile[v.discard_pile.length - 1]) }));
  $("pile").textContent = pile.join(" · ");
  // the points variant: how the points beside each player are scored
  $("points-note").textContent =
    v.variant === "points" && s.status !== "over"
      ? t("Points: 5 for each of your pawns HOME. The player who brings their fourth pawn HOME also scores 5 for each opponent's pawn not HOME, and a bonus: 100 if no opponent has a pawn HOME, 50 if none has more than one, 25 if none has more than two.")
      : "";
}

/**
 * @param {LogEntry} e
 * @param {string} variant
 */
export function logLine(e, variant) {
  const who =
    e.actor === "bot" ? t(" (bot)") : e.actor === "takeover" ? t(" (bot for player)") : e.actor === "timeout" ? t(" (bot, time ran out)") : "";
  // e.text says the move without the mover (the sentence names them)
  const player = colourName(e.colour) + who;
  // a pass with no other move (any card but an 11, which may be declined): said as such
  if (e.move === "pass" && e.card && (e.actor === "forced" || e.card !== "11")) return t("{player} draws {card}: no move, the turn passes.", { player, card: cardName(e.card) });
  if (e.card && variant !== "points") return t("{player} draws {card}: {move}", { player, card: cardName(e.card), move: e.text });
  return t("{player}: {move}", { player, move: e.text });
}

/**
 * The log, numbered by the server's sequence numbers (at any width).
 * @param {LogEntry[]} log
 * @param {string} variant
 */
export function renderLog(log, variant) {
  const ol = $("log");
  const key = `${log.length}:${log.length ? log[log.length - 1].seq : 0}:${variant}`;
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  ol.replaceChildren(
    ...log.map((e) =>
      el("li", { class: "c-" + e.colour, "data-seq": e.seq }, el("span", { class: "n", text: String(e.seq) }), el("span", { text: logLine(e, variant) })),
    ),
  );
  ol.scrollTop = ol.scrollHeight;
  $("log-panel").hidden = !log.length;
}

/**
 * The list of every legal move (the keyboard's and screen reader's way to play).
 * @param {LegalMove[]} moves
 * @param {(m: LegalMove) => void} play
 * @param {(m: LegalMove | null) => void} preview
 * @param {string | null} hinted
 */
export function renderMoves(moves, play, preview, hinted) {
  const box = $("moves");
  const key = moves.map((m) => m.move).join(" ") + "|" + hinted;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  for (const m of moves) {
    const b = el("button", { type: "button", class: "move" + (m.move === hinted ? " hinted" : ""), "data-move": m.move, text: m.text });
    b.addEventListener("click", () => play(m));
    b.addEventListener("mouseenter", () => preview(m));
    b.addEventListener("focus", () => preview(m));
    b.addEventListener("mouseleave", () => preview(null));
    b.addEventListener("blur", () => preview(null));
    box.append(b);
  }
  $("moves-panel").hidden = !moves.length;
}

/**
 * The hint's moves, best first: each one's chance of winning with its 95% interval, "tied" when
 * the hint cannot tell it from the best, and its words; when every move is tied, a line saying
 * the hint cannot tell them apart. Empty when the hint has no estimates or there is one move.
 * @param {HTMLElement} box
 * @param {MoveChance[]} chances
 * @param {LegalMove[]} legal    the decision's legal moves (their words)
 * @param {number} rows          how many moves to list
 * @param {boolean} [rough]       the chances come from the Python engine's playouts
 */
export function renderHintList(box, chances, legal, rows, rough = false) {
  const key = chances.map((c) => `${c.move}:${c.win}:${c.tied}`).join(" ") + (rough ? "|rough" : "");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  box.hidden = chances.length < 2; // a single move: nothing to choose
  if (box.hidden) return;
  const pct = (/** @type {number} */ x) => Math.round(100 * x);
  const list = el("ol", { class: "hint-moves" });
  chances.slice(0, rows).forEach((c, k) => {
    const m = legal.find((x) => x.move === c.move);
    const li = el("li", { class: k === 0 ? "best" : c.tied ? "tied" : "", "data-move": c.move },
      el("span", { class: "chance", text: t("{win}% [{low}–{high}]", { win: pct(c.win), low: pct(c.low), high: pct(c.high) }) }));
    if (k > 0 && c.tied) li.append(el("span", { class: "tie", text: t("tied") }));
    li.append(el("span", { class: "words", text: m ? m.text : c.move }));
    list.append(li);
  });
  const head = rough ? t("Rough hint (Python playouts): chance of winning [95%]") : t("Chance of winning [interval at 95%]");
  box.append(el("p", { class: "hint-head" + (rough ? " rough" : ""), text: head }), list);
  if (chances.length > 1 && chances.every((c) => c.tied)) box.append(el("p", { class: "hint-note", text: t("All tied: the hint cannot tell these moves apart.") }));
  else if (chances[0].tied) box.append(el("p", { class: "hint-note", text: t("A move marked tied may be as good as the first.") }));
}

/** @type {Record<string, string>} */
export const PHRASES = {
  hello: "Hello!",
  good_luck: "Good luck!",
  nice_move: "Nice move!",
  oops: "Oops!",
  sorry: "Sorry!",
  well_played: "Well played!",
  thanks: "Thanks!",
  bye: "Bye!",
};

/**
 * The chat; lines of muted people are left out ("spectators" mutes every spectator).
 * @param {ChatLine[]} lines
 * @param {Set<string>} muted
 */
export function renderChat(lines, muted) {
  const ol = $("chat-log");
  const shown = lines.filter((l) => !muted.has(l.colour || "spectators"));
  const key = shown.map((l) => l.n).join(",");
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  ol.replaceChildren();
  for (const line of shown) {
    const said = line.phrase ? t(PHRASES[line.phrase] || line.phrase) : line.text || "";
    const who = line.colour ? `${line.name} (${colourName(line.colour)})` : t("{name} (watching)", { name: line.name });
    const li = el("li", { class: "chat-line" + (line.colour ? " c-" + line.colour : ""), "data-n": line.n, "data-colour": line.colour || "" });
    li.append(el("strong", { text: who + ": " }), el("span", { class: "said", text: said }));
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}
