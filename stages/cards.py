"""cards: a model card for every model this run evaluated (metrics/models/NAME.json beside its record in
reports/inputs/) → cards/NAME.md, in the Hugging Face Hub's format: what the model is (paper, section), its scores as
a ``model-index`` block, its training data and their licences, its training record, how to load and export it
(:mod:`sentemb.interop.model_card`)."""

from _common import run

from sentemb.interop.model_card import write_model_cards
from sentemb.reporting.workspace import Workspace


def main() -> None:
    names = Workspace().evaluated_models()
    write_model_cards([f"models/{n}" for n in names], "cards")
    print(f"cards: {len(names)} model cards → cards/")


if __name__ == "__main__":
    run(main)
