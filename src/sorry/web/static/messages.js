// @ts-check
// The messages of the game protocol, written by `python -m sorry.web.typegen` from
// sorry/web/messages.py (where each is declared): do not edit, write it again.

/**
 * a pawn that moves: [colour, from, to] (locations as the server names them: "S", "H", "s1".."s5" or a track square "0".."59")
 * @typedef {[string, string, string]} Path
 */

/**
 * One legal move as the page offers it.
 * @typedef {object} LegalMove
 * @property {string} move  the notation to send back
 * @property {string} text  the move in words, in the page's language
 * @property {string | null} card  the card it plays ("S" for Sorry!)
 * @property {string} kind  forward, backward, start, sorry, swap, split, pass, discard
 * @property {Path[]} paths  every pawn it moves, bumps included
 * @property {Path[]} movers  the pawns the player moves, in playing order
 * @property {[string, string] | null} target  the other pawn of a Sorry! or a swap
 */

/**
 * What one seat (or a spectator) may see of the game (sorry.web.protocol.view_json).
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
 * @property {Record<string, number> | null} scores  points: the finished game's, or in a points game being played each one's so far
 * @property {LegalMove[]} legal_moves
 */

/**
 * @typedef {object} SeatInfo
 * @property {string} colour
 * @property {string} kind  "human" or "bot"
 * @property {string | null} level
 * @property {string} name
 * @property {boolean} claimed
 * @property {boolean} open
 * @property {boolean} connected
 * @property {boolean} bot_playing  a takeover bot plays for an absent player
 * @property {boolean} away  the turn timer ran out: a bot plays until they act
 * @property {boolean} ready  accepted the next game of the match
 * @property {string | null} account  the account holding the seat (its profile: /u/NAME)
 * @property {boolean} resigned  resigned: out of the game, ranked last
 */

/**
 * One event of a move, in order (sorry.effects, the core's account of what a move does): a pawn walks square by square (forward, backward, out of START), takes a square (Sorry!), swaps, slides, or is bumped back to START.
 * @typedef {object} Effect
 * @property {string} kind  forward, backward, start, sorry, swap, slide, bump
 * @property {string} colour
 * @property {string} from
 * @property {string} to
 * @property {string[]} path  every location entered, in order (the last is `to`)
 * @property {number} part  which half of a split 7 (0 otherwise)
 */

/**
 * @typedef {object} LogEntry
 * @property {number} seq
 * @property {string} colour
 * @property {string} actor  player, bot, takeover, timeout or forced (a turn with no legal move)
 * @property {string} move
 * @property {string} text
 * @property {string | null} card
 * @property {Path[]} movers  the pawns the player moved, in playing order (to: where each ended)
 * @property {Path[]} paths
 * @property {Effect[]} [effects]  what the move did, in order (when the server sends them)
 */

/**
 * @typedef {object} RoomInfo
 * @property {boolean} started
 * @property {string} start  now, host, full or ready
 * @property {number} timer  seconds per turn, 0 = none
 * @property {boolean} chat
 * @property {string[]} ready
 * @property {boolean} hosted
 * @property {number | null} deadline_in  seconds left in this turn
 * @property {boolean} rated  rated when it ends (accounts only)
 * @property {number} per_move  a correspondence game's seconds a move (0: a live game)
 * @property {string} on_timeout  correspondence: wait or bot when a move's time runs out
 */

/**
 * @typedef {object} MatchInfo
 * @property {number} number
 * @property {number} games
 * @property {Record<string, number>} wins
 * @property {Record<string, number>} points
 */

/**
 * @typedef {object} ChatLine
 * @property {number} n
 * @property {string | null} colour  the writer's seat; null: a spectator
 * @property {string} who  the writer's connection (spectators are muted by it)
 * @property {string} name
 * @property {string | null} text
 * @property {string | null} phrase
 * @property {number} at
 */

/**
 * One move's estimate in a hint reply: its chance of winning ``win`` with the 95% interval [``low``, ``high``] (shares of 1, three decimals), the worlds it was played in, and whether it is ``tied`` with the best (their difference's interval holds zero).
 * @typedef {object} MoveChance
 * @property {string} move
 * @property {number} win
 * @property {number} low
 * @property {number} high
 * @property {number} worlds
 * @property {boolean} tied
 */

