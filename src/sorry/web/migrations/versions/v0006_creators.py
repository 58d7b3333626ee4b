"""Who created each game (a digest of the client address), so that the lobby shows a few
games of each creator; the count of hand-written migrations (``sorry_schema``) is Alembic's
``alembic_version`` now."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sorry_games", sa.Column("creator", sa.String(32)))
    op.create_index("sorry_games_creator", "sorry_games", ["creator", "updated_at"])
    op.execute("DROP TABLE IF EXISTS sorry_schema")
