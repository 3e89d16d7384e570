"""paraphrastic@NAME: the paraphrastic models (params ``paraphrastic.NAME``), Wieting et al. 2016 and Wieting &
Gimpel 2017.

- ``pairs: sentences``: an encoder (AVG, PROJ, DAN, RNN, LSTM, LSTMAVG, GRAN …) trained on data/pairs/train.tsv from
  the word vectors models/VECTORS, the checkpoint selected on STS 2016 → a paraphrastic model in models/NAME.
- ``pairs: ppdb-lexical``: PARAGRAM word vectors (Wieting et al. 2015), the same objective on PPDB XL lexical pairs
  from models/VECTORS (GloVe), the checkpoint selected on SimLex-999 → a word-averaging model in models/NAME.

Checkpoint scores go to metrics/train/NAME.csv (every 1/evals_per_epoch of an epoch). Under ``torchrun
--nproc_per_node N`` the training runs data-parallel (README, "Several GPUs"); rank 0 writes.
"""

import copy
from pathlib import Path

import numpy as np
import torch

from sentemb.data.benchmarks import GRAN_GROUPS, KENTER_GROUPS
from sentemb.data.pairs import read_pairs
from sentemb.device import init_distributed, is_main_process
from sentemb.evaluation.word_similarity import word_similarity_words
from sentemb.models import load_word_vectors, save_word_averaging_model
from sentemb.paraphrastic.composition import ENCODER_ARGS, build_composition
from sentemb.paraphrastic.model import save_paraphrastic_model
from sentemb.paraphrastic.training import (
    IdPairs,
    ParaphraseConfig,
    sts_selector,
    train_paraphrastic,
    word_similarity_selector,
)

from _common import relaunch_under_torchrun, run, text_config, without_timings
from _paraphrastic import paraphrastic_params

PAIRS = Path("data/pairs")


def main(name: str) -> None:
    p = paraphrastic_params(name)
    relaunch_under_torchrun(p.processes)
    init_distributed()  # under torchrun: one process per GPU (or CPU share), gradients all-reduced
    text = text_config()
    kv = load_word_vectors(Path("models") / p.vectors, what=f"paraphrastic.{name}.vectors")
    if p.pairs == "sentences":
        rows = [(a.split(), b.split()) for _, a, b in read_pairs(PAIRS / "train.tsv", ("source", "sentence1",
                                                                                       "sentence2"))]
        selection = read_pairs(PAIRS / "selection.tsv", ("set", "sentence1", "sentence2", "gold"))
        extra = [w for _, a, b, _ in selection for w in (a + " " + b).split()]
    else:
        rows = [([a], [b]) for a, b in read_pairs(PAIRS / "ppdb-lexical.tsv", ("word1", "word2"))]
        extra = sorted(word_similarity_words())
    # the rows a run can touch: words of the pairs and of the selection data, in the base vectors' order
    index = kv.key_to_index
    rows_idx = sorted({index[w] for a, b in rows for w in a + b if w in index} | {index[w] for w in extra
                                                                                    if w in index})
    words = [kv.index_to_key[i] for i in rows_idx]
    sub = {w: i for i, w in enumerate(words)}

    def ids(tokens: list[str]) -> np.ndarray:
        return np.array([sub[w] for w in tokens if w in sub], dtype=np.int64)

    pairs = [(ids(a), ids(b)) for a, b in rows]
    pairs = [(a, b) for a, b in pairs if len(a) and len(b)]
    if p.pairs == "sentences":
        sets: dict[str, IdPairs] = {}
        for key, a, b, gold in selection:
            s = sets.setdefault(key, IdPairs(key, [], [], []))
            s.sentences1.append(ids(a.split()))
            s.sentences2.append(ids(b.split()))
            s.gold.append(float(gold))
        for s in sets.values():
            s.gold = np.asarray(s.gold)
        groups = {"STS16": [k for k in sets if k.startswith("STS16.")],
                  "GRAN-22": [k for k in sets if k.split(".")[0] in GRAN_GROUPS],
                  "STS12-15": [k for k in sets if k.split(".")[0] in KENTER_GROUPS]}
        select = sts_selector(list(sets.values()), groups)
    else:
        select = word_similarity_selector(words)
    args = {k: getattr(p, k) for k in ENCODER_ARGS[p.encoder]}
    torch.manual_seed(p.seed)  # the composition's initialisation (torch seeds its default generator per process)
    encoder = build_composition(p.encoder, kv.vectors[rows_idx], dropout=p.dropout, word_dropout=p.word_dropout,
                                sparse=p.sparse_embeddings, **args)
    config = ParaphraseConfig(**p.model_dump(include=set(ParaphraseConfig.__dataclass_fields__)))
    print(f"train {name}: {p.encoder} {args} on {len(pairs)} {p.pairs} pairs ({len(rows) - len(pairs)} without a "
          f"known word dropped), {len(words)} trained word vectors from models/{p.vectors}, selecting on {p.select}")
    stats = train_paraphrastic(encoder, pairs, config, select, p.select, log_path=f"metrics/train/{name}.csv")
    if not is_main_process():
        return
    stats, timings = without_timings(stats | {"pairs": len(pairs), "trained_words": len(words)}, name)
    info = {"trainer": "sentemb.paraphrastic.training", "training": stats}
    if p.pairs == "sentences":
        save_paraphrastic_model(f"models/{name}", name, encoder, words, p.encoder,
                                args | {"dropout": p.dropout, "word_dropout": p.word_dropout},
                                Path("models") / p.vectors, text, info=info)
    else:
        out = copy.deepcopy(kv)  # the same words, counts and order; the trained rows replaced
        out.vectors[rows_idx] = encoder.embedding.weight.detach().numpy()
        save_word_averaging_model(f"models/{name}", name, out, text, info=info)
    sel = stats["selected"]
    print(f"train {name}: selected epoch {sel['epoch']} by {p.select} "
          + ", ".join(f"{k} {v:.2f}" for k, v in sel.items() if k not in ("step", "epoch", "pairs_seen", "loss"))
          + f"; {timings['pairs_per_second']} pairs/s on {stats['device']}, {timings['seconds']} s")


if __name__ == "__main__":
    run(main)
