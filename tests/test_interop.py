"""sentemb models in sentence-transformers and MTEB (sentemb.interop): the export encodes as the model does, its card
carries the model's scores, and MTEB scores a model offline on a task built from the local STS files."""

import json
import subprocess
import sys
from pathlib import Path

from helpers import TEXT, TOY_VECTORS, TOY_WORDS, toy_models

import numpy as np
import pytest
import yaml
from scipy import stats
from sentence_transformers import SentenceTransformer
from typer.testing import CliRunner

from sentemb.cli import app
from sentemb.core.data.benchmarks import load_benchmarks
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.cosine import cosine_scores
from sentemb.core.evaluation.sts import aggregate, evaluate
from sentemb.core.models import load_model
from sentemb.interop.model_card import card_tags, describe
from sentemb.interop.sentence_transformers import SentembTokenizer
from sentemb.salience.model import save_weighted_average_model

SENTENCES = ["a man plays guitar", "A WOMAN sings.", "zebra", "", "a dog runs", "the man plays", "guitar guitar man"]


def _export(model: Path, out: Path, *extra: str):
    return CliRunner().invoke(app, ["export", "--format", "sentence-transformers", str(model), str(out), *extra])


def _assert_same_embeddings(ours: np.ndarray, theirs: np.ndarray) -> None:
    """Equal within 1e-5, cosine ≥ 0.99999 on every non-zero row, zero rows where ours are zero."""
    assert theirs.shape == ours.shape and theirs.dtype == np.float32
    np.testing.assert_allclose(theirs, ours, atol=1e-5, rtol=0)
    zero = ~ours.any(axis=1)
    assert not theirs[zero].any()
    a, b = ours[~zero].astype(np.float64), theirs[~zero].astype(np.float64)
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    assert cos.min() >= 0.99999


@pytest.fixture
def models(tmp_path):
    root = toy_models(tmp_path)
    words = TOY_WORDS
    u = np.array([1.0, 2.0, 2.0], dtype=np.float32) / 3  # a unit common component, fitted once (SIF+PC, corpus)
    save_weighted_average_model(root / "sif-pc-corpus", "sif-pc-corpus", root / "avg", words,
                                np.linspace(1.0, 0.2, len(words)), TEXT, "sif-pc",
                                "corpus", info={}, component=u)
    return root


@pytest.mark.parametrize("name", ["avg", "nws", "sif-pc-corpus", "gran"])
def test_every_kind_of_model_encodes_alike_in_sentence_transformers(models, name):
    out = models / "exported" / name
    res = _export(models / name, out)
    assert res.exit_code == 0, res.output
    assert "trust_remote_code=True" in res.stdout
    # configuration, a vocabulary and safetensors weights: nothing that runs code when loaded
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert "README.md" in files and "sentemb_tokenizer.json" in files and "model.safetensors" in files
    assert not [f for f in files if f.endswith((".py", ".bin", ".pt", ".pkl"))], files
    with pytest.raises(ValueError, match="trust_remote_code"):
        SentenceTransformer(str(out), device="cpu")  # sentemb's classes are imported only when the user allows it
    st = SentenceTransformer(str(out), device="cpu", trust_remote_code=True)
    ours = load_model(models / name).encode(SENTENCES)
    _assert_same_embeddings(ours, st.encode(SENTENCES, convert_to_numpy=True))
    assert st.get_embedding_dimension() == 3


def test_the_weights_are_baked_in_and_the_component_is_a_linear_layer(models):
    res = _export(models / "sif-pc-corpus", models / "st")
    assert res.exit_code == 0 and "WordEmbeddings + Pooling + Dense" in res.stdout
    st = SentenceTransformer(str(models / "st"), device="cpu", trust_remote_code=True)
    u = np.array([1.0, 2.0, 2.0]) / 3
    np.testing.assert_allclose(st[2].linear.weight.detach().numpy(), np.eye(3) - np.outer(u, u), atol=1e-7)
    weights = np.linspace(1.0, 0.2, len(TOY_WORDS))
    np.testing.assert_allclose(st[0].emb_layer.weight.detach().numpy(),
                               np.array(TOY_VECTORS) * weights[:, None], rtol=1e-6)


