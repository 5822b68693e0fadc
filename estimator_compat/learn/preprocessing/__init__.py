"""`tf.contrib.learn.preprocessing`: text and categorical processors of numpy input.

TF 1.15 name                              here
`CategoricalVocabulary`                   `categorical_vocabulary.py`
`tokenizer`, `TOKENIZER_RE`,              `text.py`
`ByteProcessor`, `VocabularyProcessor`
`CategoricalProcessor`                    `categorical.py`
`setup_processor_data_feeder`             below
"""
from estimator_compat.learn.preprocessing.categorical import CategoricalProcessor  # noqa: F401
from estimator_compat.learn.preprocessing.categorical_vocabulary import (  # noqa: F401
    CategoricalVocabulary)
from estimator_compat.learn.preprocessing.text import (  # noqa: F401
    TOKENIZER_RE, ByteProcessor, VocabularyProcessor, tokenizer)


def setup_processor_data_feeder(x):
    """`x` itself: the processors read lists, arrays and pandas objects alike."""
    return x


__all__ = ["CategoricalProcessor", "CategoricalVocabulary", "TOKENIZER_RE", "ByteProcessor",
           "VocabularyProcessor", "tokenizer", "setup_processor_data_feeder"]
