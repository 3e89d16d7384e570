"""pretrain@glove: GloVe co-occurrence counts and fit (src/sentemb/glove.py) on the token-id corpus → models/NAME/."""

import json
import time
from pathlib import Path

from sentemb.corpus import TokenCorpus
from sentemb.glove import cooccurrence_matrix, train_glove
from sentemb.models import save_word_averaging_model
from sentemb.text import TextConfig
from sentemb.training import resolve_device
from sentemb.vocab import Vocabulary
from sentemb.wordvectors import keyed_vectors

from _common import glove_params, run


def main(name: str) -> None:
    p = glove_params(name)
    text = TextConfig(**json.loads(Path("data/sentences/stats.json").read_text())["text"])
    vocab = Vocabulary.load("data/vocab.tsv")
    corpus = TokenCorpus.load("data/corpus")
    t0 = time.perf_counter()
    x = cooccurrence_matrix(corpus, len(vocab), window=p.window, progress=True)
    count_seconds = time.perf_counter() - t0
    print(f"pretrain {name}: {x.nnz:,} non-zero co-occurrence cells in {count_seconds:.0f} s", flush=True)
    vectors, stats = train_glove(
        x, p.vector_size, x_max=p.x_max, alpha=p.alpha, lr=p.lr, epochs=p.epochs, batch_size=p.batch_size,
        seed=p.seed, device=resolve_device(p.device), progress=True,
    )
    stats = {"cooccurrence_seconds": round(count_seconds, 1)} | stats
    save_word_averaging_model(f"models/{name}", name, keyed_vectors(vocab, vectors), text,
                              info={"trainer": "sentemb.glove.train_glove", "params": p.model_dump(),
                                    "training": stats})
    print(f"pretrain {name}: {stats}")


if __name__ == "__main__":
    run(main)
