"""How the real server listens (``rummy21 serve``, uvicorn): a connection that trickles its
request headers is closed after ``--header-timeout`` (a "slowloris" holds no socket for long),
while WebSockets and ordinary requests are untouched; a WebSocket frame that is not UTF-8 is
one line in the log, not a traceback."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from serving import HOST, Server

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
sync_client = pytest.importorskip("websockets.sync.client")


def start(tmp_path: Path, *args: str) -> Server:
    db = f"sqlite:///{tmp_path / 'listen.sqlite3'}"
    return Server(["--db", db, "--log-level", "info", *args], tmp_path / "server.log", wait=30)


def table_on(server: Server) -> dict[str, str]:
    """A new table (a seat and a random bot) on ``server``: its code and the seat's token."""
    made: dict[str, str] = httpx.post(
        f"{server.url}/api/tables",
        json={"name": "Ann", "seats": ["human", "random"], "turn_seconds": 0},
        timeout=10,
    ).json()
    return made


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (reading what it sent first)."""
    sock.settimeout(0.05)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def test_a_connection_that_trickles_its_headers_is_closed(tmp_path: Path) -> None:
    server = start(tmp_path, "--header-timeout", "1")
    try:
        made = table_on(server)
        slow = []
        for _ in range(30):
            sock = socket.create_connection((HOST, server.port), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            slow.append(sock)
        with sync_client.connect(f"ws://{HOST}:{server.port}/ws/{made['code']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            started = time.monotonic()
            while time.monotonic() - started < 2.5:  # a header line now and then
                for n, sock in enumerate(slow):
                    try:
                        sock.sendall(f"X-Slow-{n}: 1\r\n".encode())
                    except OSError:
                        pass
                time.sleep(0.25)
            assert all(closed(sock) for sock in slow)
            # Ordinary requests and the WebSocket (open longer than the deadline) go on.
            assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200
            ws.send(json.dumps({"type": "ping", "id": 7}))
            while (reply := json.loads(ws.recv(timeout=10)))["type"] == "state":
                pass
            assert reply == {"type": "pong", "id": 7}
        # A kept-alive connection serves request after request, however slowly they come.
        with httpx.Client(base_url=server.url, timeout=5) as client:
            for _ in range(3):
                assert client.get("/healthz").status_code == 200
                time.sleep(0.6)
        for sock in slow:
            sock.close()
    finally:
        server.stop()


def test_a_websocket_frame_that_is_not_utf8_is_one_line_in_the_log(tmp_path: Path) -> None:
    server = start(tmp_path)
    try:
        made = table_on(server)
        with sync_client.connect(f"ws://{HOST}:{server.port}/ws/{made['code']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            ws.recv(timeout=10)
            with ws.protocol_mutex:  # a raw frame: the client itself would refuse to send it
                ws.protocol.send_text(b"\xff\xfe not UTF-8")
                ws.send_data()
            with pytest.raises(Exception) as ended:
                while True:
                    ws.recv(timeout=10)
            assert "1007" in str(ended.value)
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log and "UnicodeDecodeError" not in log
    assert log.count("text frame that is not UTF-8") == 1
