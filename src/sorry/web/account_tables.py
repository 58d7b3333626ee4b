"""The tables of accounts, ratings, notifications and people (SQLAlchemy Core).

They sit beside the game tables (all prefixed ``sorry_``) and refer to games by their id:

* ``sorry_accounts``: name (as shown) and its key (case folded, unique), the argon2id hash
  (NULL once the account is deleted), whether an administrator disabled it, the
  notification settings;
* ``sorry_sessions``: the SHA-256 of each session token, its account and when it was last used;
* ``sorry_game_accounts``: which account sat at which colour of a game and whether it asked
  for a rated game; NULL account once that account was deleted (the game stays, anonymised);
* ``sorry_ratings``: one row per account and variant (μ, σ, rated games);
* ``sorry_rated_games``: one row per game whose ratings were updated, written in the same
  transaction as the update: its primary key is what makes the update happen once;
* ``sorry_rating_changes``: each account's rating before and after each rated game (the
  profile's graph, the end screen's change);
* ``sorry_notifications``: the outbox of "your turn" notifications, one row per (account, game,
  turn, channel), so that a notification is sent once even across restarts;
* ``sorry_blocks``, ``sorry_reports``: people an account blocked; chat lines reported;
* ``sorry_turns``: for each unfinished game with an account seated, whose turn it is, since
  when, and (a correspondence game) when that turn's time runs out: "your turn in N games",
  and the clock that survives restarts;
* ``sorry_luck``: the luck of each account's analysed games (the analysis's ``luck`` and
  ``luck_se`` of the account's colour): the profile's luck over many games.

The schema is made by the migrations (:mod:`sorry.web.migrations`, revision 0007); a test
checks that these tables and the migrated database agree.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

accounts = sa.Table(
    "sorry_accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(80), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200)),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("disabled", sa.Integer, nullable=False, server_default="0"),
    sa.Column("deleted", sa.Integer, nullable=False, server_default="0"),
    sa.Column("email", sa.String(254)),
    sa.Column("webhook", sa.String(500)),
    sa.Column("settings", sa.Text),  # JSON: notification choices, language
)

sessions = sa.Table(
    "sorry_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Index("sorry_sessions_account", "account_id"),
)

game_accounts = sa.Table(
    "sorry_game_accounts",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("colour", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
    sa.Column("rated", sa.Integer, nullable=False, server_default="0"),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("rank", sa.Integer),  # once the game is over: 1 won (ties share a rank)
    sa.Index("sorry_game_accounts_account", "account_id", "joined_at"),
)

ratings = sa.Table(
    "sorry_ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
    sa.Column("variant", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Index("sorry_ratings_board", "variant", "mu"),
)

rated_games = sa.Table(
    "sorry_rated_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("rated_at", sa.Float, nullable=False),
)

rating_changes = sa.Table(
    "sorry_rating_changes",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("colour", sa.Integer, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("sorry_rating_changes_account", "account_id", "variant", "at"),
)

notifications = sa.Table(
    "sorry_notifications",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("channel", sa.String(8), nullable=False),  # webhook, email
    sa.Column("status", sa.String(8), nullable=False),  # pending, sent, failed, dropped
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("claimed_at", sa.Float),  # when a process began sending it
    sa.Column("sent_at", sa.Float),
    sa.Column("detail", sa.String(200)),
    sa.UniqueConstraint("account_id", "game_id", "seq", "channel", name="sorry_notify_once"),
    sa.Index("sorry_notifications_status", "status", "created_at"),
)

blocks = sa.Table(
    "sorry_blocks",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

reports = sa.Table(
    "sorry_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
    sa.Column("reported_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
    sa.Column("reported_name", sa.String(40), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("status", sa.String(8), nullable=False, server_default="open"),
)

turns = sa.Table(
    "sorry_turns",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("to_move", sa.Integer),  # NULL: the game is over
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("deadline", sa.Float),  # a correspondence game's end of this turn
    sa.Index("sorry_turns_deadline", "deadline"),
)

luck = sa.Table(
    "sorry_luck",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("colour", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
    sa.Column("luck", sa.Float, nullable=False),
    sa.Column("luck_se", sa.Float),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("sorry_luck_account", "account_id", "at"),
)
