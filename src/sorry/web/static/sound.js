// @ts-check
// Sound effects, off until the player turns them on (the choice is remembered): a card turned
// over, a pawn sliding, a pawn bumped back to START, a pawn reaching HOME. Each is a few
// notes or a puff of noise made by Web Audio on the spot (no sound files). Nothing plays while
// the tab is hidden. (The turn's chime is notify.js's, a setting of its own.)

const KEY = "sorry:effects";

/** @returns {boolean} */
export function effectsOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** @type {AudioContext | null} */
let audio = null;

/** The context, made (or woken) only once the player wants sound: browsers let a page play
 * after a tap or a key, so the first one after the page opens wakes it. */
function context() {
  if (!audio) {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** @param {boolean} on */
export function setEffects(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* private mode */
  }
  if (on) context(); // chosen by a tap or a key: the context may start now
}

/**
 * A tone gliding from `from` to `to` Hz, `at` seconds from now, for `length` seconds.
 * @param {AudioContext} a @param {OscillatorType} type
 * @param {number} from @param {number} to @param {number} at @param {number} length @param {number} volume
 */
function tone(a, type, from, to, at, length, volume) {
  const t0 = a.currentTime + at;
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, t0);
  osc.frequency.exponentialRampToValueAtTime(to, t0 + length);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/**
 * A puff of noise through a band-pass filter sweeping from `from` to `to` Hz (a card, a slide).
 * @param {AudioContext} a @param {number} from @param {number} to @param {number} at @param {number} length @param {number} volume
 */
function swish(a, from, to, at, length, volume) {
  const t0 = a.currentTime + at;
  const frames = Math.ceil(a.sampleRate * length);
  const buffer = a.createBuffer(1, frames, a.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 12345; // the same puff each time (a small linear congruential generator)
  for (let i = 0; i < frames; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (seed / 0x3fffffff - 1) * (1 - i / frames);
  }
  const source = a.createBufferSource();
  source.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = 1.2;
  filter.frequency.setValueAtTime(from, t0);
  filter.frequency.exponentialRampToValueAtTime(to, t0 + length);
  const gain = a.createGain();
  gain.gain.setValueAtTime(volume, t0);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  source.connect(filter).connect(gain).connect(a.destination);
  source.start(t0);
}

/** Each sound: what it plays, `at` seconds from now. @type {Record<string, (a: AudioContext, at: number) => void>} */
const SOUNDS = {
  card: (a, at) => swish(a, 2500, 5000, at, 0.09, 0.5),
  slide: (a, at) => swish(a, 600, 2400, at, 0.35, 0.35),
  bump: (a, at) => {
    tone(a, "sine", 180, 55, at, 0.25, 0.5);
    tone(a, "triangle", 320, 140, at, 0.12, 0.15);
  },
  home: (a, at) => [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(a, "triangle", f, f, at + i * 0.09, 0.22, 0.18)),
};

/** The last time each sound began (ms): a burst of the same one (moves taken in at once) plays once. */
/** @type {Record<string, number>} */
const last = {};

/**
 * Play one of the sounds `delay` ms from now, if the player wants sound and is looking.
 * @param {string} name card, slide, bump or home
 * @param {number} [delay]
 */
export function play(name, delay = 0) {
  if (!effectsOn() || document.hidden || !SOUNDS[name]) return;
  const now = performance.now() + delay;
  if (now - (last[name] ?? -Infinity) < 120) return;
  last[name] = now;
  const a = context();
  if (!a) return;
  try {
    SOUNDS[name](a, delay / 1000);
  } catch {
    return; /* no sound here */
  }
  // what played, for whoever listens (the tests; a visual cue some day)
  document.dispatchEvent(new CustomEvent("sorry:sound", { detail: { name, delay } }));
}

/** board.js's pace: a pawn's walk per square, a slide's, a bump's (ms). */
const STEP_MS = 110;

/**
 * The sounds of a move as its pawns walk (board.js animate): each slide as it begins, each
 * bump as it happens, HOME when a pawn gets there.
 * @param {import("./types.js").Effect[] | undefined} effects
 * @param {boolean} walking the pawns walk (else all at once, a little apart)
 */
export function moveSounds(effects, walking) {
  if (!effects || !effectsOn()) return;
  let t = 0;
  let swapStart = 0;
  for (const e of effects) {
    const begin = e.kind === "swap" && swapStart !== t ? swapStart : t;
    if (e.kind === "swap") swapStart = begin;
    const per = e.kind === "slide" ? STEP_MS * 0.6 : e.kind === "bump" ? 350 : STEP_MS;
    const steps = e.path && e.path.length ? e.path.length : 1;
    const at = walking ? begin : t;
    if (e.kind === "slide") play("slide", at);
    if (e.kind === "bump") play("bump", at);
    const end = walking ? begin + per * steps : t + 120;
    if (e.to === "H") play("home", end);
    t = walking ? Math.max(t, end) : t + 120;
  }
}

/** The card last seen turning over (null before the first render: the card on the table
 * when the page opens is not news). @type {string | null} */
let lastCard = null;

/**
 * Called after each render with the card on the table (null: none shown); a new one plays.
 * @param {string | null} key what identifies this card's turn (the state, whose, the card)
 */
export function cardShown(key) {
  if (key && lastCard !== null && key !== lastCard) play("card");
  lastCard = key || "";
}

/** The setting (#effects-on in the settings), and the first tap or key of a visit wakes the
 * sound if it is on (browsers keep a page silent until then). */
export function initEffects() {
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("effects-on"));
  if (box) {
    box.checked = effectsOn();
    box.addEventListener("change", () => setEffects(box.checked));
  }
  const wake = () => {
    if (effectsOn()) context();
    document.removeEventListener("pointerdown", wake, true);
    document.removeEventListener("keydown", wake, true);
  };
  document.addEventListener("pointerdown", wake, true);
  document.addEventListener("keydown", wake, true);
}
