"""Supervised relatedness (Tai et al. 2015; Wieting & Gimpel 2017 §4.3): the score distribution, the head, the
splits of SICK and STS 2012-2015, and training with dev selection in the three settings."""

from collections import Counter

from helpers import composition, configured

import numpy as np
import pytest
import torch

from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.errors import SentembError
from sentemb.papers.wieting2017 import STS_GROUPS
from sentemb.paraphrastic.composition import PaddedBatch, build_composition
from sentemb.supervised.config import Setting, TrainingConfig
from sentemb.supervised.data import read_split, sick_splits, split_datasets, write_split
from sentemb.supervised.similarity import SimilarityHead, kl_loss, score_distribution, score_range
from sentemb.supervised.training import ScoredPairs, predict, train_supervised

CPU = torch.device("cpu")
NO_L2 = Setting(lambda_w=0.0, lambda_c=0.0)


def training(**overrides) -> TrainingConfig:
    return configured(TrainingConfig, "supervised.training", **overrides)


def test_score_distribution_is_tai_et_al_sparse_target():
    y = np.array([1.0, 2.4, 3.0, 4.75, 5.0])
    p = score_distribution(y, 5)
    assert p.shape == (5, 5) and p.dtype == torch.float32
    torch.testing.assert_close(p.sum(1), torch.ones(5))
    torch.testing.assert_close(p @ torch.arange(1.0, 6.0), torch.tensor(y, dtype=torch.float32))
    assert p[1].tolist() == pytest.approx([0, 0.6, 0.4, 0, 0]) and p[4].tolist() == [0, 0, 0, 0, 1]
    assert score_range(0, 5) == (1.0, 6) and score_range(1, 5) == (0.0, 5)  # STS [0, 5] → [1, 6]; SICK as it is
    for bad in ([0.5], [5.5], [float("nan")]):
        with pytest.raises(SentembError, match=r"outside \[1, 5\]"):
            score_distribution(np.array(bad), 5)
    with pytest.raises(SentembError, match="must span a positive integer"):
        score_range(0, 4.5)


def test_head_is_the_two_matrix_form_and_the_loss_is_kl():
    torch.manual_seed(0)
    head = SimilarityHead(4, 3, 5)
    left, right = torch.randn(6, 4), torch.randn(6, 4)
    log_p = head(left, right)
    assert log_p.shape == (6, 5)
    torch.testing.assert_close(log_p.exp().sum(1), torch.ones(6))
    w_times, w_plus = head.hidden.weight[:, :4], head.hidden.weight[:, 4:]  # W× h× + W+ h+ + b
    hs = torch.sigmoid((left * right) @ w_times.T + (left - right).abs() @ w_plus.T + head.hidden.bias)
    torch.testing.assert_close(log_p, torch.log_softmax(head.output(hs), dim=1))
    y_hat = head.predict(log_p)
    assert ((y_hat >= 1) & (y_hat <= 5)).all()
    torch.testing.assert_close(y_hat, log_p.exp() @ torch.arange(1.0, 6.0))
    target = score_distribution(np.array([1.0, 2.5, 3.0, 4.2, 5.0, 3.3]), 5)
    kl = (target * (torch.log(target.clamp(min=1e-30)) - log_p)).sum(1).mean()
    torch.testing.assert_close(kl_loss(log_p, target), kl)
    assert kl_loss(torch.log(torch.full((2, 5), 0.2)), torch.full((2, 5), 0.2)).abs() < 1e-6


def test_sts_split_is_40_10_50_per_dataset_seeded_and_complete(shared, tmp_path):
    datasets = load_benchmarks(shared, STS_GROUPS)
    splits = split_datasets(datasets, (0.4, 0.1), seed=1)
    sizes = {s: len(rows) for s, rows in splits.items()}
    assert sum(sizes.values()) == sum(len(d) for d in datasets) and len(datasets) == 19
    for d in datasets:
        per = {s: sum(r[0] == d.key for r in rows) for s, rows in splits.items()}
        assert per["train"] == int(0.4 * len(d)) and per["dev"] == int(0.1 * len(d))
    assert split_datasets(datasets, (0.4, 0.1), seed=1) == splits
    assert split_datasets(datasets, (0.4, 0.1), seed=2) != splits
    # every pair lands in exactly one split (some datasets repeat a pair verbatim: those copies may be split apart)
    every = Counter((d.key, a, b, float(g)) for d in datasets
                    for a, b, g in zip(d.sentences1, d.sentences2, d.gold, strict=True))
    assert Counter(r for rows in splits.values() for r in rows) == every
    assert any('"' in r[1] + r[2] for r in splits["train"])  # quotes, written and read back as they are
    write_split(tmp_path / "train.tsv", splits["train"])
    assert read_split(tmp_path / "train.tsv") == splits["train"]
    with pytest.raises(SentembError, match="leave a test share"):
        split_datasets(datasets, (0.6, 0.4), seed=1)


