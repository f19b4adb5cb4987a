"""The classifier's training augmentation for suit signs drawn otherwise (``--cls-ink``)."""
from __future__ import annotations

import numpy as np
import torch  # the 'train' extra, which the test set-up installs: a missing install fails here rather than skipping

from vision.classifier_train import _augment, _ink_variants


def _sign_on_paper(n: int = 4, size: int = 48) -> "torch.Tensor":
    """A dark square sign on light paper, in every crop of the batch."""
    x = torch.full((n, 3, size, size), 0.9)
    x[:, :, 16:32, 16:32] = 0.1
    return x


def test_a_ramp_lightens_the_ink_and_leaves_the_paper():
    x = _sign_on_paper()
    y = _ink_variants(x.clone(), np.random.default_rng(0), shaded=1.0, swollen=0.0)
    ink = (slice(None), slice(None), slice(16, 32), slice(16, 32))
    paper = (slice(None), slice(None), slice(0, 8), slice(0, 8))
    assert torch.allclose(y[paper], x[paper])
    assert (y[ink] >= x[ink] - 1e-6).all()
    lifted = (y[ink] - x[ink]).flatten(1).amax(1)
    assert (lifted > 0.1).all()              # every crop's sign is lit somewhere
    assert (y[ink] <= 0.9 + 1e-6).all()      # never lighter than the paper


def test_swelling_spreads_the_ink_by_one_pixel():
    x = _sign_on_paper()
    y = _ink_variants(x.clone(), np.random.default_rng(0), shaded=0.0, swollen=1.0)
    dark = (y[:, 0] < 0.5)
    assert dark[:, 15:33, 15:33].all()       # one pixel around the sign is ink now
    assert not dark[:, 14, :].any() and not dark[:, :, 33].any()


def test_the_augmentation_keeps_shape_and_range_with_and_without_ink_variants():
    x = torch.rand(8, 3, 48, 48)
    for ink in (False, True):
        y = _augment(x.clone(), np.random.default_rng(1), ink)
        assert y.shape == x.shape
        assert float(y.min()) >= 0.0 and float(y.max()) <= 1.0
