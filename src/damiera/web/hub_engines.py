"""Hub engines as opponents on the site: ``damiera serve --hub-engine
"NAME=COMMAND"`` (or ``DAMIERA_HUB_ENGINES``, one ``NAME=COMMAND`` a line).

:func:`load_engines` asks each engine at start-up, through the Hub handshake
(:meth:`~damiera.engine.hub_client.HubClient.offered_variants`), which variants it plays;
the new-game menu offers it for those. :class:`HubPlayers` plays an engine's moves for
:class:`~damiera.web.computer.ComputerPool` (which gives it the same queue, slots and
cancellation as Damiera's own engine): each search runs in a thread of the server with a
:class:`~damiera.engine.hub_client.HubClient` taken from a small cache (one engine process per
engine and variant per search at a time, kept between moves); a search nobody waits for any
more is sent ``stop``. A failing engine (it exits, answers wrongly or not in time) raises
:class:`EngineFailed` (503) and its process is dropped, so the next search starts it afresh.
Positions with the optional-capture house rule are not offered: a Hub engine cannot be told it.
"""

from __future__ import annotations

import itertools
import re
import shlex
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from damiera.engine.hub_client import HubClient, HubClientError
from damiera.rules.movegen import Move, apply_move, legal_moves
from damiera.rules.position import Position
from damiera.rules.variant import variant as get_variant
from damiera.web.i18n import gettext as _

#: A configured engine's name: what the menu shows and the API's ``engine`` field takes.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._+-]{0,31}")
#: Environment variable read by ``damiera serve`` (one ``NAME=COMMAND`` a line).
ENVIRONMENT = "DAMIERA_HUB_ENGINES"
#: Seconds a Hub engine may take beyond its move time before it counts as failed, and for
#: its handshake.
TIMEOUT = 10.0
#: Default seconds per move of a Hub engine (``--hub-movetime``).
DEFAULT_MOVETIME = 1.0


class EngineFailed(RuntimeError):
    """A Hub engine failed (could not start, exited, answered wrongly or not in time): 503."""


@dataclass(frozen=True)
class HubEngine:
    """A configured Hub engine: ``name`` (unique), ``command`` (argv), ``variants`` (the
    Damiera variant ids it declared at start-up), ``title`` (the name it gave in ``id``)."""

    name: str
    command: tuple[str, ...]
    variants: tuple[str, ...]
    title: str = ""


def menu_entries(engines: Iterable[HubEngine]) -> list[dict[str, object]]:
    """The new-game menu's entries for ``engines``: ``name``, ``variants`` and ``label`` in
    the current language (catalog ``locales/<lang>/LC_MESSAGES/hub.po``)."""
    return [{"name": e.name, "variants": e.variants,
             "label": _("{name} (Hub engine)").format(name=e.name)} for e in engines]


def parse_spec(spec: str) -> tuple[str, tuple[str, ...]]:
    """``"NAME=COMMAND"`` -> (name, argv): the command is split as a shell would (quotes),
    but never run by a shell. Raises ValueError with a one-line reason."""
    if len(spec) > 2000:
        raise ValueError("a Hub engine spec is at most 2000 characters")
    name, sep, command = spec.partition("=")
    name = name.strip()
    if not sep or not command.strip():
        raise ValueError(f"give a Hub engine as NAME=COMMAND, not {spec[:80]!r}")
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"a Hub engine's name is 1-32 letters, digits, spaces or ._+-, "
                         f"not {name[:40]!r}")
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise ValueError(f"cannot read the command of Hub engine {name}: {exc}") from None
    return name, argv


def load_engines(specs: Iterable[str], timeout: float = TIMEOUT) -> list[HubEngine]:
    """Each ``NAME=COMMAND`` (blank entries skipped) started once to learn the variants it
    plays. Raises ValueError (bad spec, a name given twice, an engine that cannot be
    started or plays none of Damiera's variants)."""
    engines: list[HubEngine] = []
    for spec in specs:
        if not spec.strip():
            continue
        name, argv = parse_spec(spec.strip())
        if any(e.name == name for e in engines):
            raise ValueError(f"two Hub engines are called {name}")
        try:
            title, variants = HubClient.offered_variants(argv, timeout=timeout)
        except HubClientError as exc:
            raise ValueError(f"Hub engine {name}: {exc}") from None
        if not variants:
            raise ValueError(f"Hub engine {name} plays none of Damiera's variants")
        engines.append(HubEngine(name, argv, tuple(variants), title))
    return engines


