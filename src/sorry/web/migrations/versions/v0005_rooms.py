"""The waiting room's settings (sorry.web.room)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sorry_games", sa.Column("room", sa.Text))
