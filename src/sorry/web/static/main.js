// @ts-check
// Sorry! in the browser: the page's entry. One render() draws everything from the last
// state the server sent (or the replay's frame) plus a little UI state (the taps so far, the
// card chosen, the hint, the replay's position). No framework, nothing from the internet.

import { t, tn, colourName, series, announce, initLanguage } from "./i18n.js";
import { api, creds, saveCreds, forgetSeat, Connection, GameStore } from "./net.js";
import { Board, cardName } from "./board.js";
import * as picks from "./picks.js";
import { $, el, renderBanner, renderSeats, renderLog, renderMoves, renderChat, renderHintList, logLine, moveWords, spotOn, PHRASES } from "./panels.js";
import { renderRoom, renderAbsent } from "./waiting.js";
import { lobbyPage } from "./lobby.js";
import { turnSignal, soundOn, setSound, askNotifications, notificationsState } from "./notify.js";
import { initEffects, moveSounds, cardShown } from "./sound.js";
import { initChatDrawer, chatArrived } from "./chat_drawer.js";
import { bringBoardIntoView } from "./follow.js";
import { EndAnalysis } from "./analysis.js";
import { REACTIONS } from "./messages.js";
import { me as myAccount, loadSession, heldSeat, withBlocked, showRatingChange, reportButtons } from "./account.js";

/** @typedef {import("./types.js").LegalMove} LegalMove */
/** @typedef {import("./types.js").MoveChance} MoveChance */
/** @typedef {import("./types.js").HintWords} HintWords */
/** @typedef {import("./types.js").LogEntry} LogEntry */
/** @typedef {import("./types.js").Frame} Frame */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./panels.js").Shown} Shown */

/** The page's own state, besides what the server sent. */
const ui = {
  /** @type {string[]} the taps so far */
  picks: [],
  /** @type {string | null} the card chosen from the hand (points) */
  card: null,
  /** which of the hand's cards was tapped (two cards may have the same value) */
  cardAt: -1,
  /** @type {string | null} the hinted move */
  hint: null,
  /** @type {string | null} */
  hintText: null,
  /** @type {MoveChance[]} each move's chance of winning, best first (the hint's) */
  hintMoves: [],
  /** @type {HintWords | null} the hint in a player's words (the server's) */
  hintWords: null,
  /** the hint's chances come from the Python engine's playouts (a guide) */
  hintRough: false,
  /** the compiled search is still being prepared: the hint is a quick bot's move */
  hintProvisional: false,
  /** @type {LegalMove | null} the move the list's pointer or focus is on */
  preview: null,
  notice: "",
  /** the last chat line sent and not yet seen back: put back in the field if it is refused */
  chatSent: "",
  sending: false,
  /** @type {{frames: Frame[], at: number, timer: number | null} | null} */
  replay: null,
  /** @type {number | null} performance.now() when the turn runs out */
  deadline: null,
  /** @type {Set<string>} */
  muted: new Set(),
  showAll: false,
  /** someone else wrote in the chat while it was off screen */
  unread: false,
};

const store = new GameStore();
/** @type {Connection} */
let conn;
/** @type {Board} */
let board;
let gameId = "";
/** @type {string[]} */
let levels = [];
/** @type {Record<string, string>} each bot level's sentence, in English (t() translates it) */
let levelSentences = {};
let gameName = "";
/** @type {EndAnalysis | null} the end screen's analysis */
let analysis = null;

/** @param {string} id @returns {HTMLInputElement} */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

/** How this server has the page follow a game (/api/meta): whether a turn with no legal move
 * passes by itself, and how long each other player's move is shown (ms, before the speed). */
const following = { autoPass: false, showMs: 0 };

/**
 * Other players' moves, one at a time: after each, the page shows it (its card, the pawns
 * walking, the line saying what happened) for a while before the next state, or the player's
 * own turn, is taken in; the states that come meanwhile wait here in order.
 * @type {{queue: {m: ServerMessage, at: number}[], until: number, timer: number | null}}
 */
const pace = { queue: [], until: 0, timer: null };

/** The speeds of the setting, as factors of the server's time a move is shown. */
const SPEEDS = { slow: 1.8, normal: 1, fast: 0.5, instant: 0 };

function speedName() {
  let v = null;
  try {
    v = localStorage.getItem("sorry:pace");
  } catch {
    /* private mode */
  }
  return v && v in SPEEDS ? v : "normal";
}

/** Is another player's move being shown (the page holds the next decision back)? */
function holding() {
  return performance.now() < pace.until;
}

// ------------------------------------------------------------------------------- showing
/** @returns {Shown | null} */
function shown() {
  const st = store.state;
  if (!st) return null;
  const base = { seats: st.seats, room: st.room, teams: st.teams || null };
  if (ui.replay) {
    const { frames, at } = ui.replay;
    const f = frames[at];
    const lastFrame = at === frames.length - 1;
    return {
      ...base,
      view: f.view,
      status: lastFrame ? "over" : "playing",
      log: store.log.slice(0, at),
      last: f.entry,
      hands: f.hands || null,
      replay: true,
      room: { ...st.room, started: true, deadline_in: null },
    };
  }
  // while another player's move is shown: still their turn, with the card they played
  const last = st.last;
  const view = holding() && last && st.status === "playing" ? { ...st.view, to_move: last.colour, card: st.view.variant === "points" ? null : last.card } : st.view;
  return { ...base, view, status: st.status, log: store.log, last, hands: null, replay: false };
}

function myTurn() {
  const st = store.state;
  return !!(st && !ui.replay && !holding() && conn.seat && st.status === "playing" && st.room.started && st.view.to_move === conn.seat);
}

