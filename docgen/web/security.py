"""What a local web tool must check on every request: the token, the Host and Origin headers
(no DNS rebinding), the CSRF token of a form, and every path kept inside the folder."""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

COOKIE = "docgen_token"
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


def new_token() -> str:
    """A random token, as Jupyter prints one: 256 bits, URL-safe."""
    return secrets.token_urlsafe(32)


def csrf_token(token: str, session: str = "form") -> str:
    """The CSRF token of every form: derived from the workspace's secret, never the secret
    itself (a page's HTML may be seen; the cookie's token is not in it)."""
    return hmac.new(token.encode(), session.encode(), "sha256").hexdigest()


def same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def inside(folder: Path, relative: str) -> Path | None:
    """``relative`` resolved under ``folder``, or None when it leaves it (``..``, an absolute
    path, a symlink pointing out)."""
    if not relative or "\x00" in relative:
        return None
    base = folder.resolve()
    target = (base / relative).resolve()
    if target != base and not target.is_relative_to(base):
        return None
    return target


class Guard:
    """ASGI middleware: refuse (403) a request whose Host is not this server's, whose Origin is
    another site's, or that carries neither the token (``?token=``) nor its cookie; a request
    with the right token in its URL gets the cookie (HttpOnly, SameSite=Strict) and is sent on
    to the same address without the token."""

    def __init__(self, app: ASGIApp, token: str, hosts: frozenset[str], port: int) -> None:
        self.app = app
        self.token = token
        self.hosts = hosts
        self.port = port

    def _host_ok(self, host: str | None) -> bool:
        if not host:
            return False
        name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if not name:  # no port given
            name, port = host, ""
        return name in self.hosts and port in ("", str(self.port))

    def _origin_ok(self, origin: str | None) -> bool:
        if origin is None:
            return True  # a same-origin GET from an old browser, or a command-line client
        parts = urlsplit(origin)
        return parts.scheme == "http" and self._host_ok(parts.netloc)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await PlainTextResponse(refusal, status_code=403)(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        if same((query.get("token") or [None])[0], self.token):
            # As Jupyter does: the token becomes the cookie, and the address loses it (out of
            # the history, the screen and any screenshot of it).
            kept = urlencode([(k, v) for k, vs in query.items() if k != "token" for v in vs])
            target = scope["path"] + (f"?{kept}" if kept else "")
            response = RedirectResponse(target, status_code=303)
            response.headers.append(
                "set-cookie", f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/"
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> str | None:
        if not self._host_ok(headers.get("host")):
            return "Refused: this workspace answers only at the address it printed (Host header)."
        origin = headers.get("origin")
        if not self._origin_ok(origin):
            return "Refused: a page of another site cannot use this workspace (Origin header)."
        if scope["method"] not in ("GET", "HEAD") and origin is None:
            # A form post from a browser always names its origin; a request that does not is
            # not one of this workspace's pages.
            fetch_site = headers.get("sec-fetch-site")
            if fetch_site not in (None, "same-origin"):
                return "Refused: a page of another site cannot use this workspace."
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if same((query.get("token") or [None])[0], self.token):
            return None
        if same(_cookie(headers.get("cookie", ""), COOKIE), self.token):
            return None
        return (
            "Refused: open the workspace with the address `docgen serve` printed "
            "(it carries the token: ...?token=...)."
        )


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def security_headers() -> dict[str, Any]:
    """Every page: no script but the workspace's own, no framing, no referrer carrying the
    token, nothing cached."""
    return {
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
        "X-Frame-Options": "DENY",
        # same-origin, not no-referrer: under no-referrer a browser posts a form with
        # "Origin: null", which the Origin check must refuse
        "Referrer-Policy": "same-origin",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
    }
