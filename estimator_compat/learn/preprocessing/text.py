"""`tf.contrib.learn.preprocessing`'s text processors: `tokenizer`, `ByteProcessor`,
`VocabularyProcessor`.

Documents become fixed-length rows of ids (numpy), as the TF 1.x text classification
examples fed them to `numpy_input_fn`: `VocabularyProcessor` maps tokens to ids of a
`CategoricalVocabulary` (0 pads and stands for unknown words), `ByteProcessor` maps a
document to its UTF-8 bytes. `save` / `restore` pickle the processor with TF 1.15's attribute
names, so a vocabulary saved by a TF 1.15 program restores here.
"""
import pickle
import re

import numpy as np

from estimator_compat.learn.preprocessing.categorical_vocabulary import CategoricalVocabulary

TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)

__all__ = ["TOKENIZER_RE", "tokenizer", "ByteProcessor", "VocabularyProcessor"]


def tokenizer(iterator):
    """Yields each document's tokens: words (with ' and -), and capitalized runs split."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class ByteProcessor:
    """Documents as rows of `max_document_length` UTF-8 bytes (uint8, zero padded)."""

    def __init__(self, max_document_length):
        self.max_document_length = max_document_length

    def fit(self, x):
        """Nothing to learn (returns None, as TF 1.15's did)."""

    def fit_transform(self, x):
        return self.transform(x)

    def reverse(self, x):
        """Yields each row's text (trailing zeros dropped; '' where it is not valid UTF-8)."""
        for data in x:
            raw = np.asarray(data, np.uint8).tobytes().rstrip(b"\0")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                yield ""

    def transform(self, x):
        """Yields a uint8 row of `max_document_length` bytes per document."""
        for document in x:
            if isinstance(document, str):
                document = document.encode("utf-8")
            row = np.frombuffer(bytes(document), np.uint8)[:self.max_document_length]
            yield np.pad(row, (0, self.max_document_length - len(row)))


class VocabularyProcessor:
    """Documents as rows of `max_document_length` word ids (int64, 0 for padding and unknown
    words); `fit` learns the vocabulary from every token (then freezes it)."""

    def __init__(self, max_document_length, min_frequency=0, vocabulary=None,
                 tokenizer_fn=None):
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary is not None else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn is not None else tokenizer

    def fit(self, raw_documents, unused_y=None):
        """Counts every token of every document, trims to `min_frequency`, freezes."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents, unused_y=None):
        """fit, then transform (an iterator is spent by fit: nothing is left to transform)."""
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents):
        """Yields an int64 row of ids per document: its first `max_document_length` tokens."""
        for tokens in self._tokenizer(raw_documents):
            row = np.zeros(self.max_document_length, np.int64)
            for i, token in enumerate(tokens[:self.max_document_length]):
                row[i] = self.vocabulary_.get(token)
            yield row

    def reverse(self, documents):
        """Yields each row's tokens joined by spaces (padding reads as the unknown token)."""
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename):
        """Pickles this processor to `filename`."""
        with open(filename, "wb") as f:
            f.write(pickle.dumps(self))

    @classmethod
    def restore(cls, filename):
        """The processor `save` (here or in TF 1.15) wrote to `filename`."""
        with open(filename, "rb") as f:
            return pickle.loads(f.read())
