import math

import pytest
import torch

from sentemb.adjacent_sentences.loss import adjacent_sentence_loss


def test_siamese_cbow_loss_against_a_hand_computed_example():
    # centre (1, 0); positives (1, 0) and (0, 2); negatives (-1, 0) and (1, 1):
    # cosines 1, 0, -1, 1/sqrt(2); target (0.5, 0.5, 0, 0)
    center = torch.tensor([[1.0, 0.0]])
    cands = torch.tensor([[[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0], [1.0, 1.0]]])
    cos = [1.0, 0.0, -1.0, 1 / math.sqrt(2)]
    z = sum(math.exp(c) for c in cos)
    expected = -0.5 * (math.log(math.exp(1.0) / z) + math.log(math.exp(0.0) / z))
    loss = adjacent_sentence_loss(center, cands, n_positive=2, similarity="cosine")
    assert loss.item() == pytest.approx(expected, rel=1e-6)


def test_loss_is_the_batch_mean_and_dot_similarity_is_available():
    center = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    cands = torch.tensor([[[2.0, 0.0], [0.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 3.0], [1.0, 0.0]]])
    one = [adjacent_sentence_loss(center[i : i + 1], cands[i : i + 1], 2, "dot").item() for i in range(2)]
    assert adjacent_sentence_loss(center, cands, 2, "dot").item() == pytest.approx(sum(one) / 2)
    # first row by hand: dots 2, 0, 1
    z = math.exp(2) + 1 + math.exp(1)
    assert one[0] == pytest.approx(-0.5 * (2 - math.log(z) + 0 - math.log(z)))
