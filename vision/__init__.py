"""Vision: find every visible card corner index in a photo of a patience table."""
from __future__ import annotations

from .types import Sighting, VisionError  # noqa: F401


def detect(image, **kwargs):
    """Detect corner indices in ``image`` (path, bytes, PIL image or BGR ndarray) -> list[Sighting]."""
    from .detector import detect as _detect
    return _detect(image, **kwargs)


def read_layout(image, game, previous=None, options=None):
    """Photo + chosen game -> Reading (state, confidences, doubts, changes). See vision.reading."""
    from .reading import read_layout as _read_layout
    return _read_layout(image, game, previous=previous, options=options)


def load_image(image):
    """Any photo input (path, bytes, PIL image, array) -> BGR array, the right way up (EXIF)."""
    from .imageio import load_image as _load
    return _load(image)