/** A finger, not a mouse: the prompts say tap, else click. */
const touch = () => matchMedia("(pointer: coarse)").matches;

/** The player's turn has no legal move: the server passes it by itself (nothing to tap). */
function forcedPass() {
  const st = store.state;
  return !!(st && following.autoPass && myTurn() && st.view.legal_moves.length === 1 && st.view.legal_moves[0].move === "pass");
}

/** How long a forced move is shown before it is played for the player (ms, at normal speed). */
const ONLY_MOVE_MS = 1400;

/** The player chose (in the settings) to have a forced move played for them. */
function autoPlayOn() {
  try {
    return localStorage.getItem("sorry:autoplay") === "on";
  } catch {
    return false;
  }
}

/** The player's turn has one legal move (not a pass) and they chose to have it played for
 * them: that move, else null. Off by default: a player may want to see and play it. */
function onlyMove() {
  const st = store.state;
  if (!st || !autoPlayOn() || !myTurn() || forcedPass()) return null;
  const moves = st.view.legal_moves;
  return moves.length === 1 && moves[0].move !== "pass" ? moves[0] : null;
}

/** The state (its counter) whose forced move is due to be played for the player. */
let onlyMoveAt = -1;

/** Plays the forced move for the player after a moment (the line by the board says it). */
function scheduleOnlyMove() {
  const st = store.state;
  const m = onlyMove();
  if (!st || !m || ui.sending || onlyMoveAt === st.seq) return;
  const seq = (onlyMoveAt = st.seq);
  const wait = ONLY_MOVE_MS * Math.max(0.25, SPEEDS[/** @type {keyof typeof SPEEDS} */ (speedName())]);
  window.setTimeout(() => {
    const now = store.state;
    const again = onlyMove();
    if (now && now.seq === seq && again && again.move === m.move && !ui.sending) play(again);
  }, wait);
}

/** The legal moves the board offers now (in points, those of the card chosen). */
function offered() {
  const st = store.state;
  if (!st || !myTurn() || ui.sending || forcedPass()) return [];
  const moves = st.view.legal_moves;
  if (st.view.variant !== "points") return moves;
  if (!ui.card) return [];
  return moves.filter((m) => m.card === ui.card || (m.kind === "discard" && m.move === "discard:" + ui.card));
}

/** The hint's moves listed under it (the best first; all of them are in "All moves"). */
const HINT_ROWS = 4;

function secondsLeft() {
  return ui.deadline === null ? null : Math.max(0, (ui.deadline - performance.now()) / 1000);
}

function render() {
  const s = shown();
  const st = store.state;
  if (!s || !st) return;
  const seat = conn.seat;
  const mine = myTurn();
  const moves = offered();
  const cand = picks.candidates(moves, ui.picks);
  const movable = new Map([...cand.next].filter(([x]) => x.startsWith("P|")));
  const places = new Map([...cand.next].filter(([x]) => x.startsWith("D|")));
  const all = mine && !forcedPass() ? st.view.legal_moves : [];
  const hinted = ui.preview || all.find((m) => m.move === ui.hint) || null;
  const pile = s.view.discard_pile;
  // before the start the deck lies face down: the first card turns over at the start; a
  // replay frame (after its move) and the points variant show the card last played
  const card = !s.room.started ? null : s.view.card || ((s.replay || s.view.variant === "points") && pile.length ? pile[pile.length - 1] : null);
  board.render({
    pawns: s.view.pawns,
    movable,
    places,
    picked: ui.picks,
    last: s.last ? s.last.paths : [],
    hint: hinted ? hinted.movers : null,
    card,
    cardBy: s.replay && s.last ? s.last.colour : s.view.to_move,
    deck: !s.room.started,
    toMove: s.view.to_move,
  });
  renderBanner(s, seat, s.replay ? null : secondsLeft());
  $("happened").textContent = s.last ? happened(s.last, s.view.variant) : "";
  renderSeats(s, seat, ui.muted, toggleMute);
  renderLog(s.log, s.view.variant, seat, spot);
  renderRoom(st.room, st.seats, { seat, host: !!creds(gameId).host, links: creds(gameId).links || {}, levels, sentences: levelSentences }, roomActions);
  renderAbsent(st.room, st.seats, st.status, { host: !!creds(gameId).host, levels }, roomActions);
  renderActions(s, mine, moves, cand);
  renderMoves(all, play, (m) => {
    ui.preview = m;
    render();
  }, ui.hint, seat);
  renderOver(s);
  if (analysis) analysis.update(st.status === "over", ui.replay ? ui.replay.at : null);
  renderReplayPanel();
  renderChatPanel();
  const d = document.body.dataset;
  d.seq = String(st.seq);
  d.status = st.status;
  d.toMove = st.view.to_move;
  d.started = st.room.started ? "yes" : "no";
  d.picks = ui.picks.join(" ");
  d.sending = ui.sending ? "yes" : "no";
  d.following = holding() ? "yes" : "no";
  $("unread").hidden = !ui.unread;
  turnSignal(mine, gameName);
  scheduleOnlyMove();
  cardShown(card && !s.replay && s.view.variant !== "points" ? `${st.seq}|${s.view.to_move}|${card}` : null);
}

/**
 * @param {Shown} s
 * @param {boolean} mine
 * @param {LegalMove[]} moves
 * @param {{next: Map<string, string[]>, complete: LegalMove[]}} cand
 */
