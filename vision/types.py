"""Plain data types of the vision package."""
from __future__ import annotations

from dataclasses import dataclass

from advisor.engine import PatienceError


class VisionError(PatienceError):
    """Bad input to the vision pipeline (unreadable or non-image file, bad labels...)."""


@dataclass(frozen=True)
class Sighting:
    """One detected corner index: card label (``10h``), box ``(x0, y0, x1, y1)`` in pixels, confidence.

    ``readings`` are the labels the index classifier found likely, with its probabilities, best
    first (the chosen label among them); empty when nothing but the label is known. The layout
    reader falls back on them when the rules rule the first reading out (too many copies).
    """

    label: str
    box: tuple[float, float, float, float]
    conf: float
    readings: tuple[tuple[str, float], ...] = ()

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)
