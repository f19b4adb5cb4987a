"""Create .venv and install what a purpose needs: ``serve`` or ``test``.

Only python3 is assumed. System packages (for rendering training art and for
the browser test) are installed by the steps that need them, not here.
"""
from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
EXTRAS = {"serve": "vision", "test": "all"}


def main(purpose: str) -> None:
    py = VENV / "bin" / "python"
    if not py.exists():
        print(f"creating {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "-e", f"{ROOT}[{EXTRAS[purpose]}]"], check=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "test")
