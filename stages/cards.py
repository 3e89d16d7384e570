"""cards: a model card for every evaluated model (metrics/models/NAME.json) → cards/NAME.md, in the Hugging Face Hub's
format: what the model is (paper, section), its scores as a ``model-index`` block, its training data and their
licences, its training record, how to load and export it (:mod:`sentemb.interop.model_card`)."""

from pathlib import Path

from _common import run

from sentemb.interop.model_card import write_model_cards


def main() -> None:
    names = sorted(p.name.removesuffix(".json") for p in Path("metrics/models").glob("*.json"))
    write_model_cards([f"models/{n}" for n in names], "cards")
    print(f"cards: {len(names)} model cards → cards/")


if __name__ == "__main__":
    run(main)
