"""The auditable shuffle: the SHA-256 commitment published at the start, the nonce kept
secret until the game is over."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sorry_games", sa.Column("commitment", sa.String(64)))
    op.add_column("sorry_games", sa.Column("nonce", sa.String(64)))
