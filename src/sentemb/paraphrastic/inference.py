"""The paraphrastic encoders' forward pass in NumPy, in evaluation mode: what a saved paraphrastic model encodes with,
so that loading and using one needs no torch (whose import alone takes 1.4-1.5 s on a 2-core CPU).

The arithmetic is that of :mod:`sentemb.paraphrastic.composition` (the encoders trained with torch) without the
dropouts, on the same parameter names and shapes (:func:`parameter_shapes`, a torch module's ``state_dict`` keys):
AVG, PROJ, DAN, RNN (Wieting et al. 2016 §3), the peephole LSTM's last state, LSTMAVG and GRAN-1 … GRAN-5 with their
bidirectional forms (Wieting & Gimpel 2017 §2, Eq. 1). ``tests/test_paraphrastic.py`` checks every encoder against
the torch module on the same parameters, within float32 rounding.

A batch is right-padded, its sentences longest first, so that step t of a recurrence runs on the first n_t rows, the
sentences longer than t: padding is never computed on, and each row's last state is the one left after its last step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sentemb.core.data.corpus import encode_distinct
from sentemb.paraphrastic.config import RECURRENT, Composition


def parameter_shapes(spec: Composition, vocab: int, dim: int) -> dict[str, tuple[int, ...]]:
    """Every parameter of the encoder ``spec`` over ``vocab`` words of ``dim`` dimensions: name → shape, the names of
    the torch module's ``state_dict`` (:func:`sentemb.paraphrastic.composition.build_composition`)."""
    shapes: dict[str, tuple[int, ...]] = {"embedding.weight": (vocab, dim)}

    def linear(name: str, rows: int, cols: int, bias: bool = True) -> None:
        shapes[f"{name}.weight"] = (rows, cols)
        if bias:
            shapes[f"{name}.bias"] = (rows,)

    if spec.encoder == "proj":
        linear("projection", dim, dim)
    elif spec.encoder == "dan":
        for layer in range(spec.layers):
            linear(f"layers.{layer}", dim, dim)
    elif spec.encoder == "rnn":
        linear("w_x", dim, dim)
        linear("w_h", dim, dim, bias=False)
    elif spec.encoder in RECURRENT:
        gates = 4 if spec.output_gate else 3
        for lstm in ("lstm", "backward_lstm") if spec.bidirectional else ("lstm",):
            linear(f"{lstm}.w_x", gates * dim, dim)
            linear(f"{lstm}.w_h", gates * dim, dim, bias=False)
            shapes[f"{lstm}.peephole"] = (gates - 1, dim)
        if spec.bidirectional and spec.combine == "tanh":
            linear("combine_layer", dim, 2 * dim)
        if spec.encoder == "gran":
            gates = 1 if spec.variant in (1, 2) else 2
            linear("gate_x", gates * dim, dim)
            linear("gate_h", gates * dim, dim, bias=False)
            if spec.variant == 4:
                linear("gate_a", gates * dim, dim, bias=False)
    return shapes


class RowOverlay:
    """The rows of a matrix with some of them replaced, without a copy of the whole: a saved paraphrastic model's word
    embeddings, the base model's vectors (memory-mapped) with the rows it trained.

    Args:
        base: float32 (V, dim).
        rows: int64 (n,): distinct rows of ``base`` that ``values`` replace.
        values: float32 (n, dim).

    ``overlay[ids]`` (int64 ids of any shape) → float32 (*ids.shape, dim); :meth:`full` → the whole matrix, a copy.
    """

    def __init__(self, base: np.ndarray, rows: np.ndarray, values: np.ndarray) -> None:
        self.base, self.rows, self.values = base, rows, values
        self.shape = base.shape
        self.position = np.full(len(base), -1, dtype=np.int64)
        self.position[rows] = np.arange(len(rows))

    def __getitem__(self, ids: np.ndarray) -> np.ndarray:
        out = np.asarray(self.base[ids], dtype=np.float32)
        position = self.position[ids]
        replaced = position >= 0
        out[replaced] = self.values[position[replaced]]
        return out

    def full(self) -> np.ndarray:
        """float32 (V, dim): the base with the rows replaced."""
        out = np.array(self.base, dtype=np.float32)
        out[self.rows] = self.values
        return out


