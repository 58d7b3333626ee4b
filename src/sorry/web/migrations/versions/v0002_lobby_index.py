"""The lobby's index."""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX sorry_games_lobby ON sorry_games (status, public, updated_at)")
