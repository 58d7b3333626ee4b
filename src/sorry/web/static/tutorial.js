// @ts-check
// The tutorial (/learn): a short guided game on the game page's board. The server plays the
// script of sorry.tutorial on the engine; each step (GET /api/tutorial/N) brings the
// opponent's turns since the learner's last move, the one legal move the step offers (with
// the taps that choose it, as in a game) and its words; the move is played by the server
// (GET /api/tutorial/N/play?move=M), which answers what it did and the words after it. The
// page keeps only the step's number (in the address: /learn#3).

import { t, colourName, series, announce, initLanguage, LANG } from "./i18n.js";
import { api } from "./net.js";
import { Board, cardName } from "./board.js";
import * as picks from "./picks.js";
import { $, el, logLine, moveWords } from "./panels.js";

/** @typedef {import("./types.js").LegalMove} LegalMove */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").View} View */
/** @typedef {LogEntry & {pawns: Record<string, string[]>}} Reply */
/**
 * @typedef {object} StepData  GET /api/tutorial/N
 * @property {number} step
 * @property {number} steps
 * @property {string} part
 * @property {string} part_title
 * @property {boolean} first
 * @property {string} title
 * @property {string} text
 * @property {{tap: string, click: string} | null} how  how to make the move, by finger or mouse
 * @property {Record<string, string[]>} start
 * @property {Reply[]} before
 * @property {View} view
 */
/**
 * @typedef {object} Played  GET /api/tutorial/N/play
 * @property {number} step
 * @property {LogEntry} last
 * @property {View} view
 * @property {string} done
 * @property {boolean} over
 * @property {number | null} next
 * @property {boolean} part_done
 */

/** How long an opponent's turn stays on screen (ms), its walk included. */
const SHOW_MS = 1400;

const ui = {
  /** @type {"loading" | "replies" | "move" | "sending" | "done" | "end"} */
  phase: "loading",
  /** @type {StepData | null} */
  data: null,
  /** @type {Played | null} */
  played: null,
  /** @type {Reply | null} the opponent's turn on screen */
  reply: null,
  /** @type {Reply | null} the opponent's last turn before the step */
  seen: null,
  /** @type {string[]} the taps so far */
  picks: [],
  /** @type {string | null} the card chosen from the hand (points) */
  card: null,
  cardAt: -1,
  notice: "",
};

/** @type {Board} */
let board;

/** A finger, not a mouse: the prompts say tap, else click. */
const touch = () => matchMedia("(pointer: coarse)").matches;

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} path */
const get = (path) => api(path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(LANG));

/** The moves the board offers now (in points, those of the card chosen). @returns {LegalMove[]} */
function offered() {
  if (ui.phase !== "move" || !ui.data) return [];
  const v = ui.data.view;
  if (v.variant !== "points") return v.legal_moves;
  if (!ui.card) return [];
  return v.legal_moves.filter((m) => m.card === ui.card);
}

/** @returns {View | null} the view on screen: after the learner's move (until the next step
 * comes), else the step's */
function shownView() {
  if (ui.played) return ui.played.view;
  return ui.data ? ui.data.view : null;
}

/**
 * A move in words: the learner's own as theirs ("You drew 7: ..."), Yellow's as the log says
 * it; squares named the way the learner (Red) sees the board.
 * @param {LogEntry} e
 * @param {string} variant
 */
function said(e, variant) {
  if (e.colour !== "R") return logLine(e, variant, "R");
  const move = moveWords(e.text, e.movers, "R");
  return e.card && variant !== "points" ? t("You drew {card}: {move}", { card: cardName(e.card), move }) : t("You: {move}", { move });
}

/** The card of a move in the log (points: the one its notation names). @param {LogEntry} e */
const cardOf = (e) => e.card || (e.move.includes(":") ? e.move.split(":")[0] : null);

