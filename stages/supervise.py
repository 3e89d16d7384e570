"""supervise@MODEL-SETTING: supervised relatedness on STS and SICK (Wieting & Gimpel 2017 §4.3, Tables 5 and 8; Tai et
al. 2015), params ``supervised``: the encoder of the paraphrastic model para-MODEL with Tai et al.'s head, trained on
data/supervised/{sts,sick}/train.tsv and selected on dev, in the SETTING ``random`` (the composition freshly initialised
over the transfer model's starting word vectors), ``initialised`` (every parameter from models/TRANSFER) or
``universal`` (initialised so and pulled back to it) → metrics/supervised/MODEL-SETTING.json, the checkpoints →
metrics/train/supervised/MODEL-SETTING-{sts,sick}.csv, the test predictions → results/supervised/MODEL-SETTING/.

``supervise-seed@``: SETTING-seedS (S ≥ 2) is the same run under training seed S in place of
``supervised.training.seed``, named MODEL-SETTING-seedS (``pipeline.supervised_seeds`` lists the S)."""

from pathlib import Path

from _common import corpus_text, params, run, without_timings

from sentemb.core.atomic import atomic_path, write_json
from sentemb.core.errors import SentembError
from sentemb.core.models.word_averaging import load_word_vectors
from sentemb.core.runtime.device import resolve_device
from sentemb.paraphrastic.config import ParaphrasticConfig
from sentemb.paraphrastic.transfer import load_trained, transfer_encoder
from sentemb.supervised.config import SupervisedConfig, run_config, transfer_model
from sentemb.supervised.tasks import read_splits, run_tasks, summary, write_predictions


def main(model: str, setting: str) -> None:
    name = f"{model}-{setting}"
    setting, config = run_config(model, setting, params("supervised", SupervisedConfig))
    spec, device = config.models[model], resolve_device(config.training.device)
    source = transfer_model(model)
    transfer = params(f"paraphrastic.{source}", ParaphrasticConfig, what="paraphrastic model")
    if transfer.pairs != "sentences":
        raise SentembError(f"params.yaml: supervised.models.{model}: {source} is no sentence encoder")
    vectors = load_word_vectors(Path("models") / transfer.vectors, what=f"paraphrastic.{source}.vectors")
    trained = None if setting == "random" else load_trained(Path("models") / source)
    composition = transfer.composition().model_copy(update={"dropout": spec.dropout,
                                                            "word_dropout": spec.word_dropout})
    results = run_tasks(read_splits("data/supervised", config.training.max_pairs), corpus_text(), vectors.index,
                        lambda words: transfer_encoder(composition, words, config.training.seed, vectors, trained,
                                                       setting == "universal", device),
                        config.training, config.settings[setting], spec.scramble, device,
                        {task: f"metrics/train/supervised/{name}-{task}.csv" for task in ("sts", "sick")})
    with atomic_path(Path("results/supervised") / name) as tmp:
        write_predictions(tmp, results)
    metrics, timings = summary(results)
    without_timings(timings, f"supervised/{name}")
    write_json(f"metrics/supervised/{name}.json", metrics | {"encoder": transfer.encoder, "transfer": source,
                                                            "setting": setting, "seed": config.training.seed}
               | config.settings[setting].model_dump())
    print(f"supervise {name}: " + ", ".join(f"{t} test {m['test']:.2f} (dev {m['dev']:.2f})"
                                            for t, m in metrics.items() if isinstance(m, dict)))


if __name__ == "__main__":
    run(main)
