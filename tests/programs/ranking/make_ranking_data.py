"""Synthetic learning-to-rank data for the ranking programs: LibSVM text files (LETOR's format),
the same lists as ExampleInExample TFRecords (TF-Ranking's EIE format), and lists with query
and document tokens as ExampleListWithContext TFRecords (ELWC, `*_elwc.tfrecords`).

Each query has 5-24 documents with 20 features in [0, 1); a document's relevance (0-4) grows
with a hidden linear score plus noise. In the ELWC lists a query has a topic token and 0-2
filler tokens (a sparse context feature), a document a topic token and one filler token, and
relevance is half the numeric one plus 2 when the document's topic is the query's.
Usage: python make_ranking_data.py --data_dir DIR
"""
import argparse
import os

import numpy as np
import tensorflow as tf

NUM_FEATURES = 20


def documents(seed, num_queries):
    rng = np.random.RandomState(seed)
    weights = np.random.RandomState(0).normal(size=NUM_FEATURES)
    for query in range(num_queries):
        docs = []
        for _ in range(rng.randint(5, 25)):
            x = rng.rand(NUM_FEATURES)
            score = x @ weights + 0.3 * rng.normal()
            docs.append((int(np.clip(np.floor(score - weights.sum() / 2 + 1.5), 0, 4)), x))
        yield query, docs


def write_libsvm(path, seed, num_queries):
    with open(path, "w") as f:
        for query, docs in documents(seed, num_queries):
            for relevance, x in docs:
                feats = " ".join(f"{i + 1}:{v:.4f}" for i, v in enumerate(x) if v > 0.1)
                f.write(f"{relevance} qid:{query} {feats}\n")


def _example(features):
    return tf.train.Example(features=tf.train.Features(feature={
        name: tf.train.Feature(float_list=tf.train.FloatList(value=[value]))
        for name, value in features.items()}))


def write_eie(path, seed, num_queries):
    with tf.io.TFRecordWriter(path) as writer:
        for query, docs in documents(seed, num_queries):
            context = _example({"query_length": float(len(docs))})
            examples = [_example(dict({f"f{i + 1}": float(v) for i, v in enumerate(x)},
                                      relevance=float(relevance)))
                        for relevance, x in docs]
            eie = tf.train.Example(features=tf.train.Features(feature={
                "serialized_context": tf.train.Feature(bytes_list=tf.train.BytesList(
                    value=[context.SerializeToString()])),
                "serialized_examples": tf.train.Feature(bytes_list=tf.train.BytesList(
                    value=[e.SerializeToString() for e in examples]))}))
            writer.write(eie.SerializeToString())


TOPICS = 6
FILLERS = 4


def _token_example(features, tokens_key, tokens):
    example = _example(features)
    example.features.feature[tokens_key].bytes_list.value.extend(t.encode() for t in tokens)
    return example


def _length_delimited(field_number, payload):
    """One length-delimited protobuf field (wire type 2): ELWC is written without
    tensorflow_serving's input_pb2, as TF-Ranking parses it (`examples` = 1, `context` = 2)."""
    def varint(n):
        out = bytearray()
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not n:
                return bytes(out)
    return varint(field_number << 3 | 2) + varint(len(payload)) + payload


def write_elwc(path, seed, num_queries):
    rng = np.random.RandomState(seed + 100)  # the numeric lists are the EIE files' own
    with tf.io.TFRecordWriter(path) as writer:
        for _, docs in documents(seed, num_queries):
            topic = rng.randint(TOPICS)
            fillers = rng.choice(FILLERS, rng.randint(0, 3), replace=False)
            context = _token_example({}, "query_tokens",
                                     [f"t{topic}"] + [f"w{w}" for w in fillers])
            examples = []
            for relevance, x in docs:
                doc_topic = topic if rng.rand() < 0.3 else rng.randint(TOPICS)
                label = relevance // 2 + (2 if doc_topic == topic else 0)
                example = _token_example({f"f{i + 1}": float(v) for i, v in enumerate(x)},
                                         "document_tokens",
                                         [f"t{doc_topic}", f"w{rng.randint(FILLERS)}"])
                example.features.feature["relevance"].int64_list.value.append(label)
                examples.append(example)
            writer.write(b"".join(_length_delimited(1, e.SerializeToString()) for e in examples)
                         + _length_delimited(2, context.SerializeToString()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.data_dir, exist_ok=True)
    for name, seed, queries in (("train", 1, 300), ("vali", 2, 60), ("test", 3, 60)):
        write_libsvm(os.path.join(args.data_dir, f"{name}.txt"), seed, queries)
        write_eie(os.path.join(args.data_dir, f"{name}.tfrecords"), seed, queries)
        write_elwc(os.path.join(args.data_dir, f"{name}_elwc.tfrecords"), seed, queries)
    print("wrote", sorted(os.listdir(args.data_dir)))


if __name__ == "__main__":
    main()
