"""Debian's nginx with the shipped configuration (``deploy/nginx/``) in front of a site, for
the tests and ``benchmarks/limits_bench.py``.

:class:`Nginx` renders ``deploy/nginx/nginx.conf`` and ``deploy/nginx/damiera.conf`` into a
private temporary folder, changing only what ties them to a machine: the paths of logs, pid
file, temporary files and certificates (a throw-away self-signed one, made with ``openssl``),
the application's Unix socket, and the listening addresses (127.0.0.1 on free ports the
system chose, never fixed ones; no IPv6); optionally the site's name (``name``), and a header
through which a test claims client addresses (``client_header``: loopback has a single IPv6
address, so a test of how clients are counted by /64 names them with nginx's realip module,
and reads the key a request is counted by at :data:`CLIENT_KEY_PATH`). Every limit, timeout
and header is the shipped one. Each change must match the shipped text exactly once, so a
change there that the tests do not know fails loudly. Runs the master process as this user
(as root, its workers too, so that they can open a socket in the private folder).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.services import remove

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "nginx"
#: The site's name in the shipped files, which an operator replaces with their own.
SHIPPED_NAME = "damiera.example.org"
#: With a ``client_header``: the path at which nginx answers with the key it counts the
#: request's client by (the shipped ``$damiera_client``).
CLIENT_KEY_PATH = "/.test/client-key"
WAIT_SECONDS = float(os.environ.get("DAMIERA_TEST_WAIT", "120"))


def nginx_program() -> str | None:
    """Debian's nginx (``/usr/sbin/nginx``), or one on the PATH; None when not installed."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def _replace(text: str, old: str, new: str, what: str) -> str:
    if text.count(old) != 1:
        raise AssertionError(f"{what}: expected {old!r} once in the shipped configuration, "
                             f"found it {text.count(old)} times")
    return text.replace(old, new)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Nginx:
    """A running nginx with the shipped configuration in front of the application socket
    ``upstream`` (a path): :attr:`http_port` (redirects to HTTPS) and :attr:`https_port` on
    127.0.0.1, :attr:`certificate` (PEM, self-signed for ``localhost``). ``name``: the site's
    name in place of :data:`SHIPPED_NAME`; ``client_header``: a request header whose value
    nginx takes as the client's address (only from 127.0.0.0/8), for tests of the per-address
    limits with addresses loopback does not have; nginx then also answers
    :data:`CLIENT_KEY_PATH` with the key the request is counted by."""

    def __init__(self, upstream: str, program: str | None = None, name: str = SHIPPED_NAME,
                 client_header: str | None = None) -> None:
        self.program = program or nginx_program()
        if self.program is None:
            raise RuntimeError("nginx is not installed")
        self.root = Path(tempfile.mkdtemp(prefix="damiera-nginx-"))
        self.upstream = upstream
        self.name = name
        self.client_header = client_header
        self.certificate = self.root / "cert.pem"
        self.key = self.root / "key.pem"
        self._certificate()
        self.process: subprocess.Popen[bytes] | None = None
        for attempt in range(5):           # a free port may be taken before nginx binds it
            self.http_port, self.https_port = _free_port(), _free_port()
            self._render()
            if self._start():
                return
        self.stop()
        raise RuntimeError(f"nginx did not start: {self.errors()}")

    def _certificate(self) -> None:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
             "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
             "-keyout", str(self.key), "-out", str(self.certificate)],
            check=True, capture_output=True)

    def _render(self) -> None:
        main = (DEPLOY / "nginx.conf").read_text()
        r = self.root
        user = "user root root;" if os.geteuid() == 0 else ""
        main = _replace(main, "user www-data;", user, "user")
        main = _replace(main, "pid /run/nginx.pid;", f"pid {r}/nginx.pid;", "pid")
        main = _replace(main, "error_log /var/log/nginx/error.log;",
                        f"error_log {r}/error.log warn;", "error log")
        main = _replace(main, "include /etc/nginx/modules-enabled/*.conf;", "", "modules")
        main = _replace(main, "access_log /var/log/nginx/access.log;", "access_log off;",
                        "access log")
        main = _replace(main, "include /etc/nginx/conf.d/*.conf;", "", "conf.d")
        main = _replace(main, "include /etc/nginx/sites-enabled/*;",
                        f"include {r}/damiera.conf;", "sites")
        temp = "".join(f"    {kind}_temp_path {r}/{kind};\n" for kind in
                       ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        main = _replace(main, "http {\n", "http {\n" + temp, "temporary files")
        site = (DEPLOY / "damiera.conf").read_text()
        site = _replace(site, "server unix:/run/damiera/web.sock;",
                        f"server unix:{self.upstream};", "upstream")
        site = _replace(site, "    listen 80;\n", f"    listen 127.0.0.1:{self.http_port};\n",
                        "http")
        site = _replace(site, "    listen [::]:80;\n", "", "http over IPv6")
        site = _replace(site, "    listen 443 ssl http2;\n",
                        f"    listen 127.0.0.1:{self.https_port} ssl http2;\n", "https")
        site = _replace(site, "    listen [::]:443 ssl http2;\n", "", "https over IPv6")
        site = _replace(site, "/etc/letsencrypt/live/damiera.example.org/fullchain.pem;",
                        f"{self.certificate};", "certificate")
        site = _replace(site, "/etc/letsencrypt/live/damiera.example.org/privkey.pem;",
                        f"{self.key};", "key")
        site = _replace(site, "root /var/www/letsencrypt;", f"root {r}/acme;", "acme")
        if site.count(f"server_name {SHIPPED_NAME};") != 2:
            raise AssertionError(f"expected server_name {SHIPPED_NAME} in both servers")
        site = site.replace(SHIPPED_NAME, self.name)
        if self.client_header is not None:
            https = f"    listen 127.0.0.1:{self.https_port} ssl http2;\n"
            site = _replace(site, https, f"{https}    set_real_ip_from 127.0.0.0/8;\n"
                            f"    real_ip_header {self.client_header};\n"
                            f"    location = {CLIENT_KEY_PATH} "
                            "{ return 200 $damiera_client; }\n",
                            "claimed addresses")
        (r / "nginx.conf").write_text(main)
        (r / "damiera.conf").write_text(site)

    def command(self, *extra: str) -> list[str]:
        """nginx's command line with this configuration."""
        assert self.program is not None
        return [self.program, "-p", str(self.root), "-c", str(self.root / "nginx.conf"),
                "-e", str(self.root / "error.log"), *extra]

    def _start(self) -> bool:
        """Start nginx; False when a port was taken (the caller tries others)."""
        self.process = subprocess.Popen(self.command("-g", "daemon off;"),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                assert self.process.stderr is not None
                why = self.process.stderr.read().decode(errors="replace")
                if "Address already in use" in why or "Address already in use" in self.errors():
                    return False
                raise RuntimeError(f"nginx did not start: {why} {self.errors()}")
            if all(self._listening(p) for p in (self.http_port, self.https_port)):
                return True
            time.sleep(0.05)
        raise RuntimeError("nginx did not start in time")

    @staticmethod
    def _listening(port: int) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    def errors(self) -> str:
        """nginx's error log so far."""
        log = self.root / "error.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self) -> None:
        """Stop nginx (fast shutdown) and remove its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()
        remove(self.root)