def test_what_cannot_be_exported_is_one_line_and_writes_nothing(models):
    res = _export(models / "sif-pc", models / "st")  # per_set: its component is fitted on each call's sentences
    assert res.exit_code == 1 and "per_set" in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1 and not (models / "st").exists()
    save_weighted_average_model(models / "usif-norm", "usif-norm", models / "avg", TOY_WORDS,
                                np.ones(len(TOY_WORDS)), TEXT, "usif", "none", info={},
                                normalisation="per_dimension")  # each dimension normalised over a sentence's words
    res = _export(models / "usif-norm", models / "st")
    assert res.exit_code == 1 and "normalises each dimension" in res.output and not (models / "st").exists()
    res = _export(models / "missing", models / "st")
    assert res.exit_code == 1 and "missing model directory" in res.output and not (models / "st").exists()


def test_a_bad_tokenizer_file_or_usage_is_one_line(models, tmp_path):
    (tmp_path / "sentemb_tokenizer.json").write_text("{not json")
    with pytest.raises(SentembError, match=r"sentemb_tokenizer\.json: not a JSON tokenizer file"):
        SentembTokenizer.load(str(tmp_path))
    (tmp_path / "sentemb_tokenizer.json").write_text(json.dumps({"vocab": ["a"], "text": {"tokenizer": "x"}}))
    with pytest.raises(SentembError, match=r"sentemb_tokenizer\.json: text\.tokenizer"):
        SentembTokenizer.load(str(tmp_path))
    # a bad option value through the installed command: click's usage message, no traceback
    res = subprocess.run([sys.executable, "-m", "sentemb.cli", "export", "--format", "onnx", str(models / "avg"),
                          str(tmp_path / "x")], capture_output=True, text=True)
    assert res.returncode == 2 and "Invalid value for '--format'" in res.stderr and "Traceback" not in res.stderr


