"""Take the rules trainer's and the puzzles' screenshots in docs/screenshots/ with Playwright
and Debian's Chromium, on a fresh site with its own SQLite file in a temporary folder.

    .venv/bin/python tools/screenshots_learn.py [OUT_DIR]

Writes ``train-wrong-answer-it.png`` (an Italian session on the Italian page, a capture
answered wrongly: the rules core's reason, the rule, and the right move drawn),
``train-ar-czech-phone.png`` (a Czech session on the Arabic page at a phone's width),
``puzzle-russian.png`` (a Russian puzzle, its first move played and the reply shown) and
``puzzle-solved-international.png`` (an International puzzle solved, the rating moved).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page
from screenshots import desktop_page, serve_and_shoot

from damiera.puzzles import library
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move
from damiera.rules.notation import move_text, parse_move
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
from damiera.trainer.pool import find


def _click_path(page: Page, labels: list[str]) -> None:
    for label in labels:
        page.locator(f'#board [data-square="{label}"]').click()


def _wrong_capture(page: Page, vid: str) -> None:
    """Answer exercises rightly until one asks for a capture, then play a wrong capture
    (a new session when one ends first)."""
    v = variant(vid)
    geo = geometry(v)
    for _ in range(40):
        page.wait_for_selector('#train[data-state="question"], #train[data-state="done"]')
        if page.locator("#train").get_attribute("data-state") == "done":
            page.locator("#tr-restart").click()
            continue
        e = find(v, page.locator("#train").get_attribute("data-exercise") or "")
        truth = e.answer()
        if e.kind in ("capture", "promotion"):
            keys = truth
            bad = [m for m in e.candidates()
                   if (m.start, m.end, m.captured) not in keys and m.captures]  # type: ignore[operator]
            good = [m for m in e.candidates()
                    if (m.start, m.end, m.captured) in keys]  # type: ignore[operator]
            move = bad[0] if bad else good[0]
            _click_path(page, [geo.label(s) for s in move.path])
            if any(m.path[:len(move.path)] == move.path and len(m.path) > len(move.path)
                   for m in e.candidates()):     # it could go on: chosen among the offered
                page.locator(f'#entry-choice-list button[data-move="{move_text(v, move)}"]'
                             ).click()
            page.wait_for_selector('#train[data-state="answered"]')
            if bad:
                return
        elif e.kind == "legal":
            page.locator("#tr-btn-legal" if truth else "#tr-btn-illegal").click()
        elif e.kind == "outcome":
            page.locator(f"#tr-btn-{truth}").click()
        else:
            _click_path(page, [geo.label(s) for s in sorted(truth)])  # type: ignore[call-overload]
            page.locator("#tr-check").click()
        page.wait_for_selector('#train[data-state="answered"]')
        page.locator("#tr-next").click()
    raise RuntimeError("no capture exercise to answer wrongly")


def _play(page: Page, puzzle_id: str, plies: int) -> None:
    p = library.find(puzzle_id)
    assert p is not None
    v = variant(p.variant)
    geo = geometry(v)
    position = parse_fen(v, p.fen)
    for i in range(0, min(plies, len(p.solution)), 2):
        move = parse_move(v, position, p.solution[i])
        with page.expect_response(lambda r: "/moves" in r.url):
            _click_path(page, [geo.label(s) for s in move.path])
        position = apply_move(position, move)
        if i + 1 < len(p.solution):
            position = apply_move(position, parse_move(v, position, p.solution[i + 1]))


def shoot(base_url: str, out: Path) -> list[Path]:
    """Take the screenshots the module docstring lists; returns their paths."""
    done = []
    with desktop_page(base_url) as (browser, page):
        page.goto("/train?variant=italian&lang=it")
        _wrong_capture(page, "italian")
        page.screenshot(path=str(out / "train-wrong-answer-it.png"))
        done.append(out / "train-wrong-answer-it.png")

        for vid, whole, name in (("russian", False, "puzzle-russian.png"),
                                 ("international", True, "puzzle-solved-international.png")):
            puzzle = next(x for x in library.shipped(vid) if len(x.solution) >= 3
                          and "shot" in x.themes)
            page.goto(f"/puzzles/{puzzle.id}")
            page.wait_for_selector('#puzzle[data-state="solving"]')
            _play(page, puzzle.id, len(puzzle.solution) if whole else 1)
            if whole:
                page.wait_for_selector('#puzzle[data-state="solved"]')
            page.screenshot(path=str(out / name))
            done.append(out / name)

        # a phone's width; tall enough for the whole page in one screen (the top bar sticks)
        phone = browser.new_context(viewport={"width": 375, "height": 1060}, base_url=base_url)
        page = phone.new_page()
        page.goto("/train?variant=czech&lang=ar")
        _wrong_capture(page, "czech")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "train-ar-czech-phone.png"))
        done.append(out / "train-ar-czech-phone.png")
        phone.close()
    return done


def main(argv: list[str]) -> int:
    return serve_and_shoot(shoot, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
