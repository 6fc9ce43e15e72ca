"""The RFC 3161 exchange is bounded (issue 44): a timestamp server that trickles a byte every few
seconds, or sends without end, or sends garbage DER, ends `batch --sign` with a refusal (exit 2,
naming the server) in bounded time, never an internal error and never days of waiting."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from docgen.issue import signing, tsa_exchange
from docgen.issue.signing import PASSPHRASE_ENV
from tests.signing_pki import PASSPHRASE, module_fixtures

pki_fixture, signing_fixture = module_fixtures()
GRANT = Path(__file__).resolve().parent.parent / "samples" / "director-grant-2026.yaml"
_OK = b"HTTP/1.0 200 OK\r\nContent-Type: application/timestamp-reply\r\n\r\n"


@contextmanager
def server(reply: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """A one-connection-at-a-time HTTP server on 127.0.0.1 that reads the request, then
    answers with ``reply``; stopped (and its connections closed) on leaving."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(5)
                try:
                    connection.recv(65536)
                    reply(connection, stop)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/tsa"
    finally:
        stop.set()
        thread.join(10)
        listener.close()


def trickle(connection: socket.socket, stop: threading.Event) -> None:
    """A byte every half second, as long as the client listens (the red team's: every 5 s)."""
    connection.sendall(_OK)
    while not stop.wait(0.5):
        connection.sendall(b"\x30")


def flood(connection: socket.socket, stop: threading.Event) -> None:
    connection.sendall(_OK)
    while not stop.is_set():
        connection.sendall(b"\x00" * 65536)


def garbage(connection: socket.socket, stop: threading.Event) -> None:
    connection.sendall(_OK + b"\x30\x82\xff\xff not DER at all")


def test_a_trickling_server_is_stopped_at_the_deadline():
    with server(trickle) as url:
        started = time.monotonic()
        with pytest.raises(tsa_exchange.ExchangeFailed, match="no whole reply within 1 seconds"):
            asyncio.run(tsa_exchange.exchange(url, b"request", 1))
        assert time.monotonic() - started < 3


def test_a_reply_without_end_is_cut_at_the_cap():
    with server(flood) as url:
        with pytest.raises(tsa_exchange.ExchangeFailed, match="larger than 1,048,576 bytes"):
            asyncio.run(tsa_exchange.exchange(url, b"request", 20))


def _sign(cli, tmp_path: Path, pki, url: str, monkeypatch):
    config = tmp_path / "signing.toml"
    config.write_text(f'key = "{pki.folder / "company.p12"}"\ntimestamp_url = "{url}"\n')
    monkeypatch.setenv(PASSPHRASE_ENV, PASSPHRASE)
    return cli(
        "batch",
        GRANT,
        "--out",
        tmp_path / "out",
        "--stage",
        "grant",
        "--as-of",
        "2026-06-23",
        "--workers",
        "1",
        "--sign",
        "--sign-config",
        config,
    )


@pytest.mark.slow
def test_batch_sign_with_a_trickling_server_ends_in_a_refusal(cli, pki, tmp_path, monkeypatch):
    monkeypatch.setattr(signing, "TIMESTAMP_SECONDS", 2)  # the deadline, shortened for the test
    with server(trickle) as url:
        started = time.monotonic()
        result = _sign(cli, tmp_path, pki, url, monkeypatch)
    assert time.monotonic() - started < 60
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "no whole reply within 2 seconds" in " ".join(result.stderr.split())
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_batch_sign_with_garbage_der_ends_in_a_refusal(cli, pki, tmp_path, monkeypatch):
    with server(garbage) as url:
        result = _sign(cli, tmp_path, pki, url, monkeypatch)
    assert result.exit_code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert f"timestamp_url {url}" in message and "not an RFC 3161 TimeStampResp" in message
    assert not (tmp_path / "out").exists()
