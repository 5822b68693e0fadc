"""BERT fine-tuning for sentence classification, in the flow of the original run_classifier.py:
TFRecords of input_ids/input_mask/segment_ids/label_ids, TPUEstimator(use_tpu=False),
init_from_checkpoint through scaffold_fn, eval_metrics=(metric_fn, [...]).

    python examples/bert/run_classifier.py --data_dir examples/bert/data \\
        --bert_config_file runs/minilm/bert_config.json --vocab_file runs/minilm/vocab.txt \\
        --init_checkpoint runs/minilm/bert_model.ckpt --output_dir runs/bert_sentiment
"""
import argparse
import csv
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..")]
import estimator_compat  # noqa: E402

estimator_compat.install()  # the one added line: tf.contrib.tpu, tf.estimator, ... resolve

import modeling  # noqa: E402
import optimization  # noqa: E402
import tokenization  # noqa: E402


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter="\t"))[1:]
    return [(row[1], int(row[0])) for row in rows]


def convert_to_tfrecord(examples, tokenizer, max_seq_length, path):
    with tf.python_io.TFRecordWriter(path) as writer:
        for text, label in examples:
            tokens = ["[CLS]"] + tokenizer.tokenize(text)[:max_seq_length - 2] + ["[SEP]"]
            ids = tokenizer.convert_tokens_to_ids(tokens)
            pad = max_seq_length - len(ids)
            feature = {
                "input_ids": ids + [0] * pad,
                "input_mask": [1] * len(ids) + [0] * pad,
                "segment_ids": [0] * max_seq_length,
                "label_ids": [label],
                "is_real_example": [1]}
            example = tf.train.Example(features=tf.train.Features(feature={
                k: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
                for k, v in feature.items()}))
            writer.write(example.SerializeToString())


def input_fn_builder(input_file, seq_length, is_training, drop_remainder):
    name_to_features = {
        "input_ids": tf.FixedLenFeature([seq_length], tf.int64),
        "input_mask": tf.FixedLenFeature([seq_length], tf.int64),
        "segment_ids": tf.FixedLenFeature([seq_length], tf.int64),
        "label_ids": tf.FixedLenFeature([], tf.int64),
        "is_real_example": tf.FixedLenFeature([], tf.int64)}

    def decode_record(record):
        example = tf.parse_single_example(record, name_to_features)
        return {k: tf.to_int32(v) for k, v in example.items()}

    def input_fn(params):
        d = tf.data.TFRecordDataset(input_file)
        if is_training:
            d = d.repeat().shuffle(buffer_size=100)
        return d.apply(tf.contrib.data.map_and_batch(
            decode_record, batch_size=params["batch_size"], drop_remainder=drop_remainder))
    return input_fn


def create_model(bert_config, is_training, input_ids, input_mask, segment_ids, labels,
                 num_labels):
    model = modeling.BertModel(config=bert_config, is_training=is_training, input_ids=input_ids,
                               input_mask=input_mask, token_type_ids=segment_ids)
    output_layer = model.get_pooled_output()
    hidden_size = output_layer.shape[-1]
    output_weights = tf.get_variable("output_weights", [num_labels, hidden_size],
                                     initializer=tf.truncated_normal_initializer(stddev=0.02))
    output_bias = tf.get_variable("output_bias", [num_labels], initializer=tf.zeros_initializer())
    with tf.variable_scope("loss"):
        if is_training:
            output_layer = tf.nn.dropout(output_layer, rate=0.1)
        logits = tf.nn.bias_add(tf.matmul(output_layer, output_weights, transpose_b=True),
                                output_bias)
        probabilities = tf.nn.softmax(logits, axis=-1)
        log_probs = tf.nn.log_softmax(logits, axis=-1)
        one_hot = tf.one_hot(labels, depth=num_labels, dtype=tf.float32)
        per_example_loss = -tf.reduce_sum(one_hot * log_probs, axis=-1)
        return tf.reduce_mean(per_example_loss), per_example_loss, logits, probabilities


