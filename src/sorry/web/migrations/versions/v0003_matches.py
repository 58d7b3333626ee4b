"""Matches: a game links to the next game of its series and carries the totals."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sorry_games", sa.Column("next_id", sa.String(32)))
    op.add_column("sorry_games", sa.Column("match_info", sa.Text))
