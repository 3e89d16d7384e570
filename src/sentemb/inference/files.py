"""Reading sentences from text files and embedding them into ``.npy`` files, for the ``sentemb`` command and scripts.

Every saved model (:func:`sentemb.core.models.load_model`) encodes raw sentences with its own tokenisation. This module
adds what a command needs around that: reading one sentence a line with clear errors, embedding in batches into a
``.npy`` file without holding the whole file in memory, and the refusal of models whose embeddings depend on how the
sentences are batched.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from sentemb.core.atomic import atomic_open, writing
from sentemb.core.errors import SentembError
from sentemb.core.models import SentenceEncoder


def read_lines(path: str | Path) -> Iterator[str]:
    """The lines of a UTF-8 text file (``-``: standard input), without their line ends or a byte-order mark,
    streamed.

    Raises:
        SentembError: a missing file, a directory, or a line that is not valid UTF-8 (naming the line).
    """
    if str(path) == "-":
        stream, name = sys.stdin.buffer, "<stdin>"
    else:
        p = Path(path)
        if not p.is_file():
            raise SentembError(f"{p}: {'is a directory' if p.is_dir() else 'missing input file'}")
        stream, name = open(p, "rb"), str(p)  # noqa: SIM115 (closed below)
    try:
        for number, raw in enumerate(stream, start=1):
            try:  # a byte-order mark (Windows editors write one) is not part of the first line
                yield raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                raise SentembError(f"{name}:{number}: not valid UTF-8 ({e.reason} at byte {e.start})") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


PADDED_TOKENS = 1 << 19
"""The most padded words a batch may hold (its sentences × the longest one's words, counted at spaces): a recurrent
encoder's arrays grow with it, whatever the sentences' count, so that a file of long lines is embedded in bounded
memory (``tests/test_inference.py``; docs/scale.md gives the peak)."""


def in_batches(lines: Iterable[str], size: int, padded_tokens: int = PADDED_TOKENS) -> Iterator[list[str]]:
    """Consecutive lists of at most ``size`` lines and at most ``padded_tokens`` padded words (lines × the longest
    line's words, counted at spaces; a single longer line is a batch of its own). The last may be shorter."""
    batch: list[str] = []
    longest = 0
    for line in lines:
        words = line.count(" ") + 1
        if batch and (len(batch) + 1) * max(longest, words) > padded_tokens:
            yield batch
            batch, longest = [], 0
        batch.append(line)
        longest = max(longest, words)
        if len(batch) == size:
            yield batch
            batch, longest = [], 0
    if batch:
        yield batch


def refuse_per_set_component(model: SentenceEncoder, model_name: str | Path, why: str) -> None:
    """Refuse a model whose embeddings depend on how sentences are grouped into calls: SIF+PC or uSIF with their
    common components fitted on the sentences of each ``encode`` call (``component_fit="per_set"``).

    Args:
        why: what the caller does that this breaks, for the message.

    Raises:
        SentembError: naming the model and the params switch that builds a usable one.
    """
    if getattr(model, "component_fit", None) == "per_set":
        raise SentembError(
            f"{model_name}: this model removes a common component fitted on the sentences of each call (SIF+PC or "
            f"uSIF, per evaluation set); {why}. Use the component fitted once on the corpus instead "
            "(models/VECTORS-sif-pc-corpus)")


def embed_lines(model: SentenceEncoder, lines: Iterable[str], output: str | Path, batch_size: int = 10_000,
                progress: bool = True, model_name: str | Path = "model") -> tuple[int, int]:
    """Embed sentences in batches into a ``.npy`` file, written atomically.

    Args:
        model: a loaded model.
        lines: one raw sentence each (an empty one embeds to zeros).
        output: the ``.npy`` file: float32, shape (n, dim), row i the i-th sentence.
        batch_size: sentences encoded at a time (memory: one batch of text and embeddings).
        progress: a tqdm progress bar in sentences.
        model_name: how errors name the model.

    Returns:
        ``(n, zero)``: the number of sentences, and how many of them have no word the model knows (a blank line
        among them): their rows are zeros, which a caller should say.

    Raises:
        SentembError: no sentence at all, a model whose embeddings depend on the batch (SIF per set), or a
            reading error of ``lines``.
    """
    from tqdm.auto import tqdm  # here, not at the top: `sentemb similarity` imports this module and needs no bar

    refuse_per_set_component(model, model_name, "its embeddings would depend on how the text is batched")
    n, zero, dim = 0, 0, None
    output = Path(output)
    with writing(output):
        output.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=output.parent) as rows:  # raw float32 rows, until n is known
            bar = tqdm(unit="sentence", disable=not progress, mininterval=1, delay=1, desc="embed")
            for batch in in_batches(lines, batch_size):
                emb = np.ascontiguousarray(model.encode(batch), dtype=np.float32)
                dim = emb.shape[1]
                zero += int((~emb.any(axis=1)).sum())
                rows.write(emb.tobytes())
                n += len(batch)
                bar.update(len(batch))
            bar.close()
            if n == 0:
                raise SentembError("no sentence to embed: the input is empty")
            rows.seek(0)
            with atomic_open(output, "wb") as fh:
                np.lib.format.write_array_header_1_0(fh, {"descr": "<f4", "fortran_order": False, "shape": (n, dim)})
                shutil.copyfileobj(rows, fh)
    return n, zero
