"""`docgen serve`: the workspace started on this machine, as Jupyter starts: a random token in
the address it prints, 127.0.0.1 unless another address is asked for (with a warning)."""

from __future__ import annotations

import socket
from pathlib import Path

from docgen import api
from docgen.web.app import create_app
from docgen.web.security import LOCAL_HOSTS, new_token


class ServeError(api.DocgenError, ValueError):
    """A folder, address or port the workspace cannot serve. Exit code 2."""


def prepare(folder: Path, out: Path | None, host: str, port: int) -> tuple[Path, Path, int]:
    """The folder, the issued folder inside it, and a free port (0: any free one)."""
    if not folder.is_dir():
        raise ServeError(f"{folder}: no such folder. Name the folder of the facts files.")
    folder = folder.resolve()
    out = (out if out is not None else folder / "out").resolve()
    if not out.is_relative_to(folder):
        raise ServeError(
            f"--out {out}: the workspace serves and writes only inside {folder}; "
            "name a folder inside it."
        )
    if port == 0:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.bind((host, 0))
            port = probe.getsockname()[1]
    return folder, out, port


def hosts_for(host: str) -> frozenset[str]:
    """The Host headers the workspace answers to: its own address, and the loopback names."""
    shown = f"[{host}]" if ":" in host else host
    return LOCAL_HOSTS | {host, shown}


def url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def serve(folder: Path, out: Path | None, host: str, port: int, announce: object) -> None:
    """Run the workspace until interrupted; ``announce(url)`` prints its address first."""
    import uvicorn

    folder, out, port = prepare(folder, out, host, port)
    token = new_token()
    app = create_app(folder, out, token, hosts_for(host), port)
    announce(url(host, port, token))  # type: ignore[operator]
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
