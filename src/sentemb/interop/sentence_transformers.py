"""Every saved model as a sentence-transformers model directory: ``SentenceTransformer(DIR, trust_remote_code=True)``
encodes as :func:`sentemb.core.models.load_model` does.

- word-averaging models (word2vec, GloVe, Siamese CBOW, PARAGRAM, the controls): ``WordEmbeddings`` (the vectors) +
  ``Pooling("mean")``, the mean over the known words (Kenter et al. 2016 §2.2; Wieting et al. 2016 AVG);
- weighted models (NWS, ISF, SIF; Bollegala et al. Eq. 1, Arora et al. 2017 Algorithm 1): the same, with each vector
  multiplied by its weight q_w. The weights are baked into the vectors rather than put in a ``WordWeights`` module,
  because ``Pooling("mean")`` after ``WordWeights`` divides by Σ q_w where the papers divide by the number of words
  |S|: baked in, the raw vectors equal sentemb's, not only their cosines. A common component fitted once on the corpus
  (SIF+PC, ``component_fit: corpus``) becomes ``Dense`` with weight I − uuᵀ, no bias, identity activation
  (Algorithm 1 line 3 is that linear map); one fitted anew on each call's sentences (``per_set``) is no fixed pipeline
  and is refused;
- paraphrastic encoders (AVG, PROJ, DAN, RNN, LSTM, LSTMAVG, GRAN; Wieting et al. 2016, Wieting & Gimpel 2017):
  :class:`ParaphrasticEncoder`, a sentence-transformers input module that runs sentemb's own encoder.

Tokenisation is sentemb's (:class:`SentembTokenizer`: NLTK's tokenizer with the model's ``text`` settings, unknown
words dropped), not a re-implementation, so the tokens are the same by construction. The two classes live in the
installed sentemb package; the exported directory holds configuration, a vocabulary and safetensors weights, no code.
sentence-transformers (≥ 6.0) imports a class outside its own namespace only with ``trust_remote_code=True``: here
that imports the installed ``sentemb.interop.sentence_transformers``, nothing from the directory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Dense, InputModule, Pooling, WordEmbeddings
from sentence_transformers.sentence_transformer.modules.tokenizer import WordTokenizer
from torch import nn

from sentemb.core.atomic import atomic_path
from sentemb.core.config import validate
from sentemb.core.errors import SentembError
from sentemb.core.models import SentenceEncoder, load_model
from sentemb.core.models.format import read_config
from sentemb.core.models.word_averaging import WordAveragingModel
from sentemb.core.text.config import TextConfig
from sentemb.core.text.tokenization import tokenize
from sentemb.interop.model_card import write_model_card
from sentemb.paraphrastic.composition import CompositionEncoder, PaddedBatch, build_composition
from sentemb.paraphrastic.config import Composition
from sentemb.paraphrastic.model import ParaphrasticModel
from sentemb.salience.model import WeightedAverageModel

TOKENIZER_FILE = "sentemb_tokenizer.json"


class SentembTokenizer(WordTokenizer):
    """sentemb's tokenisation (:func:`~sentemb.core.text.tokenization.tokenize` with a model's ``text`` settings) over a
    fixed vocabulary: ``tokenize(text)`` gives the vocabulary rows of the known tokens in order, unknown tokens dropped
    (as every sentemb model drops them).

    Args:
        vocab: the words, row i of the embedding being ``vocab[i]``.
        text: the ``text`` settings the model was trained with (a :class:`~sentemb.core.text.config.TextConfig` or its
            dict).
    """

    def __init__(self, vocab: Iterable[str] = (), text: TextConfig | dict | None = None) -> None:
        if text is None:
            raise SentembError("SentembTokenizer: the model's text settings are required")
        self.text = text if isinstance(text, TextConfig) else validate(TextConfig, text, TOKENIZER_FILE, "text")
        self.set_vocab(vocab)

    def set_vocab(self, vocab: Iterable[str]) -> None:
        self.vocab = list(vocab)
        self.word2idx = {w: i for i, w in enumerate(self.vocab)}

    def get_vocab(self, vocab: Iterable[str] | None = None) -> list[str]:
        return self.vocab

    def tokenize(self, text: str, **kwargs) -> list[int]:
        """int rows of the known tokens of ``text``, in order."""
        get = self.word2idx.get
        return [i for i in map(get, tokenize(text, self.text)) if i is not None]

    def save(self, output_path: str) -> None:
        """``output_path/sentemb_tokenizer.json``: the text settings and the vocabulary (JSON, no code)."""
        data = {"text": self.text.to_dict(), "vocab": self.vocab}
        (Path(output_path) / TOKENIZER_FILE).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    @staticmethod
    def load(input_path: str) -> SentembTokenizer:
        """Raises: SentembError: a missing or malformed ``sentemb_tokenizer.json``, naming it."""
        path = Path(input_path) / TOKENIZER_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SentembError(f"{path}: missing tokenizer file of the exported model") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise SentembError(f"{path}: not a JSON tokenizer file ({e})") from None
        if not isinstance(data, dict) or not isinstance(data.get("vocab"), list):
            raise SentembError(f"{path}: expected an object with 'text' and a 'vocab' list")
        return SentembTokenizer(data["vocab"], data.get("text"))


class ParaphrasticEncoder(InputModule):
    """A sentemb paraphrastic encoder (AVG, PROJ, DAN, RNN, LSTM, LSTMAVG, GRAN) as a sentence-transformers input
    module: :meth:`preprocess` tokenises with :class:`SentembTokenizer`, :meth:`forward` runs the encoder of
    :mod:`sentemb.paraphrastic.composition` on the padded ids and sets ``sentence_embedding``, float32 (batch, dim).

    Args:
        tokenizer: the tokeniser over the encoder's vocabulary.
        composition: the encoder's settings (a :class:`~sentemb.paraphrastic.config.Composition` as a dict).
        embedding: float32, shape (len(vocabulary), dim): the word embeddings (the other parameters come from the
            state dict that :meth:`load` reads).
    """

    config_keys: ClassVar[list[str]] = ["composition"]
    config_file_name = "sentemb_encoder_config.json"

    def __init__(self, tokenizer: SentembTokenizer, composition: dict, embedding: torch.Tensor) -> None:
        super().__init__()
        self.tokenizer = tokenizer
        self.composition = dict(composition)
        spec = validate(Composition, self.composition, self.config_file_name, "composition")
        self.encoder: CompositionEncoder = build_composition(spec, embedding.float(), sparse=False).eval()

    def preprocess(self, inputs: list[str], prompt: str | None = None, **kwargs) -> dict[str, torch.Tensor]:
        if prompt:
            inputs = self._prepend_prompt(inputs, prompt)
        batch = PaddedBatch.from_lists([self.tokenizer.tokenize(text) for text in inputs])
        return {"input_ids": batch.ids, "lengths": batch.lengths}

    def forward(self, features: dict[str, torch.Tensor], **kwargs) -> dict[str, torch.Tensor]:
        features["sentence_embedding"] = self.encoder(PaddedBatch(features["input_ids"], features["lengths"])).float()
        return features

    def get_embedding_dimension(self) -> int:
        return self.encoder.dim

    def get_sentence_embedding_dimension(self) -> int:
        return self.encoder.dim

    def save(self, output_path: str, *args, safe_serialization: bool = True, **kwargs) -> None:
        self.save_config(output_path)
        self.save_torch_weights(output_path, safe_serialization=True)  # safetensors only: loading runs no code
        self.tokenizer.save(output_path)

    @classmethod
    def load(cls, model_name_or_path: str, subfolder: str = "", token: bool | str | None = None,
             cache_folder: str | None = None, revision: str | None = None, local_files_only: bool = False,
             **kwargs) -> ParaphrasticEncoder:
        hub = {"subfolder": subfolder, "token": token, "cache_folder": cache_folder, "revision": revision,
               "local_files_only": local_files_only}
        config = cls.load_config(model_name_or_path, **hub)
        tokenizer = SentembTokenizer.load(cls.load_dir_path(model_name_or_path, **hub))
        state = cls.load_torch_weights(model_name_or_path, **hub)
        module = cls(tokenizer, config["composition"], state["encoder.embedding.weight"])
        module.load_state_dict(state)
        return module


def sentence_transformers_modules(model: SentenceEncoder, model_dir: str | Path) -> list[nn.Module]:
    """The sentence-transformers modules that encode as ``model``, loaded from ``model_dir``, does (see the module's
    docstring).

    Raises:
        SentembError: a weighted model that fits its common component on each call's sentences (``per_set``) or
            normalises each dimension over a sentence's words, or a model of a kind this exporter does not know.
    """
    if isinstance(model, ParaphrasticModel):
        words = sorted(model.index, key=model.index.__getitem__)
        composition = read_config(model_dir)["composition"]
        trained = model.torch_encoder()
        encoder = ParaphrasticEncoder(SentembTokenizer(words, model.text), composition,
                                      trained.embedding.weight.detach())
        encoder.encoder.load_state_dict(trained.state_dict())
        return [encoder]
    if not isinstance(model, WordAveragingModel):
        raise SentembError(f"{model_dir}: a {type(model).__name__} cannot be exported to sentence-transformers")
    vectors = np.array(model.vectors.vectors, dtype=np.float32)  # a copy: the saved vectors are memory-mapped
    dense = []
    if isinstance(model, WeightedAverageModel):
        if model.component_fit == "per_set":
            raise SentembError(f"{model_dir}: fits its common component on the sentences of each encode call "
                               "(component_fit: per_set, as the SIF and uSIF authors' evaluation); a fixed pipeline "
                               "cannot; export the one fitted on the corpus (models/VECTORS-sif-pc-corpus)")
        if model.normalisation != "none":
            raise SentembError(f"{model_dir}: normalises each dimension over the words of each sentence (uSIF's "
                               "usif_normalisation: per_dimension), which mean pooling of word embeddings cannot")
        vectors = vectors * model.weights[:, None]
        if model.component_fit == "corpus":  # v − Σ c_i c_iᵀ v = (I − CᵀC) v
            c = torch.from_numpy(np.atleast_2d(np.asarray(model.component, dtype=np.float32)))
            dense = [Dense(model.dim, model.dim, bias=False, activation_function=nn.Identity(),
                           init_weight=torch.eye(model.dim) - c.T @ c)]
    embeddings = WordEmbeddings(SentembTokenizer(model.vectors.words, model.text), vectors)
    return [embeddings, Pooling(model.dim, "mean"), *dense]


def export_sentence_transformers(model_dir: str | Path, output: str | Path,
                                 metrics: str | Path | None = None) -> str:
    """Write ``model_dir``'s model as a sentence-transformers directory ``output`` (atomically), with a model card.

    Args:
        model_dir: a saved model (``models/NAME``).
        output: the directory to write (replaced whole).
        metrics: the model's scores for the card (``metrics/models/NAME.json``); default: the one beside the
            model's folder of models, if any.

    Returns:
        What was written, for the user.

    Raises:
        SentembError: an unreadable model or one that cannot be exported (:func:`sentence_transformers_modules`).
    """
    model = load_model(model_dir)
    st = SentenceTransformer(modules=sentence_transformers_modules(model, model_dir), device="cpu")
    with atomic_path(output) as tmp:
        st.save(str(tmp), create_model_card=False)
        write_model_card(tmp, model_dir, metrics, location=output)
    kind = type(st[0]).__name__ + "".join(f" + {type(m).__name__}" for m in list(st)[1:])
    return f"{model.name}: {kind}, {model.dim}-d; load with SentenceTransformer(DIR, trust_remote_code=True)"
