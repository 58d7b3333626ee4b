// @ts-check
// The messages of the game protocol (docs/web.md, sorry/web/protocol.py), declared once for
// TypeScript's checker (`tsc --noEmit`, run by `make test`). Nothing here runs.

/** @typedef {"R" | "B" | "Y" | "G"} Colour */

/**
 * A pawn the player moves: [colour, from, to] (locations as the server names them:
 * "S", "H", "s1".."s5" or a track square "0".."59").
 * @typedef {[string, string, string]} Path
 */

/**
 * @typedef {object} LegalMove
 * @property {string} move          the notation to send back
 * @property {string} text          the move in words, in the page's language
 * @property {string | null} card   the card it plays ("S" for Sorry!)
 * @property {string} kind          forward, backward, start, sorry, swap, split, pass, discard
 * @property {Path[]} paths         every pawn it moves, bumps included
 * @property {Path[]} movers        the pawns the player moves, in playing order
 * @property {[string, string] | null} target  the other pawn of a Sorry! or a swap
 */

/**
 * @typedef {object} View
 * @property {string} variant
 * @property {string} options
 * @property {string | null} viewer
 * @property {string[]} colours
 * @property {string} to_move
 * @property {string} phase
 * @property {Record<string, string[]>} pawns
 * @property {string} position
 * @property {string | null} card
 * @property {string[]} hand
 * @property {Record<string, number>} hand_sizes
 * @property {string[]} discard_pile
 * @property {number} draw_count
 * @property {number} turn
 * @property {string} first
 * @property {string[]} winners
 * @property {Record<string, number> | null} scores
 * @property {LegalMove[]} legal_moves
 */

/**
 * @typedef {object} SeatInfo
 * @property {string} colour
 * @property {string} kind          "human" or "bot"
 * @property {string | null} level
 * @property {string} name
 * @property {boolean} claimed
 * @property {boolean} open
 * @property {boolean} connected
 * @property {boolean} bot_playing  a takeover bot plays for an absent player
 * @property {boolean} away         the turn timer ran out: a bot plays until they act
 * @property {boolean} ready        accepted the next game of the match
 */

/**
 * @typedef {object} LogEntry
 * @property {number} seq
 * @property {string} colour
 * @property {string} actor         player, bot, takeover or timeout
 * @property {string} move
 * @property {string} text
 * @property {string | null} card
 * @property {Path[]} paths
 * @property {Effect[]} [effects]   what the move did, in order (when the server sends them)
 */

/**
 * One event of a move, in order (sorry.effects, the core's account of what a move does): a
 * pawn walks square by square (forward, backward, out of START), takes a square (Sorry!),
 * swaps, slides, or is bumped back to START.
 * @typedef {object} Effect
 * @property {string} kind    forward, backward, start, sorry, swap, slide, bump
 * @property {string} colour
 * @property {string} from
 * @property {string} to
 * @property {string[]} path  every location entered, in order (the last is `to`)
 * @property {number} part    which half of a split 7 (0 otherwise)
 */

/**
 * @typedef {object} RoomInfo
 * @property {boolean} started
 * @property {string} start         now, host, full or ready
 * @property {number} timer         seconds per turn, 0 = none
 * @property {boolean} chat
 * @property {string[]} ready
 * @property {boolean} hosted
 * @property {number | null} deadline_in  seconds left in this turn
 */

/**
 * @typedef {object} MatchInfo
 * @property {number} number
 * @property {number} games
 * @property {Record<string, number>} wins
 * @property {Record<string, number>} points
 */

/**
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {string} game
 * @property {string} name
 * @property {number} seq
 * @property {string} status        playing or over
 * @property {View} view
 * @property {SeatInfo[]} seats
 * @property {LogEntry | null} last
 * @property {MatchInfo} match
 * @property {string | null} next_game
 * @property {string | null} commitment
 * @property {RoomInfo} room
 * @property {string[][] | null} [teams]  the partnerships (teams variant)
 * @property {LogEntry[]} [log]
 */

/**
 * What changed since the last state (sent after the whole state of hello or resync): `seq`,
 * and each field of the state whose value changed, the view's field by field (`last` is the
 * move that was played: its log entry). net.js turns it into the state it leads to.
 * @typedef {object} DeltaMessage
 * @property {"delta"} type
 * @property {number} seq
 * @property {Partial<View>} [view]
 * @property {string} [status]
 * @property {SeatInfo[]} [seats]
 * @property {LogEntry | null} [last]
 * @property {MatchInfo} [match]
 * @property {string | null} [next_game]
 * @property {string | null} [commitment]
 * @property {RoomInfo} [room]
 * @property {string[][] | null} [teams]
 * @property {string} [game]
 * @property {string} [name]
 */

/**
 * @typedef {object} ChatLine
 * @property {number} n
 * @property {string | null} colour
 * @property {string} who
 * @property {string} name
 * @property {string | null} text
 * @property {string | null} phrase
 * @property {number} at
 */

/**
 * One move's estimate in a hint reply (sorry.web.players.MoveChance): its chance of winning
 * with the 95% interval (shares of 1) and whether the hint cannot tell it from the best.
 * @typedef {object} MoveChance
 * @property {string} move
 * @property {number} win
 * @property {number} low
 * @property {number} high
 * @property {number} worlds
 * @property {boolean} tied
 */

/**
 * @typedef {{type: "welcome", seat: string | null, role: string}
 *   | StateMessage
 *   | DeltaMessage
 *   | {type: "seats", seq: number, seats: SeatInfo[]}
 *   | {type: "accepted", seq: number, move: string}
 *   | {type: "rejected", code: string, reason: string, seq: number, resync: boolean}
 *   | {type: "hint", seq: number, move: string, text: string, moves: MoveChance[], separated: boolean}
 *   | {type: "error", code: string, error: string}
 *   | {type: "pong", seq: number}
 *   | {type: "chat", message: ChatLine}
 *   | {type: "chat_history", messages: ChatLine[]}} ServerMessage
 */

/**
 * @typedef {{type: "hello", seat?: string, token?: string}
 *   | {type: "move", seq: number, move: string}
 *   | {type: "hint", seq: number}
 *   | {type: "resync"}
 *   | {type: "ping"}
 *   | {type: "back"}
 *   | {type: "chat", text?: string, phrase?: string, name?: string}} ClientMessage
 */

/**
 * A replay frame: the public view after each decision (GET /api/games/ID/replay).
 * @typedef {object} Frame
 * @property {number} seq
 * @property {LogEntry | null} entry
 * @property {View} view
 * @property {Record<string, string[]>} [hands]  each hand, revealed (points, game over)
 */

export {};
