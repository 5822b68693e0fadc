"""TPUEstimator with use_tpu=False, in the style of the original BERT run_classifier."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.legacy.contrib import layers as contrib_layers
from estimator_compat.tpu import (CrossShardOptimizer, RunConfig, TPUConfig, TPUEstimator,
                                  TPUEstimatorSpec)

v1 = tf.compat.v1


def input_fn_builder(n, is_training):
    def input_fn(params):
        batch_size = params["batch_size"]
        rng = np.random.RandomState(0)
        x = rng.normal(size=(n, 8)).astype(np.float32)
        y = (x[:, :4].sum(axis=1) > 0).astype(np.int32)
        ds = tf.data.Dataset.from_tensor_slices({"x": x, "label_ids": y})
        if is_training:
            ds = ds.repeat().shuffle(100)
        return ds.batch(batch_size, drop_remainder=is_training)
    return input_fn


def model_fn_builder(init_checkpoint=None):
    def model_fn(features, labels, mode, params):
        with v1.variable_scope("bert"):
            hidden = v1.layers.dense(features["x"], 16, activation=tf.nn.relu, name="dense")
            hidden = contrib_layers.layer_norm(hidden, begin_norm_axis=-1, begin_params_axis=-1)
        logits = v1.layers.dense(hidden, 2, name="output")
        label_ids = features["label_ids"]
        loss = v1.losses.sparse_softmax_cross_entropy(label_ids, logits)
        scaffold_fn = None
        if init_checkpoint:
            def tpu_scaffold():
                v1.train.init_from_checkpoint(init_checkpoint, {"bert/": "bert/"})
                return v1.train.Scaffold()
            scaffold_fn = tpu_scaffold
        if mode == ec.ModeKeys.TRAIN:
            opt = CrossShardOptimizer(v1.train.AdamOptimizer(0.05))
            train_op = opt.minimize(loss, global_step=v1.train.get_global_step())
            return TPUEstimatorSpec(mode, loss=loss, train_op=train_op, scaffold_fn=scaffold_fn)
        if mode == ec.ModeKeys.EVAL:
            def metric_fn(label_ids, logits):
                predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
                return {"eval_accuracy": v1.metrics.accuracy(label_ids, predictions),
                        "eval_loss": v1.metrics.mean(loss)}
            return TPUEstimatorSpec(mode, loss=loss, eval_metrics=(metric_fn, [label_ids, logits]),
                                    scaffold_fn=scaffold_fn)
        return TPUEstimatorSpec(mode, predictions={"probabilities": tf.nn.softmax(logits)},
                                scaffold_fn=scaffold_fn)
    return model_fn


def make(model_dir, init_checkpoint=None):
    config = RunConfig(model_dir=str(model_dir), save_checkpoints_steps=20,
                       tpu_config=TPUConfig(iterations_per_loop=20, num_shards=8))
    return TPUEstimator(model_fn_builder(init_checkpoint), config=config, use_tpu=False,
                        train_batch_size=32, eval_batch_size=16, predict_batch_size=8)


def test_bert_style_tpu_estimator_on_cpu(tmp_path):
    est = make(tmp_path / "m")
    est.train(input_fn_builder(256, True), max_steps=60)
    result = est.evaluate(input_fn_builder(128, False))
    assert result["global_step"] == 60 and result["eval_accuracy"] > 0.8
    assert set(result) == {"eval_accuracy", "eval_loss", "loss", "global_step"}
    preds = list(est.predict(input_fn_builder(20, False)))
    assert len(preds) == 20 and preds[0]["probabilities"].shape == (2,)
    names = set(est.get_variable_names())
    assert {"bert/dense/kernel", "bert/LayerNorm/beta", "bert/LayerNorm/gamma",
            "output/kernel"} <= names
    assert est.config.tpu_config.iterations_per_loop == 20


def test_scaffold_fn_init_from_checkpoint(tmp_path):
    pretrained = make(tmp_path / "pre")
    pretrained.train(input_fn_builder(256, True), max_steps=20)
    kernel = pretrained.get_variable_value("bert/dense/kernel")
    est = make(tmp_path / "fine", init_checkpoint=pretrained.latest_checkpoint())
    est.train(input_fn_builder(256, True), max_steps=1)
    tuned = est.get_variable_value("bert/dense/kernel")
    assert np.abs(tuned - kernel).max() < 0.1  # started from the checkpoint, one Adam step
    assert np.abs(est.get_variable_value("output/kernel") -
                  pretrained.get_variable_value("output/kernel")).max() > 0.01  # not mapped


def test_errors():
    with pytest.raises(ValueError, match="batch_size"):
        TPUEstimator(model_fn_builder(), params={"batch_size": 3}, use_tpu=False)
    with pytest.raises(ValueError, match="iterations_per_loop"):
        TPUConfig(iterations_per_loop=0)
    with pytest.raises(ValueError, match="use_tpu=False"):
        TPUEstimator(model_fn_builder(), use_tpu=True, train_batch_size=8)


def test_input_fn_and_model_fn_params_as_tf115(tmp_path):
    """TF 1.15.5's contrib TPUEstimator(use_tpu=False, params={"a": 1}): input_fn params
    ['a', 'batch_size'], model_fn params ['a', 'batch_size', 'use_tpu']."""
    seen = {}
    inputs, model_fn = input_fn_builder(64, True), model_fn_builder()

    def input_fn(params):
        seen["input"] = sorted(params)
        return inputs(params)

    def recording_model_fn(features, labels, mode, params):
        seen["model"] = sorted(params)
        return model_fn(features, labels, mode, params)
    config = RunConfig(model_dir=str(tmp_path), tpu_config=TPUConfig(iterations_per_loop=1))
    TPUEstimator(recording_model_fn, config=config, use_tpu=False, train_batch_size=8,
                 params={"a": 1}).train(input_fn, max_steps=1)
    assert seen == {"input": ["a", "batch_size"], "model": ["a", "batch_size", "use_tpu"]}
