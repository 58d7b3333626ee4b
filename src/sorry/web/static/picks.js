// @ts-check
// Choosing a move on the board: each legal move the server listed is a sequence of taps
// (a pawn, then where it goes; a 7 split as two pawns in turn, either first; an 11 swap as
// your pawn then the other; a Sorry! by the pawn it takes). No rule is computed here: the
// sequences come from the server's "movers" and "target" of each move.

/** @typedef {import("./types.js").LegalMove} LegalMove */

/**
 * Where a pawn of `colour` at `loc` stands, as one key for every colour's pawns: a track
 * square is shared ("12"), START, HOME and the Safety Zone belong to one colour ("Rs3").
 * @param {string} colour
 * @param {string} loc
 */
export function placeKey(colour, loc) {
  return /^\d+$/.test(loc) ? loc : colour + loc;
}

/** @param {string} colour @param {string} loc */
export const pawnToken = (colour, loc) => `P|${colour}|${loc}`;
/** @param {string} place */
export const placeToken = (place) => `D|${place}`;

/**
 * The tap sequences that choose `m` (none for a pass or a discard).
 * @param {LegalMove} m
 * @returns {string[][]}
 */
export function sequences(m) {
  const movers = m.movers || [];
  if (!movers.length) return [];
  if (m.target) {
    const [tc, tloc] = m.target;
    const [c, src] = movers[0];
    const take = placeToken(placeKey(tc, tloc));
    const seqs = [[pawnToken(c, src), take]];
    if (m.kind === "sorry") seqs.push([take]); // a Sorry! is chosen by its target alone
    return seqs;
  }
  const halves = movers.map(([c, src, end]) => [pawnToken(c, src), placeToken(placeKey(c, end))]);
  if (halves.length === 2) return [[...halves[0], ...halves[1]], [...halves[1], ...halves[0]]];
  return [halves.flat()];
}

/**
 * What can be tapped next after `prefix` (each with the moves it leads to), and which moves
 * the taps so far complete.
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @returns {{next: Map<string, string[]>, complete: LegalMove[]}}
 */
export function candidates(moves, prefix) {
  /** @type {Map<string, string[]>} */
  const next = new Map();
  /** @type {LegalMove[]} */
  const complete = [];
  for (const m of moves) {
    let done = false;
    for (const seq of sequences(m)) {
      if (seq.length < prefix.length || !prefix.every((tok, i) => seq[i] === tok)) continue;
      if (seq.length === prefix.length) done = true;
      else {
        const tok = seq[prefix.length];
        const list = next.get(tok) || [];
        if (!list.includes(m.move)) list.push(m.move);
        next.set(tok, list);
      }
    }
    if (done) complete.push(m);
  }
  return { next, complete };
}

/**
 * The taps after tapping the pawn of `colour` at `loc` (a pawn to move, or a pawn to take).
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @param {string} colour
 * @param {string} loc
 * @returns {string[]}
 */
export function tapPawn(moves, prefix, colour, loc) {
  const place = placeToken(placeKey(colour, loc));
  const pawn = pawnToken(colour, loc);
  const now = candidates(moves, prefix).next;
  if (now.has(place)) return [...prefix, place];
  if (now.has(pawn)) return [...prefix, pawn];
  const fresh = candidates(moves, []).next;
  if (fresh.has(pawn)) return [pawn];
  if (fresh.has(place)) return [place];
  return [];
}

/**
 * The taps after tapping a marked square.
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @param {string} place
 * @returns {string[]}
 */
export function tapPlace(moves, prefix, place) {
  const tok = placeToken(place);
  return candidates(moves, prefix).next.has(tok) ? [...prefix, tok] : prefix;
}

/**
 * The move to play at once, if the taps choose exactly one and nothing can follow.
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @returns {LegalMove | null}
 */
export function chosen(moves, prefix) {
  if (!prefix.length) return null;
  const { next, complete } = candidates(moves, prefix);
  return complete.length === 1 && next.size === 0 ? complete[0] : null;
}