def moves_between(variant_id: str, positions: Sequence[Position]) -> list[Move]:
    """The moves that lead from each of ``positions`` to the next (the legal move whose
    result is the next position). Raises ValueError when two positions are not one move
    apart."""
    v = get_variant(variant_id)
    moves = []
    for before, after in itertools.pairwise(positions):
        for m in legal_moves(v, before):
            if apply_move(before, m) == after:
                moves.append(m)
                break
        else:
            raise ValueError("the game's positions are not one legal move apart")
    return moves


class HubPlayers:
    """The site's Hub engines and their processes (see the module's text). ``keep``: idle
    engine processes kept per engine and variant."""

    def __init__(self, engines: Sequence[HubEngine], movetime: float = DEFAULT_MOVETIME,
                 timeout: float = TIMEOUT, keep: int = 1):
        self.engines = {e.name: e for e in engines}
        self.movetime = movetime
        self.timeout = timeout
        self.keep = keep
        self._idle: dict[tuple[str, str], list[HubClient]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def check(self, name: str, variant_id: str, optional_capture: bool) -> None:
        """ValueError unless engine ``name`` is configured and plays this variant."""
        engine = self.engines.get(name)
        if engine is None:
            known = ", ".join(self.engines) or "none configured"
            raise ValueError(f"no Hub engine called {name[:40]!r} (known: {known})")
        if optional_capture or variant_id not in engine.variants:
            rules = f"{variant_id} with optional captures" if optional_capture else variant_id
            raise ValueError(f"Hub engine {name} does not play {rules}")

    def _take(self, engine: HubEngine, variant_id: str) -> HubClient:
        with self._lock:
            idle = self._idle.get((engine.name, variant_id))
            if idle:
                return idle.pop()
        try:
            return HubClient(engine.command, get_variant(variant_id), timeout=self.timeout)
        except HubClientError as exc:
            raise EngineFailed(f"the Hub engine {engine.name} failed: {exc}") from None

    def _give_back(self, engine: HubEngine, variant_id: str, client: HubClient) -> None:
        with self._lock:
            idle = self._idle.setdefault((engine.name, variant_id), [])
            if not self._closed and len(idle) < self.keep:
                idle.append(client)
                return
        client.close()

    def search(self, name: str, variant_id: str, positions: Sequence[Position],
               movetime: float | None, stop: threading.Event | None = None) -> Move:
        """The move of engine ``name`` in ``positions[-1]`` (``movetime`` seconds; None: the
        players' own). Blocking: run it in a thread. ``stop`` set from another thread sends
        the engine ``stop`` (its move then comes at once and is thrown away by the caller).
        Raises EngineFailed (also when no engine of that name is configured any more: a game
        stored before a restart without it)."""
        engine = self.engines.get(name)
        if engine is None:
            raise EngineFailed(f"the Hub engine {name} is not offered by this server any more")
        v = get_variant(variant_id)
        moves = legal_moves(v, positions[-1])
        if len(moves) == 1 or (stop is not None and stop.is_set()):
            return moves[0]  # the only move, or nobody waits for it any more
        history = moves_between(variant_id, positions)
        client = self._take(engine, variant_id)
        done = threading.Event()
        if stop is not None:
            threading.Thread(target=self._stop_when_set, args=(client, stop, done),
                             name="damiera-hub-stop", daemon=True).start()
        try:
            result = client.play(positions[0], history,
                                 movetime=movetime if movetime is not None else self.movetime)
        except HubClientError as exc:
            client.close()
            raise EngineFailed(f"the Hub engine {name} failed: {exc}") from None
        except BaseException:
            client.close()
            raise
        finally:
            done.set()
        if stop is not None and stop.is_set():
            client.close()  # it may have been sent a stop after its move: start afresh
        else:
            self._give_back(engine, variant_id, client)
        return result.move

    @staticmethod
    def _stop_when_set(client: HubClient, stop: threading.Event, done: threading.Event) -> None:
        while not done.is_set():
            if stop.wait(0.01):
                if not done.is_set():
                    try:
                        client.send("stop")
                    except HubClientError:
                        pass
                return

    def close(self) -> None:
        """Quit every idle engine process (those searching quit when their search ends)."""
        with self._lock:
            self._closed = True
            clients = [c for idle in self._idle.values() for c in idle]
            self._idle.clear()
        for c in clients:
            c.close()