/**
 * The hint in a player's words (:func:`sorry.hintwords.hint_words`, in the receiver's language), its moves in the order of ``moves``.
 * @typedef {object} HintWords
 * @property {string} say  the headline: the best move's chance in tenths, the moves as good
 * @property {string[]} tags  each move's kind in words: best, as good, not as good
 * @property {string[]} kinds  each move's kind: best, as good, not as good (English)
 * @property {string[]} figures  the details: each move's chance and interval, 62% [55-69]
 * @property {string} heading  the details' heading
 * @property {string} note  what as good means (empty when no move is as good as the best)
 */

/**
 * The answer to hello: the seat and the role.
 * @typedef {object} Welcome
 * @property {"welcome"} type
 * @property {string} game
 * @property {string | null} seat
 * @property {string} role  player or spectator
 * @property {number} max_message_bytes
 */

/**
 * The whole state (after hello and resync; with the log).
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {string} game
 * @property {string} name
 * @property {number} seq
 * @property {string} status  playing or over
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
 * What changed since the last state: ``seq``, and each field of the state whose value changed, the view's field by field (``last`` is the move that was played: its log entry). net.js turns it into the state it leads to.
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
 * The seats changed (somebody joined, left, or a bot took over).
 * @typedef {object} SeatsMessage
 * @property {"seats"} type
 * @property {number} seq
 * @property {SeatInfo[]} seats
 */

/**
 * Your move was committed; ``seq`` is the new sequence number.
 * @typedef {object} Accepted
 * @property {"accepted"} type
 * @property {number} seq
 * @property {string} move
 */

/**
 * Your resignation was committed (everyone gets the new state).
 * @typedef {object} Resigned
 * @property {"resigned"} type
 * @property {number} seq
 * @property {string} colour
 */

/**
 * Your last move and the bots' moves after it were taken back; ``seq`` is the state's (everyone gets the whole state again, with the log).
 * @typedef {object} Undone
 * @property {"undone"} type
 * @property {number} seq
 */

/**
 * Your move (or hint) was not taken, with the reason; what changed since your state follows as a delta when the game had moved on.
 * @typedef {object} Rejected
 * @property {"rejected"} type
 * @property {string} code  stale, illegal, not_your_turn, game_over, not_started, spectator, ...
 * @property {string} reason
 * @property {number} seq
 * @property {boolean} resync  ask for the whole state (resync) to go on
 */

/**
 * A suggested move, its words, and each move's estimate best first.
 * @typedef {object} HintMessage
 * @property {"hint"} type
 * @property {number} seq
 * @property {string} move
 * @property {string} text
 * @property {MoveChance[]} moves
 * @property {HintWords | null} words
 * @property {boolean} separated
 * @property {boolean} forced
 * @property {boolean} rough
 * @property {boolean} provisional
 */

/**
 * The message itself was refused (bad_json, bad_type, bad_field, rate_limited, ...).
 * @typedef {object} ErrorMessage
 * @property {"error"} type
 * @property {string} code
 * @property {string} error
 */

/**
 * @typedef {object} Pong
 * @property {"pong"} type
 * @property {number} seq
 */

/**
 * One chat line, to everyone on the game.
 * @typedef {object} ChatMessage
 * @property {"chat"} type
 * @property {ChatLine} message
 */

/**
 * The last chat lines, after hello.
 * @typedef {object} ChatHistory
 * @property {"chat_history"} type
 * @property {ChatLine[]} messages
 */

/**
 * Somebody on the game reacted (``colour``: their seat; null: a spectator).
 * @typedef {object} Reaction
 * @property {"reaction"} type
 * @property {string | null} colour
 * @property {string | null} name  the player's name; null: a spectator
 * @property {string} emoji
 */

/**
 * Every message the server sends.
 * @typedef {Welcome
 *   | StateMessage
 *   | DeltaMessage
 *   | SeatsMessage
 *   | Accepted
 *   | Resigned
 *   | Undone
 *   | Rejected
 *   | HintMessage
 *   | ErrorMessage
 *   | Pong
 *   | ChatMessage
 *   | ChatHistory
 *   | Reaction} ServerMessage
 */

/**
 * Every message a client may send (sorry.web.messages.CLIENT_PAYLOADS).
 * @typedef {{type: "hello", seat?: string, token?: string}
 *   | {type: "move", seq: number, move: string}
 *   | {type: "hint", seq: number}
 *   | {type: "resync"}
 *   | {type: "ping"}
 *   | {type: "back"}
 *   | {type: "leave"}
 *   | {type: "resign"}
 *   | {type: "undo", seq: number}
 *   | {type: "chat", text?: string, phrase?: string, name?: string}
 *   | {type: "react", emoji: string}} ClientMessage
 */

/** The reactions a client may send (react). */
export const REACTIONS = ["👍", "👏", "😂", "😮", "😢", "🎉"];
