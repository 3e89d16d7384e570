"""supervise@MODEL-SETTING: supervised relatedness on STS and SICK (Wieting & Gimpel 2017 §4.3, Tables 5 and 8; Tai
et al. 2015), params ``supervised.models.MODEL``, ``supervised.settings.SETTING`` and ``supervised.training``.

The encoder of the paraphrastic model ``supervised.models.MODEL.transfer`` (its composition and arguments) gets
Tai et al.'s head and is trained on data/supervised/{sts,sick}/train.tsv, the checkpoint selected on dev:

- ``random``: the composition freshly initialised (seeded), the word vectors of the transfer model's start
  (``paraphrastic.NAME.vectors``, PARAGRAM);
- ``initialised``: every parameter from the transfer model (models/NAME);
- ``universal``: initialised so and, by ``supervised.settings.universal``'s λw and λc, pulled back to it.

The words are those of the three splits found in the word vectors (others are dropped, as in every model here).
Scores: STS's [0, 5] is shifted onto [1, 6] (K = 6), SICK's [1, 5] is kept (K = 5); Pearson's r is unchanged.

→ metrics/supervised/MODEL-SETTING.json (dev, test, oracle Pearson ×100 per dataset), the checkpoints →
metrics/train/supervised/MODEL-SETTING-{sts,sick}.csv, the test predictions → results/supervised/MODEL-SETTING/.
"""

import json
from pathlib import Path

import numpy as np
import torch

from sentemb.atomic import atomic_path, write_json
from sentemb.device import resolve_device
from sentemb.errors import SentembError
from sentemb.models import load_word_vectors
from sentemb.paraphrastic.composition import ENCODER_ARGS, PaddedBatch, build_composition
from sentemb.paraphrastic.model import load as load_paraphrastic
from sentemb.supervised.data import read_split
from sentemb.supervised.similarity import score_range
from sentemb.supervised.training import ScoredPairs, SupervisedConfig, predict, train_supervised
from sentemb.text import tokenize

from _common import params, run, text_config, without_timings
from _paraphrastic import paraphrastic_params
from _supervised import SETTINGS, Model, Setting, Training

DATA = Path("data/supervised")
SCORE_RANGES = {"sts": (0.0, 5.0), "sick": (1.0, 5.0)}  # the published gold scales


def load_transfer(model: Model, setting: str):
    """The transfer model's params and, except for ``random``, the trained paraphrastic model (loaded once)."""
    transfer = paraphrastic_params(model.transfer)
    if transfer.pairs != "sentences":
        raise SentembError(f"params.yaml: supervised transfer model {model.transfer!r} is not a sentence encoder")
    if setting == "random":
        return transfer, None
    directory = Path("models") / model.transfer
    config_path = directory / "config.json"
    if not config_path.is_file():
        raise SentembError(f"{config_path}: missing (run `dvc repro paraphrastic@{model.transfer}` first)")
    return transfer, load_paraphrastic(directory, json.loads(config_path.read_text(encoding="utf-8")))


def build_encoder(transfer, model: Model, words: list[str], seed: int, vectors, trained,
                  universal: bool) -> tuple[torch.nn.Module, dict[str, torch.Tensor]]:
    """The encoder over ``words`` and the anchors of its L2 terms (universal: every parameter's starting value;
    otherwise none, i.e. the word vectors pulled to their start, the rest to 0).

    Args:
        transfer: the transfer model's params (:func:`load_transfer`).
        vectors: the word vectors the transfer model started from (used when ``trained`` is None: ``random``).
        trained: the trained transfer model, whose every parameter the encoder starts from; None: ``random``.
    """
    args = {k: getattr(transfer, k) for k in ENCODER_ARGS[transfer.encoder]}
    torch.manual_seed(seed)  # the composition's initialisation
    if trained is None:
        rows = torch.from_numpy(np.asarray(vectors.vectors[[vectors.key_to_index[w] for w in words]],
                                           dtype=np.float32))
        state = None
    else:
        rows = trained.encoder.embedding.weight.detach()[[trained.index[w] for w in words]].clone()
        state = {k: v for k, v in trained.encoder.state_dict().items() if k != "embedding.weight"}
    encoder = build_composition(transfer.encoder, rows, dropout=model.dropout, word_dropout=model.word_dropout,
                                **args)
    if state is not None:
        encoder.load_state_dict(state | {"embedding.weight": rows})
    anchors = ({n: p.detach().clone() for n, p in encoder.named_parameters()} if universal else {})
    return encoder, anchors


