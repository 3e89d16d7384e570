"""student@TEACHER: a paraphrastic model distilled into a static word table (model2vec's recipe,
sentemb.distillation.static_student): each word of the corpus vocabulary encoded alone by models/TEACHER, PCA and SIF
weights as params ``students`` say → models/TEACHER-static/, a word-averaging model with the teacher's tokenisation."""

from _common import params, run

from sentemb.core.data.vocab import Vocabulary
from sentemb.core.models import load_model
from sentemb.core.models.format import read_config
from sentemb.core.models.word_averaging import save_word_averaging_model
from sentemb.core.text.config import text_config
from sentemb.distillation.config import StudentConfig
from sentemb.distillation.static_student import distil


def main(teacher: str) -> None:
    config = params("students", StudentConfig)
    directory = f"models/{teacher}"
    vectors, record = distil(load_model(directory), Vocabulary.load("data/vocab.tsv"), config)
    text = text_config(read_config(directory).get("text"), f"{directory}/config.json")
    save_word_averaging_model(f"models/{teacher}-static", f"{teacher}-static", vectors, text,
                              info={"trainer": "sentemb.distillation.static_student", "distillation": record})
    print(f"student {teacher}-static: {record}")


if __name__ == "__main__":
    run(main)
