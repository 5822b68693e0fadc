"""Tokenization classes, in the shape of BERT's tokenization.py (whole words of a small vocab)."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections
import re

import six
import tensorflow as tf


def convert_to_unicode(text):
    """Converts `text` to Unicode (if it's not already), assuming utf-8 input."""
    if isinstance(text, six.text_type):
        return text
    if isinstance(text, bytes):
        return text.decode("utf-8", "ignore")
    raise ValueError("Unsupported string type: %s" % (type(text)))


def load_vocab(vocab_file):
    """Loads a vocabulary file into a dictionary."""
    vocab = collections.OrderedDict()
    index = 0
    with tf.gfile.GFile(vocab_file, "r") as reader:
        while True:
            token = convert_to_unicode(reader.readline())
            if not token:
                break
            token = token.strip()
            vocab[token] = index
            index += 1
    return vocab


class FullTokenizer(object):
    """Lower-cases, splits words from punctuation, maps unknown words to [UNK]."""

    def __init__(self, vocab_file, do_lower_case=True):
        self.vocab = load_vocab(vocab_file)
        self.inv_vocab = {v: k for k, v in self.vocab.items()}
        self.do_lower_case = do_lower_case

    def tokenize(self, text):
        text = convert_to_unicode(text)
        if self.do_lower_case:
            text = text.lower()
        return [t if t in self.vocab else "[UNK]"
                for t in re.findall(r"[a-z0-9]+|[^a-z0-9\s]", text)]

    def convert_tokens_to_ids(self, tokens):
        return [self.vocab[t] for t in tokens]

    def convert_ids_to_tokens(self, ids):
        return [self.inv_vocab[i] for i in ids]
