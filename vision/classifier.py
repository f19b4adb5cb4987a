"""Second stage of the detector: name the card from a crop around one corner index.

The first stage (a one-class YOLO model) only says *where* the corner indices
are.  Learning where an index is and which of 52 cards it shows in one small
network, from scratch, on a 2-core CPU, did not work in the time we have (see
models/MODEL_CARD.md).  Reading a rank and a suit from a small upright square is
an easy task for a tiny CNN, and its training data costs nothing: every
labelled box of every synthetic scene, cropped with jitter and turned by
quarter turns (a card may lie any way round on the table).

The crop is a square around the box, ``MARGIN`` times its longer side, resized
to the network's input size (read from the model at run time: 48 px for the
committed one; ``CROP`` is the training default, ``--cls-crop`` in the pipeline).
Training and run time share :func:`crop_index`, so they see the same thing.  The last class, ``BACKGROUND``, is "not a corner index": it
lets the classifier veto a false detection.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .decks import LABELS
from .runtime import session_options
from .types import VisionError

# 48 px since session 10 (held-out decks named better than at 32). Until session 43 the training default
# stayed 32, so a fresh run of the documented command, and session 42's two retrained classifiers, were
# 32-px nets compared with the committed 48-px one.
CROP = 48
MARGIN = 1.3
# A crop whose first look is at least this sure keeps it; only the others are
# asked the three other quarter turns.  On the held-out decks' crops (session-9
# classifier) pooling all crops gave 84.4% named right, pooling only those under
# 0.9 the same 84.4% while asking 47% of the crops: the sure ones were 97.5% right
# already, and the pooled turns rarely overturn them.
SURE = 0.9
BACKGROUND = "bg"
CLASSES = tuple(LABELS) + (BACKGROUND,)


def crop_index(img: np.ndarray, box, size: int = CROP, margin: float = MARGIN,
               shift: tuple[float, float] = (0.0, 0.0), scale: float = 1.0) -> np.ndarray:
    """The square around ``box`` (x0, y0, x1, y1 px) resized to ``size``; BGR uint8.

    ``shift`` (in units of the square's side) and ``scale`` jitter the square;
    training uses them, run time does not."""
    import cv2

    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 2.0) * margin * scale
    cx = (x0 + x1) / 2 + shift[0] * side
    cy = (y0 + y1) / 2 + shift[1] * side
    k = size / side
    # maps the square's top-left corner to (0, 0) and its side to `size`
    M = np.array([[k, 0, -(cx - side / 2) * k], [0, k, -(cy - side / 2) * k]], np.float32)
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(img, M, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def to_input(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) BGR uint8 -> (N, 3, S, S) RGB float32 in [0, 1], the network's input."""
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


class IndexClassifier:
    """ONNX crop classifier: ``probabilities(image, boxes) -> (N, 53)`` over :data:`CLASSES`."""

    def __init__(self, model: str | Path, threads: int | None = None):
        import onnxruntime as ort

        path = Path(model)
        if not path.is_file():
            raise VisionError(f"index classifier model not found: {path}")
        self.session = ort.InferenceSession(str(path), session_options(threads), providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        self.size = int(self.session.get_inputs()[0].shape[2])

    def probabilities(self, img: np.ndarray, boxes) -> np.ndarray:
        if len(boxes) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        return self.pooled(np.stack([crop_index(img, b, self.size) for b in boxes]))

    def pooled(self, crops: np.ndarray, sure: float = SURE) -> np.ndarray:
        """:meth:`classify` asked of all four quarter turns of each crop whose first look is
        under ``sure``, log-probabilities averaged (``sure`` above 1: every crop).

        The network was trained on crops turned any way round, so each turn is an
        independent opinion; pooling all four turns of every crop raised synthetic
        validation mAP50 by 1.6 points (2.2 on the held-out decks)."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        first = self.classify(crops)
        ask = np.nonzero(first.max(1) < sure)[0]
        if len(ask):
            logp = np.log(first[ask] + 1e-6) + sum(
                np.log(self.classify(np.ascontiguousarray(np.rot90(crops[ask], k, axes=(1, 2)))) + 1e-6)
                for k in (1, 2, 3))
            first[ask] = softmax(logp / 4)
        return first

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """Crops already cut by :func:`crop_index` (N, S, S, 3) -> (N, 53) probabilities."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        out = [self.session.run(None, {self.input_name: to_input(crops[i:i + 256])})[0]
               for i in range(0, len(crops), 256)]
        return softmax(np.concatenate(out))
