"""A model's card in the Hugging Face Hub's format (YAML front matter with a ``model-index`` block of the model's STS
scores, then what the model is, its training data and their licences, its settings and how to load it).

Made from the model's ``config.json`` and its scores in ``metrics/models/NAME.json`` (the evaluate stage's output),
twice: by the ``cards`` stage for every evaluated model, as ``cards/NAME.md`` (a model directory is written by its
training stage before it is scored, and DVC gives each path one owning stage, so the card sits beside the directory,
not in it), and at export as the exported directory's ``README.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from sentemb.core.atomic import atomic_path, read_json
from sentemb.core.errors import SentembError
from sentemb.core.models.format import read_config

CARD = "README.md"

# the data a model's training read, and their licences (../shared/data/PROVENANCE*.md)
CORPUS = ("Project Gutenberg books (public domain in the USA) and English Wikipedia articles (CC BY-SA 3.0 / GFDL), "
          "sentence-ordered shards (stages split, vocab)")
PAIRS = ("paraphrase pairs: Twitter URL corpus (Lan et al. 2017; research release, tweets under Twitter's terms), "
         "MSRP (Microsoft Shared Source licence), TurkCorpus (Wikipedia text, CC BY-SA); evaluation sentences removed")
PPDB = "PPDB lexical paraphrase pairs (CC BY 3.0)"
SELECTION = "checkpoint selected on STS 2016 (SemEval; per-source terms in its LICENSE.txt)"

WEIGHTINGS = {
    "nws": "Neural Word Salience: a learnt salience q_w per word over fixed word vectors (Bollegala et al. 2018, §3, "
           "Eq. 1)",
    "isf": "inverse sentence frequency weights over fixed word vectors (Bollegala et al. 2018, baseline)",
    "isf-log": "inverse sentence frequency, log(N / sf(w)), over fixed word vectors (Bollegala et al. 2018, baseline)",
    "sif": "smooth inverse frequency a / (a + p(w)) over fixed word vectors (Arora et al. 2017, Algorithm 1 line 2)",
    "sif-pc": "smooth inverse frequency with the common component fitted on each evaluation set and removed (Arora "
              "et al. 2017, Algorithm 1, as the authors' code)",
    "sif-pc-corpus": "smooth inverse frequency with the common component fitted once on training sentences and "
                     "removed (Arora et al. 2017, Algorithm 1)",
    "usif": "unsupervised smooth inverse frequency: a/(a/2 + p(w)), the first components of each evaluation set "
            "removed, weighted by their singular values (Ethayarajh 2018, §3)",
}
NORMALISATIONS = {"none": "x_w the word's vector (fse's uSIF)",
                  "per_dimension": "x_w the word's vector with each dimension divided by that dimension's norm over "
                                   "the sentence (the uSIF authors' usif.py)"}
COMPONENT_FITS = {"per_set": "the sentences encoded together (each evaluation set)",
                  "corpus": "training sentences, once"}

ENCODERS = {
    "avg": "AVG, the mean of paraphrastically trained word vectors (Wieting et al. 2016, §3)",
    "proj": "PROJ, a projection of the mean word vector (Wieting et al. 2016, §3)",
    "dan": "DAN, the deep averaging network (Wieting et al. 2016, §3; Iyyer et al. 2015)",
    "rnn": "RNN, the last state of a recurrent network (Wieting et al. 2016, §3)",
    "lstm": "LSTM, the last state of a peephole LSTM (Wieting et al. 2016, §3)",
    "lstmavg": "LSTMAVG, the mean of an LSTM's states (Wieting & Gimpel 2017, §2)",
    "gran": "GRAN, the gated recurrent averaging network (Wieting & Gimpel 2017, §2, Eq. 1)",
}
RECURRENT_ENCODERS = ("rnn", "lstm", "lstmavg", "gran")  # tagged "recurrent" on their cards
BENCHMARKS = {"STS12": "sts12", "STS13": "sts13", "STS14": "sts14", "STS15": "sts15", "STS16": "sts16",
              "SICK-R": "sick-r", "STS-B-test": "stsb-test", "PIT-2015": "pit-2015"}


def weighted_embedding(config: dict) -> str:
    """The sentence embedding of a weighted average in words, from the fields of its ``config.json``: the weighted
    mean (1/|S|) Σ q_w x_w (Arora et al. 2017, Algorithm 1 line 2), uSIF's per-dimension normalisation of x_w
    (Ethayarajh 2018, §3, as the authors' ``usif.py``) and the principal components removed after it (Algorithm 1
    line 4; uSIF's weighted by their singular values), with where they were fitted."""
    text = "sentence embedding = (1/|S|) Σ q_w x_w"
    if config.get("normalisation", "none") != "none" or config.get("weighting") == "usif":
        text += ", " + NORMALISATIONS.get(config.get("normalisation", "none"), str(config.get("normalisation")))
    fit = config.get("component_fit", "none")
    if fit != "none":
        k = config.get("components", 1)
        weighted = " each weighted by σ_i² / Σ σ_j²" if config.get("component_weighting") == "singular_values" else ""
        components = "the first principal component" if k == 1 else f"the first {k} principal components"
        text += f", minus its projection on {components}{weighted}, fitted on {COMPONENT_FITS.get(fit, fit)}"
    return text


def describe(config: dict) -> tuple[str, list[str]]:
    """What the model is (paper, section) and the data its training read, from its ``config.json``."""
    info = config.get("info", {})
    trainer = str(info.get("trainer", ""))
    if config["type"] == "weighted_average":
        base = config.get("vectors", "?").removeprefix("../")
        return (f"{WEIGHTINGS.get(config.get('weighting'), config.get('weighting'))}; the vectors are those of "
                f"sentemb's `{base}`; {weighted_embedding(config)}", [CORPUS])
    if config["type"] == "paraphrastic":
        encoder = config["composition"]["encoder"]
        base = config.get("vectors", "?").removeprefix("../")
        return (f"{ENCODERS.get(encoder, encoder)}, trained on paraphrase pairs with a margin loss and in-batch "
                f"negatives, starting from sentemb's `{base}` word vectors", [PAIRS, PPDB, CORPUS, SELECTION])
    if "distillation" in info:
        d = info["distillation"]
        pca = f"{d['pca_dims']} principal components" if d.get("pca_dims") else "no PCA"
        sif = f"SIF weights a / (a + p(w)), a = {d['sif_coefficient']:g}," if d.get("sif_coefficient") else "no weights"
        return (f"a static student of sentemb's `{d['teacher']}`: each word encoded alone by that model, {pca}, {sif} "
                "baked into the rows, averaged (model2vec's distillation: Tulkens & van Dongen 2024)",
                [CORPUS, f"the training data of its teacher (cards/{d['teacher']}.md)"])
    if "control" in info:
        control = info["control"]
        how = (f", the {info.get('frequent_words')} most frequent words' vectors scaled by {info.get('frequent_scale')}"
               " (the short stop-word vectors a trained model ends with)" if control == "untrained-frequent" else
               ", each scaled by log(N / sf(w)) (an IDF-weighted average)" if control == "untrained-idf" else "")
        return (f"an untrained control: Siamese CBOW's initialisation, N(0, {info.get('init_std')}²) drawn with seed "
                f"{info.get('seed')}{how}, averaged (how much of a score training adds: Kenter et al. 2016's "
                "setting)", [CORPUS])
    if trainer.startswith("gensim"):
        return ("word2vec vectors (Mikolov et al. 2013, trained by gensim), averaged: Kenter et al. 2016's baseline",
                [CORPUS])
    if "glove" in trainer:
        return "GloVe vectors (Pennington et al. 2014), averaged: Bollegala et al.'s input vectors", [CORPUS]
    if "siamese_cbow" in trainer:
        return ("Siamese CBOW: word vectors trained so that their average predicts adjacent sentences (Kenter et al. "
                "2016, §2), averaged", [CORPUS])
    if "paraphrastic" in trainer:
        return ("PARAGRAM word vectors trained on PPDB word pairs (Wieting et al. 2015), averaged: Wieting et al. "
                "2016's baseline", [PPDB, CORPUS])
    return "averaged word vectors", [CORPUS]


def data_licence(config: dict) -> str:
    """The licence the model's training data put on it, as MTEB and the Hub name licences: ``cc-by-sa-3.0`` for a model
    that read the corpus (Wikipedia's CC BY-SA 3.0; Gutenberg is public domain) and PPDB (CC BY 3.0) only;
    ``multiple`` for one that also read the paraphrase pairs (Twitter's terms, MSRP's Microsoft Shared Source licence,
    TurkCorpus's CC BY-SA), each listed on the card."""
    _, data = describe(config)
    student = "distillation" in config.get("info", {})  # of a paraphrastic teacher: the pairs are in its data
    return "multiple" if PAIRS in data or student else "cc-by-sa-3.0"


def card_tags(config: dict) -> list[str]:
    """The Hub tags that say what kind of encoder the model is: ``recurrent`` for the recurrent paraphrastic encoders,
    ``static-embeddings`` for a fixed table of word vectors (word averages, and weighted averages whose components, if
    any, are fitted once), none for the averaging paraphrastic encoders and the averages whose components are fitted
    on the sentences they embed."""
    if config["type"] == "paraphrastic":
        return ["recurrent"] if config["composition"]["encoder"] in RECURRENT_ENCODERS else []
    return [] if config.get("component_fit") == "per_set" else ["static-embeddings"]


def model_index(name: str, scores: dict) -> list[dict]:
    """The Hub's ``model-index`` entry: per benchmark, Pearson and Spearman ×100 (STS 2012-2016: the mean over the
    year's sets, as the papers report)."""
    results = []
    for key, dataset in BENCHMARKS.items():
        if key not in scores:
            continue
        results.append({
            "task": {"type": "semantic-similarity", "name": "Semantic Textual Similarity"},
            "dataset": {"name": key, "type": dataset},
            "metrics": [{"type": "pearson", "value": scores[key]["pearson"], "name": "Pearson r ×100"},
                        {"type": "spearmanr", "value": scores[key]["spearman"], "name": "Spearman ρ ×100"}],
        })
    return [{"name": name, "results": results}]


def default_metrics(model_dir: str | Path, name: str) -> Path:
    """``metrics/models/NAME.json`` of the project whose ``models/`` holds ``model_dir``."""
    return Path(model_dir).resolve().parent.parent / "metrics" / "models" / f"{name}.json"


def card_text(model_dir: str | Path, metrics: str | Path | None = None, exported: bool = True,
              usage: list[str] | None = None, library: str = "sentence-transformers",
              location: str = "DIR") -> str:
    """The card of the model in ``model_dir`` (see the module's docstring): for its export (``exported``; ``library``:
    the Hub's ``library_name`` of the export's format), or for the model directory itself (the ``cards`` stage);
    ``usage``: the lines of its "use" section instead of the sentence-transformers export's (another export format);
    ``location``: the exported folder as the user named it, in the usage snippet.

    Raises:
        SentembError: an unreadable model config, or a ``metrics`` file given that is missing or malformed.
    """
    config = read_config(model_dir)
    name = config["name"]
    path = Path(metrics) if metrics is not None else default_metrics(model_dir, name)
    scores = read_json(path, "missing scores file") if (metrics is not None or path.is_file()) else {}
    if not isinstance(scores, dict):
        raise SentembError(f"{path}: expected a JSON object of scores")
    what, data = describe(config)
    licence = data_licence(config)
    front = {**({"library_name": library} if exported else {}),
             **({"license": "other", "license_name": "multiple"} if licence == "multiple" else {"license": licence}),
             "pipeline_tag": "sentence-similarity",
             "tags": [*([library] if exported else []), "sentence-similarity", "sentemb", *card_tags(config)],
             "language": ["en"]}
    if scores:
        front["model-index"] = model_index(name, scores)
    rows = [f"| {k} | {scores[k]['pearson']:.2f} | {scores[k]['spearman']:.2f} |" for k in BENCHMARKS if k in scores]
    if "STS12-15" in scores:
        rows.append(f"| STS12-15 (mean of the 4 years) | {scores['STS12-15']['pearson']:.2f} | "
                    f"{scores['STS12-15']['spearman']:.2f} |")
    table = ("| benchmark | Pearson ×100 | Spearman ×100 |\n|---|---|---|\n" + "\n".join(rows) if rows
             else "Not scored: no metrics file was found when this card was written.")
    return "\n".join([
        "---", yaml.safe_dump(front, allow_unicode=True, sort_keys=False).rstrip(), "---", "",
        f"# {name}", "",
        f"A sentence encoder of sentemb (the averaging encoders of four STS papers, one DVC pipeline)"
        f"{' exported for sentence-transformers' if exported else ''}: {what}.", "",
        "## Scores", "",
        "Per benchmark, the correlation of cosine similarity with the gold scores (STS 2012-2016: the mean over the "
        f"year's sets, SentEval's \"mean\"), from `{path.name}`:", "", table, "",
        "## Use", "",
        *[line.replace('"DIR"', json.dumps(location)) for line in
          (usage or (_use_export() if exported else _use_directory(name, config)))],
        "## Training data and licences", "",
        *[f"- {d}" for d in data], "",
        f"The model's licence follows its training data: {licence}" + (" (each source's terms above)."
                                                                       if licence == "multiple" else "."), "",
        "## How it was trained", "",
        f"Tokenisation: `{json.dumps(config['text'])}`. The training record of its `config.json`:", "",
        "```json", json.dumps(config.get("info", {}), indent=1, ensure_ascii=False), "```", "",
    ])


def _use_export() -> list[str]:
    return [
        "```python",
        "from sentence_transformers import SentenceTransformer",
        "",
        "# trust_remote_code imports sentemb's installed tokenizer class (and encoder, for recurrent models); this",
        "# folder holds configuration, a vocabulary and safetensors weights, no code",
        'model = SentenceTransformer("DIR", trust_remote_code=True)',
        'model.encode(["A man is playing a guitar.", "Someone plays an instrument."])',
        "```", "",
        "It needs sentemb installed with its extra `st` (sentemb's tokenisation runs in the tokenizer). In sentemb "
        "itself: `sentemb.core.models.load_model(\"models/NAME\")`; under MTEB: "
        "`sentemb.interop.mteb.SentembEncoder`.", ""]


def _use_directory(name: str, config: dict) -> list[str]:
    per_set = config.get("component_fit") == "per_set"
    export = ("It is not exported to sentence-transformers: it fits its components on the sentences of each "
              "evaluation set, so an embedding depends on the batch it is encoded in." if per_set else
              f"For sentence-transformers: `sentemb export --format sentence-transformers models/{name} DIR`; under "
              "MTEB: `sentemb.interop.mteb.SentembEncoder`.")
    return [
        "```python",
        "from sentemb.core.models import load_model",
        "",
        f'model = load_model("models/{name}")   # after `dvc pull models/{name}` or `dvc repro`',
        'model.encode(["A man is playing a guitar.", "Someone plays an instrument."])   # float32, (2, dim)',
        *(["# its components are fitted on the sentences of each call: encode a whole set at once"] if per_set else []),
        "```", "",
        f"From the shell: `sentemb similarity models/{name} \"A man is playing a guitar.\" \"Someone plays an "
        f"instrument.\"`. {export}", ""]


def write_model_cards(models: list[str | Path], directory: str | Path) -> None:
    """``directory/NAME.md``, the card of each model directory of ``models`` (:func:`card_text` for the directory,
    its scores from the project's ``metrics/models/NAME.json``), the folder written atomically.

    Raises:
        SentembError: a model directory or scores file that cannot be read.
    """
    with atomic_path(directory) as tmp:
        tmp.mkdir(parents=True)
        for model_dir in models:
            (tmp / f"{Path(model_dir).name}.md").write_text(card_text(model_dir, exported=False), encoding="utf-8")


def write_model_card(directory: str | Path, model_dir: str | Path, metrics: str | Path | None = None,
                     usage: list[str] | None = None, library: str = "sentence-transformers",
                     location: str | Path = "DIR") -> None:
    """Write ``directory/README.md``, the card of the model in ``model_dir`` (:func:`card_text`; ``usage``: the lines of
    its "use" section, default the sentence-transformers export's; ``library``: the export's Hub library;
    ``location``: the folder the export is written to, as the user named it)."""
    (Path(directory) / CARD).write_text(card_text(model_dir, metrics, usage=usage, library=library,
                                                  location=str(location)), encoding="utf-8")
