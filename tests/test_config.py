"""One place for every value: params.yaml holds them, each section is read through one schema of the package that
uses it, and no schema declares a default (sentemb.core.config)."""

from helpers import PARAMS

import pytest

from sentemb.adjacent_sentences.config import AdjacentSentenceConfig
from sentemb.core.config import defaulted_fields
from sentemb.core.data.config import DownloadConfig, PairsConfig, SentenceSplitConfig, VocabConfig
from sentemb.core.errors import SentembError
from sentemb.core.evaluation.config import EvaluateConfig
from sentemb.core.models.format import ModelConfig
from sentemb.core.models.word_averaging import WordAverageConfig
from sentemb.core.text.config import TextConfig
from sentemb.distillation.config import StudentConfig
from sentemb.paraphrastic.config import ENCODER_ARGUMENTS, Composition, ParaphrasticConfig
from sentemb.paraphrastic.model import ParaphrasticModelConfig
from sentemb.reporting.config import (
    Bollegala2018Report,
    Kenter2016Report,
    Wieting2016Report,
    Wieting2017Report,
)
from sentemb.reporting.inputs import ReportInputsConfig
from sentemb.salience.config import BaselinesConfig, NWSConfig
from sentemb.salience.model import WeightedAverageConfig
from sentemb.siamese_cbow.config import ControlsConfig, SiameseCBOWConfig
from sentemb.siamese_cbow.config import run_config as siamese_cbow_run
from sentemb.supervised.config import SupervisedConfig
from sentemb.supervised.config import run_config as supervised_run
from sentemb.wordvectors.config import GloveConfig, Word2VecConfig

# params.yaml's sections and the schema each is read through (by its stage and by the library alike)
SECTIONS = {
    "download": DownloadConfig, "text": TextConfig, "split": SentenceSplitConfig, "vocab": VocabConfig,
    "pretrain.word2vec-sg": Word2VecConfig, "pretrain.word2vec-cbow": Word2VecConfig, "pretrain.glove": GloveConfig,
    "model": SiameseCBOWConfig, "controls": ControlsConfig, "nws": NWSConfig, "baselines": BaselinesConfig,
    "pairs": PairsConfig, **{f"paraphrastic.{name}": ParaphrasticConfig for name in PARAMS["paraphrastic"]},
    "supervised": SupervisedConfig, "students": StudentConfig, "evaluate": EvaluateConfig,
    "report.kenter2016": Kenter2016Report, "report.bollegala2018": Bollegala2018Report,
    "report.wieting2016": Wieting2016Report, "report.wieting2017": Wieting2017Report,
    "report.inputs": ReportInputsConfig,
}
SCHEMAS = sorted({*SECTIONS.values(), AdjacentSentenceConfig, Composition, ModelConfig, WordAverageConfig,
                  WeightedAverageConfig, ParaphrasticModelConfig}, key=lambda s: s.__name__)
# the only fields that may be left out: an encoder's own arguments, for the encoders that do not read them
NOT_APPLICABLE = {a for arguments in ENCODER_ARGUMENTS.values() for a in arguments}


def _entry(key: str):
    node = PARAMS
    for part in key.split("."):
        node = node[part]
    return node


def test_every_params_section_has_its_schema():
    """Every section but ``pipeline``, which no stage reads: dvc.yaml iterates its lists (which models each stage
    group builds, and the seeds of the supervised runs), and the end-to-end tests build every model it names."""
    covered = {key.split(".")[0] for key in SECTIONS}
    assert set(PARAMS) == covered | {"pipeline"}
    assert all(isinstance(v, list) and v and all(isinstance(n, str) for n in v)
               for k, v in PARAMS["pipeline"].items() if k != "supervised_seeds")
    assert all(isinstance(s, int) and s >= 2 for s in PARAMS["pipeline"]["supervised_seeds"])
    assert {k for k in SECTIONS if k.startswith("pretrain.")} == {f"pretrain.{k}" for k in PARAMS["pretrain"]}
    assert {k for k in SECTIONS if k.startswith("report.")} == {f"report.{k}" for k in PARAMS["report"]}