function renderActions(s, mine, moves, cand) {
  const st = store.state;
  const panel = $("actions");
  const out = !!st && st.seats.some((x) => x.colour === conn.seat && x.resigned);
  const seated = !!conn.seat && !s.replay && s.status === "playing" && s.room.started && !out;
  panel.hidden = !seated;
  const away = !!st && st.seats.some((x) => x.colour === conn.seat && x.away);
  $("leave-btn").hidden = !seated || away;
  // undo: a casual game against bots only, once the player has moved (the server checks)
  const undo = $("undo-btn");
  undo.hidden = !seated || !st || !!st.room.rated || st.seats.some((x) => x.colour !== conn.seat && x.kind !== "bot") || !store.log.some((e) => e.colour === conn.seat && e.actor === "player");
  undo.title = t("Take back your last move (and the bots' moves after it)");
  if (!seated || !st) return;
  const v = st.view;
  const points = v.variant === "points";
  let prompt;
  if (!mine) prompt = t("Waiting for {colour}…", { colour: colourName(s.view.to_move) });
  else if (forcedPass()) prompt = v.card ? t("No move with a {card}: your turn passes.", { card: cardName(v.card) }) : t("No move: your turn passes.");
  else if (ui.sending) prompt = t("Sending…");
  else if (onlyMove()) prompt = t("Your only move, played for you: {move}", { move: choiceText(/** @type {LegalMove} */ (onlyMove())) });
  else if (points && !ui.card)
    prompt = v.legal_moves.every((m) => m.kind === "discard") ? t("No card in your hand can move a pawn: choose one to discard.") : t("Choose a card from your hand.");
  else if (!ui.picks.length) prompt = cand.next.size ? (touch() ? t("Tap a ringed pawn to move it.") : t("Click a ringed pawn to move it.")) : t("No move on the board: choose below.");
  else if (ui.picks[ui.picks.length - 1].startsWith("P|")) prompt = touch() ? t("Tap where it goes.") : t("Click where it goes.");
  else if (cand.next.size) prompt = t("Now move a second pawn with the rest of the 7.");
  else prompt = t("Choose the move:");
  $("prompt").textContent = prompt;
  // the card to play, in its sentence of the rules (points: the card chosen from the hand)
  $("card-rule").textContent = mine ? board.ruleOf(points ? ui.card : v.card) : "";
  // the hand (points): the card first
  // rebuilt only when it changes: a tap must not land on a button that was just replaced
  const hand = $("hand");
  const handKey = [v.hand.join(","), ui.cardAt, mine, st.seq].join("|");
  if (hand.dataset.key !== handKey) renderHand(hand, v, mine);
  hand.dataset.key = handKey;
  hand.hidden = !v.hand.length;
  // moves the board cannot show (pass, discard) and moves the taps left open
  const choices = $("choices");
  const shownChoices = mine && !ui.sending ? [...(ui.picks.length ? cand.complete : []), ...(ui.picks.length ? [] : moves.filter((m) => !m.movers.length))] : [];
  const choiceKey = shownChoices.map((m) => m.move).join(" ");
  if (choices.dataset.key !== choiceKey) {
    choices.dataset.key = choiceKey;
    choices.replaceChildren(
      ...shownChoices.map((m) => el("button", { type: "button", class: "choice primary", "data-move": m.move, text: choiceText(m), onclick: () => play(m) })),
    );
  }
  $("cancel-btn").hidden = !ui.picks.length;
  const hintBtn = /** @type {HTMLButtonElement} */ ($("hint-btn"));
  hintBtn.disabled = !mine || forcedPass();
  // the hint's words as the list says them, with where it takes the pawns
  const hinted = v.legal_moves.find((m) => m.move === ui.hint);
  const hintLine = ui.hintText && hinted ? moveWords(ui.hintText, hinted.movers, conn.seat) : ui.hintText;
  $("hint").textContent = mine && hintLine ? (ui.hintRough ? t("Rough hint: {text}", { text: hintLine }) : t("Hint: {text}", { text: hintLine })) : "";
  // the first start of a server compiles its search (minutes): the hint says so meanwhile
  $("hint-note").textContent =
    mine && ui.hintText && ui.hintProvisional
      ? t("The computer's search is still being prepared (the first start compiles it, which can take minutes): this hint is a quick bot's choice, without chances.")
      : "";
  renderHintList($("hint-list"), mine ? ui.hintMoves : [], ui.hintWords, v.legal_moves, HINT_ROWS, ui.hintRough, conn.seat, spot);
  $("notice").textContent = ui.notice;
  const me = st.seats.find((x) => x.colour === conn.seat);
  $("back-btn").hidden = !(me && me.away);
}

/**
 * The last move in words, for the line next to the board: the log's line, the player's own
 * turn said as theirs, and a turn with no legal move as a pass.
 * @param {LogEntry} e
 * @param {string} variant
 */
function happened(e, variant) {
  const card = e.card ? cardName(e.card) : "";
  if (e.actor === "forced") {
    if (e.colour === conn.seat) return card ? t("You drew {card}: no move, your turn passed.", { card }) : t("No move: your turn passed.");
    return card ? t("{colour} drew {card}: no move, the turn passed.", { colour: colourName(e.colour), card }) : t("{colour} had no move: the turn passed.", { colour: colourName(e.colour) });
  }
  return logLine(e, variant, conn.seat);
}

/** A move the board cannot show, as a button's words. @param {LegalMove} m */
function choiceText(m) {
  if (m.kind === "discard") return t("Discard the {card}", { card: cardName(m.move.slice("discard:".length)) });
  return m.text;
}

