"""One RFC 3161 exchange with a timestamp server over HTTP(S), bounded: an overall deadline and a
cap on the reply's size, so a server that trickles a byte every few seconds, or never stops
sending, cannot keep `batch --sign` running (issue 44).

A socket timeout bounds each read, not the exchange: a server that sends one byte every 5 s never
trips a 20 s timeout. So the whole exchange (connect, request, the reply to its last byte) runs
under one ``asyncio.wait_for``, and the reply is read in pieces counted against the cap. The
request is HTTP/1.0 with ``Connection: close`` (RFC 3161 section 3.4 names HTTP as a transport;
a 1.0 request gets a reply that is the body up to the end of the connection, never chunked).
The server is contacted directly, not through an HTTP(S)_PROXY.
"""

from __future__ import annotations

import asyncio
import ssl
from urllib.parse import urlsplit

from docgen.core.errors import DocgenError

MAX_REPLY_BYTES = 1024 * 1024  # a TimeStampResp with its TSA's chain is a few KB


class ExchangeFailed(DocgenError):
    """The timestamp server did not give a reply in time, or gave one too large or not HTTP."""


async def exchange(url: str, body: bytes, seconds: float) -> bytes:
    """POST ``body`` (a DER TimeStampReq) to ``url`` and return the reply's body: all of it within
    ``seconds`` and MAX_REPLY_BYTES, with status 200, else ExchangeFailed saying which."""
    try:
        return await asyncio.wait_for(_post(url, body), seconds)
    except TimeoutError:
        raise ExchangeFailed(
            f"no whole reply within {seconds:g} seconds (a server that answers, but slowly, "
            "is stopped there)"
        ) from None
    except (OSError, ssl.SSLError) as error:
        raise ExchangeFailed(str(getattr(error, "strerror", None) or error)) from None


async def _post(url: str, body: bytes) -> bytes:
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host = parts.hostname or ""
    port = parts.port or (443 if secure else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    context = ssl.create_default_context() if secure else None
    reader, writer = await asyncio.open_connection(
        host, port, ssl=context, server_hostname=host if secure else None
    )
    try:
        authority = parts.netloc.rpartition("@")[2]
        head = (
            f"POST {path} HTTP/1.0\r\nHost: {authority}\r\n"
            "Content-Type: application/timestamp-query\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        writer.write(head.encode("ascii") + body)
        await writer.drain()
        reply = bytearray()
        while chunk := await reader.read(65536):
            reply += chunk
            if len(reply) > MAX_REPLY_BYTES:
                raise ExchangeFailed(
                    f"the reply is larger than {MAX_REPLY_BYTES:,} bytes; a timestamp is a few KB"
                )
    finally:
        writer.close()
    return _body(bytes(reply))


def _body(reply: bytes) -> bytes:
    """The body of an HTTP reply read to its end; status 200 or ExchangeFailed."""
    head, separator, body = reply.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].split()
    if not separator or len(status) < 2 or not status[0].startswith(b"HTTP/"):
        raise ExchangeFailed("the reply is not an HTTP response")
    if status[1] != b"200":
        reason = b" ".join(status[1:]).decode("latin-1")
        raise ExchangeFailed(f"the server answered HTTP {reason}")
    return body
