// @ts-check
// "Your turn": the tab's title and a badge on its icon, an optional sound (off unless the
// player turns it on; the choice is remembered), and a browser notification when the tab is
// hidden (permission is asked only when the player clicks for it).

import { t } from "./i18n.js";

const BASE_TITLE = document.title;
const SOUND_KEY = "sorry:sound";

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    /* private mode */
  }
}

/** @type {AudioContext | null} */
let audio = null;

function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [659, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.15);
      osc.stop(now + i * 0.15 + 0.32);
    }
  } catch {
    /* no sound here */
  }
}

export function notificationsState() {
  if (!("Notification" in window)) return "unsupported";
  return Notification.permission;
}

/** Asked from a click only. */
export async function askNotifications() {
  if (!("Notification" in window)) return "unsupported";
  return await Notification.requestPermission();
}

let wasMine = false;

/**
 * Called after each render: tells the player when their turn begins.
 * @param {boolean} mine it is this player's turn now
 * @param {string} gameName
 */
export function turnSignal(mine, gameName) {
  document.title = mine ? `● ${t("Your turn")} — ${BASE_TITLE}` : BASE_TITLE;
  document.body.dataset.myTurn = mine ? "yes" : "no";
  const icon = /** @type {HTMLLinkElement | null} */ (document.getElementById("favicon"));
  if (icon) {
    const href = mine ? "/static/favicon-turn.svg" : "/static/favicon.svg";
    if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  }
  if (mine && !wasMine) {
    if (soundOn()) chime();
    if (document.hidden && notificationsState() === "granted") {
      try {
        const n = new Notification(t("Your turn"), { body: gameName, tag: "sorry-turn" });
        n.onclick = () => {
          window.focus();
          n.close();
        };
      } catch {
        /* some browsers only notify from a service worker */
      }
    }
  }
  wasMine = mine;
}
