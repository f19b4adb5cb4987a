"""The whole page flow in headless Chromium (Debian's chromium, driven by Playwright).

Screenshots at desktop and phone sizes are kept in test-artifacts/ for a person to look at.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PHOTO = ROOT / "tests" / "fixtures" / "senior-wrangler-layout.jpg"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.slow


def ensure_chromium() -> str:
    """Install Debian's chromium if it is missing (CI runs as root on a clean machine)."""
    if not Path(CHROMIUM).exists():
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        # another apt run (the vision data step, say) may hold the dpkg lock: wait for it
        wait = ["-o", "DPkg::Lock::Timeout=600"]
        for cmd in (["apt-get", *wait, "update", "-qq"], ["apt-get", *wait, "install", "-y", "-qq", "chromium"]):
            done = subprocess.run(cmd, env=env, capture_output=True, text=True)
            assert done.returncode == 0, f"{' '.join(cmd)} failed: {done.stderr[-2000:]}"
    assert Path(CHROMIUM).exists(), "chromium could not be installed"
    return CHROMIUM


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from werkzeug.serving import make_server

    from webui import create_app
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("data"))})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    exe = ensure_chromium()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        yield b
        b.close()


def upload_photo(page):
    """Upload the rendered layout photo and wait for the page's answer: cards read, or a message saying why not."""
    assert PHOTO.exists(), f"missing fixture {PHOTO}"
    page.set_input_files("#photo-file", str(PHOTO))
    page.wait_for_function("document.querySelector('#busy').hidden && "
                           "(document.querySelectorAll('#tableau .card').length > 0 || "
                           "document.querySelector('#message').textContent.length > 0)", timeout=120_000)


@pytest.mark.parametrize("size_name, viewport", [("desktop", {"width": 1280, "height": 900}),
                                                 ("phone", {"width": 390, "height": 844})])
def test_whole_flow(server, browser, size_name, viewport):
    ARTIFACTS.mkdir(exist_ok=True)
    shot = lambda step: page.screenshot(path=str(ARTIFACTS / f"{size_name}-{step}.png"), full_page=True)
    page = browser.new_page(viewport=viewport)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")

    # 1. Choose the game.
    page.click("#game-senior-wrangler")
    page.wait_for_selector("#view-play:not([hidden])")
    shot("1-chosen")

    # 2. Upload a rendered photo of a Senior Wrangler layout (a deck the detector never saw):
    #    the cards read are drawn in the game's layout, and outlined on the photo.
    upload_photo(page)
    assert page.locator("#tableau .card").count() >= 90, page.inner_text("#message")
    page.wait_for_selector("#overlay rect")
    assert "Read " in page.inner_text("#message")
    shot("2-photo")

    # 3. The doubts are listed and marked on the drawn cards.
    assert page.locator("#doubts li").count() > 0
    doubtful = page.locator("#tableau .card.doubt")
    assert doubtful.count() > 0

    # 4. Correct one card the reader doubts, in two steps as a player unsure of it would: mark it unreadable,
    #    then name it. Each step is a tap twice on the card to open the picker. The name given is one the
    #    layout has not used up (two packs: at most two of each card); a reading that named every card twice
    #    (as this photo's does since session 54's classifier) has one free once the card is unreadable.
    hole = page.locator('#tableau .card.doubt[data-loc^="column"]').first
    loc, index = hole.get_attribute("data-loc"), hole.get_attribute("data-index")
    sel = f'#tableau .card[data-loc="{loc}"][data-index="{index}"]'
    card = page.locator(sel)

    def open_picker():
        card.click(position={"x": 6, "y": 4})    # a covered card shows only its top strip
        card.click(position={"x": 6, "y": 4})
        page.wait_for_selector("#picker[open]")

    open_picker()
    page.click('#picker button[value="unknown"]')
    page.wait_for_function("document.querySelector('#message').textContent.includes('Correction saved')")
    assert card.inner_text() == "?"
    sid = page.evaluate("fetch('/api/sessions').then(r => r.json())")[0]["id"]
    state = page.evaluate(f"fetch('/api/sessions/{sid}').then(r => r.json())")["state"]
    tokens = [t for piles in state["areas"].values() for pile in piles for t in pile]
    faces = [t.lstrip("~").split(":")[0] for t in tokens if t.lstrip("~") not in ("", "?")]
    real = next(f"{r}{s}" for s in "shdc" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                if faces.count(f"{r}{s}") < 2)
    rank, suit = real[:-1], real[-1]
    pretty = rank + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[suit]
    page.evaluate("document.querySelector('#message').textContent = ''")
    open_picker()
    page.click(f'#pick-ranks button[data-v="{rank}"]')
    page.click(f'#pick-suits button[data-v="{suit}"]')
    shot("3-picker")
    page.click("#pick-ok")
    page.wait_for_function("document.querySelector('#message').textContent.includes('Correction saved')")
    assert card.inner_text() == pretty

    # 5. Advice appears with reasons.
    page.wait_for_function("document.querySelectorAll('#suggestions li .why').length > 0 || "
                           "document.querySelector('#suggestions').textContent.includes('No move')", timeout=60_000)
    shot("4-advice")

    # 6. An illegal move is refused with its reason.
    page.fill("#move-text", "column1>column2")
    page.click("#check-form button")
    page.wait_for_selector("#check-result .illegal")
    reason = page.inner_text("#check-result")
    assert "Illegal" in reason and len(reason) > 20
    shot("5-illegal")

    # 7. Reload: the session and the corrections are still there.
    url = page.url
    page.reload()
    page.wait_for_selector("#tableau .card")
    assert page.url == url
    assert page.locator(sel).inner_text() == pretty
    sessions = page.evaluate("fetch('/api/sessions').then(r => r.json())")
    assert sessions and sessions[0]["steps"] >= 3   # the reading and both corrections were kept
    shot("6-reloaded")
    assert not errors, errors


def test_photo_is_read_into_the_tableau(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + "/")
    page.click("#game-senior-wrangler")
    page.wait_for_selector("#view-play:not([hidden])")
    upload_photo(page)
    assert page.locator("#tableau .card").count() >= 90, page.inner_text("#message")
    page.wait_for_selector("#overlay rect")


def test_the_play_view_shows_only_once_its_session_is_loaded(server, browser):
    # A photo sent as soon as the play view appears must have a session to go to: the view used to
    # show before the session had loaded, and a quick upload failed with a script error.
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click("#game-senior-wrangler")
    page.wait_for_selector("#view-play:not([hidden])")
    assert page.inner_text("#play-title").strip(), "the play view is shown before its session is loaded"
    upload_photo(page)
    assert page.locator("#tableau .card").count() >= 90, page.inner_text("#message")
    assert not errors, errors
