"""The classifier asks the other quarter turns only of crops it is unsure of."""
import numpy as np

from vision.classifier import CLASSES, SURE, IndexClassifier


class ScriptedClassifier(IndexClassifier):
    """Answers from a script instead of a network, and remembers how many crops each pass saw."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.asked = []

    def classify(self, crops):
        self.asked.append(len(crops))
        return self.answers.pop(0)[: len(crops)].copy()


def _dist(pairs):
    p = np.full(len(CLASSES), 1e-4, np.float32)
    for k, v in pairs:
        p[k] = v
    return p / p.sum()


def test_a_sure_first_look_is_kept_and_an_unsure_one_is_pooled_over_four_turns():
    sure = _dist([(3, 0.97)])
    torn = _dist([(1, 0.5), (2, 0.48)])
    leans_two = _dist([(2, 0.9), (1, 0.05)])
    crops = np.zeros((2, 8, 8, 3), np.uint8)
    c = ScriptedClassifier([np.stack([sure, torn])] + [leans_two[None]] * 3)
    p = c.pooled(crops)
    assert c.asked == [2, 1, 1, 1]          # the sure crop was not asked again
    assert np.allclose(p[0], sure)
    assert p[1].argmax() == 2 and p[1][2] > 0.8
    assert np.isclose(p[1].sum(), 1.0, atol=1e-5)


def test_sure_above_one_pools_every_crop():
    sure = _dist([(3, 0.97)])
    c = ScriptedClassifier([sure[None]] + [_dist([(4, 0.99)])[None]] * 3)
    p = c.pooled(np.zeros((1, 8, 8, 3), np.uint8), sure=1.01)
    assert c.asked == [1, 1, 1, 1] and p[0].argmax() == 4
    assert 0 < SURE < 1
