"""Where the messages go: ``.eml`` files in a folder (one per person, each written atomically),
or the company's SMTP server (smtplib), always over TLS whose certificate is verified
(``ssl.create_default_context``, with a private CA's certificate when one is named). The password
is read from DOCGEN_SMTP_PASSWORD or asked for by the command line, never from a fact or an
argument."""

from __future__ import annotations

import smtplib
import ssl
import tomllib
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from docgen.core.errors import DocgenError
from docgen.core.output import write_atomically
from docgen.core.safe_open import read_regular, unreadable
from docgen.core.sending import SmtpServer

PASSWORD_VARIABLE = "DOCGEN_SMTP_PASSWORD"


class SendError(DocgenError):
    """The server cannot be reached, refuses the login or its certificate. Exit code 2."""


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    security: str  # starttls or tls
    user: str | None
    ca_file: Path | None


_CONFIG_KEYS = {"host", "port", "security", "user", "ca_file"}


def smtp_settings(
    facts_server: SmtpServer | None, config: Path | None, ca_file: Path | None
) -> SmtpSettings:
    """The server from ``sending.smtp`` in the facts, each key a config file (TOML, a
    ``[smtp]`` table) gives taking its place, and ``--ca-file`` over both."""
    values: dict[str, Any] = facts_server.model_dump() if facts_server is not None else {}
    if config is not None:
        try:
            table = tomllib.loads(read_regular(config).decode("utf-8")).get("smtp")
        except OSError as error:
            raise SendError(f"{config}: cannot be read ({unreadable(error)}).") from None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise SendError(f"{config}: cannot be read as a TOML file ({error}).") from None
        if not isinstance(table, dict):
            raise SendError(f"{config}: has no [smtp] table (host, port, security, user, ca_file).")
        unknown = sorted(set(table) - _CONFIG_KEYS)
        if unknown:
            raise SendError(
                f"{config}: [smtp] has {', '.join(unknown)}, which docgen does not read (it reads "
                "host, port, security, user and ca_file; a password is never read from a file: "
                f"set {PASSWORD_VARIABLE} or let docgen ask)."
            )
        values |= table
        if "ca_file" in table:
            values["ca_file"] = (config.parent / str(table["ca_file"])).resolve()
    if not values.get("host"):
        raise SendError(
            "--smtp: no mail server named. Add sending.smtp (host, port, security, user) to the "
            "facts, or give --smtp-config FILE with an [smtp] table."
        )
    try:
        merged = SmtpServer.model_validate(
            {k: values[k] for k in ("host", "port", "security", "user") if k in values}
        )
    except ValueError as error:
        raise SendError(f"the mail server's settings are not usable: {error}") from None
    chosen = ca_file or values.get("ca_file")
    return SmtpSettings(
        merged.host, merged.port, merged.security, merged.user, Path(chosen) if chosen else None
    )


def tls_context(ca_file: Path | None) -> ssl.SSLContext:
    """Certificates verified, host name checked: the system's CAs, or the private CA named."""
    data = b""
    if ca_file is not None:
        try:
            # Read through safe_open: a FIFO named here would block OpenSSL's read for ever.
            data = read_regular(ca_file)
        except OSError as error:
            raise SendError(f"{ca_file}: cannot be read ({unreadable(error)}).") from None
    # PEM wherever its armour is: OpenSSL's PEM reader, as cafile used it, skips text before a
    # certificate ("Bag Attributes" from `openssl pkcs12`); else DER
    pem = b"-----BEGIN CERTIFICATE-----" in data
    try:
        if ca_file is None:
            return ssl.create_default_context()
        return ssl.create_default_context(cadata=data.decode("ascii") if pem else data)
    except (OSError, UnicodeDecodeError) as error:  # ssl.SSLError is an OSError
        raise SendError(f"{ca_file}: cannot be read as a CA certificate ({error}).") from None


def _text(reply: bytes | str) -> str:
    """A server's reply as text (smtplib gives bytes, or a str it made itself)."""
    return reply.decode(errors="replace") if isinstance(reply, bytes) else reply


class Server:
    """An open, authenticated connection to the company's server."""

    def __init__(self, settings: SmtpSettings, password: str | None):
        self.settings = settings
        context = tls_context(settings.ca_file)
        where = f"{settings.host}:{settings.port}"
        try:
            if settings.security == "tls":
                self.smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                    settings.host, settings.port, context=context, timeout=60
                )
            else:
                self.smtp = smtplib.SMTP(settings.host, settings.port, timeout=60)
                self.smtp.starttls(context=context)
            if settings.user:
                if password is None:
                    raise SendError(
                        f"{where}: the login {settings.user} needs a password: set "
                        f"{PASSWORD_VARIABLE}, or run in a terminal with --password-prompt."
                    )
                self.smtp.login(settings.user, password)
        except ssl.SSLCertVerificationError as error:
            raise SendError(
                f"{where}: its certificate is not trusted ({error.verify_message}); nothing was "
                "sent. If the company uses its own CA, name its certificate with --ca-file."
            ) from None
        except smtplib.SMTPAuthenticationError as error:
            raise SendError(
                f"{where}: refused the login {settings.user} ({error.smtp_code} "
                f"{_text(error.smtp_error)}); nothing was sent."
            ) from None
        except smtplib.SMTPNotSupportedError:
            raise SendError(
                f"{where}: offers no STARTTLS, and docgen never sends in the clear; nothing was "
                "sent. If it speaks TLS from the start (port 465), set security: tls."
            ) from None
        except (OSError, smtplib.SMTPException) as error:
            raise SendError(f"{where}: cannot connect ({error}); nothing was sent.") from None

    def send(self, message: EmailMessage) -> str | None:
        """Send one message; None when the server took it, else its refusal in words."""
        try:
            refused = self.smtp.send_message(message)
        except smtplib.SMTPRecipientsRefused as error:
            return "; ".join(f"{code} {_text(text)}" for code, text in error.recipients.values())
        except smtplib.SMTPResponseException as error:
            return f"{error.smtp_code} {_text(error.smtp_error)}"
        except (smtplib.SMTPException, OSError) as error:  # a timeout is an OSError
            return f"not sent ({error})"
        if refused:
            return "; ".join(f"{code} {_text(text)}" for code, text in refused.values())
        return None

    def close(self) -> None:
        try:
            self.smtp.quit()
        except (smtplib.SMTPException, OSError):
            self.smtp.close()


def write_eml(folder: Path, name: str, message: EmailMessage) -> Path:
    """One draft, written whole or not at all."""
    path = folder / name
    write_atomically(path, message.as_bytes())
    return path
