"""Accounts, their sessions, the seats they hold, ratings and their history, the
notifications' outbox, blocks and reports (sorry.web.account_tables), each game's turn as
the accounts' pages and the correspondence clock read it (``sorry_turns``), and the luck of
each account's analysed games (``sorry_luck``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sorry_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200)),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("disabled", sa.Integer, nullable=False, server_default="0"),
        sa.Column("deleted", sa.Integer, nullable=False, server_default="0"),
        sa.Column("email", sa.String(254)),
        sa.Column("webhook", sa.String(500)),
        sa.Column("settings", sa.Text),
    )
    op.create_table(
        "sorry_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index("sorry_sessions_account", "sorry_sessions", ["account_id"])
    op.create_table(
        "sorry_game_accounts",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("colour", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
        sa.Column("rated", sa.Integer, nullable=False, server_default="0"),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("rank", sa.Integer),
    )
    op.create_index(
        "sorry_game_accounts_account", "sorry_game_accounts", ["account_id", "joined_at"]
    )
    op.create_table(
        "sorry_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("sorry_ratings_board", "sorry_ratings", ["variant", "mu"])
    op.create_table(
        "sorry_rated_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sorry_rating_changes",
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
    )
    op.create_index(
        "sorry_rating_changes_account", "sorry_rating_changes", ["account_id", "variant", "at"]
    )
    op.create_table(
        "sorry_notifications",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("claimed_at", sa.Float),
        sa.Column("sent_at", sa.Float),
        sa.Column("detail", sa.String(200)),
        sa.UniqueConstraint("account_id", "game_id", "seq", "channel", name="sorry_notify_once"),
    )
    op.create_index("sorry_notifications_status", "sorry_notifications", ["status", "created_at"])
    op.create_table(
        "sorry_blocks",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey("sorry_accounts.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "sorry_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
        sa.Column("reported_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
        sa.Column("reported_name", sa.String(40), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("status", sa.String(8), nullable=False, server_default="open"),
    )
    op.create_table(
        "sorry_turns",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("to_move", sa.Integer),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("deadline", sa.Float),
    )
    op.create_index("sorry_turns_deadline", "sorry_turns", ["deadline"])
    op.create_table(
        "sorry_luck",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("colour", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sorry_accounts.id")),
        sa.Column("luck", sa.Float, nullable=False),
        sa.Column("luck_se", sa.Float),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("sorry_luck_account", "sorry_luck", ["account_id", "at"])
