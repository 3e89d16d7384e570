"""The paraphrastic models' one schema: a ``paraphrastic.NAME`` section of params.yaml (Wieting et al. 2016; Wieting &
Gimpel 2017), read by the paraphrastic stage and the trainer alike; :class:`Composition` is also what a saved
paraphrastic model records of its encoder.

Every value lives in params.yaml (:mod:`sentemb.core.config`). The encoders' own arguments (:data:`ENCODER_ARGUMENTS`)
are given for the encoders that read them and may be left out for the others.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeFloat, PositiveFloat, PositiveInt, model_validator

from sentemb.core.config import Device, Probability, Schema, Seed
from sentemb.core.optim import OptimizerName

Encoder = Literal["avg", "proj", "dan", "rnn", "lstm", "lstmavg", "gran"]

ENCODER_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "avg": (), "proj": (), "dan": ("layers",), "rnn": ("activation",),
    "lstm": ("output_gate", "bidirectional", "combine"),
    "lstmavg": ("output_gate", "bidirectional", "combine"),
    "gran": ("output_gate", "bidirectional", "combine", "variant"),
}
"""The arguments each encoder takes besides the word vectors and the two dropouts."""

RECURRENT = ("lstm", "lstmavg", "gran")
"""The encoders whose products may be taken in bfloat16 in training (:mod:`sentemb.paraphrastic.peephole`)."""


class Composition(Schema):
    """An encoder g(x) over word vectors and its arguments (Wieting et al. 2016 §3; Wieting & Gimpel 2017 §2)."""

    encoder: Encoder = Field(
        description="avg: mean of the word vectors (PARAGRAM-PHRASE); proj: W_p·mean + b; dan: mean then tanh "
                    "layers (Iyyer et al. 2015); rnn; lstm: the peephole LSTM's last state; lstmavg: mean of the "
                    "LSTM's states; gran: the gated recurrent averaging network (Wieting & Gimpel 2017 Eq. 1)")
    layers: PositiveInt | None = Field(None, description="dan: tanh layers after the mean")
    activation: Literal["tanh", "identity"] | None = Field(None, description="rnn: tanh, or identity (iRNN)")
    output_gate: bool | None = Field(None, description="lstm, lstmavg, gran: keep the LSTM's output gate o_t "
                                                       "(Wieting et al. 2016 compare both)")
    bidirectional: bool | None = Field(None, description="lstm, lstmavg, gran: a backward pass too (Bi- variants)")
    combine: Literal["sum", "tanh"] | None = Field(
        None, description="lstm, lstmavg, gran, bidirectional: forward and backward states summed, or one tanh layer")
    variant: int | None = Field(None, ge=1, le=5, description="gran: GRAN-1 … GRAN-5 (Wieting & Gimpel 2017 §2)")
    dropout: float = Field(ge=0, lt=1, description="dropout on the word embeddings in training (Wieting & Gimpel "
                                                   "§4.1.3)")
    word_dropout: float = Field(ge=0, lt=1, description="probability of dropping a whole word vector in training "
                                                        "(Iyyer et al. 2015)")

    @model_validator(mode="after")
    def _arguments_of_the_encoder(self) -> Composition:
        missing = [a for a in ENCODER_ARGUMENTS[self.encoder] if getattr(self, a) is None]
        if missing:
            raise ValueError(f"encoder {self.encoder!r} reads {', '.join(missing)}, which the section does not set "
                             f"(add it: dvc exp run -S '+KEY=VALUE')")
        return self

    def arguments(self) -> dict:
        """The encoder's own arguments (:data:`ENCODER_ARGUMENTS`) with their values."""
        return {a: getattr(self, a) for a in ENCODER_ARGUMENTS[self.encoder]}

    def composition(self) -> Composition:
        """This composition alone: the encoder, its arguments and the dropouts (what a saved model records)."""
        return Composition(encoder=self.encoder, dropout=self.dropout, word_dropout=self.word_dropout,
                           **self.arguments())


class ParaphrasticConfig(Composition):
    """``paraphrastic.NAME``: a composition trained on paraphrase pairs with the margin loss and in-batch negatives
    (Wieting et al. 2016 §3, Wieting & Gimpel 2017 Eq. 2), or PARAGRAM word vectors (``pairs: ppdb-lexical``)."""

    vectors: str = Field(description="the word-averaging model in models/ that the word embeddings start from "
                                     "(W_w,initial)")
    pairs: Literal["sentences", "ppdb-lexical"] = Field(
        description="sentences: data/pairs/train.tsv, a sentence encoder; ppdb-lexical: PPDB XL word pairs, PARAGRAM "
                    "word vectors (Wieting et al. 2015)")
    select: Literal["STS16", "SimLex-999"] = Field(
        description="the checkpoint kept: best mean Pearson r on the five STS 2016 sets (Wieting & Gimpel's 'test' "
                    "mode) or best SimLex-999 Spearman ρ (PARAGRAM)")
    scramble: Probability = Field(description="probability of shuffling the words of both sentences of a pair, "
                                              "before the negatives are chosen (Wieting & Gimpel §4.1.3)")
    margin: PositiveFloat = Field(description="δ of the hinge loss")
    negatives: Literal["max", "mix", "rand"] = Field(
        description="max: the most similar sentence of the batch under the current model; mix: max with probability "
                    "0.5, else random; rand: random (Wieting et al. 2016 §3)")
    batch_size: PositiveInt = Field(description="pairs per mini-batch")
    epochs: PositiveInt = Field(description="passes over the pairs")
    optimizer: OptimizerName = Field(description="a name of sentemb.core.optim.OPTIMIZERS: adam and adagrad_lasagne "
                                                 "as the authors' Lasagne code, adagrad_duchi as PARAGRAM's")
    lr: PositiveFloat = Field(description="the optimiser's learning rate")
    lambda_w: NonNegativeFloat = Field(description="λw: (λw/2)‖W_w,initial − W_w‖², summed over the trained rows (the "
                                                   "authors' code weights each term by λ/2)")
    lambda_c: NonNegativeFloat = Field(description="λc: (λc/2)‖W_c‖² over the composition parameters, never the "
                                                   "word embeddings")
    grad_clip: PositiveFloat | None = Field(description="clip the gradients' global L2 norm to this; null: no "
                                                        "clipping")
    sparse_embeddings: bool = Field(
        description="λw and the optimiser step on the rows of each batch only (lazy L2, sparse Adam); false: the "
                    "papers' full-matrix λw and dense Adam, about 7× slower on the CPU")
    evals_per_epoch: PositiveInt = Field(description="model-selection checkpoints per epoch (the last at its end)")
    seed: Seed
    device: Device
    processes: PositiveInt = Field(description="> 1: that many data-parallel processes under torchrun")
    products: Literal["float32", "bfloat16"] = Field(
        description="the recurrence's matrix products in training (lstm, lstmavg, gran): float32 as the papers, or "
                    "bfloat16; selection and the saved model are float32")

    @model_validator(mode="after")
    def _products_of_a_recurrence(self) -> ParaphrasticConfig:
        if self.products != "float32" and self.encoder not in RECURRENT:
            raise ValueError(f"products {self.products!r}: only the recurrent encoders ({', '.join(RECURRENT)}) take "
                             "their products in a lower precision")
        return self
