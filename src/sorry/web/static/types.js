// @ts-check
// The page's types for TypeScript's checker (`tsc --noEmit`, run by `make test`). Nothing here
// runs. The protocol's messages and their parts are declared once, in sorry/web/messages.py,
// and written into messages.js (`python -m sorry.web.typegen`); they are named here again for
// the page's modules.

/** @typedef {"R" | "B" | "Y" | "G"} Colour */
/** @typedef {import("./messages.js").Path} Path */
/** @typedef {import("./messages.js").LegalMove} LegalMove */
/** @typedef {import("./messages.js").View} View */
/** @typedef {import("./messages.js").SeatInfo} SeatInfo */
/** @typedef {import("./messages.js").Effect} Effect */
/** @typedef {import("./messages.js").LogEntry} LogEntry */
/** @typedef {import("./messages.js").RoomInfo} RoomInfo */
/** @typedef {import("./messages.js").MatchInfo} MatchInfo */
/** @typedef {import("./messages.js").ChatLine} ChatLine */
/** @typedef {import("./messages.js").MoveChance} MoveChance */
/** @typedef {import("./messages.js").HintWords} HintWords */
/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./messages.js").DeltaMessage} DeltaMessage */
/** @typedef {import("./messages.js").ServerMessage} ServerMessage */
/** @typedef {import("./messages.js").ClientMessage} ClientMessage */

/**
 * A replay frame: the public view after each decision (GET /api/games/ID/replay).
 * @typedef {object} Frame
 * @property {number} seq
 * @property {LogEntry | null} entry
 * @property {View} view
 * @property {Record<string, string[]>} [hands]  each hand, revealed (points, game over)
 */

export {};
