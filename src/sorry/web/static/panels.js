// @ts-check
// The panels around the board, each drawn from what is shown (the live game or a replay
// frame) and a little UI state: the turn banner, the waiting room, the actions, the seats,
// the move list, the log, the end of the game, the chat. Text from people is only ever
// put in the page with textContent.

import { t, tn, colourName, series, whereWords } from "./i18n.js";
import { cardName } from "./board.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").SeatInfo} SeatInfo */
/** @typedef {import("./types.js").MoveChance} MoveChance */
/** @typedef {import("./types.js").HintWords} HintWords */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").Path} Path */
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
    if (info.resigned) tags.push(t("resigned"));
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
 * @param {string | null} [seat] the player reading (their own landmarks are "your")
 */
export function logLine(e, variant, seat) {
  const who =
    e.actor === "bot" ? t(" (bot)") : e.actor === "takeover" ? t(" (bot for player)") : e.actor === "timeout" ? t(" (bot, time ran out)") : "";
  // e.text says the move without the mover (the sentence names them)
  if (e.move === "resign") return t("{colour} resigns", { colour: colourName(e.colour) });
  const player = colourName(e.colour) + who;
  // a pass with no other move (any card but an 11, which may be declined): said as such
  if (e.move === "pass" && e.card && (e.actor === "forced" || e.card !== "11")) return t("{player} draws {card}: no move, the turn passes.", { player, card: cardName(e.card) });
  const move = moveWords(e.text, e.movers, seat);
  if (e.card && variant !== "points") return t("{player} draws {card}: {move}", { player, card: cardName(e.card), move });
  return t("{player}: {move}", { player, move });
}

/**
 * A move's words with where it takes the player's pawns, the way a player sees the board
 * ("53 → 58 (4 squares before your Safety Zone)"); the numbers stay, for the notation.
 * @param {string} text the move's words
 * @param {Path[] | undefined} movers [colour, from, to] of each pawn the player moves
 * @param {string | null} [seat]
 */
export function moveWords(text, movers, seat) {
  const where = whereWords(movers, seat);
  return where ? t("{move} ({where})", { move: text, where }) : text;
}

/**
 * Pointing at (or tapping) a line that names squares marks them on the board (spot), and
 * leaving it clears them; a second tap on the same line clears them too.
 * @param {HTMLElement} node
 * @param {Path[] | (() => Path[] | null | undefined)} movers the pawns it names (or
 *   where to find them when the line changes)
 * @param {(movers: Path[] | null) => void} spot
 */
export function spotOn(node, movers, spot) {
  const now = () => (typeof movers === "function" ? movers() : movers) || [];
  if (typeof movers !== "function" && !movers.length) return;
  node.classList.add("spots");
  // a mouse pointing (a finger's tap is the click below, not a hover)
  node.addEventListener("pointerenter", (ev) => {
    if (ev.pointerType === "mouse") spot(now());
  });
  node.addEventListener("pointerleave", (ev) => {
    if (ev.pointerType === "mouse" && !node.classList.contains("spotted")) spot(null);
  });
  node.addEventListener("click", () => {
    const on = node.classList.toggle("spotted");
    for (const other of document.querySelectorAll(".spotted")) if (other !== node) other.classList.remove("spotted");
    spot(on ? now() : null);
  });
}

/**
 * The log, numbered by the server's sequence numbers (at any width); a line's squares are
 * marked on the board when it is pointed at or tapped.
 * @param {LogEntry[]} log
 * @param {string} variant
 * @param {string | null} [seat]
 * @param {(movers: Path[] | null) => void} [spot]
 */
export function renderLog(log, variant, seat, spot) {
  const ol = $("log");
  const key = `${log.length}:${log.length ? log[log.length - 1].seq : 0}:${variant}:${seat}`;
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  // a new move: the squares marked for an older line are cleared
  for (const node of document.querySelectorAll(".spotted")) node.classList.remove("spotted");
  if (spot) spot(null);
  ol.replaceChildren(
    ...log.map((e) => {
      const li = el("li", { class: "c-" + e.colour, "data-seq": e.seq }, el("span", { class: "n", text: String(e.seq) }), el("span", { text: logLine(e, variant, seat) }));
      if (spot) spotOn(li, e.movers || [], spot);
      return li;
    }),
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
 * @param {string | null} [seat]
 */
export function renderMoves(moves, play, preview, hinted, seat) {
  const box = $("moves");
  const key = moves.map((m) => m.move).join(" ") + "|" + hinted + "|" + seat;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  for (const m of moves) {
    const b = el("button", { type: "button", class: "move" + (m.move === hinted ? " hinted" : ""), "data-move": m.move, text: moveWords(m.text, m.movers, seat) });
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
 * The hint's moves in a player's words, best first, as the server made them (the terminal
 * game's words, sorry.hintwords): the headline (the best move's chance in tenths, which moves
 * are as good as it), then each move with its tag ("best", "as good", "not as good") and its
 * words; the figures (percentages, 95% intervals) on demand (Details). The same move heads the
 * headline and the list. Empty when the hint has no words (a single move, or no estimates).
 * @param {HTMLElement} box
 * @param {MoveChance[]} chances
 * @param {HintWords | null} words the hint's words, one per move of chances
 * @param {LegalMove[]} legal    the decision's legal moves (their words)
 * @param {number} rows          how many moves to list
 * @param {boolean} [rough]       the chances come from the Python engine's playouts
 * @param {string | null} [seat]
 * @param {(movers: Path[] | null) => void} [spot]
 */
export function renderHintList(box, chances, words, legal, rows, rough = false, seat = null, spot = undefined) {
  const key = chances.map((c) => `${c.move}:${c.win}:${c.tied}`).join(" ") + (rough ? "|rough" : "") + "|" + seat + "|" + (words ? words.say : "");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  box.hidden = chances.length < 2 || !words; // a single move: nothing to choose
  if (box.hidden || !words) return;
  const moveText = (/** @type {MoveChance} */ c) => {
    const m = legal.find((x) => x.move === c.move);
    return m ? moveWords(m.text, m.movers, seat) : c.move;
  };
  const cls = (/** @type {number} */ k) => (words.kinds[k] === "best" ? "best" : words.kinds[k] === "as good" ? "tied" : "");
  const list = el("ol", { class: "hint-moves" });
  chances.slice(0, rows).forEach((c, k) => {
    const li = el("li", { class: cls(k), "data-move": c.move },
      el("span", { class: "tag", text: words.tags[k] }),
      el("span", { class: "words", text: moveText(c) }));
    const m = legal.find((x) => x.move === c.move);
    if (spot && m) spotOn(li, m.movers, spot);
    list.append(li);
  });
  // the figures behind the words, for who wants them
  const table = el("ol", { class: "hint-figures" });
  chances.slice(0, rows).forEach((c, k) => {
    table.append(el("li", { "data-move": c.move },
      el("span", { class: "chance", text: words.figures[k] }),
      el("span", { class: "words", text: moveText(c) })));
  });
  const details = el("details", { class: "hint-details" }, el("summary", { text: t("Details") }), el("p", { class: "hint-head" + (rough ? " rough" : ""), text: words.heading }), table);
  if (words.note) details.append(el("p", { class: "hint-note", text: words.note }));
  box.append(el("p", { class: "hint-say", text: words.say }), list, details);
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