/**
 * The hand (points), each card with what it does.
 * @param {HTMLElement} hand
 * @param {import("./types.js").View} v
 * @param {boolean} mine
 */
function renderHand(hand, v, mine) {
  hand.replaceChildren();
  v.hand.forEach((c, i) => {
    const chosen = ui.cardAt === i;
    const playable = mine && v.legal_moves.some((m) => m.card === c || m.move === "discard:" + c);
    hand.append(
      el("button", {
        type: "button",
        class: "card" + (chosen ? " selected" : "") + (playable ? "" : " idle"),
        "data-card": c,
        "aria-pressed": chosen ? "true" : "false",
        title: board.ruleOf(c),
        disabled: !mine,
        onclick: () => {
          ui.card = chosen ? null : c;
          ui.cardAt = chosen ? -1 : i;
          ui.picks = [];
          render();
        },
      }, el("span", { class: "card-value", text: cardName(c) }), el("span", { class: "card-words", text: board.cardHelp[c] ? t(board.cardHelp[c]) : "" })),
    );
  });
}

/** @param {Shown} s */
function renderOver(s) {
  const st = store.state;
  const panel = $("over-panel");
  panel.hidden = !st || st.status !== "over" || s.replay;
  if (!st || panel.hidden) return;
  const v = st.view;
  const won = !!conn.seat && v.winners.includes(conn.seat);
  $("result").textContent = won ? t("You won!") : v.winners.length ? t("{names} won!", { names: series(v.winners.map(colourName)) }) : t("Game over");
  const gone = st.seats.filter((x) => x.resigned).map((x) => colourName(x.colour));
  $("resigned-note").textContent = gone.length ? t("{names} resigned.", { names: series(gone) }) : "";
  const scores = v.scores ? Object.entries(v.scores).map(([c, p]) => `${colourName(c)} ${p}`).join(", ") : "";
  $("scores").textContent = scores ? t("Scores: {scores}", { scores }) : "";
  $("scores").hidden = !scores;
  const m = st.match;
  const wins = Object.entries(m.wins).map(([c, n]) => `${colourName(c)} ${n}`).join(", ");
  const pts = Object.entries(m.points).map(([c, n]) => `${colourName(c)} ${n}`).join(", ");
  $("match").textContent =
    tn("Match: {n} game played", "Match: {n} games played", m.games) +
    (wins ? t(" — wins: {wins}", { wins }) : "") +
    (pts ? t(" — points: {points}", { points: pts }) : "");
  const rematchBtn = $("rematch-btn");
  rematchBtn.hidden = !conn.seat;
  // somebody asked already: the button joins (and accepts) that game
  rematchBtn.textContent = st.next_game ? t("Join the next game of the match") : t("Next game of the match");
  const next = /** @type {HTMLAnchorElement} */ ($("next-game"));
  next.hidden = !st.next_game || !!conn.seat;
  if (st.next_game) next.href = "/g/" + st.next_game;
  /** @type {HTMLAnchorElement} */ ($("download")).href = `/api/games/${gameId}/record`;
  showRatingChange(gameId, true, !!st.room.rated);
}

function renderReplayPanel() {
  const r = ui.replay;
  $("replay-panel").hidden = !r;
  if (!r) return;
  const last = r.frames.length - 1;
  const f = r.frames[r.at];
  $("replay-pos").textContent = t("Move {i} of {n}", { i: r.at, n: last });
  const range = input("replay-range");
  range.max = String(last);
  range.value = String(r.at);
  // the words of the move from the game's log (in this page's language), else the frame's own
  const entry = f.entry && (store.log.find((e) => e.seq === f.entry?.seq) || f.entry);
  $("replay-move").textContent = entry ? logLine(entry, f.view.variant, conn.seat) : t("The start");
  $("replay-play").textContent = r.timer ? t("Pause") : t("Play");
  document.body.dataset.replayAt = String(r.at);
}

function renderChatPanel() {
  const st = store.state;
  if (!st) return;
  const on = st.room.chat;
  $("chat-off-note").hidden = on;
  $("chat-form").hidden = !on;
  $("phrases").hidden = !on;
  const host = !!creds(gameId).host;
  const toggle = $("chat-toggle");
  toggle.hidden = !host || !st.room.hosted;
  toggle.textContent = on ? t("Switch the chat off") : t("Switch the chat on");
  const spect = $("mute-spectators");
  spect.textContent = ui.muted.has("spectators") ? t("Show spectators' messages") : t("Mute spectators");
  spect.setAttribute("aria-pressed", ui.muted.has("spectators") ? "true" : "false");
  renderChat(store.chat, withBlocked(ui.muted, st.seats));
  reportButtons(gameId, st.seats);
}

// ------------------------------------------------------------------------------- acting
/** @param {LegalMove} m */
function play(m) {
  const st = store.state;
  if (!st || ui.sending) return;
  ui.sending = true;
  ui.picks = [];
  ui.preview = null;
  conn.send({ type: "move", seq: st.seq, move: m.move });
  render();
}

/** @param {string[]} next */
function afterTap(next) {
  ui.picks = next;
  ui.notice = "";
  const m = picks.chosen(offered(), next);
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
    if (!myTurn() || ui.sending) return;
    afterTap(picks.tapPawn(offered(), ui.picks, c, loc));
  },
  /** @param {string} place */
  place(place) {
    if (!myTurn() || ui.sending) return;
    afterTap(picks.tapPlace(offered(), ui.picks, place));
  },
};