@pytest.mark.parametrize("key", list(SECTIONS))
def test_params_yaml_validates_against_each_schema(key):
    SECTIONS[key].model_validate(_entry(key))


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s.__name__)
def test_no_schema_declares_a_default(schema):
    """A setting's value lives in params.yaml alone: a schema gives its type, bounds and meaning, never a value (a
    missing key is an error naming it, not a silent default)."""
    defaults = {name.rsplit(".", 1)[-1] for name in defaulted_fields(schema)}  # nested: composition.variant
    assert defaults <= NOT_APPLICABLE, f"{schema.__name__} declares defaults for {sorted(defaults - NOT_APPLICABLE)}"


def test_every_field_is_described():
    """The field's terms, units and sources are in each Field's description (the schemas are the reference)."""
    for schema in SCHEMAS:
        for name, field in schema.model_fields.items():
            nested = isinstance(field.annotation, type) and field.annotation.__doc__  # a schema: its docstring
            assert field.description or nested or name in ("seed", "device"), f"{schema.__name__}.{name}"


def test_every_paraphrastic_model_sets_the_arguments_its_encoder_reads():
    """`dvc exp run -S paraphrastic.NAME.KEY=V` can only override a key params.yaml has (Hydra refuses new ones)."""
    for name, block in PARAMS["paraphrastic"].items():
        needed = set(ParaphrasticConfig.model_fields) - NOT_APPLICABLE | set(ENCODER_ARGUMENTS[block["encoder"]])
        assert needed <= set(block), f"paraphrastic.{name} lacks {sorted(needed - set(block))}"


def test_a_runs_name_changes_one_setting_and_its_seed():
    """Siamese CBOW's runs (the training-amount curve, in-batch negatives, Figures 3 and 4, each under other seeds)
    and the supervised runs' seeds are named, not configured: each name changes what it says and nothing else; seed 1
    is the model's own name and an unknown form is one error."""
    model = SiameseCBOWConfig.model_validate(PARAMS["model"])
    changed = {name: {k: v for k, v in siamese_cbow_run(name, model).model_dump().items()
                      if v != model.model_dump()[k]}
               for name in ("siamese_cbow", "siamese_cbow-lrsum30", "siamese_cbow-inbatch-seed2", "siamese_cbow-neg10",
                            "siamese_cbow-dim600-seed12")}
    assert changed == {"siamese_cbow": {}, "siamese_cbow-lrsum30": {"optimizer": "sgd", "sgd_lr_sum": 30.0}
                       if model.optimizer != "sgd" else {"sgd_lr_sum": 30.0},
                       "siamese_cbow-inbatch-seed2": {"negatives": "batch", "seed": 2},
                       "siamese_cbow-neg10": {"neg": 10}, "siamese_cbow-dim600-seed12": {"dim": 600, "seed": 12}}
    for bad in ("siamese_cbow-seed1", "siamese_cbow-neg0", "siamese_cbow-seed2-inbatch", "cbow"):
        with pytest.raises(SentembError, match=f"unknown model '{bad}'"):
            siamese_cbow_run(bad, model)
    supervised = SupervisedConfig.model_validate(PARAMS["supervised"])
    setting, seeded = supervised_run("gran", "universal-seed4", supervised)
    assert setting == "universal" and seeded.training.seed == 4
    assert seeded.model_copy(update={"training": supervised.training}) == supervised
    assert supervised_run("avg", "random", supervised) == ("random", supervised)
    for model_name, bad in (("avg", "random-seed1"), ("avg", "fine-tuned"), ("bert", "random")):
        with pytest.raises(SentembError, match="supervise: unknown model"):
            supervised_run(model_name, bad, supervised)
