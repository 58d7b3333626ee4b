"""The server's schema migrations (Alembic): ``versions/`` holds one revision a file, numbered
``0001``, ``0002``, ...; :data:`HEAD` is the newest, which :meth:`sorry.web.db.Database.upgrade`
brings every database to (``sorry serve`` does at start-up, ``sorry db upgrade`` on demand).

Revisions 0001-0005 are the hand-written migrations the server applied before it used Alembic
(the ``sorry_schema`` table counted them): a database they made is stamped with its version
and upgraded from there, every game, move and record kept.

To change the schema: add ``versions/vNNNN_what.py`` with ``down_revision`` the current head
(``op.add_column``, ``op.create_table``, ...: SQL that SQLite and PostgreSQL both take; on
SQLite use ``op.batch_alter_table`` for anything but adding), set :data:`HEAD`, add the
columns to the tables of :mod:`sorry.web.db`, and extend ``tests/web/test_web_migrations.py``.
"""

from __future__ import annotations

from pathlib import Path

#: The newest revision (tests/web/test_web_migrations.py checks it against versions/).
HEAD = "0007"
FOLDER = Path(__file__).parent
