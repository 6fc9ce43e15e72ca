"""One message of `docgen send` as RFC 5322 text (the standard library's ``email`` package):
From, To, Reply-To, Subject, Date, a Message-ID, the letter as plain text, and each issued PDF
attached byte for byte. Headers are built from ``Address`` objects, never by joining strings,
and every name and address in them was checked when the facts were loaded (no line break, one
plain address), so nothing in the facts can add a header."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid


@dataclass(frozen=True)
class Outgoing:
    """What one message carries, before it is built."""

    to_name: str
    to_address: str
    from_name: str
    from_address: str
    reply_to: str | None
    subject: str
    text: str
    attachments: tuple[tuple[str, bytes], ...]  # (file name the recipient sees, the bytes)


def _address(name: str, address: str) -> Address:
    local, _, domain = address.rpartition("@")
    return Address(display_name=name, username=local, domain=domain)


def build(outgoing: Outgoing, when: datetime, *, draft: bool = False) -> EmailMessage:
    """The message; ``draft``: marked X-Unsent, so Outlook opens the .eml as a draft to send."""
    message = EmailMessage(policy=SMTP)
    message["From"] = _address(outgoing.from_name, outgoing.from_address)
    message["To"] = _address(outgoing.to_name, outgoing.to_address)
    if outgoing.reply_to:
        message["Reply-To"] = _address(outgoing.from_name, outgoing.reply_to)
    message["Subject"] = outgoing.subject
    message["Date"] = format_datetime(when)
    message["Message-ID"] = make_msgid(domain=outgoing.from_address.rpartition("@")[2])
    if draft:
        message["X-Unsent"] = "1"
    message.set_content(outgoing.text)
    for filename, data in outgoing.attachments:
        message.add_attachment(data, maintype="application", subtype="pdf", filename=filename)
    return message
