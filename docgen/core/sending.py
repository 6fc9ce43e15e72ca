"""The ``sending:`` facts: who the forms come from, whom a person asks, how a form comes back,
and the company's mail server (`docgen send`, DESIGN.md A26). No document prints them, so they
are no part of any packet's slice (docgen.kinds.registry): adding or changing them re-issues
nothing. The server's password is never a fact (the environment or a prompt gives it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from docgen.core.model import EmailAddress, Fact, PositiveInt, Text


class SmtpServer(Fact):
    """The company's outgoing mail server, for `docgen send --smtp`."""

    host: Text = Field(description="The server's name, e.g. smtp.example.com.")
    port: PositiveInt = Field(
        587, le=65535, description="587 for STARTTLS (the default), 465 for implicit TLS."
    )
    security: Literal["starttls", "tls"] = Field(
        "starttls",
        description="starttls: connect in the clear and upgrade with STARTTLS before anything "
        "is sent (RFC 3207); tls: TLS from the first byte (RFC 8314). Either way the server's "
        "certificate is verified; there is no unencrypted choice.",
    )
    user: Text | None = Field(
        None,
        description="The login, if the server asks for one; its password comes from the "
        "environment variable DOCGEN_SMTP_PASSWORD or a prompt, never from a file.",
    )


class Sending(Fact):
    """Who the messages of `docgen send` come from, and what their letters say about answers."""

    from_name: Text = Field(description="The sender's name, e.g. Jane Roe, Corporate Secretary.")
    from_address: EmailAddress = Field(description="The address the messages come from.")
    reply_to: EmailAddress | None = Field(
        None, description="Where replies go, when not to from_address."
    )
    ask: Text = Field(
        description="Whom to ask, as the letter names them, e.g. Jane Roe at (804) 747-0422 or "
        "jroe@example.com."
    )
    return_to: Text = Field(
        description="How to return the form, as the letter says it, e.g. reply to this message "
        "with the signed form attached."
    )
    smtp: SmtpServer | None = Field(
        None, description="The company's mail server, for --smtp (or give --smtp-config)."
    )


# What no document prints, so no packet's slice holds it (docgen.kinds.registry.Kind.slices):
# the sending block, each person's e-mail address, and counsel's approvals of the cover letters
# (their ids begin with LETTER_PREFIX). A packet is re-issued for none of them.
NOT_IN_ANY_SLICE = ("sending",)
PERSON_NOT_IN_SLICE = ("email",)
LETTER_PREFIX = "letter."
LETTER_IDS = ("letter.forms-out", "letter.reminder")  # docgen.send.letters