const roomActions = {
  start: () => hostAction({ action: "start" }),
  ready: () => {
    const c = creds(gameId);
    api(`/api/games/${gameId}/ready`, { seat: c.seat, token: c.token }).catch(showNotice);
  },
  /** @param {string} colour @param {string} level */
  bot: (colour, level) => hostAction({ action: "bot", seat: colour, level }),
};

/** @param {Record<string, unknown>} body */
function hostAction(body) {
  const host = creds(gameId).host;
  if (!host) return;
  api(`/api/games/${gameId}/host`, { ...body, host_token: host }).catch(showNotice);
}

/** @param {Error} e */
function showNotice(e) {
  ui.notice = e.message;
  const box = document.getElementById("room-note");
  if (box && store.state && !store.state.room.started) box.textContent = e.message;
  // at the end of the game the actions are gone: the end's own line says it
  $("over-notice").textContent = store.state && store.state.status === "over" ? e.message : "";
  render();
}

/** @param {string} key a seat's colour, or "spectators" */
function toggleMute(key) {
  if (ui.muted.has(key)) ui.muted.delete(key);
  else ui.muted.add(key);
  try {
    localStorage.setItem("sorry:muted:" + gameId, JSON.stringify([...ui.muted]));
  } catch {
    /* private mode */
  }
  render();
}

// ------------------------------------------------------------------------------- replay
async function startReplay() {
  // the server may take a moment (it replays the game once): the button says so meanwhile
  const btn = /** @type {HTMLButtonElement} */ ($("replay-btn"));
  const word = btn.textContent;
  btn.disabled = true;
  btn.textContent = t("Loading…");
  let data;
  try {
    data = await api(`/api/games/${gameId}/replay`);
  } finally {
    btn.disabled = false;
    btn.textContent = word;
  }
  ui.replay = { frames: data.frames, at: 0, timer: null };
  const f = data.frames[0];
  board.place(f.view.pawns, []);
  render();
  $("replay-panel").scrollIntoView({ block: "nearest" });
}

/** @param {number} i */
function showFrame(i) {
  const r = ui.replay;
  if (!r) return;
  i = Math.max(0, Math.min(r.frames.length - 1, i));
  const forward = i === r.at + 1;
  r.at = i;
  const f = r.frames[i];
  const moved = board.place(f.view.pawns, forward && f.entry ? f.entry.paths : []);
  if (forward && f.entry) board.animate(moved, f.entry.effects);
  if (i === r.frames.length - 1) stopReplayTimer();
  render();
}

function stopReplayTimer() {
  if (ui.replay && ui.replay.timer) {
    clearInterval(ui.replay.timer);
    ui.replay.timer = null;
  }
}

function toggleReplayPlay() {
  const r = ui.replay;
  if (!r) return;
  if (r.timer) stopReplayTimer();
  else {
    if (r.at >= r.frames.length - 1) showFrame(0);
    r.timer = window.setInterval(() => showFrame((ui.replay ? ui.replay.at : 0) + 1), 900 / replaySpeed());
  }
  render();
}

/** The replay's speed (a factor of one move in 0.9 s), remembered. */
function replaySpeed() {
  return Math.max(0.25, Number(/** @type {HTMLSelectElement} */ ($("replay-speed")).value) || 1);
}

function closeReplay() {
  stopReplayTimer();
  ui.replay = null;
  if (store.state) board.place(store.state.view.pawns, []);
  delete document.body.dataset.replayAt;
  render();
}

// ------------------------------------------------------------------------------- messages
/** A message from the server: a state (or the seats) waits while another move is shown.
 * @param {ServerMessage} m */
function onMessage(m) {
  const now = performance.now();
  if ((m.type === "state" || m.type === "seats") && (pace.queue.length || now < pace.until)) {
    pace.queue.push({ m, at: now });
    return;
  }
  handle(m, now);
}

/** The hold is over: the states that waited are taken in, one move at a time. */
function paceTick() {
  pace.timer = null;
  while (pace.queue.length && !holding()) {
    const next = /** @type {{m: ServerMessage, at: number}} */ (pace.queue.shift());
    handle(next.m, next.at);
  }
  if (holding()) armPace();
  else {
    render(); // the player's turn, the card of the turn
    focusTurn();
  }
}

/** The turn came while the player uses the keyboard: the focus goes to the board's first
 * target (once the move before has been shown), unless they are typing. */
let keyboardTurn = false;
let usingKeys = false;
document.addEventListener("keydown", () => (usingKeys = true), true);
document.addEventListener("pointerdown", () => (usingKeys = false), true);

function focusTurn() {
  if (!keyboardTurn || !myTurn()) return;
  keyboardTurn = false;
  const active = document.activeElement;
  if (!usingKeys || (active && active.matches("input, textarea, select"))) return;
  board.focusFirst();
}

function armPace() {
  if (pace.timer === null) pace.timer = window.setTimeout(paceTick, Math.max(0, pace.until - performance.now()) + 5);
}

/**
 * After another player's move (or the player's own turn passed for want of a move): how long
 * the page shows it before going on, the walk of the pawns included; nothing when the page is
 * hidden, and little when it has fallen behind (a reconnection).
 * @param {number} walk the pawns' walk, ms
 */
function holdFor(walk) {
  const factor = SPEEDS[/** @type {keyof typeof SPEEDS} */ (speedName())];
  const hold = following.showMs * factor;
  if (hold <= 0 || document.hidden) return;
  pace.until = performance.now() + (pace.queue.length > 6 ? 150 : Math.max(hold, walk + 200 * factor));
  armPace();
}

/**
 * @param {ServerMessage} m
 * @param {number} at when it came (performance.now())
 */
