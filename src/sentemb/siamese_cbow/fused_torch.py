"""Siamese CBOW's fused SGD step as whole-batch torch kernels, replayed as one CUDA graph: the GPU's ``fit: fused``.

The arithmetic is :mod:`sentemb.siamese_cbow.fused`'s (Kenter et al. 2016 §2.1-2.2, §3.4): every sentence of the
batch is averaged with the weights before the step, the cosine softmax cross-entropy over (previous, next,
negatives) is averaged over the centres, and each word row moves by −lr × Σ over its tokens of (the gradient of its
sentence's mean) / (the sentence's length). Torch's autograd fit does the same in about fifty kernels a step, with a
sparse gradient built, coalesced and added, and a Python call for each; on a GPU that launch overhead, not the
arithmetic, bounds it (a batch of 100 centres is about 2,100 corpus words). Here the gradient is written out (no
autograd), every tensor has the batch's fixed shape, and on CUDA the step is captured once as a CUDA graph, so a
batch costs one host-to-device copy of its sentence starts and lengths and one graph launch.

Layout. A batch's n sentences are laid out as an (n, L) block of token ids, L = ``max_length`` (the authors' 50),
read from the corpus, which stays on the device; a padding position points at one of ``pad_rows`` zero rows appended
below the V word rows and has weight 0, so it adds nothing to a mean and receives a zero update. The means are one
``embedding_bag`` (sum, weights 1/length); the update is one ``index_add_`` of the (n·L, dim) per-token steps.

Rounding. Sums are float32 in the order the kernels take (the compiled CPU step accumulates the norms and dots in
float64), and on CUDA ``index_add_`` adds a word's rows with atomics in no fixed order, so a GPU run is not
bit-reproducible; on the same tuples the vectors equal the CPU steps' up to float rounding
(``tests/test_training.py`` compares this step, run on the CPU, with the compiled one).
"""

from __future__ import annotations

import warnings

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from sentemb.adjacent_sentences.sampling import candidate_rows

_EPS = 1e-8  # torch.nn.functional.cosine_similarity's eps (on the product of the norms), as the other fits
_WARMUP = 3  # eager steps on a side stream before the capture (CUDA's advice for graphs; they are real steps)


