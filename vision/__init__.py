"""Vision: find every visible card corner index in a photo of a patience table."""
from __future__ import annotations

from .types import Sighting, VisionError  # noqa: F401


def detect(image, **kwargs):
    """Detect corner indices in ``image`` (path, bytes, PIL image or BGR ndarray) -> list[Sighting]."""
    from .detector import detect as _detect
    return _detect(image, **kwargs)