function render() {
  const d = ui.data;
  const v = shownView();
  if (!d || !v) return;
  const moves = offered();
  const cand = picks.candidates(moves, ui.picks);
  const movable = new Map([...cand.next].filter(([x]) => x.startsWith("P|")));
  const places = new Map([...cand.next].filter(([x]) => x.startsWith("D|")));
  const points = v.variant === "points";
  // the move on screen: an opponent's turn being shown, the learner's move just played, or
  // (marked, said in the line) the opponent's last turn while the learner chooses
  /** @type {LogEntry | null} */
  const last = ui.reply || (ui.played ? ui.played.last : ui.seen);
  const card = (ui.reply || ui.played) && last ? cardOf(last) : v.card;
  board.render({
    pawns: v.pawns,
    movable,
    places,
    picked: ui.picks,
    last: last ? last.paths : [],
    hint: null,
    card,
    cardBy: ui.reply ? ui.reply.colour : "R",
    toMove: ui.reply ? ui.reply.colour : "R",
  });
  $("lesson-step").textContent = t("Step {i} of {n} · {part}", { i: d.step + 1, n: d.steps, part: d.part_title });
  $("lesson-title").textContent = d.title;
  $("lesson-text").textContent = ui.played ? ui.played.done : d.text;
  $("lesson-how").textContent = !ui.played && d.how ? (touch() ? d.how.tap : d.how.click) : "";
  $("happened").textContent = last ? said(last, v.variant) : "";
  $("prompt").textContent = promptText(cand, points);
  $("card-rule").textContent = ui.phase === "move" ? board.ruleOf(points ? ui.card : v.card) : "";
  renderHand(v, points);
  const scores = v.scores ? Object.entries(v.scores).map(([c, p]) => t("{colour} {points}", { colour: colourName(c), points: p })) : [];
  const over = !!(ui.played && ui.played.over);
  $("lesson-points").textContent = scores.length ? (over ? t("Scores: {scores}", { scores: series(scores) }) : t("Points so far: {scores}", { scores: series(scores) })) : "";
  $("cancel-btn").hidden = !(ui.phase === "move" && ui.picks.length);
  $("next-btn").hidden = ui.phase !== "done";
  $("notice").textContent = ui.notice;
  $("learn-end").hidden = ui.phase !== "end";
  const body = document.body.dataset;
  body.phase = ui.phase;
  body.step = String(d.step);
  body.picks = ui.picks.join(" ");
}

/**
 * @param {{next: Map<string, string[]>, complete: LegalMove[]}} cand
 * @param {boolean} points
 */
function promptText(cand, points) {
  if (ui.phase === "loading" || ui.phase === "sending") return t("Loading…");
  if (ui.phase === "replies") return ui.reply ? t("Waiting for {colour}…", { colour: colourName(ui.reply.colour) }) : "";
  if (ui.phase !== "move") return "";
  if (points && !ui.card) return t("Choose a card from your hand.");
  if (!ui.picks.length) return touch() ? t("Tap a ringed pawn to move it.") : t("Click a ringed pawn to move it.");
  if (ui.picks[ui.picks.length - 1].startsWith("P|")) return touch() ? t("Tap where it goes.") : t("Click where it goes.");
  if (cand.next.size) return t("Now move a second pawn with the rest of the 7.");
  return "";
}

/** The hand (points): the card of the step's move can be chosen. @param {View} v @param {boolean} points */
function renderHand(v, points) {
  const hand = $("hand");
  const mine = ui.phase === "move";
  const key = [v.hand.join(","), ui.cardAt, ui.phase].join("|");
  // the hand is the points game's, until it ends
  hand.hidden = !points || !v.hand.length || v.winners.length > 0;
  if (hand.dataset.key === key) return;
  hand.dataset.key = key;
  hand.replaceChildren(
    ...v.hand.map((c, i) => {
      const chosen = ui.cardAt === i;
      const playable = mine && v.legal_moves.some((m) => m.card === c);
      return el("button", {
        type: "button",
        class: "card" + (chosen ? " selected" : "") + (playable ? "" : " idle"),
        "data-card": c,
        "aria-pressed": chosen ? "true" : "false",
        disabled: !playable,
        text: cardName(c),
        onclick: () => {
          ui.card = chosen ? null : c;
          ui.cardAt = chosen ? -1 : i;
          ui.picks = [];
          render();
        },
      });
    }),
  );
}