def main(model_name: str, setting: str) -> None:
    if setting not in SETTINGS:
        raise SentembError(f"supervise: unknown setting {setting!r} ({', '.join(SETTINGS)})")
    model = params(f"supervised.models.{model_name}", Model, what="supervised model")
    lambdas = params(f"supervised.settings.{setting}", Setting, what="supervised setting")
    t = params("supervised.training", Training)
    text = text_config()
    name = f"{model_name}-{setting}"
    splits = {d: {s: read_split(DATA / d / f"{s}.tsv") for s in ("train", "dev", "test")} for d in SCORE_RANGES}
    if t.max_pairs is not None:  # a quick slice: the first pairs of every split
        splits = {d: {s: rows[: t.max_pairs] for s, rows in data.items()} for d, data in splits.items()}
    tokens = {s: tokenize(s, text) for d in splits.values() for rows in d.values() for _, a, b, _ in rows
              for s in (a, b)}
    transfer, trained = load_transfer(model, setting)
    vectors = load_word_vectors(Path("models") / transfer.vectors, what=f"paraphrastic.{model.transfer}.vectors")
    known = vectors.key_to_index
    device = resolve_device(t.device)
    metrics, logs, predictions, timings = {}, {}, {}, {}
    for dataset, data in splits.items():
        words = sorted({w for rows in data.values() for _, a, b, _ in rows for s in (a, b) for w in tokens[s]
                        if w in known})
        index = {w: i for i, w in enumerate(words)}
        offset, k = score_range(*SCORE_RANGES[dataset])

        def scored(rows, index=index, offset=offset):
            def ids(sentence):
                return np.array([index[w] for w in tokens[sentence] if w in index], dtype=np.int64)
            return ScoredPairs([ids(a) for _, a, _, _ in rows], [ids(b) for _, _, b, _ in rows],
                               np.array([g for *_, g in rows], dtype=np.float64) + offset)

        train, dev, test = (scored(data[s]) for s in ("train", "dev", "test"))
        encoder, anchors = build_encoder(transfer, model, words, t.seed, vectors, trained, setting == "universal")

        def embed(sentences, encoder=encoder):
            return encoder(PaddedBatch.from_lists(sentences, device))

        config = SupervisedConfig(k=k, hidden=t.hidden, batch_size=t.batch_size, epochs=t.epochs, lr=t.lr,
                                  lambda_w=lambdas.lambda_w, lambda_c=lambdas.lambda_c, scramble=model.scramble,
                                  evals_per_epoch=t.evals_per_epoch, seed=t.seed, device=t.device)
        logs[dataset] = f"metrics/train/supervised/{name}-{dataset}.csv"
        stats = train_supervised(encoder, embed, train, dev, test, config, anchors=anchors, log_path=logs[dataset])
        device_was = stats["device"]
        encoder.to(device)
        stats["head"].to(device)
        predictions[dataset] = (data["test"], predict(encoder, embed, stats["head"], test) - offset)
        encoder.to("cpu")
        metrics[dataset] = {"test": stats["test"], "dev": stats["dev"], "test_spearman": stats["spearman"],
                            "oracle": stats["best_test"], "selected_epoch": stats["selected"]["epoch"],
                            "train": len(train), "dev_pairs": len(dev), "test_pairs": len(test), "words": len(words),
                            "device": device_was}
        timings[dataset] = {"pairs_per_second": stats["pairs_per_second"], "seconds": stats["seconds"]}
        print(f"supervise {name} {dataset}: test {stats['test']:.2f} (dev {stats['dev']:.2f}, selected epoch "
              f"{stats['selected']['epoch']}), {len(train)} training pairs, {stats['pairs_per_second']} pairs/s on "
              f"{device_was}, {stats['seconds']} s")
    with atomic_path(Path("results/supervised") / name) as tmp:
        tmp.mkdir(parents=True)
        for dataset, (rows, pred) in predictions.items():
            with open(tmp / f"{dataset}_test.tsv", "w", encoding="utf-8") as fh:
                fh.write("set\tgold\tprediction\n")
                fh.writelines(f"{key}\t{gold!r}\t{float(p)!r}\n" for (key, _, _, gold), p in zip(rows, pred,
                                                                                                 strict=True))
    without_timings(timings, f"supervised/{name}")
    write_json(f"metrics/supervised/{name}.json",
               metrics | {"mean_test": round((metrics["sts"]["test"] + metrics["sick"]["test"]) / 2, 4),
                          "encoder": transfer.encoder, "transfer": model.transfer, "setting": setting,
                          "lambda_w": lambdas.lambda_w, "lambda_c": lambdas.lambda_c})


if __name__ == "__main__":
    run(main)