def test_the_card_carries_the_scores_it_was_given(models, tmp_path):
    scores = {"STS12": {"pearson": 41.5, "spearman": 40.25}, "SICK-R": {"pearson": 60.0, "spearman": 55.5},
              "STS12-15": {"pearson": 44.0, "spearman": 43.0}}
    (tmp_path / "gran.json").write_text(json.dumps(scores))
    assert _export(models / "gran", tmp_path / "st", "--metrics", str(tmp_path / "gran.json")).exit_code == 0
    card = (tmp_path / "st" / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(card.split("---\n")[1])
    results = {r["dataset"]["name"]: {m["type"]: m["value"] for m in r["metrics"]}
               for r in front["model-index"][0]["results"]}
    assert results == {"STS12": {"pearson": 41.5, "spearmanr": 40.25}, "SICK-R": {"pearson": 60.0, "spearmanr": 55.5}}
    assert "GRAN, the gated recurrent averaging network (Wieting & Gimpel 2017" in card
    assert "| STS12-15 (mean of the 4 years) | 44.00 | 43.00 |" in card and "CC BY 3.0" in card
    # trained on the paraphrase pairs too: their several licences; the usage snippet loads the folder it went to
    assert front["library_name"] == "sentence-transformers" and (front["license"], front["license_name"]) == (
        "other", "multiple")
    assert f"SentenceTransformer({json.dumps(str(tmp_path / 'st'))}, trust_remote_code=True)" in card
    res = _export(models / "gran", tmp_path / "st2", "--metrics", str(tmp_path / "none.json"))
    assert res.exit_code == 1 and "none.json: missing scores file" in res.output and not (tmp_path / "st2").exists()


def test_a_card_says_how_a_weighted_average_embeds_and_tags_only_fixed_tables_static():
    """The card's formula follows the model's config: uSIF's per-dimension normalisation and its five weighted
    components fitted on the sentences encoded together (no fixed table: no static-embeddings tag), SIF's component
    fitted once on the corpus (a fixed table and a fixed linear map: static)."""
    base = {"type": "weighted_average", "vectors": "../glove", "component_weighting": "unit", "normalisation": "none"}
    usif = {**base, "weighting": "usif", "component_fit": "per_set", "components": 5,
            "component_weighting": "singular_values", "normalisation": "per_dimension"}
    what, _ = describe(usif)
    assert ("Σ q_w x_w, x_w the word's vector with each dimension divided by that dimension's norm over the sentence"
            in what and "first 5 principal components each weighted by σ_i² / Σ σ_j², fitted on the sentences "
            "encoded together" in what and "fse" not in what)
    assert "(fse's uSIF)" in describe({**usif, "normalisation": "none"})[0]
    corpus = {**base, "weighting": "sif-pc-corpus", "component_fit": "corpus", "components": 1}
    assert describe(corpus)[0].endswith("the first principal component, fitted on training sentences, once")
    assert describe({**base, "weighting": "sif", "component_fit": "none"})[0].endswith("(1/|S|) Σ q_w x_w")
    assert card_tags(usif) == [] and card_tags(corpus) == ["static-embeddings"]
    assert card_tags({"type": "paraphrastic", "composition": {"encoder": "gran"}}) == ["recurrent"]
    assert card_tags({"type": "paraphrastic", "composition": {"encoder": "avg"}}) == []


@pytest.mark.parametrize(("name", "parameters"), [("avg", 24), ("nws", 32), ("gran", None)])
def test_the_mteb_encoder_describes_and_encodes_every_kind_of_model(models, name, parameters):
    from mteb.models.model_meta import ScoringFunction

    from sentemb.interop.mteb import SentembEncoder

    encoder = SentembEncoder(models / name)
    meta = encoder.mteb_model_meta
    assert meta.name == f"sentemb/{name}" and meta.embed_dim == 3 and meta.languages == ["eng-Latn"]
    assert meta.similarity_fn_name == ScoringFunction.COSINE and len(meta.revision) == 12
    assert meta.license == ("multiple" if name == "gran" else "cc-by-sa-3.0")  # the pairs' licences, or Wikipedia's
    if parameters is not None:  # 8 words × 3 dimensions, and a weight a word
        assert meta.n_parameters == parameters
    batches = [{"text": SENTENCES[:4]}, {"text": SENTENCES[4:]}]  # what MTEB's data loader yields
    got = encoder.encode(batches, task_metadata=None, hf_split="test", hf_subset="default")
    np.testing.assert_allclose(got, load_model(models / name).encode(SENTENCES), rtol=1e-6, atol=1e-9)


def _sentences(project: Path, benchmarks: list[str]) -> list[str]:
    sets = load_benchmarks(project / "data" / "raw", benchmarks)
    return sorted({s for d in sets for s in [*d.sentences1, *d.sentences2]})


@pytest.mark.slow
@pytest.mark.parametrize("name", ["glove", "glove-sif-pc-corpus", "para-avg", "para-gran"])
def test_the_smoke_runs_models_in_sentence_transformers(smoke, tmp_path, name):
    """One model of each kind the pipeline trains (averaged, weighted with its corpus-fit component, paraphrastic
    averaging and recurrent): every STS sentence embeds alike and the STS scores come out the same."""
    out = tmp_path / name
    assert _export(smoke / "models" / name, out).exit_code == 0
    st = SentenceTransformer(str(out), device="cpu", trust_remote_code=True)
    model = load_model(smoke / "models" / name)
    sentences = _sentences(smoke, ["STS12", "STS16"])
    _assert_same_embeddings(model.encode(sentences), st.encode(sentences, batch_size=256, convert_to_numpy=True))

    class Exported:
        def encode(self, s):
            return st.encode(s, batch_size=256, convert_to_numpy=True)

    committed = json.loads((smoke / "metrics" / "models" / f"{name}.json").read_text())
    rescored = aggregate(evaluate(Exported(), load_benchmarks(smoke / "data" / "raw", ["STS12", "STS16"])))
    for year in ("STS12", "STS16"):
        assert rescored[year]["pearson"] == committed[year]["pearson"], year
    front = yaml.safe_load((out / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    card = {r["dataset"]["name"]: r["metrics"][0]["value"] for r in front["model-index"][0]["results"]}
    assert card == {k: committed[k]["pearson"] for k in ("STS12", "STS16", "SICK-R", "STS-B-test", "PIT-2015")
                    if k in committed}


@pytest.mark.slow
def test_mteb_scores_a_model_offline_on_the_local_files(smoke, tmp_path):
    """mteb.evaluate with a task read from data/raw: its per-pair cosines are ours where both sentences have a known
    word, 0.5 or 1.0 where one or both have none (MTEB's convention; ours is 0), and its main score is Spearman's ρ
    of those, pooled over the year's sets."""
    import mteb

    from sentemb.interop.mteb import SentembEncoder, local_sts_task
    from sentemb.reporting.harness import mteb_cosine

    encoder = SentembEncoder(smoke / "models" / "para-gran")
    assert encoder.mteb_model_meta.name == "sentemb/para-gran" and encoder.mteb_model_meta.embed_dim == 16
    result = mteb.evaluate(encoder, tasks=[local_sts_task(smoke / "data" / "raw", "STS16")],
                           cache=mteb.ResultCache(str(tmp_path / "cache")), prediction_folder=tmp_path / "pred",
                           show_progress_bar=False)
    main = result.task_results[0].get_score()
    predicted = json.loads((tmp_path / "pred" / "sentemb-STS16_predictions.json").read_text())
    theirs = np.array(predicted["default"]["test"]["cosine_scores"])

    sets = load_benchmarks(smoke / "data" / "raw", ["STS16"])
    e1 = encoder.model.encode([s for d in sets for s in d.sentences1])
    e2 = encoder.model.encode([s for d in sets for s in d.sentences2])
    gold = np.concatenate([d.gold for d in sets])
    ours, undefined = cosine_scores(e1, e2)
    assert undefined.any()  # the smoke run's small vocabulary leaves sentences with no known word
    np.testing.assert_allclose(theirs[~undefined], ours[~undefined], atol=1e-9)
    both = ~e1.any(axis=1) & ~e2.any(axis=1)
    # 1 − the paired cosine distance of a unit vector and a zero one: 0.5 up to the rounding of the normalisation
    np.testing.assert_allclose(theirs[undefined], np.where(both[undefined], 1.0, 0.5), rtol=0, atol=1e-12)
    np.testing.assert_allclose(mteb_cosine(e1, e2), theirs, atol=1e-9)  # the harness table's form of MTEB's cosine
    assert main == pytest.approx(stats.spearmanr(theirs, gold).statistic, abs=1e-12)


def _export_model2vec(model: Path, out: Path):
    return CliRunner().invoke(app, ["export", "--format", "model2vec", str(model), str(out)])


@pytest.mark.parametrize("name", ["avg", "nws"])
def test_a_word_average_loads_as_model2vec_without_our_code(models, name):
    out = models / "m2v" / name
    res = _export_model2vec(models / name, out)
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in out.iterdir())
    assert files == ["README.md", "config.json", "model.safetensors", "modules.json", "tokenizer.json"]
    assert json.loads((out / "config.json").read_text())["model_type"] == "model2vec"
    st = SentenceTransformer(str(out), device="cpu")  # no trust_remote_code: StaticEmbedding and tokenizers only
    assert type(st[0]).__name__ == "StaticEmbedding"
    ours, theirs = load_model(models / name).encode(SENTENCES), st.encode(SENTENCES, convert_to_numpy=True)
    # StaticEmbedding averages the unknown words in as zero rows: the same direction as ours, scaled by known/all
    zero = ~ours.any(axis=1)
    assert not theirs[zero].any()
    a, b = ours[~zero].astype(np.float64), theirs[~zero].astype(np.float64)
    assert ((a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)).min() >= 0.99999
    card = (out / "README.md").read_text()
    assert f"StaticModel.from_pretrained({json.dumps(str(out))})" in card  # the folder it was exported to
    front = yaml.safe_load(card.split("---\n")[1])
    assert front["library_name"] == "model2vec" and front["license"] == "cc-by-sa-3.0"  # Wikipedia's licence


def test_model2vec_refuses_what_it_cannot_hold(models):
    for name, why in (("gran", "not a word average"), ("sif-pc", "common component")):
        res = _export_model2vec(models / name, models / "m2v")
        assert res.exit_code == 1 and why in res.output and "Traceback" not in res.output
        assert len(res.output.strip().splitlines()) == 1 and not (models / "m2v").exists()


@pytest.mark.parametrize("tokenizer", ["treebank", "wordpunct"])
def test_the_tokenizers_imitation_splits_the_sts_sentences_as_sentemb(shared, tokenizer):
    """Over every sentence of STS 2012-2016 (the real files): wordpunct's one expression is exact; the Treebank
    imitation agrees on at least 99.5% of the sentences (99.85% of the benchmarks' 28,140: docs/ecosystem.md)."""
    from sentemb.core.text.config import TextConfig
    from sentemb.core.text.tokenization import tokenize
    from sentemb.interop.model2vec import imitated_tokens, treebank_tokenizer

    text = TextConfig(tokenizer=tokenizer, lowercase=True, strip_punctuation=False)
    imitation = treebank_tokenizer([], text)
    sets = load_benchmarks(shared, ["STS12", "STS13", "STS14", "STS15", "STS16"])  # laid out as data/raw
    sentences = sorted({s for d in sets for s in [*d.sentences1, *d.sentences2]})
    assert len(sentences) > 10_000
    alike = sum(imitated_tokens(imitation, s) == tokenize(s, text) for s in sentences)
    assert alike == len(sentences) if tokenizer == "wordpunct" else alike >= 0.995 * len(sentences)
