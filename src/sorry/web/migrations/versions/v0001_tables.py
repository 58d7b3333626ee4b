"""The games, their seats and their moves."""

from __future__ import annotations

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """CREATE TABLE sorry_games (
            id VARCHAR(32) PRIMARY KEY,
            name VARCHAR(80) NOT NULL,
            public INTEGER NOT NULL,
            variant VARCHAR(16) NOT NULL,
            rules TEXT NOT NULL,
            seq INTEGER NOT NULL,
            status VARCHAR(16) NOT NULL,
            state TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )"""
    )
    op.execute(
        """CREATE TABLE sorry_seats (
            game_id VARCHAR(32) NOT NULL REFERENCES sorry_games(id),
            colour INTEGER NOT NULL,
            kind VARCHAR(8) NOT NULL,
            bot_level VARCHAR(16),
            name VARCHAR(40) NOT NULL,
            token_hash VARCHAR(64),
            claimed INTEGER NOT NULL,
            PRIMARY KEY (game_id, colour)
        )"""
    )
    op.execute(
        """CREATE TABLE sorry_moves (
            game_id VARCHAR(32) NOT NULL REFERENCES sorry_games(id),
            seq INTEGER NOT NULL,
            colour INTEGER NOT NULL,
            actor VARCHAR(12) NOT NULL,
            move VARCHAR(64) NOT NULL,
            draws TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seq)
        )"""
    )
