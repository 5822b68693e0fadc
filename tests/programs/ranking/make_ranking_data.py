"""Synthetic learning-to-rank data for the ranking programs: LibSVM text files (LETOR's format)
and the same lists as ExampleInExample TFRecords (TF-Ranking's EIE format).

Each query has 5-24 documents with 20 features in [0, 1); a document's relevance (0-4) grows
with a hidden linear score plus noise. Usage: python make_ranking_data.py --data_dir DIR
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.data_dir, exist_ok=True)
    for name, seed, queries in (("train", 1, 300), ("vali", 2, 60), ("test", 3, 60)):
        write_libsvm(os.path.join(args.data_dir, f"{name}.txt"), seed, queries)
        write_eie(os.path.join(args.data_dir, f"{name}.tfrecords"), seed, queries)
    print("wrote", sorted(os.listdir(args.data_dir)))


if __name__ == "__main__":
    main()
