#!/usr/bin/env python3
"""Fit the pip judge (``vision.pips``) on drawn suit signs and write ``models/pips.npz``.

    .venv/bin/python scripts/train_pips.py [--out models/pips.npz] [--pips 60000] [--seed 0]

Needs torch (the ``train`` extra) and the font packages the data step installs. About 1.5 min on
this 2-core CPU. No deck artwork is used, so every Debian deck stays a fair test of it."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from vision.decks import install_packages
    from vision.pips import PIP_MODEL, train

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(PIP_MODEL))
    ap.add_argument("--pips", type=int, default=60000, help="drawn pips of each colour")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    install_packages()
    t = time.time()
    summary = train(Path(a.out), n=a.pips, seed=a.seed)
    summary["seconds"] = round(time.time() - t)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