function handle(m, at) {
  const added = store.apply(m);
  if (m.type === "chat" && m.message.colour !== conn.seat && !chatOnScreen()) ui.unread = true;
  if (m.type === "chat" && m.message.colour === conn.seat && m.message.text === ui.chatSent) ui.chatSent = "";
  if (m.type === "chat") chatArrived(m.message.colour !== conn.seat && !ui.muted.has(m.message.colour || "spectators"));
  switch (m.type) {
    case "welcome":
      document.body.dataset.role = m.role;
      break;
    case "state": {
      const prev = store.previous;
      if (!prev || prev.seq !== m.seq) {
        ui.picks = [];
        ui.card = null;
        ui.cardAt = -1;
        ui.hint = null;
        ui.hintText = null;
        ui.hintMoves = [];
        ui.hintWords = null;
        ui.preview = null;
      }
      ui.sending = false;
      ui.deadline = m.room.deadline_in === null ? null : at + m.room.deadline_in * 1000;
      let walk = 0;
      if (!ui.replay) {
        const moved = board.place(m.view.pawns, added ? added.paths : []);
        if (added) walk = board.animate(moved, added.effects);
        if (added) moveSounds(added.effects, walk > 0);
      }
      if (added && (added.colour !== conn.seat || added.actor === "forced")) holdFor(walk);
      if (added) announce(happened(added, m.view.variant));
      if (prev && !prev.room.started && m.room.started) announce(t("The game has started."));
      // at the start, and when the turn comes to this seat: the board into view
      const mineNow = (/** @type {typeof m | null} */ x) =>
        !!x && x.room.started && x.status === "playing" && !!conn.seat && x.view.to_move === conn.seat;
      if (!ui.replay && ((prev && !prev.room.started && m.room.started) || (mineNow(m) && !mineNow(prev)))) {
        requestAnimationFrame(bringBoardIntoView);
        keyboardTurn = true;
      }
      break;
    }
    case "accepted":
    case "resigned":
      ui.notice = "";
      break;
    case "undone":
      ui.notice = "";
      announce(t("Your last move was taken back."));
      break;
    case "rejected":
      ui.sending = false;
      ui.notice = t("Not accepted: {reason}", { reason: reasonText(m.code, m.reason) });
      if (m.resync) conn.send({ type: "resync" });
      break;
    case "hint":
      ui.hint = m.move;
      ui.hintText = m.text;
      ui.hintMoves = m.moves || [];
      ui.hintWords = m.words || null;
      ui.hintRough = !!m.rough;
      ui.hintProvisional = !!m.provisional;
      break;
    case "reaction": {
      // who reacted, a moment, above the chat (players and spectators alike)
      const line = $("reaction");
      const shown = `${m.name ?? t("A spectator")} ${m.emoji}`;
      line.textContent = shown;
      announce(shown);
      setTimeout(() => {
        if (line.textContent === shown) line.textContent = "";
      }, 3000);
      break;
    }
    case "error":
      ui.notice = reasonText(m.code, m.error);
      if (m.code === "chat_rate" && ui.chatSent && !input("chat-input").value) {
        input("chat-input").value = ui.chatSent; // refused: the words are the writer's to send again
      }
      ui.chatSent = "";
      if (m.code === "bad_token") {
        forgetSeat(gameId);
        conn.seat = null;
        conn.token = null;
      }
      break;
  }
  render();
  focusTurn();
}

/**
 * The server's reasons, by code, in the page's language (its English text otherwise).
 * @param {string} code @param {string} english
 */
function reasonText(code, english) {
  /** @type {Record<string, string>} */
  const words = {
    stale: "the game had moved on: look again",
    game_over: "the game is over",
    not_your_turn: "it is not your turn",
    illegal: "that move is not one of the legal moves",
    server_error: "the move could not be saved: try again",
    rate_limited: "too many messages: slow down",
    bad_token: "wrong seat or token",
    no_game: "no such game",
    not_started: "the game has not started yet",
    chat_off: "the host switched chat off",
    chat_rate: "one chat message at a time",
    undo_rated: "no undo in a rated game",
    undo_people: "undo is only for a game against bots",
    nothing_to_undo: "no move of yours to undo",
    undo_resigned: "a resignation is not taken back",
    resigned: "you have resigned already",
  };
  return words[code] ? t(words[code]) : english;
}

// ------------------------------------------------------------------------------- the game page
/** @param {string} id */
async function gamePage(id) {
  gameId = id;
  $("game-page").hidden = false;
  const frag = new URLSearchParams(location.hash.slice(1));
  const fseat = frag.get("seat");
  const ftoken = frag.get("token");
  if (fseat && ftoken) {
    saveCreds(id, { seat: fseat, token: ftoken, joined: false });
    history.replaceState(null, "", location.pathname); // keep the secret off the screen
  }
  try {
    ui.muted = new Set(JSON.parse(localStorage.getItem("sorry:muted:" + id) || "[]"));
  } catch {
    ui.muted = new Set();
  }
  const [svgText, geo, summary, meta] = await Promise.all([
    fetch("/api/board.svg").then((r) => r.text()),
    api("/api/board"),
    api("/api/games/" + id),
    api("/api/meta"),
  ]);
  levels = meta.bot_levels;
  levelSentences = meta.level_sentences || {};
  following.autoPass = !!meta.auto_pass;
  following.showMs = 1000 * Number(meta.show_moves || 0);
  gameName = summary.name;
  board = new Board($("board"), svgText, geo, tapHandlers);
  board.cardHelp = meta.card_help || {};
  board.cardRules = meta.card_rules || {};
  const named = t("{name} — {variant}", { name: summary.name, variant: t(summary.variant) });
  $("subtitle").textContent = summary.options ? t("{text} ({options})", { text: named, options: summary.options }) : named;
  wire();
  analysis = new EndAnalysis(id, (frame) => (ui.replay ? Promise.resolve() : startReplay()).then(() => {
    showFrame(frame);
    bringBoardIntoView();
  }).catch(showNotice));
  conn = new Connection(id, onMessage, (up) => {
    if (!up) $("status").textContent = t("Disconnected — reconnecting…");
  });
  const c = creds(id);
  input("name-input").value = localStorage.getItem("sorry:name") || "";
  if (c.joined && c.seat && c.token) {
    conn.identify(c.seat, c.token);
    return;
  }
  const held = heldSeat(summary); // the account's seat: its session opens it
  if (held && summary.seats.some((/** @type {any} */ s) => s.colour === held && s.claimed)) {
    conn.identify(held, null);
    return;
  }
  showJoin(summary, c, held); // a seat held and not taken yet: an invitation by name
  conn.identify(null, null); // watch while deciding
}