// ------------------------------------------------------------------------------- steps
/** @param {number} n */
async function loadStep(n) {
  ui.phase = "loading";
  ui.notice = "";
  ui.picks = [];
  ui.card = null;
  ui.cardAt = -1;
  ui.reply = null;
  ui.seen = null;
  const fromPanel = document.activeElement && $("lesson").contains(document.activeElement);
  render();
  /** @type {StepData} */
  let d;
  try {
    d = await get(`/api/tutorial/${n}`);
  } catch (e) {
    // an address past the last step (an older tutorial's): from the start
    if (n > 0 && ui.data === null) return loadStep(0);
    ui.notice = /** @type {Error} */ (e).message;
    $("lesson-text").textContent = ui.notice;
    return;
  }
  const continues = !!ui.played && ui.played.next === n && !d.first;
  ui.data = d;
  ui.played = null;
  history.replaceState(null, "", "#" + (n + 1));
  // where the pawns stood after the learner's last move: there already when the page went on
  // from it, else put there at once
  if (!continues) board.place(d.start, []);
  ui.phase = "replies";
  for (const r of d.before) {
    ui.reply = r;
    const moved = board.place(r.pawns, r.paths);
    render();
    const walk = board.animate(moved, r.effects);
    announce(said(r, d.view.variant));
    await sleep(Math.max(SHOW_MS, walk + 600));
  }
  ui.seen = ui.reply;
  ui.reply = null;
  board.place(d.view.pawns, []);
  ui.phase = "move";
  render();
  announce(d.title + ". " + d.text);
  // the keyboard goes on where the lesson's buttons were: to the card to play (points), or
  // to the board's first target
  if (fromPanel) {
    const card = $("hand").querySelector("button:not([disabled])");
    if (card instanceof HTMLElement && d.view.variant === "points") card.focus({ preventScroll: true });
    else board.focusFirst();
  }
}

/** @param {LegalMove} m */
async function play(m) {
  const d = ui.data;
  if (!d || ui.phase !== "move") return;
  ui.phase = "sending";
  ui.picks = [];
  render();
  /** @type {Played} */
  let r;
  try {
    r = await get(`/api/tutorial/${d.step}/play?move=${encodeURIComponent(m.move)}`);
  } catch (e) {
    ui.phase = "move";
    ui.notice = /** @type {Error} */ (e).message;
    render();
    return;
  }
  ui.played = r;
  ui.card = null;
  ui.cardAt = -1;
  const moved = board.place(r.view.pawns, r.last.paths);
  ui.phase = "done";
  render();
  board.animate(moved, r.last.effects);
  announce(r.done);
  $("next-btn").focus({ preventScroll: true });
  $("next-btn").scrollIntoView({ block: "nearest" });
}

function next() {
  const r = ui.played;
  if (!r || ui.phase !== "done") return;
  if (r.next === null) {
    ui.phase = "end";
    render();
    $("learn-end").scrollIntoView({ block: "nearest" });
    $("end-play").focus({ preventScroll: true });
    return;
  }
  loadStep(r.next);
}

/** The keyboard is in use (its last input was a key, not a pointer). */
let usingKeys = false;

/** @param {string[]} taps */
function afterTap(taps) {
  ui.picks = taps;
  const m = picks.chosen(offered(), taps);
  if (m) {
    play(m);
    return;
  }
  render();
  // a pawn chosen by the keyboard is no longer a target: the focus goes on to its squares
  const active = document.activeElement;
  if (usingKeys && !(active && active.closest("#board [tabindex]"))) board.focusFirst();
}

const tapHandlers = {
  /** @param {string} c @param {string} loc */
  pawn(c, loc) {
    if (ui.phase === "move") afterTap(picks.tapPawn(offered(), ui.picks, c, loc));
  },
  /** @param {string} place */
  place(place) {
    if (ui.phase === "move") afterTap(picks.tapPlace(offered(), ui.picks, place));
  },
};

async function start() {
  const [svgText, geo, meta] = await Promise.all([fetch("/api/board.svg").then((r) => r.text()), api("/api/board"), api("/api/meta")]);
  board = new Board($("board"), svgText, geo, tapHandlers);
  board.cardHelp = meta.card_help || {};
  board.cardRules = meta.card_rules || {};
  document.addEventListener("keydown", () => (usingKeys = true), true);
  document.addEventListener("pointerdown", () => (usingKeys = false), true);
  $("next-btn").addEventListener("click", next);
  $("cancel-btn").addEventListener("click", () => {
    ui.picks = [];
    render();
  });
  $("again-btn").addEventListener("click", () => {
    ui.played = null;
    $("lesson").scrollIntoView({ block: "nearest" });
    loadStep(0);
  });
  const asked = Number(location.hash.slice(1));
  loadStep(Number.isInteger(asked) && asked >= 1 ? asked - 1 : 0);
}

if (initLanguage()) start();