class TorchFusedSGD:
    """Siamese CBOW's SGD step on any torch device (a step function for
    :func:`~sentemb.adjacent_sentences.loop.train_adjacent_sentences`), captured as a CUDA graph on CUDA.

    The encoder's embedding becomes a view of this step's (V + ``pad_rows``, dim) matrix on ``device``, so the
    encoder sees every update (checkpoints, the returned vectors).

    Args:
        encoder: an :class:`~sentemb.siamese_cbow.encoder.AverageEncoder`; its weight (V, dim) float32 is copied to
            ``device``.
        tokens: int32, shape (n_tokens,): the corpus's token ids (:attr:`TokenCorpus.token_ids`), copied to
            ``device`` once (126M tokens: 504 MB).
        max_length: the sentences' cut (``model.max_length``); ``None``: each batch is laid out as long as its
            longest sentence, and runs eagerly.
        device: where the step runs.
        graphs: capture the full-size batch's step as a CUDA graph (CUDA only); ``False``: eager kernels.
        pad_rows: zero rows the padding positions point at (spread over many rows, so that no one row takes every
            padding position's atomic add).

    Raises:
        ValueError: a weight that is not a float32 (V, dim) matrix.
    """

    def __init__(self, encoder: nn.Module, tokens: np.ndarray, max_length: int | None, device: torch.device,
                 graphs: bool = True, pad_rows: int = 4096) -> None:
        weight = encoder.embedding.weight
        if weight.dtype != torch.float32 or weight.dim() != 2:
            raise ValueError("TorchFusedSGD needs a float32 (V, dim) embedding")
        self.vocab_size, self.dim = weight.shape
        self.device = torch.device(device)
        self.max_length = max_length
        self.pad_rows = pad_rows
        self.matrix = torch.zeros(self.vocab_size + pad_rows, self.dim, dtype=torch.float32, device=self.device)
        with torch.no_grad():
            self.matrix[: self.vocab_size] = weight.detach().to(self.device)
        encoder.embedding.weight = nn.Parameter(self.matrix[: self.vocab_size], requires_grad=weight.requires_grad)
        with warnings.catch_warnings():  # a read-only memory map: the step reads it, never writes it
            warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
            self.tokens = torch.from_numpy(np.ascontiguousarray(tokens)).to(self.device)
        self.cuda = self.device.type == "cuda"
        self.graphs = graphs and self.cuda
        self.graphed = False  # whether a step has been replayed from a captured graph
        self._layouts: dict[tuple[int, int], tuple[torch.Tensor, torch.Tensor]] = {}
        self._candidates: dict[tuple[int, int], np.ndarray] = {}
        self._graph_key: tuple | None = None  # the shape captured (the first full-size batch's)
        self._graph: torch.cuda.CUDAGraph | None = None
        self._seen = 0  # full-size steps run eagerly before the capture
        self.capture_error: str | None = None  # why the capture failed, if it did (the steps then run eagerly)
        self._input: torch.Tensor | None = None  # the captured step's input on the device
        self._loss: torch.Tensor | None = None  # and its output
        self._staging: list[torch.Tensor] = []  # pinned host buffers, one a step in a ring
        self._copied: list[torch.cuda.Event | None] = []
        self._slot = 0

    def __call__(self, tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_centre: int, lr: float,
                 negatives: np.ndarray | None = None) -> torch.Tensor:
        """One step on a batch of sentences (the interface of :class:`~sentemb.siamese_cbow.fused.FusedSGD`).

        Args:
            tokens: the corpus's token ids; unused here (the device holds its copy, made at construction).
            starts: int64, shape (k,): where each sentence of the batch starts in the corpus, in the order
                [centres, previous, next, negatives…], or [centres, previous, next] with ``negatives``.
            lengths: int64, shape (k,): its tokens (cut at ``max_length``).
            n_centre: centres in the batch.
            lr: the step's learning rate.
            negatives: int64, shape (n, n_centre): in-batch negatives' rows among the batch's sentences; ``None``:
                they follow the next sentences.

        Returns:
            The batch's mean loss (nats), a 0-d float32 tensor on the device (no synchronisation).
        """
        n = len(starts)
        width = self.max_length if self.max_length is not None else max(1, int(lengths.max(initial=0)))
        if negatives is None:
            candidates = self._candidates.get((n, n_centre))
            if candidates is None:
                candidates = candidate_rows(n_centre, np.arange(3 * n_centre, n, dtype=np.int64).reshape(-1, n_centre))
                self._candidates[(n, n_centre)] = candidates
        else:
            candidates = candidate_rows(n_centre, negatives)
        k = candidates.shape[1]
        host = self._stage(starts, lengths, candidates, lr)
        key = (n, n_centre, k, width, negatives is None)
        if self.graphs and self.max_length is not None and self._graph_key is None:
            self._graph_key = key  # the first batch is full-size (only an epoch's last batch is smaller)
        if not self.graphs or key != self._graph_key:
            return self._step(self._upload(host), n, n_centre, k, width)
        if self._graph is None and self._seen < _WARMUP:
            self._seen += 1
            inputs = self._upload(host)
            current = torch.cuda.current_stream(self.device)
            side = torch.cuda.Stream(self.device)
            side.wait_stream(current)
            with torch.cuda.stream(side):
                loss = self._step(inputs, n, n_centre, k, width)
            current.wait_stream(side)
            return loss
        if self._graph is None:
            self._input = torch.empty(len(host), dtype=torch.float64, device=self.device)
            graph = torch.cuda.CUDAGraph()
            try:
                with torch.cuda.graph(graph):
                    self._loss = self._step(self._input, n, n_centre, k, width)
            except RuntimeError as e:  # an operation the capture refuses: every step runs eagerly
                self.graphs, self.capture_error = False, str(e).splitlines()[0]
                return self._step(self._upload(host), n, n_centre, k, width)
            self._graph = graph
        self._upload(host, self._input)
        self._graph.replay()
        self.graphed = True
        return self._loss

    def _stage(self, starts: np.ndarray, lengths: np.ndarray, candidates: np.ndarray, lr: float) -> torch.Tensor:
        """The step's inputs as one float64 vector on the host, [starts, lengths, candidates, lr] (every integer
        below 2⁵³ is exact); on CUDA in the next of a ring of pinned buffers, once the copy made from it four steps
        ago is done."""
        n, m = len(starts), candidates.size
        size = 2 * n + m + 1
        if not self.cuda:
            host = torch.empty(size, dtype=torch.float64)
        else:
            if not self._staging or self._staging[0].numel() < size:
                self._staging = [torch.empty(size, dtype=torch.float64, pin_memory=True) for _ in range(4)]
                self._copied = [None] * 4
            self._slot = (self._slot + 1) % len(self._staging)
            if self._copied[self._slot] is not None:
                self._copied[self._slot].synchronize()
            host = self._staging[self._slot][:size]
        view = host.numpy()
        view[:n] = starts
        view[n : 2 * n] = lengths
        view[2 * n : 2 * n + m] = candidates.ravel()
        view[-1] = lr
        return host

    def _upload(self, host: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
        """``host`` on the device (into ``out`` when given): one asynchronous copy from the pinned buffer."""
        if not self.cuda:
            return host
        if out is None:
            out = torch.empty(len(host), dtype=torch.float64, device=self.device)
        out.copy_(host, non_blocking=True)
        event = torch.cuda.Event()
        event.record(torch.cuda.current_stream(self.device))
        self._copied[self._slot] = event
        return out

    def _layout(self, n: int, width: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(positions 0..width−1, the padding row of each of the (n, width) positions), made once a shape."""
        layout = self._layouts.get((n, width))
        if layout is None:
            positions = torch.arange(width, device=self.device)
            pad = self.vocab_size + torch.arange(n * width, device=self.device).view(n, width) % self.pad_rows
            layout = self._layouts[(n, width)] = (positions, pad)
        return layout

    @torch.no_grad()
    def _step(self, inputs: torch.Tensor, n: int, n_centre: int, k: int, width: int) -> torch.Tensor:
        positions, pad = self._layout(n, width)
        starts = inputs[:n].long()
        lengths = inputs[n : 2 * n].long()
        candidates = inputs[2 * n : 2 * n + n_centre * k].long().view(n_centre, k)
        lr = inputs[-1].float()
        real = positions[None, :] < lengths[:, None]  # (n, width)
        at = torch.where(real, starts[:, None] + positions[None, :], 0)
        ids = torch.where(real, self.tokens[at].long(), pad)
        weights = real.float() / lengths.clamp(min=1).float()[:, None]  # 1/length on a sentence's tokens, else 0
        means = F.embedding_bag(ids, self.matrix, mode="sum", per_sample_weights=weights)  # (n, dim)
        # the cosine softmax cross-entropy of each centre over its candidates, and its gradient (fused.py, 2a-2b)
        a = means[:n_centre]
        x = means[candidates]  # (B, k, dim)
        na = a.norm(dim=1)
        nx = x.norm(dim=2)
        dots = torch.bmm(x, a[:, :, None]).squeeze(2)  # (B, k)
        norms = na[:, None] * nx
        sims = dots / norms.clamp(min=_EPS)
        log_p = sims.log_softmax(dim=1)
        loss = -log_p[:, :2].mean(dim=1).mean()
        target = torch.zeros(k, device=self.device)
        target[:2] = 0.5
        valid = norms > 0  # a pair with an empty (zero) mean moves nothing, as in the compiled step
        g = torch.where(valid, (log_p.exp() - target) / n_centre, 0.0)  # d(mean loss)/d sim
        g_inv = torch.where(valid, g / norms, 0.0)
        g_a = torch.where(valid, g * sims / (na * na)[:, None], 0.0)
        g_x = torch.where(valid, g * sims / (nx * nx), 0.0)
        grad = torch.zeros(n, self.dim, device=self.device)
        grad[:n_centre] = torch.bmm(g_inv[:, None, :], x).squeeze(1) - g_a.sum(dim=1, keepdim=True) * a
        grad.index_add_(0, candidates.reshape(-1), (g_inv[:, :, None] * a[:, None, :] - g_x[:, :, None] * x)
                        .reshape(-1, self.dim))
        # SGD: each token's row moves by −lr × (its sentence's gradient) / length; a padding position by 0
        self.matrix.index_add_(0, ids.reshape(-1), (weights * -lr)[:, :, None].mul(grad[:, None, :])
                               .reshape(-1, self.dim))
        return loss
