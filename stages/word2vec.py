"""word2vec: word2vec (gensim) on the split sentences over the shared vocabulary, each model of the command line
(params ``pretrain.NAME``) in a process of its own at the same time, each with the one worker thread its params set
(one worker is deterministic: docs/choices.md, Determinism) → models/NAME/."""

from multiprocessing import get_context

from _common import corpus_text, params, run, without_timings

from sentemb.core.atomic import read_json
from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.core.runtime.lifetime import start_worker
from sentemb.wordvectors.config import Word2VecConfig
from sentemb.wordvectors.word2vec import train_word2vec


def train(name: str) -> str:
    config = params(f"pretrain.{name}", Word2VecConfig, what="word-vector model")
    tokens = read_json("data/sentences/stats.json", "missing (run `dvc repro split` first)")["tokens"]
    vectors, stats = train_word2vec("data/sentences/sentences.txt", Vocabulary.load("data/vocab.tsv"), tokens, config)
    stats, timings = without_timings(stats, name)
    save_word_averaging_model(f"models/{name}", name, vectors, corpus_text(),
                              info={"trainer": "gensim.models.Word2Vec", "params": config.model_dump(),
                                    "training": stats})
    return f"pretrain {name}: {stats | timings}"


def main(*names: str) -> None:
    if len(names) == 1:
        print(train(names[0]))
        return
    pool = get_context("spawn").Pool(len(names), initializer=start_worker)
    try:
        lines = pool.map(train, names, chunksize=1)
        pool.close()  # the workers leave on their own
    except BaseException:
        pool.terminate()  # an error, Ctrl-C or SIGTERM: the workers stop, their clean-up runs
        raise
    finally:
        pool.join()
    print("\n".join(lines))


if __name__ == "__main__":
    run(main)