/** Mark on the board the squares a line of words names (null clears). @param {import("./types.js").Path[] | null} movers */
function spot(movers) {
  if (board) board.spot(movers && movers.length ? movers : null);
}

function wire() {
  spotOn($("happened"), () => shown()?.last?.movers, spot);
  $("cancel-btn").addEventListener("click", () => {
    ui.picks = [];
    render();
  });
  $("hint-btn").addEventListener("click", () => {
    if (store.state) conn.send({ type: "hint", seq: store.state.seq });
  });
  $("back-btn").addEventListener("click", () => conn.send({ type: "back" }));
  // leaving: a bot plays the seat until the player is back (the same link brings them back)
  $("leave-btn").addEventListener("click", () => {
    const st = store.state;
    const alone = !!st && st.seats.every((x) => x.colour === conn.seat || x.kind === "bot");
    const ask = alone
      ? t("Leave the game? It waits for you at your turn: Your games in the lobby brings you back.")
      : t("Leave the game? A bot plays for you until you come back: this game's link brings you back.");
    if (!confirm(ask)) return;
    conn.send({ type: "leave" });
    window.setTimeout(() => location.assign("/"), 300);
  });
  $("resign-btn").addEventListener("click", () => {
    const st = store.state;
    if (!st) return;
    const many = st.view.colours.length > 2 && !st.teams;
    if (!confirm(many ? t("Resign? You are out, ranked last; your pawns leave the board and the others play on.") : t("Resign? The game ends and the other side wins."))) return;
    conn.send({ type: "resign" });
  });
  $("undo-btn").addEventListener("click", () => {
    if (store.state) conn.send({ type: "undo", seq: store.state.seq });
  });
  $("replay-btn").addEventListener("click", () => startReplay().catch(showNotice));
  $("replay-first").addEventListener("click", () => showFrame(0));
  $("replay-prev").addEventListener("click", () => showFrame((ui.replay?.at ?? 0) - 1));
  $("replay-next").addEventListener("click", () => showFrame((ui.replay?.at ?? 0) + 1));
  $("replay-last").addEventListener("click", () => showFrame(ui.replay ? ui.replay.frames.length - 1 : 0));
  $("replay-play").addEventListener("click", toggleReplayPlay);
  const replaySpeedBox = /** @type {HTMLSelectElement} */ ($("replay-speed"));
  try {
    const kept = localStorage.getItem("sorry:replay-speed");
    if (kept && [...replaySpeedBox.options].some((o) => o.value === kept)) replaySpeedBox.value = kept;
  } catch {
    /* private mode */
  }
  replaySpeedBox.addEventListener("change", () => {
    try {
      localStorage.setItem("sorry:replay-speed", replaySpeedBox.value);
    } catch {
      /* private mode */
    }
    // playing: on at the new speed
    if (ui.replay && ui.replay.timer) {
      stopReplayTimer();
      toggleReplayPlay();
    }
  });
  $("replay-close").addEventListener("click", closeReplay);
  input("replay-range").addEventListener("input", () => showFrame(Number(input("replay-range").value)));
  $("rematch-btn").addEventListener("click", rematch);
  $("next-game").addEventListener("click", goNext);
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input("chat-input").value.trim();
    if (!text) return;
    conn.sendSoon(conn.seat ? { type: "chat", text } : { type: "chat", text, name: spectatorName() });
    ui.chatSent = text;
    input("chat-input").value = "";
  });
  const phrases = $("phrases");
  for (const [key, words] of Object.entries(PHRASES)) {
    phrases.append(
      el("button", {
        type: "button",
        class: "phrase",
        "data-phrase": key,
        text: t(words),
        onclick: () => conn.sendSoon(conn.seat ? { type: "chat", phrase: key } : { type: "chat", phrase: key, name: spectatorName() }),
      }),
    );
  }
  $("chat-log").before(el("p", { id: "reaction", class: "reaction-line" }));
  for (const emoji of REACTIONS) {
    phrases.append(
      el("button", {
        type: "button",
        class: "phrase reaction",
        "data-emoji": emoji,
        "aria-label": t("React with {emoji}", { emoji }),
        text: emoji,
        onclick: () => conn.sendSoon({ type: "react", emoji }),
      }),
    );
  }
  $("unread").addEventListener("click", () => {
    ui.unread = false;
    $("chat-panel").scrollIntoView({ block: "nearest", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    input("chat-input").focus({ preventScroll: true });
    render();
  });
  // the chat came on screen: what was new has been seen
  const seen = () => {
    if (ui.unread && chatOnScreen()) {
      ui.unread = false;
      $("unread").hidden = true;
    }
  };
  window.addEventListener("scroll", seen, { passive: true });
  $("side").addEventListener("scroll", seen, { passive: true });
  $("chat-toggle").addEventListener("click", () => {
    if (store.state) hostAction({ action: "chat", enabled: !store.state.room.chat });
  });
  $("mute-spectators").addEventListener("click", () => toggleMute("spectators"));
  const speed = /** @type {HTMLSelectElement} */ ($("pace-select"));
  /** @type {Record<string, string>} */
  const speedWords = { slow: "slow", normal: "normal", fast: "fast", instant: "at once" };
  for (const name of Object.keys(SPEEDS)) speed.append(el("option", { value: name, text: t(speedWords[name]) }));
  speed.value = speedName();
  speed.addEventListener("change", () => {
    try {
      localStorage.setItem("sorry:pace", speed.value);
    } catch {
      /* private mode */
    }
  });
  initEffects();
  initChatDrawer();
  const autoPlay = input("autoplay-on");
  autoPlay.checked = autoPlayOn();
  autoPlay.addEventListener("change", () => {
    try {
      localStorage.setItem("sorry:autoplay", autoPlay.checked ? "on" : "off");
    } catch {
      /* private mode */
    }
    render();
  });
  const sound = input("sound-on");
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  const notifyText = () => {
    const state = notificationsState();
    $("notify-state").textContent =
      state === "granted" ? t("Notifications are on.") : state === "denied" ? t("Notifications are blocked by the browser.") : state === "unsupported" ? t("This browser cannot notify.") : "";
  };
  notifyText();
  $("notify-btn").addEventListener("click", async () => {
    await askNotifications();
    notifyText();
  });
  window.setInterval(() => {
    const s = shown();
    if (s && ui.deadline !== null && !s.replay) renderBanner(s, conn.seat, secondsLeft());
  }, 500);
}

/** Is the chat's log on screen (in the window, and in the side column where it scrolls)? */
function chatOnScreen() {
  const log = $("chat-panel").getBoundingClientRect();
  const side = $("side").getBoundingClientRect();
  const top = Math.max(0, side.top);
  const bottom = Math.min(window.innerHeight, side.bottom);
  return log.height > 0 && log.top < bottom - 40 && log.bottom > top + 40;
}

function spectatorName() {
  return (localStorage.getItem("sorry:name") || "").slice(0, 24) || undefined;
}

/**
 * @param {any} summary
 * @param {import("./net.js").Creds} c
 * @param {string | null} [held] the seat an account was invited to by name (its session takes it)
 */
function showJoin(summary, c, held = null) {
  const box = $("join-buttons");
  box.replaceChildren();
  $("join").hidden = false;
  /** @param {string} seat @param {string | undefined} token */
  const join = async (seat, token) => {
    const name = input("name-input").value.trim() || myAccount.name || t("Player");
    if (!myAccount.name) localStorage.setItem("sorry:name", name); // an account's seat has its name
    try {
      const res = await api(`/api/games/${gameId}/join`, { seat, name, token });
      saveCreds(gameId, { seat, token: res.token, joined: true });
      $("join").hidden = true;
      conn.identify(seat, res.token);
    } catch (e) {
      $("join-error").textContent = /** @type {Error} */ (e).message;
    }
  };
  if (c.seat && c.token) {
    const seat = c.seat;
    const token = c.token;
    $("join-title").textContent = t("You are invited to play {colour}", { colour: colourName(seat) });
    box.append(el("button", { id: "join-btn", type: "button", class: "primary", text: t("Join as {colour}", { colour: colourName(seat) }), onclick: () => join(seat, token) }));
    return;
  }
  if (held) {
    $("join-title").textContent = t("You are invited to play {colour}", { colour: colourName(held) });
    box.append(el("button", { id: "join-btn", type: "button", class: "primary", text: t("Join as {colour}", { colour: colourName(held) }), onclick: () => join(held, undefined) }));
    return;
  }
  $("join-title").textContent = t("Watching. Take an open seat?");
  for (const s of summary.seats) {
    if (s.open && !s.claimed) {
      box.append(
        el("button", { type: "button", class: "take-seat primary", "data-colour": s.colour, text: t("Play {colour}", { colour: colourName(s.colour) }), onclick: () => join(s.colour, undefined) }),
      );
    }
  }
  if (!box.children.length) $("join").hidden = true;
}

/** Asking for the next game of the match is accepting it. */
async function rematch() {
  const c = creds(gameId);
  try {
    const res = await api(`/api/games/${gameId}/rematch`, { seat: c.seat, token: c.token });
    follow(res.id);
  } catch (e) {
    showNotice(/** @type {Error} */ (e));
  }
}

/** @param {Event} ev */
function goNext(ev) {
  ev.preventDefault();
  if (store.state && store.state.next_game) follow(store.state.next_game);
}

/** The seat's token is the same in every game of the match. @param {string} id */
function follow(id) {
  const c = creds(gameId);
  if (c.seat && c.token) {
    try {
      localStorage.setItem("sorry:" + id, JSON.stringify({ seat: c.seat, token: c.token, joined: true, host: c.host }));
    } catch {
      /* private mode */
    }
  }
  location.href = "/g/" + id;
}

// ------------------------------------------------------------------------------- start
if (initLanguage()) {
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]{1,32})$/);
  loadSession().then((account) => (match ? gamePage(match[1]) : lobbyPage(account)));
}