def test_sick_splits_and_split_files(shared, tmp_path):
    splits = sick_splits(shared / "sick")
    assert {s: len(r) for s, r in splits.items()} == {"train": 4500, "dev": 500, "test": 4927}
    assert all(1 <= r[3] <= 5 for rows in splits.values() for r in rows)
    write_split(tmp_path / "dev.tsv", splits["dev"])
    assert read_split(tmp_path / "dev.tsv") == splits["dev"]
    (tmp_path / "bad.tsv").write_text("set\tsentence1\tsentence2\tscore\nSICK.dev\ta\tb\thigh\n")
    with pytest.raises(SentembError, match=r"bad.tsv:2: score 'high' is not a number"):
        read_split(tmp_path / "bad.tsv")
    with pytest.raises(SentembError, match="missing split file"):
        read_split(tmp_path / "none.tsv")


def _toy(n: int, rng: np.random.Generator) -> ScoredPairs:
    """Pairs whose score (on [1, 5]) is the share of word overlap: learnable from |h_L − h_R| and h_L ⊙ h_R."""
    s1, s2, y = [], [], []
    for _ in range(n):
        a = rng.choice(40, size=6, replace=False)
        keep = rng.integers(0, 7)
        b = np.concatenate([a[:keep], rng.choice(np.arange(40, 80), size=6 - keep, replace=False)])
        s1.append(a)
        s2.append(rng.permutation(b))
        y.append(1 + 4 * keep / 6)
    return ScoredPairs(s1, s2, np.array(y))


@pytest.mark.parametrize("setting", ["initialised", "universal"])
def test_training_learns_relatedness_and_selects_on_dev(setting, tmp_path):
    rng = np.random.default_rng(0)
    train, dev, test = _toy(600, rng), _toy(150, rng), _toy(150, rng)
    torch.manual_seed(0)
    encoder = build_composition(composition("gran", dropout=0.1), torch.randn(80, 16) * 0.5, sparse=False)
    start = {k: v.detach().clone() for k, v in encoder.named_parameters()}

    def embed(sentences):
        return encoder(PaddedBatch.from_lists(sentences, encoder.embedding.weight.device))

    anchors = start if setting == "universal" else None
    lam = 10.0 if setting == "universal" else 0.0
    config = training(hidden=20, batch_size=25, epochs=6, lr=0.01, evals_per_epoch=2, seed=1)
    stats = train_supervised(encoder, embed, train, dev, test, config, Setting(lambda_w=lam, lambda_c=lam), 0.0, 5, CPU,
                             anchors=anchors, log_path=tmp_path / "log.csv")
    rows = (tmp_path / "log.csv").read_text().splitlines()
    assert rows[0] == "step,epoch,loss,dev,test,test_spearman" and len(rows) == 13 == stats["checkpoints"] + 1
    assert stats["dev"] == max(float(r.split(",")[3]) for r in rows[1:])  # selection on dev
    assert stats["best_test"] >= stats["test"] and stats["device"] == "cpu"
    moved = max((p.detach() - start[k]).abs().max().item() for k, p in encoder.named_parameters())
    if setting == "initialised":
        assert stats["test"] > 80  # overlap is learnt
        assert moved > 0.05
    else:  # pulled back hard to the transfer model: the encoder barely moves, the head alone learns
        assert moved < 0.05 and stats["test"] > 50


def test_predict_embeds_each_distinct_sentence_once():
    """ŷ of every pair, each pair's two sentences embedded together as before, though a repeated sentence is embedded
    once (SICK's test split holds each sentence about twice)."""
    rng = np.random.default_rng(3)
    pairs = _toy(40, rng)
    pairs = ScoredPairs(pairs.sentences1 * 2, [s.copy() for s in pairs.sentences1[::-1]] + pairs.sentences2,
                        np.concatenate([pairs.scores, pairs.scores]))
    torch.manual_seed(0)
    encoder = build_composition(composition("lstmavg"), torch.randn(80, 16) * 0.5, sparse=False)
    head = SimilarityHead(16, 20, 5)
    seen = []

    def embed(sentences):
        seen.append(len(sentences))
        return encoder(PaddedBatch.from_lists(sentences, "cpu"))

    y_hat = predict(encoder, embed, head, pairs, batch_size=16)
    distinct = {s.tobytes() for s in pairs.sentences1 + pairs.sentences2}
    assert sum(seen) == len(distinct) < 2 * len(pairs) and max(seen) <= 32
    encoder.eval()
    head.eval()
    with torch.no_grad():
        one_by_one = [head.predict(head(*embed([a, b]).split(1))).item()
                      for a, b in zip(pairs.sentences1, pairs.sentences2, strict=True)]
    assert y_hat == pytest.approx(one_by_one, abs=1e-5) and y_hat.dtype == np.float64


def test_training_errors():
    enc = build_composition(composition("avg"), torch.randn(5, 4), sparse=False)
    pairs = ScoredPairs([np.array([1])], [np.array([2])], np.array([3.0]))
    with pytest.raises(SentembError, match="anchors for parameters the encoder does not have"):
        train_supervised(enc, lambda s: enc(PaddedBatch.from_lists(s)), pairs, pairs, pairs, training(), NO_L2, 0.0,
                         5, CPU, anchors={"lstm.w_x.weight": torch.zeros(1)})
    with pytest.raises(SentembError, match=r"outside \[1, 2\]"):
        train_supervised(enc, lambda s: enc(PaddedBatch.from_lists(s)), pairs, pairs, pairs, training(), NO_L2, 0.0,
                         2, CPU)
    with pytest.raises(SentembError, match="an empty split"):
        ScoredPairs([], [], np.array([]))