def sigmoid(x: np.ndarray) -> np.ndarray:
    """σ(x) = (1 + tanh(x/2)) / 2: the logistic function without exp's overflow, in x's dtype."""
    return np.tanh(x * 0.5) * 0.5 + 0.5


class CompositionForward:
    """A composition encoder's evaluation-mode forward pass over token ids.

    Args:
        spec: the encoder and its arguments (a saved model's ``composition``).
        parameters: name → float32 array, every entry of :func:`parameter_shapes` (checked by the caller), the
            word embeddings as ``embedding.weight`` (V, dim): an array, or a :class:`RowOverlay`.
    """

    def __init__(self, spec: Composition, parameters: dict[str, np.ndarray]) -> None:
        self.spec = spec
        self.embedding = parameters["embedding.weight"]
        self.dim = self.embedding.shape[1]
        # weights transposed once: every product is x @ W^T
        self.w = {k[: -len(".weight")]: np.ascontiguousarray(v.T, dtype=np.float32)
                  for k, v in parameters.items() if k.endswith(".weight") and k != "embedding.weight"}
        self.b = {k[: -len(".bias")]: np.asarray(v, dtype=np.float32) for k, v in parameters.items()
                  if k.endswith(".bias")}
        self.peephole = {k[: -len(".peephole")]: np.asarray(v, dtype=np.float32) for k, v in parameters.items()
                         if k.endswith(".peephole")}

    def linear(self, name: str, x: np.ndarray) -> np.ndarray:
        """x @ W^T (+ b) of the layer ``name``, x of shape (..., in) → (..., out); one 2-d product (NumPy's matmul
        of a 3-d array runs a product per leading index)."""
        y = (x.reshape(-1, x.shape[-1]) @ self.w[name]).reshape(*x.shape[:-1], -1)
        return y + self.b[name] if name in self.b else y

    def encode(self, sentences: Sequence[np.ndarray], batch_size: int = 512) -> np.ndarray:
        """Embed token-id sentences: float32 (n, dim); zeros for a sentence without tokens. Each distinct sentence is
        encoded once, longest first in batches of ``batch_size``."""
        return encode_distinct(sentences, self.dim, self.batch, batch_size)

    def batch(self, sentences: list[np.ndarray]) -> np.ndarray:
        """float32 (B, dim) of sentences sorted longest first; zeros for a sentence without tokens."""
        lengths = np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))
        steps = max(int(lengths[0]), 1) if len(lengths) else 1
        ids = np.zeros((len(sentences), steps), dtype=np.int64)
        for row, s in enumerate(sentences):
            ids[row, : len(s)] = s
        active = [int(n) for n in (lengths[None, :] > np.arange(steps)[:, None]).sum(axis=1)]  # n_t
        count = np.maximum(lengths, 1)[:, None].astype(np.float32)
        encoder = self.spec.encoder
        if encoder in ("avg", "proj", "dan"):
            out = self.word_sum(ids, active) / count
            if encoder == "proj":
                out = self.linear("projection", out)
            for layer in range(self.spec.layers or 0) if encoder == "dan" else ():
                out = np.tanh(self.linear(f"layers.{layer}", out))
        else:
            out = self.recurrent(ids, lengths, active, count)
        return (out * (lengths > 0)[:, None]).astype(np.float32)

    def recurrent(self, ids: np.ndarray, lengths: np.ndarray, active: list[int], count: np.ndarray) -> np.ndarray:
        """The sentence vectors of a recurrent encoder (RNN, LSTM, LSTMAVG, GRAN), float32 (B, dim), from padded ids
        (B, T) sorted longest first, their ``lengths`` (B,), ``active[t]`` = n_t sentences longer than t and
        ``count`` = max(length, 1), float32 (B, 1); the caller zeroes the rows of empty sentences."""
        encoder = self.spec.encoder
        mask = (np.arange(ids.shape[1])[None, :] < lengths[:, None])[..., None]  # (B, T, 1)
        x = np.where(mask, self.embedding[ids], np.float32(0))  # (B, T, dim), zero at padding
        if encoder == "rnn":
            return self.rnn(x, active)
        h = self.lstm("lstm", x, active)
        if self.spec.bidirectional:
            backward = reverse(x, lengths)  # each sentence read from its end
            hb = reverse(self.lstm("backward_lstm", backward, active), lengths)
            h = h + hb if self.spec.combine == "sum" else np.tanh(
                self.linear("combine_layer", np.concatenate([h, hb], axis=2)))
            h = np.where(mask, h, np.float32(0))
        if encoder == "lstm":
            return h[np.arange(len(lengths)), np.maximum(lengths - 1, 0)]
        if encoder == "lstmavg":
            return h.sum(axis=1) / count
        return self.gran(x, h, mask, active, count)

    def word_sum(self, ids: np.ndarray, active: list[int]) -> np.ndarray:
        """Σ_t x_t, float32 (B, dim), of padded ids (B, T) sorted longest first, ``active[t]`` = n_t sentences longer
        than t: position by position over the first n_t rows, the same float32 additions in the same order as the
        sum over T of the zero-padded (B, T, dim) block, without building it."""
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        for t, n in enumerate(active):
            out[:n] += self.embedding[ids[:n, t]]
        return out

    def rnn(self, x: np.ndarray, active: list[int]) -> np.ndarray:
        """RNN: h_t = f(W_x x_t + b + W_h h_{t−1}); each row's last state, (B, dim)."""
        z = self.linear("w_x", x)
        h = np.zeros((x.shape[0], self.dim), dtype=np.float32)
        for t, n in enumerate(active):
            s = z[:n, t] + h[:n] @ self.w["w_h"]
            h[:n] = np.tanh(s) if self.spec.activation == "tanh" else s
        return h

    def lstm(self, name: str, x: np.ndarray, active: list[int]) -> np.ndarray:
        """The peephole LSTM ``name``'s hidden states, (B, T, dim), zero at padding
        (:class:`~sentemb.paraphrastic.composition.PeepholeLSTM`)."""
        d, peephole = self.dim, self.peephole[name]
        z = self.linear(f"{name}.w_x", x)
        w_h = self.w[f"{name}.w_h"]
        states = np.zeros((*x.shape[:2], d), dtype=np.float32)
        h = np.zeros((x.shape[0], d), dtype=np.float32)
        c = np.zeros_like(h)
        for t, n in enumerate(active):
            zt = z[:n, t] + h[:n] @ w_h
            c_prev = c[:n]
            i = sigmoid(zt[:, :d] + peephole[0] * c_prev)
            f = sigmoid(zt[:, d:2 * d] + peephole[1] * c_prev)
            c[:n] = f * c_prev + i * np.tanh(zt[:, 2 * d:3 * d])
            tc = np.tanh(c[:n])
            h[:n] = sigmoid(zt[:, 3 * d:] + peephole[2] * c[:n]) * tc if self.spec.output_gate else tc
            states[:n, t] = h[:n]
        return states

    def gran(self, x: np.ndarray, h: np.ndarray, mask: np.ndarray, active: list[int],
             count: np.ndarray) -> np.ndarray:
        """GRAN-1 … GRAN-5's embeddings (:class:`~sentemb.paraphrastic.composition.GRANComposition`), (B, dim)."""
        z = self.linear("gate_x", x) + self.linear("gate_h", h)
        variant, d = self.spec.variant, self.dim
        if variant in (1, 2, 5):
            gate = sigmoid(z)
            a = (x if variant == 1 else h) * gate if variant != 5 else x * gate[..., :d] + h * gate[..., d:]
            return np.where(mask, a, np.float32(0)).sum(axis=1) / count
        a = np.zeros((x.shape[0], d), dtype=np.float32)
        for t, n in enumerate(active):
            zt = z[:n, t] + a[:n] @ self.w["gate_a"] if variant == 4 else z[:n, t]
            gate = sigmoid(zt)
            a[:n] = x[:n, t] * gate[:, :d] + a[:n] * gate[:, d:]
        return a / count


def reverse(x: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each row's first ``length`` positions in reverse order, (B, T, d) → (B, T, d); padding stays zero. Its own
    inverse."""
    t = np.arange(x.shape[1])[None, :]
    index = np.where(t < lengths[:, None], lengths[:, None] - 1 - t, t)
    return np.take_along_axis(x, index[..., None], axis=1)
