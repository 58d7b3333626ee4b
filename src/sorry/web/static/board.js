// @ts-check
// The board: the server's SVG picture (sorry.svg) with pawns, the marks of the last move,
// the squares a chosen pawn can go to, the hint, and the card of the turn in the middle.
// Taps are reported to the caller; nothing here knows a rule.

import { t, colourName } from "./i18n.js";
import { placeKey } from "./picks.js";

/** @typedef {import("./types.js").Path} Path */
/** @typedef {import("./types.js").LogEntry} LogEntry */

const SVGNS = "http://www.w3.org/2000/svg";
/** @type {Record<string, string>} */
const FILL = { R: "#d64541", B: "#3b7dd8", Y: "#e8c12e", G: "#3aa655" };
/** @type {Record<string, string>} */
const DARK = { R: "#7a1f1c", B: "#1b3f73", Y: "#7a6200", G: "#1a5a2a" };
const PAWN_R = 14;
const MIN_TAP_CSS_PX = 46; // tap targets are at least this wide on screen (44 required)
const STEP_MS = 110; // a pawn's walk, per square

/**
 * @typedef {{x: number, y: number}} Point
 * @typedef {{el: SVGGElement, loc: string}} Pawn
 * @typedef {object} BoardView
 * @property {Record<string, string[]>} pawns
 * @property {Map<string, string[]>} movable  pawn tokens that can be tapped (P|c|loc), each
 *   with the moves it leads to
 * @property {Map<string, string[]>} places   places that can be tapped (D|place), the same
 * @property {string[]} picked            the taps so far
 * @property {Path[]} last                the last move's pawns
 * @property {Path[] | null} hint         the hinted move's pawns
 * @property {string | null} card         the card in the middle
 * @property {string} [cardBy]            whose card it is (its border's colour; else toMove)
 * @property {boolean} [deck]             no card yet: the deck face down (the waiting room)
 * @property {string} toMove
 */

/** @param {string} tag @param {Record<string, string | number>} [attrs] */
function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

/** @param {string} c @param {string} loc */
export function pawnLabel(c, loc) {
  const colour = colourName(c);
  if (loc === "S") return t("{colour} pawn in START", { colour });
  if (loc === "H") return t("{colour} pawn at HOME", { colour });
  if (loc[0] === "s") return t("{colour} pawn on Safety Zone square {k}", { colour, k: loc.slice(1) });
  return t("{colour} pawn on square {square}", { colour, square: loc });
}

/** @param {string} loc */
export function placeName(loc) {
  if (loc === "S") return t("START");
  if (loc === "H") return t("HOME");
  if (loc[0] === "s") return t("Safety {n}", { n: loc.slice(1) });
  return loc;
}

