"""E-mail notifications through the SMTP server the operator configured.

``sorry serve --smtp-host mail.example.org --smtp-port 587 --smtp-from games@example.org``
(with ``--smtp-user`` and the password in the ``SORRY_SMTP_PASSWORD`` environment variable,
never on the command line) sends each "your turn" notification a player asked for by e-mail
as a short plain-text message. ``--smtp-security`` is ``starttls`` (the default on port 587),
``tls`` (port 465) or ``none`` (a relay on this machine, the tests' receiver). Sending is
blocking ``smtplib`` (run it in a thread), with a short timeout.

>>> cfg = SmtpConfig(host="localhost", port=2525, sender="games@example.org", security="none")
>>> m = build_message(cfg, "ann@example.org", "Your turn", "Your turn in Friday game.")
>>> m["To"], m["Subject"], m["From"]
('ann@example.org', 'Your turn', 'games@example.org')
>>> valid_address("ann@example.org"), valid_address("ann@@x"), valid_address("a@b\\nBcc: c@d")
(True, False, False)
"""

from __future__ import annotations

import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

TIMEOUT = 10.0
_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")


def valid_address(value: object) -> bool:
    """A plain ``local@domain`` address (no display name, no spaces, no line breaks)."""
    return isinstance(value, str) and len(value) <= 254 and bool(_ADDRESS.match(value))


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    sender: str
    security: str = "starttls"  # starttls, tls, none
    user: str | None = None
    password: str | None = None
    timeout: float = TIMEOUT


def build_message(cfg: SmtpConfig, to: str, subject: str, text: str) -> EmailMessage:
    m = EmailMessage()
    m["From"] = cfg.sender
    m["To"] = to
    m["Subject"] = subject
    m["Message-ID"] = make_msgid(domain=cfg.sender.rpartition("@")[2] or None)
    m["Auto-Submitted"] = "auto-generated"
    m.set_content(text)
    return m


def send(cfg: SmtpConfig, to: str, subject: str, text: str) -> None:
    """Send one message; raises :class:`OSError` or :class:`smtplib.SMTPException`."""
    if not valid_address(to):
        raise ValueError("not an e-mail address")
    message = build_message(cfg, to, subject, text)
    smtp: smtplib.SMTP
    if cfg.security == "tls":
        smtp = smtplib.SMTP_SSL(
            cfg.host, cfg.port, timeout=cfg.timeout, context=ssl.create_default_context()
        )
    else:
        smtp = smtplib.SMTP(cfg.host, cfg.port, timeout=cfg.timeout)
    with smtp:
        if cfg.security == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if cfg.user:
            smtp.login(cfg.user, cfg.password or "")
        smtp.send_message(message)
