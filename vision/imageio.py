"""Reading images: any path, bytes, PIL image or array -> upright BGR uint8 array."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from .types import VisionError


def load_image(image) -> np.ndarray:
    """Return an upright BGR ``uint8`` array (H, W, 3).

    Accepts a path (str/Path), raw bytes, a PIL image or a numpy array (BGR,
    gray or BGRA).  EXIF orientation of phone photos is applied.  Unreadable
    input raises :class:`VisionError` with a one-line reason.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    if isinstance(image, np.ndarray):
        return _as_bgr(image)
    if isinstance(image, (str, Path)):
        p = Path(image)
        if not p.is_file():
            raise VisionError(f"{p}: no such file")
        data = p.read_bytes()
        name = str(p)
    elif isinstance(image, (bytes, bytearray, memoryview)):
        data, name = bytes(image), "<bytes>"
    elif isinstance(image, Image.Image):
        pil = ImageOps.exif_transpose(image)
        return _pil_to_bgr(pil)
    else:
        raise VisionError(f"cannot read an image from {type(image).__name__}")
    if not data:
        raise VisionError(f"{name}: empty file, not an image")
    try:
        pil = Image.open(io.BytesIO(data))
        pil.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, ImportError) as e:  # ImportError: see webui.api._read_image
        raise VisionError(f"{name}: not a readable image ({e.__class__.__name__})") from None
    try:
        pil = ImageOps.exif_transpose(pil)
    except Exception:  # a broken EXIF block: keep the pixels as stored
        pass
    return _pil_to_bgr(pil)


def _pil_to_bgr(pil) -> np.ndarray:
    if pil.mode not in ("RGB", "L"):
        pil = pil.convert("RGB")
    arr = np.asarray(pil)
    if arr.ndim == 2:
        arr = np.repeat(arr[..., None], 3, axis=2)
    return np.ascontiguousarray(arr[..., ::-1])


def _as_bgr(arr: np.ndarray) -> np.ndarray:
    if arr.dtype != np.uint8:
        raise VisionError(f"image array must be uint8, got {arr.dtype}")
    if arr.ndim == 2:
        return np.repeat(arr[..., None], 3, axis=2)
    if arr.ndim == 3 and arr.shape[2] == 3:
        return arr
    if arr.ndim == 3 and arr.shape[2] == 4:
        return np.ascontiguousarray(arr[..., :3])
    raise VisionError(f"image array has shape {arr.shape}, expected HxW, HxWx3 or HxWx4")
