"""Plain data types of the vision package."""
from __future__ import annotations

from dataclasses import dataclass

from advisor.engine import PatienceError


class VisionError(PatienceError):
    """Bad input to the vision pipeline (unreadable or non-image file, bad labels...)."""


@dataclass(frozen=True)
class Sighting:
    """One detected corner index: card label (``10h``), box ``(x0, y0, x1, y1)`` in pixels, confidence."""

    label: str
    box: tuple[float, float, float, float]
    conf: float

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)
