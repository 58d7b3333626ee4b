"""Online play: an authoritative game server (Starlette + uvicorn) with a database.

``sorry serve`` runs it; :func:`create_app` builds the ASGI application. See docs/web.md.
Needs the ``web`` extra (starlette, uvicorn, SQLAlchemy, Alembic, psycopg).
"""

from __future__ import annotations

from .app import create_app
from .config import Settings
from .service import GameService

__all__ = ["GameService", "Settings", "create_app"]
