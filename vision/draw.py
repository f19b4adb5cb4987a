"""Drawing sightings on a picture (kept apart from detection logic)."""
from __future__ import annotations

import numpy as np

from .types import Sighting

RED_SUITS = ("h", "d")


def color_for(label: str) -> tuple[int, int, int]:
    """BGR colour: red suits orange-red, black suits blue-green."""
    return (0, 80, 255) if label[-1:] in RED_SUITS else (255, 160, 0)


def annotate(image: np.ndarray, sightings: list[Sighting], thickness: int | None = None) -> np.ndarray:
    """Return a copy of ``image`` (BGR) with a box and ``label conf`` per sighting."""
    import cv2

    out = image.copy()
    h, w = out.shape[:2]
    t = thickness or max(1, round(max(h, w) / 800))
    fs = max(0.4, max(h, w) / 2500)
    for s in sightings:
        x0, y0, x1, y1 = (int(round(v)) for v in s.box)
        col = color_for(s.label)
        cv2.rectangle(out, (x0, y0), (x1, y1), col, t)
        text = f"{s.label} {s.conf:.2f}"
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, fs, 1)
        ty = y0 - 3 if y0 - th - 4 > 0 else y1 + th + 3
        cv2.rectangle(out, (x0, ty - th - 2), (x0 + tw + 2, ty + 2), col, -1)
        cv2.putText(out, text, (x0 + 1, ty), cv2.FONT_HERSHEY_SIMPLEX, fs, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def yolo_text_lines(sightings: list[Sighting], width: int, height: int) -> list[str]:
    """``label cx cy w h conf`` lines, normalised to the image size."""
    lines = []
    for s in sightings:
        x0, y0, x1, y1 = s.box
        lines.append(f"{s.label} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
                     f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f} {s.conf:.4f}")
    return lines
