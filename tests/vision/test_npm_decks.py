"""Decks from the npm registry: each card's file is found by the package's own names, and rendered
cropped to the card. No registry is reached here: the package folder is made in the test."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="vision extra (opencv) is required", exc_type=ImportError)

import cv2  # noqa: E402

from vision import decks as D  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def renderer():
    """rsvg-convert comes with the Debian packages of the data step (CI runs as root)."""
    D.install_packages()


def _fake_package(cache, name, drop=None):
    """The folder ``npm pack`` would leave, with a plain card drawn for every label of the deck."""
    spec, folder, pattern, ranks, suits = D.NPM_DECKS[name]
    root = cache / spec.replace("/", "_").replace("@", "") / folder
    root.mkdir(parents=True)
    for label in D.LABELS:
        if label == drop:
            continue
        f = root / pattern.format(rank=ranks[label[:-1]], suit=suits[label[-1]])
        # a 100 x 140 card on a canvas with a transparent margin, as some decks' files have
        f.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="160">'
                     '<rect x="10" y="10" width="100" height="140" rx="6" fill="white" stroke="black"/>'
                     f'<text x="14" y="30" font-size="16">{label}</text></svg>')
    return root


def test_the_package_names_of_ten_and_the_court_cards_are_followed(tmp_path, monkeypatch):
    _fake_package(tmp_path, "npm-heruka")
    _fake_package(tmp_path, "npm-touati")
    monkeypatch.setattr(D.shutil, "which", lambda _: None)      # already fetched: npm is not asked
    heruka = D.fetch_npm_deck("npm-heruka", tmp_path)
    touati = D.fetch_npm_deck("npm-touati", tmp_path)
    assert set(heruka) == set(D.LABELS) == set(touati)
    assert heruka["10h"].name == "TH.svg" and heruka["Qs"].name == "QS.svg" and heruka["Ac"].name == "AC.svg"
    assert touati["10h"].name == "10h.svg" and touati["Qs"].name == "12s.svg" and touati["Ac"].name == "1c.svg"


def test_a_deck_renders_every_card_cropped_to_the_card(tmp_path):
    _fake_package(tmp_path / "cache", "npm-touati")
    assert D.render_npm_deck("npm-touati", tmp_path / "decks", tmp_path / "cache", width=240) == 52
    im = cv2.imread(str(tmp_path / "decks" / "npm-touati" / "7d.png"), cv2.IMREAD_UNCHANGED)
    # 240 px for the 120-unit canvas: the card is 200 x 280 of it, the transparent margin is cut off
    assert abs(im.shape[1] - 200) <= 2 and abs(im.shape[0] - 280) <= 2
    assert im.shape[2] == 4 and im[im.shape[0] // 2, im.shape[1] // 2, 3] == 255


def test_a_missing_card_file_or_a_missing_npm_is_named(tmp_path, monkeypatch):
    _fake_package(tmp_path, "npm-touati", drop="Kh")
    with pytest.raises(RuntimeError, match="npm-touati.*1 card files missing.*13h.svg"):
        D.fetch_npm_deck("npm-touati", tmp_path)
    monkeypatch.setattr(D.shutil, "which", lambda _: None)
    with pytest.raises(RuntimeError, match="npm is needed to fetch the deck npm-heruka"):
        D.fetch_npm_deck("npm-heruka", tmp_path / "empty")