def model_fn_builder(bert_config, num_labels, init_checkpoint, learning_rate, num_train_steps,
                     num_warmup_steps, use_tpu):
    def model_fn(features, labels, mode, params):
        is_training = mode == tf.estimator.ModeKeys.TRAIN
        total_loss, per_example_loss, logits, probabilities = create_model(
            bert_config, is_training, features["input_ids"], features["input_mask"],
            features["segment_ids"], features["label_ids"], num_labels)
        tvars = tf.trainable_variables()
        scaffold_fn = None
        if init_checkpoint:
            assignment_map, _ = modeling.get_assignment_map_from_checkpoint(tvars, init_checkpoint)

            def tpu_scaffold():
                tf.train.init_from_checkpoint(init_checkpoint, assignment_map)
                return tf.train.Scaffold()
            scaffold_fn = tpu_scaffold
        if mode == tf.estimator.ModeKeys.TRAIN:
            train_op = optimization.create_optimizer(total_loss, learning_rate, num_train_steps,
                                                     num_warmup_steps, use_tpu)
            return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=total_loss, train_op=train_op,
                                                   scaffold_fn=scaffold_fn)
        if mode == tf.estimator.ModeKeys.EVAL:
            def metric_fn(per_example_loss, label_ids, logits, is_real_example):
                predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
                weights = tf.cast(is_real_example, tf.float32)
                return {"eval_accuracy": tf.metrics.accuracy(label_ids, predictions, weights),
                        "eval_loss": tf.metrics.mean(per_example_loss, weights)}
            eval_metrics = (metric_fn, [per_example_loss, features["label_ids"], logits,
                                        features["is_real_example"]])
            return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=total_loss,
                                                   eval_metrics=eval_metrics,
                                                   scaffold_fn=scaffold_fn)
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode,
                                               predictions={"probabilities": probabilities},
                                               scaffold_fn=scaffold_fn)
    return model_fn


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data_dir", default=os.path.join(HERE, "data"))
    p.add_argument("--bert_config_file", required=True)
    p.add_argument("--vocab_file", required=True)
    p.add_argument("--init_checkpoint", default=None)
    p.add_argument("--output_dir", required=True)
    p.add_argument("--max_seq_length", type=int, default=32)
    p.add_argument("--train_batch_size", type=int, default=32)
    p.add_argument("--eval_batch_size", type=int, default=20)
    p.add_argument("--predict_batch_size", type=int, default=20)
    p.add_argument("--learning_rate", type=float, default=5e-5)
    p.add_argument("--num_train_epochs", type=float, default=3.0)
    p.add_argument("--warmup_proportion", type=float, default=0.1)
    p.add_argument("--iterations_per_loop", type=int, default=10)
    p.add_argument("--seed", type=int, default=None, help="RunConfig tf_random_seed")
    args = p.parse_args(argv)
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.gfile.MakeDirs(args.output_dir)
    bert_config = modeling.BertConfig.from_json_file(args.bert_config_file)
    tokenizer = tokenization.FullTokenizer(args.vocab_file, do_lower_case=True)
    train = read_tsv(os.path.join(args.data_dir, "train.tsv"))
    dev = read_tsv(os.path.join(args.data_dir, "dev.tsv"))
    num_train_steps = int(len(train) / args.train_batch_size * args.num_train_epochs)
    num_warmup_steps = int(num_train_steps * args.warmup_proportion)
    train_file = os.path.join(args.output_dir, "train.tf_record")
    eval_file = os.path.join(args.output_dir, "eval.tf_record")
    convert_to_tfrecord(train, tokenizer, args.max_seq_length, train_file)
    convert_to_tfrecord(dev, tokenizer, args.max_seq_length, eval_file)

    run_config = tf.contrib.tpu.RunConfig(
        cluster=None, master=None, model_dir=args.output_dir, save_checkpoints_steps=1000,
        tf_random_seed=args.seed,
        tpu_config=tf.contrib.tpu.TPUConfig(
            iterations_per_loop=args.iterations_per_loop, num_shards=8,
            per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))
    model_fn = model_fn_builder(bert_config, 2, args.init_checkpoint, args.learning_rate,
                                num_train_steps, num_warmup_steps, use_tpu=False)
    estimator = tf.contrib.tpu.TPUEstimator(
        use_tpu=False, model_fn=model_fn, config=run_config,
        train_batch_size=args.train_batch_size, eval_batch_size=args.eval_batch_size,
        predict_batch_size=args.predict_batch_size)
    estimator.train(input_fn_builder(train_file, args.max_seq_length, True, True),
                    max_steps=num_train_steps)
    result = estimator.evaluate(input_fn_builder(eval_file, args.max_seq_length, False, False))
    with tf.gfile.GFile(os.path.join(args.output_dir, "eval_results.txt"), "w") as f:
        for key in sorted(result):
            f.write(f"{key} = {result[key]}\n")
    probabilities = [p["probabilities"] for p in estimator.predict(
        input_fn_builder(eval_file, args.max_seq_length, False, False))]
    print(json.dumps({"eval_accuracy": float(result["eval_accuracy"]),
                      "eval_loss": float(result["eval_loss"]),
                      "global_step": int(result["global_step"]),
                      "predictions": len(probabilities)}))
    return result, probabilities


if __name__ == "__main__":
    main()
