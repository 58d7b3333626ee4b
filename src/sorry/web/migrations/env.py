"""Alembic's environment: run the migrations on the connection the server hands over (inside
its transaction, under its lock: :meth:`sorry.web.db.Database.upgrade`)."""

from __future__ import annotations

from alembic import context
from alembic.config import Config

config: Config | None
try:
    config = context.config
except (NameError, AttributeError):  # imported outside a migration (the tests collect it;
    # older alembic raises NameError, newer AttributeError)
    config = None

if config is not None:
    context.configure(connection=config.attributes["connection"], target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()
