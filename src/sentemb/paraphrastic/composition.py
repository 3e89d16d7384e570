"""Compositional sentence encoders of the paraphrastic models over padded batches of token ids.

Paragram-phrase (Wieting, Bansal, Gimpel & Livescu, ICLR 2016 §3): AVG, PROJ, DAN, RNN (tanh or identity) and the
peephole LSTM (Gers et al. 2003) with and without its output gate, whose last hidden state is the embedding.
Wieting & Gimpel (ACL 2017 §2): LSTMAVG (mean of the LSTM's hidden states), BiLSTMAVG, and the Gated Recurrent
Averaging Network, GRAN (Eq. 1: a_t = x_t ⊙ σ(W_x x_t + W_h h_t + b), embedding = mean of a_t), with its
variants GRAN-2 … GRAN-5 and BiGRAN.

Every encoder maps a :class:`PaddedBatch` (right-padded token ids with their lengths) to float32 (batch, dim).
Padding never reaches an embedding: means are taken over the real tokens (:func:`token_mean`), and the recurrent
encoders take the real tokens straight to the packed layout (:class:`Packing`), where each step runs over the
sentences still going and the LSTM's backward pass is written out (:mod:`sentemb.paraphrastic.peephole`); the last
state is that of the last token. A sentence with no token encodes to the zero vector. Word vectors are
``self.embedding`` (trained, regularised towards their initial values by the training loop); every other parameter is
a composition parameter (:meth:`composition_parameters`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from sentemb.core.data.corpus import encode_distinct
from sentemb.core.errors import SentembError
from sentemb.paraphrastic.config import Composition
from sentemb.paraphrastic.gated_mean import GatedMean
from sentemb.paraphrastic.peephole import PackedPeepholeLSTM, low_precision_mm, product_dtype


@dataclass
class PaddedBatch:
    """Sentences as right-padded token ids.

    Attributes:
        ids: int64, shape (batch, max_length); 0 at padding positions.
        lengths: int64, shape (batch,): tokens per sentence (0 for an empty sentence).
    """

    ids: torch.Tensor
    lengths: torch.Tensor

    @classmethod
    def from_lists(cls, sentences: list[list[int]] | list[np.ndarray], device: torch.device | str = "cpu"
                   ) -> PaddedBatch:
        lengths = np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))
        ids = np.zeros((len(sentences), max(int(lengths.max(initial=0)), 1)), dtype=np.int64)
        for row, s in enumerate(sentences):
            ids[row, : len(s)] = s
        return cls(torch.from_numpy(ids).to(device), torch.from_numpy(lengths).to(device))

    @property
    def mask(self) -> torch.Tensor:
        """bool, shape (batch, max_length): True at real tokens."""
        return torch.arange(self.ids.shape[1], device=self.ids.device)[None, :] < self.lengths[:, None]

    def __len__(self) -> int:
        return len(self.lengths)


def token_mean(x: torch.Tensor, lengths: torch.Tensor, sentence: torch.Tensor | None = None) -> torch.Tensor:
    """The mean of each sentence's token vectors (or hidden states), from the real tokens alone (no padded layout,
    one ``index_add``).

    Args:
        x: float, shape (N, d): one row per real token.
        lengths: int64, shape (B,): tokens per sentence, summing to N.
        sentence: int64, shape (N,): the sentence of each row of ``x`` (e.g. :attr:`Packing.sentence` for rows in
            time-major packed order); default: the rows are in reading order, sentence after sentence.

    Returns:
        float, shape (B, d); zero for an empty sentence.
    """
    if sentence is None:
        sentence = torch.repeat_interleave(torch.arange(len(lengths), device=x.device), lengths)
    sums = x.new_zeros(len(lengths), x.shape[1]).index_add_(0, sentence, x)
    return sums / lengths.clamp(min=1)[:, None].to(x.dtype)


def last_state(h: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """h (B, T, d) → the state at position length − 1 of each row, (B, d)."""
    index = (lengths - 1).clamp(min=0)[:, None, None].expand(-1, 1, h.shape[2])
    return h.gather(1, index)[:, 0]


class PeepholeLSTM(nn.Module):
    """LSTM with peephole connections (Gers, Schraudolph & Schmidhuber 2003), as in Wieting et al.:

    i_t = σ(W_xi x_t + W_hi h_{t−1} + w_ci ⊙ c_{t−1} + b_i), f_t = σ(W_xf x_t + W_hf h_{t−1} + w_cf ⊙ c_{t−1} + b_f),
    c_t = f_t ⊙ c_{t−1} + i_t ⊙ tanh(W_xc x_t + W_hc h_{t−1} + b_c),
    o_t = σ(W_xo x_t + W_ho h_{t−1} + w_co ⊙ c_t + b_o), h_t = o_t ⊙ tanh(c_t) (h_t = tanh(c_t) without output gate).

    Args:
        input_dim, hidden_dim: sizes of x_t and h_t.
        output_gate: keep o_t (Wieting et al. 2016 compare both).
    """

    def __init__(self, input_dim: int, hidden_dim: int, output_gate: bool = True) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.output_gate = output_gate
        gates = 4 if output_gate else 3
        self.w_x = nn.Linear(input_dim, gates * hidden_dim)
        self.w_h = nn.Linear(hidden_dim, gates * hidden_dim, bias=False)
        self.peephole = nn.Parameter(torch.zeros(gates - 1, hidden_dim))
        self.products: torch.dtype | None = None  # in training mode: the products' dtype (PackedPeepholeLSTM)

    def cell(self, z: torch.Tensor, c: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """One step: z = W_x x_t + W_h h_{t−1} + b, float (n, gates·hidden_dim), and c_{t−1} (n, hidden_dim) →
        (h_t, c_t)."""
        if self.output_gate:
            zi, zf, zc, zo = z.chunk(4, dim=1)
        else:
            zi, zf, zc = z.chunk(3, dim=1)
        i = torch.sigmoid(zi + self.peephole[0] * c)
        f = torch.sigmoid(zf + self.peephole[1] * c)
        c = f * c + i * torch.tanh(zc)
        h = torch.sigmoid(zo + self.peephole[2] * c) * torch.tanh(c) if self.output_gate else torch.tanh(c)
        return h, c

    def forward(self, x: torch.Tensor, lengths: torch.Tensor | None = None) -> torch.Tensor:
        """x: float (B, T, input_dim) → hidden states h_1 … h_T, float (B, T, hidden_dim).

        With ``lengths`` (int64, (B,)) the recurrence is packed (:func:`packed_recurrence`): each step runs over the
        sentences still going, so padding costs nothing, and states at padding positions are zero; the steps run in
        :class:`~sentemb.paraphrastic.peephole.PackedPeepholeLSTM`, with its backward pass written out. Without,
        every row runs all T steps through :meth:`cell` under autograd (states past a row's length are computed
        from its padding). The states at real positions are the same either way, up to float rounding.
        """
        if lengths is not None:
            return packed_recurrence(x, lengths, self.recurrence, self.hidden_dim)
        batch, steps, _ = x.shape
        projected = self.w_x(x)
        h = x.new_zeros(batch, self.hidden_dim)
        c = x.new_zeros(batch, self.hidden_dim)
        out = []
        for t in range(steps):
            h, c = self.cell(projected[:, t] + self.w_h(h), c)
            out.append(h)
        return torch.stack(out, dim=1)

    def recurrence(self, x: torch.Tensor, sizes: list[int]) -> torch.Tensor:
        """The states of packed tokens (:class:`Packing`) from their vectors x, float (N, input_dim), and the
        sentences still going at each step → float (N, hidden_dim), in the same order."""
        return PackedPeepholeLSTM.apply(x, sizes, self.w_x.weight, self.w_x.bias, self.w_h.weight, self.peephole,
                                        self.output_gate, self.products if self.training else None)


class Packing:
    """Where each real token of a batch goes in the time-major packed layout, longest sentence first (that of
    :class:`torch.nn.utils.rnn.PackedSequence`): step t holds token t of the n_t sentences longer than t, in the same
    sentence order at every step, so step t's rows are the first n_t sentences of step t − 1's.

    Tokens are numbered in reading order (sentence by sentence, as ``ids[mask]`` gives them).

    Args:
        lengths: int64 (B,): tokens per sentence.
        device: where the index tensors go.

    Attributes:
        sizes: n_0 ≥ n_1 ≥ … (Python ints; empty when no sentence has a token).
        index: int64 (N,): the reading-order token at each packed row.
        sentence: int64 (N,): the sentence of each packed row.
        step: int64 (N,): the step of each packed row (its token's position in its sentence).
        last: int64 (B,): the packed row of each sentence's last token (0 for an empty sentence).
        reverse_to_forward: int64 (N,): for each packed row, the row of the same token in the backwards packing
            (a permutation that is its own inverse: token t of a sentence of length L sits at step t forwards and at
            step L − 1 − t backwards).
        step_starts: int64 (T,): the first packed row of each step.
        rank: int64 (B,): each sentence's place within every step (its token t is row step_starts[t] + rank).
        lengths: int64 (B,): the lengths it was made from.
    """

    def __init__(self, lengths: torch.Tensor, device: torch.device | str = "cpu") -> None:
        length = lengths.cpu().numpy()
        order = np.argsort(-length, kind="stable")
        self.sizes: list[int] = np.searchsorted(-length[order], -np.arange(length.max(initial=0)),
                                                side="left").tolist()
        first = np.concatenate([[0], np.cumsum(length)[:-1]]).astype(np.int64)  # each sentence's first token
        start = np.concatenate([[0], np.cumsum(self.sizes)]).astype(np.int64)  # each step's first row
        rank = np.empty(len(length), dtype=np.int64)
        rank[order] = np.arange(len(length))  # a sentence's place within every step
        steps = np.repeat(np.arange(len(self.sizes)), self.sizes)
        sentence = order[np.arange(len(steps)) - start[steps]]
        as_tensor = lambda a: torch.from_numpy(np.ascontiguousarray(a, dtype=np.int64)).to(device)  # noqa: E731
        index = first[sentence] + steps
        self.index, self.sentence, self.step = as_tensor(index), as_tensor(sentence), as_tensor(steps)
        self.last = as_tensor(np.where(length > 0, start[np.maximum(length - 1, 0)] + rank, 0))
        self.reverse_to_forward = as_tensor(start[length[sentence] - 1 - steps] + rank[sentence])
        self.step_starts, self.rank, self.lengths = as_tensor(start[:-1]), as_tensor(rank), lengths.to(device)


def packed_recurrence(x: torch.Tensor, lengths: torch.Tensor, run: Callable[[torch.Tensor, list[int]], torch.Tensor],
                      hidden_dim: int) -> torch.Tensor:
    """Run a recurrence over right-padded sentences without computing anything at padding positions.

    The real tokens are gathered time-major with the sentences longest first (:class:`Packing`), and step t
    updates only the n_t sentences whose length exceeds t. This is the same arithmetic per real position as a loop
    over all T steps for every row, at a cost proportional to the number of tokens rather than to batch × longest
    sentence.

    Args:
        x: float (B, T, d_in).
        lengths: int64 (B,).
        run: ``run(x_packed, sizes)`` → the states of the N real tokens, float (N, hidden_dim), from their vectors
            (N, d_in) in packed order and the n_t of each step (Python ints, non-increasing): e.g.
            :meth:`PeepholeLSTM.recurrence`, or :func:`step_loop` of a step function.
        hidden_dim: size of h_t.

    Returns:
        float (B, T, hidden_dim): h_t at real positions, zero at padding positions (and for empty sentences).
    """
    batch, steps = x.shape[:2]
    packing = Packing(lengths, x.device)
    if not packing.sizes:
        return x.new_zeros(batch, steps, hidden_dim)
    padded = packing.sentence * steps + packing.step  # each packed row's place among the B × T padded positions
    states = run(x.reshape(batch * steps, -1).index_select(0, padded), packing.sizes)
    return x.new_zeros(batch * steps, hidden_dim).index_copy(0, padded, states).view(batch, steps, hidden_dim)


def step_loop(input_map: Callable[[torch.Tensor], torch.Tensor],
              step: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
              hidden_dim: int) -> Callable[[torch.Tensor, list[int]], torch.Tensor]:
    """A ``run`` for :func:`packed_recurrence` under autograd: ``input_map`` (e.g. W_x x + b) over all the packed
    tokens at once, then ``step(z_t, h_{t−1}) → h_t`` on the n_t active rows of each step (h_0 = 0)."""
    def run(x: torch.Tensor, sizes: list[int]) -> torch.Tensor:
        z = input_map(x)
        h = z.new_zeros(sizes[0], hidden_dim)
        states = []
        for n, zt in zip(sizes, z.split(sizes), strict=True):  # one split: its backward is one concatenation
            h = step(zt, h[:n])
            states.append(h)
        return torch.cat(states)

    return run


def dropout_multipliers(rows: int, cols: int, rate: float, like: torch.Tensor) -> torch.Tensor:
    """Inverted-dropout multipliers (Srivastava et al. 2014): 0 with probability ``rate``, else 1/(1 − rate).

    The same distribution as :func:`torch.nn.functional.dropout`, whose Bernoulli draw is about 3× slower on the CPU.
    The uniform numbers come from torch's default CPU generator whatever the device of ``like`` and are copied there,
    so a run on a GPU draws the masks that a CPU run with the same seed draws (a CUDA generator, Philox, would give
    others).

    Args:
        rows, cols: the shape of the multipliers.
        rate: the dropout rate, in [0, 1).
        like: the tensor they will multiply: their dtype and device.

    Returns:
        float (rows, cols) of ``like``'s dtype, on its device.
    """
    keep = torch.rand(rows, cols).ge_(rate)  # 1.0 or 0.0, in place: one buffer, no bool copy
    # divided on the CPU: CUDA's division by a scalar multiplies by its reciprocal, which can round differently
    return keep.to(like.dtype).div_(1.0 - rate).to(like.device)


class CompositionEncoder(nn.Module):
    """Word embeddings, word-level regularisation, and a composition function over them (subclasses).

    Args:
        vectors: float, shape (V, dim): the initial word vectors (trained).
        dropout: dropout rate on the word embeddings (Wieting & Gimpel §4.1.3; Srivastava et al. 2014).
        word_dropout: probability of dropping a whole word vector (Iyyer et al. 2015), applied as dropout with one
            mask per token (kept vectors scaled by 1/(1 − p)).
        sparse: sparse gradients for the word embeddings (only the rows of a batch get one).

    Raises:
        SentembError: ``vectors`` not 2-d, or a rate outside [0, 1).
    """

    def __init__(self, vectors: torch.Tensor | np.ndarray, *, dropout: float, word_dropout: float,
                 sparse: bool) -> None:
        super().__init__()
        vectors = torch.as_tensor(np.asarray(vectors, dtype=np.float32))
        if vectors.dim() != 2:
            raise SentembError(f"{type(self).__name__}: vectors must be (V, dim), got shape {tuple(vectors.shape)}")
        for name, rate in (("dropout", dropout), ("word_dropout", word_dropout)):
            if not 0.0 <= rate < 1.0:
                raise SentembError(f"{type(self).__name__}: {name} must be in [0, 1), got {rate}")
        self.embedding = nn.Embedding.from_pretrained(vectors.clone(), freeze=False, sparse=sparse)
        self.dropout = dropout
        self.word_dropout = word_dropout

    @property
    def dim(self) -> int:
        return self.embedding.embedding_dim

    def set_training_products(self, dtype: torch.dtype | None) -> None:
        """Train with the recurrence's matrix products in a lower precision (``torch.bfloat16``), or in float32
        (``None``, the default). It acts in training mode only: evaluation and saved models stay float32.

        Raises:
            SentembError: a lower precision for an encoder without a recurrence written for it (all but LSTM,
                LSTMAVG and GRAN).
        """
        if dtype is not None:
            raise SentembError(f"{type(self).__name__}: products in {dtype} are implemented for the recurrent "
                               "encoders lstm, lstmavg and gran only")

    @contextmanager
    def training_products(self, dtype: torch.dtype | None) -> Iterator[None]:
        """:meth:`set_training_products` for the ``with`` block; float32 (``None``) again when the block ends, also
        when it raises (so an encoder whose training failed does not keep the lower precision).

        Raises:
            SentembError: as :meth:`set_training_products`, before the block runs.
        """
        self.set_training_products(dtype)
        try:
            yield
        finally:
            self.set_training_products(None)

    def composition_parameters(self) -> list[nn.Parameter]:
        """W_c: every parameter but the word embeddings (what λc regularises)."""
        return [p for n, p in self.named_parameters() if not n.startswith("embedding.")]

    def forward(self, batch: PaddedBatch) -> torch.Tensor:
        """Returns float32, shape (batch, dim); zero rows for empty sentences."""
        mask = batch.mask
        x = self.embedding(batch.ids[mask])  # the real tokens, (N, dim): padding is neither looked up nor dropped
        if self.training and self.word_dropout > 0:
            x = x * dropout_multipliers(x.shape[0], 1, self.word_dropout, x)
        if self.training and self.dropout > 0:
            x = x * dropout_multipliers(*x.shape, self.dropout, x)
        out = self.compose_tokens(x, mask, batch.lengths)
        return out * (batch.lengths > 0)[:, None].to(out.dtype)

    def compose_tokens(self, x: torch.Tensor, mask: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The embeddings of a batch from its real tokens' vectors: x float (N, dim) in reading order, mask bool
        (B, T), lengths int64 (B,) → float (B, dim). By default the tokens are laid out padded, (B, T, dim), for
        :meth:`compose`."""
        return self.compose(x.new_zeros(*mask.shape, self.dim).index_put((mask,), x), mask, lengths)

    def compose(self, x: torch.Tensor, mask: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError


class _MeanComposition(CompositionEncoder):
    """An encoder of the mean of the word vectors: :meth:`head` of :func:`token_mean`, taken over the real tokens
    (the padded layout is never built)."""

    def compose_tokens(self, x, mask, lengths):
        return self.head(token_mean(x, lengths))

    def head(self, mean: torch.Tensor) -> torch.Tensor:
        """float (B, dim) → float (B, dim)."""
        return mean


class AverageComposition(_MeanComposition):
    """AVG (PARAGRAM-PHRASE): g(x) = mean of the word vectors (Wieting et al. 2016 §3)."""


class ProjectionComposition(_MeanComposition):
    """PROJ: g(x) = W_p (mean of the word vectors) + b (Wieting et al. 2016 §3)."""

    def __init__(self, vectors, **kwargs) -> None:
        super().__init__(vectors, **kwargs)
        self.projection = nn.Linear(self.dim, self.dim)

    def head(self, mean):
        return self.projection(mean)


class DeepAveragingComposition(_MeanComposition):
    """DAN (Iyyer et al. 2015): the mean of the word vectors through ``layers`` tanh layers of width dim
    (Wieting et al. 2016 §3)."""

    def __init__(self, vectors, *, layers: int, **kwargs) -> None:
        super().__init__(vectors, **kwargs)
        if layers < 1:
            raise SentembError(f"DAN: layers must be at least 1, got {layers}")
        self.layers = nn.ModuleList(nn.Linear(self.dim, self.dim) for _ in range(layers))

    def head(self, mean):
        h = mean
        for layer in self.layers:
            h = torch.tanh(layer(h))
        return h


class RNNComposition(CompositionEncoder):
    """RNN: h_t = f(W_x x_t + W_h h_{t−1} + b), embedding = h at the last token; f = tanh, or the identity with W_h
    initialised to the identity matrix (Wieting et al. 2016 §3)."""

    def __init__(self, vectors, *, activation: str, **kwargs) -> None:
        super().__init__(vectors, **kwargs)
        if activation not in ("tanh", "identity"):
            raise SentembError(f"RNN: activation must be 'tanh' or 'identity', got {activation!r}")
        self.activation = activation
        self.w_x = nn.Linear(self.dim, self.dim)
        self.w_h = nn.Linear(self.dim, self.dim, bias=False)
        if activation == "identity":
            nn.init.eye_(self.w_h.weight)

    def compose(self, x, mask, lengths):
        def step(z, h):
            h = z + self.w_h(h)
            return torch.tanh(h) if self.activation == "tanh" else h

        return last_state(packed_recurrence(x, lengths, step_loop(self.w_x, step, self.dim), self.dim), lengths)


class _Recurrent(CompositionEncoder):
    """A peephole LSTM over the word vectors, optionally bidirectional (forward and backward states combined by
    their sum, or by one tanh layer over their concatenation: Wieting & Gimpel §4.1.3).

    The tokens never take the padded layout: they go from reading order to the packed one (:class:`Packing`), the
    recurrence runs there (:meth:`PeepholeLSTM.recurrence`), and :meth:`pool` makes the embeddings from the packed
    states.
    """

    def __init__(self, vectors, *, output_gate: bool, bidirectional: bool, combine: str,
                 **kwargs) -> None:
        super().__init__(vectors, **kwargs)
        if combine not in ("sum", "tanh"):
            raise SentembError(f"{type(self).__name__}: combine must be 'sum' or 'tanh', got {combine!r}")
        self.lstm = PeepholeLSTM(self.dim, self.dim, output_gate)
        self.bidirectional = bidirectional
        self.combine = combine
        if bidirectional:
            self.backward_lstm = PeepholeLSTM(self.dim, self.dim, output_gate)
            if combine == "tanh":
                self.combine_layer = nn.Linear(2 * self.dim, self.dim)

    def compose_tokens(self, x, mask, lengths):
        packing = Packing(lengths, x.device)
        if not packing.sizes:
            return x.new_zeros(len(lengths), self.dim)
        x = x.index_select(0, packing.index)
        h = self.lstm.recurrence(x, packing.sizes)
        if self.bidirectional:
            backward = x.index_select(0, packing.reverse_to_forward)  # each sentence read from its end
            hb = self.backward_lstm.recurrence(backward, packing.sizes)
            hb = hb.index_select(0, packing.reverse_to_forward)  # back to the forward rows (its own inverse)
            h = h + hb if self.combine == "sum" else torch.tanh(self.combine_layer(torch.cat([h, hb], dim=1)))
        return self.pool(x, h, packing, lengths)

    def pool(self, x: torch.Tensor, h: torch.Tensor, packing: Packing, lengths: torch.Tensor) -> torch.Tensor:
        """The embeddings, float (B, dim), from the packed word vectors x and hidden states h, float (N, dim)."""
        raise NotImplementedError

    def set_training_products(self, dtype: torch.dtype | None) -> None:
        for lstm in (self.lstm, getattr(self, "backward_lstm", None)):
            if lstm is not None:
                lstm.products = dtype

    def products(self, x: torch.Tensor) -> torch.dtype | None:
        """The dtype the products over x round to in this mode (:func:`~sentemb.paraphrastic.peephole.product_dtype`
        of the training setting in training mode), else ``None``: x's own precision."""
        return product_dtype(self.lstm.products if self.training else None, x)


class LSTMComposition(_Recurrent):
    """LSTM: the last hidden state of a peephole LSTM (Wieting et al. 2016; Wieting & Gimpel 2017 "LSTM")."""

    def pool(self, x, h, packing, lengths):
        return h.index_select(0, packing.last)


class LSTMAverageComposition(_Recurrent):
    """LSTMAVG: the mean of the LSTM's hidden states (Wieting & Gimpel §2); BiLSTMAVG when bidirectional."""

    def pool(self, x, h, packing, lengths):
        return token_mean(h, lengths, packing.sentence)


class GRANComposition(_Recurrent):
    """Gated Recurrent Averaging Network (Wieting & Gimpel 2017 §2), h_t from a peephole LSTM (BiGRAN: the
    combined bidirectional states). With gates σ_i = σ(W_x^i x_t + W_h^i h_t [+ W_a^i a_{t−1}] + b_i):

    - GRAN (``variant=1``, Eq. 1): a_t = x_t ⊙ σ_1, embedding = mean of a_t; AVG when the gate is all ones.
    - GRAN-2: a_t = h_t ⊙ σ_1, embedding = mean of a_t.
    - GRAN-3: a_t = x_t ⊙ σ_1 + a_{t−1} ⊙ σ_2; GRAN-4: the same with W_a^i a_{t−1} inside both gates;
      embedding = a_last / length.
    - GRAN-5: a_t = x_t ⊙ σ_1 + h_t ⊙ σ_2, embedding = mean of a_t.

    GRAN and GRAN-2 pool with :class:`~sentemb.paraphrastic.gated_mean.GatedMean` (the mean of a_t, its backward
    pass written out; the same bits as autograd's).

    Raises:
        SentembError: a variant outside 1-5.
    """

    def __init__(self, vectors, *, variant: int, **kwargs) -> None:
        super().__init__(vectors, **kwargs)
        if variant not in (1, 2, 3, 4, 5):
            raise SentembError(f"GRAN: variant must be 1-5, got {variant}")
        self.variant = variant
        gates = 1 if variant in (1, 2) else 2
        self.gate_x = nn.Linear(self.dim, gates * self.dim)
        self.gate_h = nn.Linear(self.dim, gates * self.dim, bias=False)
        if variant == 4:
            self.gate_a = nn.Linear(self.dim, gates * self.dim, bias=False)

    def pool(self, x, h, packing, lengths):
        p = self.products(x)
        if p is None:
            z = self.gate_x(x) + self.gate_h(h)
        else:
            z = (low_precision_mm(x, self.gate_x.weight.t(), p) + self.gate_x.bias
                 + low_precision_mm(h, self.gate_h.weight.t(), p))
        if self.variant in (1, 2):  # a_t of every token at once, then their mean
            return GatedMean.apply(x if self.variant == 1 else h, z, packing)
        if self.variant == 5:
            g1, g2 = torch.sigmoid(z).chunk(2, dim=1)
            return token_mean(x * g1 + h * g2, lengths, packing.sentence)

        def step(z_t: torch.Tensor, x_t: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
            if self.variant == 4:  # W_a a_{t−1}, in ``products`` as the gate's other products (a has x's dtype)
                z_t = z_t + (self.gate_a(a) if p is None else low_precision_mm(a, self.gate_a.weight.t(), p))
            g1, g2 = torch.sigmoid(z_t).chunk(2, dim=1)
            return x_t * g1 + a * g2

        a = x.new_zeros(packing.sizes[0], self.dim)
        states = []
        for n, z_t, x_t in zip(packing.sizes, z.split(packing.sizes), x.split(packing.sizes), strict=True):
            a = step(z_t, x_t, a[:n])
            states.append(a)
        return torch.cat(states).index_select(0, packing.last) / lengths.clamp(min=1)[:, None].to(x.dtype)


COMPOSITIONS: dict[str, type[CompositionEncoder]] = {
    "avg": AverageComposition,
    "proj": ProjectionComposition,
    "dan": DeepAveragingComposition,
    "rnn": RNNComposition,
    "lstm": LSTMComposition,
    "lstmavg": LSTMAverageComposition,
    "gran": GRANComposition,
}


def encode_ids(encoder: CompositionEncoder, sentences: Sequence[np.ndarray], batch_size: int = 512) -> np.ndarray:
    """Embed token-id sentences in eval mode: float32 (n, dim) on the CPU. Each distinct sentence is encoded once
    (:func:`~sentemb.core.data.corpus.encode_distinct`), longest first in batches of ``batch_size``."""
    device = encoder.embedding.weight.device
    was_training = encoder.training
    encoder.eval()
    with torch.no_grad():
        out = encode_distinct(sentences, encoder.dim, lambda batch: encoder(
            PaddedBatch.from_lists(batch, device)).float().cpu().numpy(), batch_size)
    encoder.train(was_training)
    return out


def build_composition(spec: Composition, vectors, sparse: bool) -> CompositionEncoder:
    """The encoder ``spec`` names, over ``vectors`` (float (V, dim), the initial word embeddings).

    Args:
        spec: the encoder, its own arguments and the two dropouts (:class:`~sentemb.paraphrastic.config.Composition`).
        sparse: sparse gradients for the word embeddings (only the rows of a batch get one).
    """
    return COMPOSITIONS[spec.encoder](vectors, dropout=spec.dropout, word_dropout=spec.word_dropout, sparse=sparse,
                                      **spec.arguments())