/** @param {string} c */
export function cardName(c) {
  return c === "S" ? t("Sorry!") : c;
}

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {string} svgText the board picture
   * @param {any} geo /api/board
   * @param {{pawn: (c: string, loc: string) => void, place: (place: string) => void}} onTap
   */
  constructor(host, svgText, geo, onTap) {
    this.host = host;
    this.geo = geo;
    this.onTap = onTap;
    host.innerHTML = svgText; // the server's own picture, not user text
    const root = host.querySelector("svg");
    if (!root) throw new Error("no board");
    this.svg = root;
    root.removeAttribute("width");
    root.removeAttribute("height");
    root.setAttribute("preserveAspectRatio", "xMidYMid meet");
    /** @type {Record<string, SVGGElement>} */
    this.layers = {};
    for (const id of ["marks", "spots", "card-layer", "pawn-layer", "targets"]) {
      const g = /** @type {SVGGElement} */ (svg("g", { id }));
      root.append(g);
      this.layers[id] = g;
    }
    /** @type {Record<string, Pawn[]>} */
    this.pawns = {};
    this.hitR = 30;
    this.reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
    /** @type {string | null} */
    this.shownCard = null;
    /** @type {Record<string, string>} what each card does, in English (/api/meta) */
    this.cardHelp = {};
    /** @type {Record<string, string>} each card's sentence of the rules, in English (/api/meta) */
    this.cardRules = {};
    /** @type {{el: SVGGElement, x: number, y: number}[]} what can be tapped now */
    this.active = [];
    root.addEventListener("click", (ev) => this.tapAt(ev));
    root.addEventListener("keydown", (ev) => this.arrow(ev));
    this.resize();
    new ResizeObserver(() => this.resize()).observe(root);
    document.fonts.ready.then(() => this.fitLabels());
  }

  /** What `card` does, in its sentence of the rules (the page's language); "" for none.
   * @param {string | null} card */
  ruleOf(card) {
    return card && this.cardRules[card] ? t(this.cardRules[card]) : "";
  }

  /** Tap targets stay at least MIN_TAP_CSS_PX wide whatever the board's size. */
  resize() {
    const w = this.svg.getBoundingClientRect().width || this.geo.size;
    const scale = w / this.geo.size;
    // the board's words and square numbers keep a readable size on screen (app.css)
    this.svg.style.setProperty("--u", (1 / scale).toFixed(3));
    this.fitLabels();
    const r = Math.max(PAWN_R + 4, MIN_TAP_CSS_PX / 2 / scale);
    if (Math.abs(r - this.hitR) < 0.5) return;
    this.hitR = r;
    for (const c of this.svg.querySelectorAll("circle.hit")) c.setAttribute("r", r.toFixed(1));
    this.fitTargets();
  }

  /**
   * The START and HOME labels stay 10 CSS px at least (app.css): on a phone a long one
   * ("ΑΦΕΤΗΡΙΑ του Κόκκινου") is wider than its circle and would run into the track. Each
   * label takes the first of these places where it runs into no square, no other circle and
   * no label placed before it:
   * under its circle on one line, then on two lines (split at the space nearest its middle),
   * then above its circle likewise; in each, moved sideways as little as it takes into the
   * free stretch of its row around the circle.
   */
  fitLabels() {
    const obstacles = [...this.svg.querySelectorAll("rect.sq, rect.safety, circle.home, circle.start")].map((e) => ({
      e,
      b: /** @type {SVGGraphicsElement} */ (e).getBBox(),
    }));
    const pad = 3;
    /** @type {{e: Element, b: DOMRect}[]} the labels placed so far */
    const placed = [];
    /** @param {DOMRect} a @param {DOMRect} b */
    const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const label of /** @type {NodeListOf<SVGTextElement>} */ (this.svg.querySelectorAll("circle.home + text, circle.start + text"))) {
      const own = /** @type {SVGCircleElement} */ (label.previousElementSibling);
      const d = label.dataset;
      if (d.x0 === undefined) {
        d.x0 = label.getAttribute("x") || "0";
        d.y0 = label.getAttribute("y") || "0";
        d.text = label.textContent || "";
      }
      const x0 = Number(d.x0);
      const text = d.text || "";
      const cy = Number(own.getAttribute("cy"));
      const r = Number(own.getAttribute("r"));
      let cut = text.indexOf(" ");
      for (let i = cut; i >= 0; i = text.indexOf(" ", i + 1)) {
        if (Math.abs(i - text.length / 2) < Math.abs(cut - text.length / 2)) cut = i;
      }
      /**
       * The label put there: under or above its circle, on one or two lines, moved into the
       * free stretch of its rows; whether it then runs into nothing.
       * @param {boolean} above @param {boolean} two
       */
      const put = (above, two) => {
        label.setAttribute("x", String(x0));
        label.setAttribute("y", above ? String(cy - r - 6) : d.y0 || "0");
        if (two) {
          const first = svg("tspan", { x: x0, dy: above ? "-1.1em" : "0" });
          first.textContent = text.slice(0, cut);
          const second = svg("tspan", { x: x0, dy: "1.1em" });
          second.textContent = text.slice(cut + 1);
          label.replaceChildren(first, second);
        } else label.textContent = text;
        const b = label.getBBox();
        // the stretches of the label's rows that nothing takes, and the smallest move sideways
        // into one wide enough
        const busy = [...obstacles, ...placed]
          .filter((o) => o.e !== own && o.b.y < b.y + b.height && b.y < o.b.y + o.b.height)
          .map((o) => [o.b.x, o.b.x + o.b.width])
          .sort((p, q) => p[0] - q[0]);
        let shift = null;
        let at = 0;
        for (const [from, to] of [...busy, [this.geo.size, this.geo.size]]) {
          const lo = at + pad;
          const hi = from - pad;
          at = Math.max(at, to);
          if (hi - lo < b.width) continue;
          const move = b.x < lo ? lo - b.x : b.x + b.width > hi ? hi - (b.x + b.width) : 0;
          if (shift === null || Math.abs(move) < Math.abs(shift)) shift = move;
        }
        if (shift === null) shift = 0; // no room on these rows: the next place is tried
        const x = (x0 + shift).toFixed(1);
        label.setAttribute("x", x);
        for (const line of label.querySelectorAll("tspan")) line.setAttribute("x", x);
        const box = label.getBBox();
        return !!b.width && ![...obstacles, ...placed].some((o) => o.e !== own && meet(o.b, box));
      };
      const ways = cut > 0 ? [[false, false], [false, true], [true, false], [true, true]] : [[false, false], [true, false]];
      if (!ways.some(([above, two]) => put(above, two))) put(false, false);
      placed.push({ e: label, b: label.getBBox() });
    }
  }

  /**
   * On a small board the squares are closer than a finger: two targets side by side (a 7's
   * squares) cannot both have MIN_TAP_CSS_PX of their own. Each target's circle is as large
   * as that allows without reaching past half-way to the nearest other target (so a tap on a
   * square's centre is that square's), and a tap anywhere goes to the nearest target
   * (tapAt), never to whichever was drawn last.
   */
  fitTargets() {
    /** @type {{el: SVGGElement, x: number, y: number}[]} */
    const active = [];
    for (const list of Object.values(this.pawns)) {
      for (const p of list) {
        if (p.el.classList.contains("movable") || p.el.classList.contains("takeable")) {
          active.push({ el: p.el, x: Number(p.el.dataset.x), y: Number(p.el.dataset.y) });
        }
      }
    }
    for (const g of /** @type {NodeListOf<SVGGElement>} */ (this.layers.targets.querySelectorAll(".dest:not(.on-pawn)"))) {
      active.push({ el: g, x: Number(g.dataset.x), y: Number(g.dataset.y) });
    }
    for (const a of active) {
      let near = Infinity;
      for (const b of active) if (b !== a) near = Math.min(near, Math.hypot(a.x - b.x, a.y - b.y));
      const hit = a.el.querySelector("circle.hit");
      if (hit) hit.setAttribute("r", Math.min(this.hitR, near / 2).toFixed(1));
    }
    this.active = active;
  }

  /**
   * A tap or click on the board: the nearest target within reach of the finger. A click
   * that has no place (from assistive technology) goes to the element clicked.
   * @param {MouseEvent} ev
   */
  tapAt(ev) {
    /** @type {SVGGElement | null} */
    let best = null;
    const m = this.svg.getScreenCTM();
    if (m && (ev.clientX || ev.clientY)) {
      const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      let reach = this.hitR;
      for (const a of this.active) {
        const d = Math.hypot(a.x - pt.x, a.y - pt.y);
        if (d <= reach) {
          reach = d;
          best = a.el;
        }
      }
    }
    if (!best && ev.target instanceof Element) best = ev.target.closest(".pawn.movable, .pawn.takeable, .dest:not(.on-pawn)");
    if (!best) return;
    if (best.classList.contains("pawn")) this.tapPawnEl(best);
    else this.onTap.place(best.dataset.place || "");
  }

  /** What the keyboard can reach on the board now: the movable pawns, then the squares. */
  targets() {
    return /** @type {SVGGElement[]} */ ([...this.svg.querySelectorAll(".pawn[tabindex], .dest[tabindex]")]);
  }

  /** Focus the first thing to choose on the board (the turn has come, by keyboard). */
  focusFirst() {
    const first = this.targets()[0];
    if (first) first.focus({ preventScroll: true });
  }

  /**
   * Arrow keys move the focus between the board's targets (right or down: the next; left or
   * up: the previous; Home, End: the first, the last).
   * @param {KeyboardEvent} ev
   */
  arrow(ev) {
    const keys = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"];
    if (!keys.includes(ev.key)) return;
    const all = this.targets();
    if (!all.length) return;
    ev.preventDefault();
    const at = all.indexOf(/** @type {SVGGElement} */ (document.activeElement));
    const n = all.length;
    let i;
    if (ev.key === "Home") i = 0;
    else if (ev.key === "End") i = n - 1;
    else if (ev.key === "ArrowRight" || ev.key === "ArrowDown") i = at < 0 ? 0 : (at + 1) % n;
    else i = at < 0 ? n - 1 : (at - 1 + n) % n;
    all[i].focus();
  }

  /** @param {string} c @param {string} loc @param {number} slot @returns {Point} */
  xy(c, loc, slot) {
    const g = this.geo;
    let p;
    if (loc === "S") p = g.start[c][slot % 4];
    else if (loc === "H") p = g.home[c][slot % 4];
    else if (loc[0] === "s") p = g.safety[c][Number(loc.slice(1)) - 1];
    else p = g.track[Number(loc)];
    return { x: p[0], y: p[1] };
  }

  /** @param {string} place a placeKey */
  placeXY(place) {
    if (/^\d+$/.test(place)) return this.xy("R", place, 0);
    const c = place[0];
    const loc = place.slice(1);
    if (loc === "S") return { x: this.geo.start_circle[c][0], y: this.geo.start_circle[c][1] };
    if (loc === "H") return { x: this.geo.home_circle[c][0], y: this.geo.home_circle[c][1] };
    return this.xy(c, loc, 0);
  }

  /** @param {string} c */
  makePawn(c) {
    const g = /** @type {SVGGElement} */ (svg("g", { class: `pawn pawn-${c}`, role: "img" }));
    g.dataset.colour = c;
    const hit = svg("circle", { class: "hit", r: this.hitR.toFixed(1) });
    const body = svg("circle", { class: "body", r: PAWN_R, fill: FILL[c], stroke: DARK[c], "stroke-width": 2 });
    const letter = svg("text", {
      "text-anchor": "middle",
      "dominant-baseline": "central",
      "font-size": 15,
      "font-weight": "bold",
      fill: "#fff",
      "font-family": "sans-serif",
      "aria-hidden": "true",
    });
    letter.textContent = c;
    g.append(hit, body, letter);
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        this.tapPawnEl(g);
      }
    });
    this.layers["pawn-layer"].append(g);
    return g;
  }

  /** @param {SVGGElement} g */
  tapPawnEl(g) {
    const c = g.dataset.colour || "";
    const p = (this.pawns[c] || []).find((q) => q.el === g);
    if (p) this.onTap.pawn(c, p.loc);
  }

  /**
   * Pawn elements follow the new locations: first along the moved paths (so the right pawn
   * walks), then those that did not move, then the rest. Returns each moved element's
   * journey.
   * @param {Record<string, string[]>} pawns
   * @param {Path[]} paths
   * @returns {{el: SVGGElement, c: string, from: string, to: string}[]}
   */
  place(pawns, paths) {
    /** @type {{el: SVGGElement, c: string, from: string, to: string}[]} */
    const moved = [];
    for (const [c, locs] of Object.entries(pawns)) {
      if (!this.pawns[c]) this.pawns[c] = locs.map((loc) => ({ el: this.makePawn(c), loc }));
      const els = this.pawns[c];
      const remaining = [...locs];
      /** @type {Map<Pawn, string>} */
      const assigned = new Map();
      /** @param {string} loc */
      const take = (loc) => {
        const i = remaining.indexOf(loc);
        if (i < 0) return false;
        remaining.splice(i, 1);
        return true;
      };
      for (const [pc, from, to] of paths || []) {
        if (pc !== c) continue;
        const p = els.find((q) => !assigned.has(q) && q.loc === from);
        if (p && take(to)) assigned.set(p, to);
      }
      for (const p of els) if (!assigned.has(p) && take(p.loc)) assigned.set(p, p.loc);
      for (const p of els) if (!assigned.has(p)) assigned.set(p, remaining.shift() || p.loc);
      /** @type {Record<string, number>} */
      const slots = {};
      for (const p of els) {
        const loc = assigned.get(p) || p.loc;
        if (loc !== p.loc) moved.push({ el: p.el, c, from: p.loc, to: loc });
        p.loc = loc;
        const slot = slots[loc] || 0;
        slots[loc] = slot + 1;
        const { x, y } = this.xy(c, loc, slot);
        p.el.style.transform = `translate(${x}px, ${y}px)`;
        p.el.dataset.loc = loc;
        p.el.dataset.x = String(x);
        p.el.dataset.y = String(y);
      }
    }
    return moved;
  }

  /**
   * Walk the pawns along the move's effects, in order: each pawn square by square along its
   * path, a slide after the landing, a bumped pawn back to START once the mover is there,
   * the two pawns of a swap crossing at once. Without effects, moved pawns go straight.
   * @param {{el: SVGGElement, c: string, from: string, to: string}[]} moved
   * @param {import("./types.js").Effect[] | undefined} effects
   * @returns {number} how long the walk takes (ms; 0 when nothing walks)
   */
  animate(moved, effects) {
    if (this.reduced || !moved.length || typeof Element.prototype.animate !== "function") return 0;
    /** @type {Map<SVGGElement, {loc: string, frames: {t: number, p: Point}[]}>} */
    const tracks = new Map();
    for (const m of moved) tracks.set(m.el, { loc: m.from, frames: [{ t: 0, p: this.xy(m.c, m.from, 0) }] });
    let t = 0;
    let swapStart = 0;
    const steps = effects && effects.length ? effects : moved.map((m) => ({ kind: "forward", colour: m.c, from: m.from, to: m.to, path: [m.to], part: 0 }));
    for (const e of steps) {
      const entry = [...tracks.entries()].find(([el, tr]) => el.dataset.colour === e.colour && tr.loc === e.from);
      if (!entry) continue;
      const [, track] = entry;
      const path = e.path && e.path.length ? e.path : [e.to];
      const begin = e.kind === "swap" && swapStart !== t ? swapStart : t;
      if (e.kind === "swap") swapStart = begin;
      const per = e.kind === "slide" ? STEP_MS * 0.6 : e.kind === "bump" ? 350 : STEP_MS;
      const last = track.frames[track.frames.length - 1];
      if (last.t < begin) track.frames.push({ t: begin, p: last.p }); // wait for its turn
      path.forEach((loc, i) => track.frames.push({ t: begin + per * (i + 1), p: this.xy(e.colour, loc, 0) }));
      track.loc = e.to;
      t = Math.max(t, begin + per * path.length);
    }
    const total = Math.min(4000, Math.max(t, 300));
    for (const [el, track] of tracks) {
      const end = { x: Number(el.dataset.x), y: Number(el.dataset.y) };
      const frames = track.frames.map((f) => ({ offset: Math.min(1, f.t / Math.max(t, 1)), transform: `translate(${f.p.x}px, ${f.p.y}px)` }));
      frames[frames.length - 1] = { offset: frames[frames.length - 1].offset, transform: `translate(${end.x}px, ${end.y}px)` };
      if (frames[frames.length - 1].offset < 1) frames.push({ offset: 1, transform: `translate(${end.x}px, ${end.y}px)` });
      el.animate(frames, { duration: total, easing: "linear" });
    }
    return total;
  }

  /** @param {BoardView} v */
  render(v) {
    this.resize();
    const pickedPawn = v.picked.filter((tok) => tok.startsWith("P|"));
    // pawns sharing START (or HOME) are one choice: only the topmost takes the taps
    const seen = new Set();
    for (const [c, list] of Object.entries(this.pawns)) {
      for (const p of [...list].reverse()) {
        const tok = `P|${c}|${p.loc}`;
        const twin = seen.has(tok);
        seen.add(tok);
        // only a pawn on the track is taken (bumped, swapped, sent back by a Sorry!); a
        // HOME that already holds pawns is tapped through its own marker
        const target = !twin && /^\d+$/.test(p.loc) && v.places.has("D|" + placeKey(c, p.loc));
        const canMove = !twin && v.movable.has(tok);
        p.el.classList.toggle("twin", twin && v.movable.has(tok));
        p.el.classList.toggle("movable", canMove);
        p.el.classList.toggle("takeable", target);
        p.el.classList.toggle("selected", !twin && pickedPawn.includes(tok));
        p.el.classList.toggle("hinted", !!v.hint && v.hint.some(([hc, from]) => hc === c && from === p.loc));
        const active = canMove || target;
        // the moves a tap here leads to (for tests and tools; the notation, not words)
        const leads = twin ? [] : [...(v.movable.get(tok) || []), ...((target && v.places.get("D|" + placeKey(c, p.loc))) || [])];
        if (leads.length) p.el.dataset.moves = leads.join(" ");
        else delete p.el.dataset.moves;
        p.el.setAttribute("role", active ? "button" : "img");
        if (active) p.el.setAttribute("tabindex", "0");
        else p.el.removeAttribute("tabindex");
        p.el.setAttribute(
          "aria-label",
          target
            ? t("{pawn}, can be taken", { pawn: pawnLabel(c, p.loc) })
            : canMove
              ? t("{colour} pawn on {place}, can move", { colour: colourName(c), place: placeName(p.loc) })
              : pawnLabel(c, p.loc),
        );
      }
    }
    this.renderTargets(v);
    this.fitTargets();
    this.renderMarks(v.last, v.hint, v.picked);
    this.renderCard(v.card, v.cardBy || v.toMove, !!v.deck);
  }

  /** @param {BoardView} v */
  renderTargets(v) {
    const layer = this.layers.targets;
    layer.replaceChildren();
    const occupied = new Set();
    for (const [c, list] of Object.entries(this.pawns)) for (const p of list) occupied.add(placeKey(c, p.loc));
    for (const [tok, leads] of v.places) {
      const place = tok.slice(2);
      const { x, y } = this.placeXY(place);
      const taken = /^\d+$/.test(place) && occupied.has(place);
      const g = /** @type {SVGGElement} */ (svg("g", { class: "dest" + (taken ? " on-pawn" : ""), transform: `translate(${x} ${y})` }));
      g.dataset.place = place;
      g.dataset.x = String(x);
      g.dataset.y = String(y);
      g.dataset.moves = leads.join(" ");
      g.append(svg("circle", { class: "ring", r: PAWN_R + 6 }));
      if (!taken) g.append(svg("circle", { class: "dot", r: 6 }));
      if (!taken) {
        // a free square is tapped through its own marker; a pawn to take through the pawn
        g.append(svg("circle", { class: "hit", r: this.hitR.toFixed(1) }));
        g.setAttribute("role", "button");
        g.setAttribute("tabindex", "0");
        g.setAttribute("aria-label", t("Move here: {place}", { place: placeLabel(place) }));
        g.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            this.onTap.place(place);
          }
        });
      }
      layer.append(g);
    }
  }

  /** @param {Path[]} last @param {Path[] | null} hint @param {string[]} picked */
  renderMarks(last, hint, picked) {
    const layer = this.layers.marks;
    layer.replaceChildren();
    for (const [c, from, to] of last || []) {
      const a = this.xy(c, from, 0);
      const b = this.xy(c, to, 0);
      layer.append(svg("circle", { class: "last-from", cx: a.x, cy: a.y, r: PAWN_R + 3, stroke: FILL[c] }));
      layer.append(svg("circle", { class: "last-to", cx: b.x, cy: b.y, r: PAWN_R + 6, stroke: DARK[c] }));
    }
    for (const [c, , to] of hint || []) {
      const b = this.xy(c, to, 0);
      layer.append(svg("circle", { class: "hint-to", cx: b.x, cy: b.y, r: PAWN_R + 8 }));
    }
    // a move chosen half-way (the first pawn of a 7 split): where that pawn will go
    (picked || []).forEach((tok, i) => {
      const before = i > 0 ? picked[i - 1] : "";
      if (!tok.startsWith("D|") || !before.startsWith("P|")) return;
      const c = before.split("|")[1];
      const { x, y } = this.placeXY(tok.slice(2));
      const g = svg("g", { class: "planned-pawn", "data-place": tok.slice(2) });
      g.append(svg("circle", { class: "planned", cx: x, cy: y, r: PAWN_R, fill: FILL[c] }));
      const letter = svg("text", { class: "planned-letter", x, y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 15 });
      letter.textContent = c;
      g.append(letter);
      layer.append(g);
    });
  }

  /** The squares a line of words names, marked while it is pointed at or after a tap (the
   * log, the line by the board, the hint): each pawn's square before and after; null clears.
   * @param {Path[] | null} movers */
  spot(movers) {
    const layer = this.layers.spots;
    layer.replaceChildren();
    for (const [c, from, to] of movers || []) {
      const a = this.xy(c, from, 0);
      const b = this.xy(c, to, 0);
      layer.append(svg("circle", { class: "spot-from", cx: a.x, cy: a.y, r: PAWN_R + 7 }));
      layer.append(svg("circle", { class: "spot-to", cx: b.x, cy: b.y, r: PAWN_R + 9 }));
    }
    this.svg.dataset.spots = (movers || []).map((p) => p.join(":")).join(" ");
  }

  /** The drawn card, face up in the middle of the board; it turns over when it changes.
   * Before the first card (the waiting room) the deck lies there face down.
   * @param {string | null} card @param {string} toMove @param {boolean} deck */
  renderCard(card, toMove, deck) {
    const layer = this.layers["card-layer"];
    const shown = card ? `${card}|${toMove}` : deck ? "deck" : null; // whose card: its border
    if (shown === this.shownCard && (layer.childElementCount || !shown)) return;
    const fresh = shown !== this.shownCard;
    this.shownCard = shown;
    layer.replaceChildren();
    if (!shown) return;
    const mid = this.geo.size / 2;
    if (!card) {
      const back = /** @type {SVGGElement} */ (svg("g", { class: "centre-card deck", "aria-hidden": "true" }));
      back.append(
        svg("rect", { x: mid - 44, y: mid - 64, width: 96, height: 136, rx: 10, class: "card-back" }),
        svg("rect", { x: mid - 48, y: mid - 68, width: 96, height: 136, rx: 10, class: "card-back" }),
        svg("rect", { x: mid - 40, y: mid - 60, width: 80, height: 120, rx: 6, class: "card-back-inner" }),
      );
      const word = svg("text", { x: mid, y: mid, "text-anchor": "middle", "dominant-baseline": "middle", class: "card-back-word", "font-size": 20, transform: `rotate(-60 ${mid} ${mid})` });
      word.textContent = t("Sorry!");
      back.append(word);
      layer.append(back);
      return;
    }
    const g = /** @type {SVGGElement} */ (svg("g", { class: "centre-card" + (fresh && !this.reduced ? " flip" : ""), "aria-hidden": "true" }));
    g.style.transformOrigin = `${mid}px ${mid}px`;
    g.append(svg("rect", { x: mid - 48, y: mid - 68, width: 96, height: 136, rx: 10, class: "card-face", stroke: DARK[toMove] || "#333" }));
    const big = svg("text", { x: mid, y: mid + 4, "text-anchor": "middle", "dominant-baseline": "middle", class: "card-number", "font-size": card === "S" ? 26 : 60 });
    big.textContent = card === "S" ? t("Sorry!") : card;
    g.append(big);
    // what the card does, in a few words, under it
    const help = this.cardHelp[card];
    if (help) {
      const words = svg("text", { x: mid, y: mid + 92, "text-anchor": "middle", "dominant-baseline": "middle", class: "card-help", "font-size": 14 });
      words.textContent = t(help);
      g.append(words);
    }
    layer.append(g);
  }
}

/** @param {string} place */
function placeLabel(place) {
  if (/^\d+$/.test(place)) return t("square {square}", { square: place });
  const c = place[0];
  const loc = place.slice(1);
  if (loc === "H") return t("{colour} HOME", { colour: colourName(c) });
  if (loc === "S") return t("{colour} START", { colour: colourName(c) });
  return t("{colour} Safety Zone, square {k}", { colour: colourName(c), k: loc.slice(1) });
}
