"""CheckpointInputPipelineHook (TF 1.15's tf.contrib.data / tf.data.experimental): the training
input's position is saved with each model checkpoint and training resumes from it.

TF 1.15.5 on the same program (`range(100).batch(1)`, save_checkpoints_steps=3): train(steps=5)
with the hook read elements 0..4 and wrote input.ckpt-0, -3, -5 listed in `checkpoint_input`;
train(steps=4) with a new hook read 5..8; a train(steps=2) without the hook read 0, 1."""
import os

import tensorflow as tf

import estimator_compat as ec
from estimator_compat.hooks.input_checkpoint import CheckpointInputPipelineHook

v1 = tf.compat.v1


def model_fn(features, labels, mode):
    """`seen` adds up the elements read."""
    seen = v1.get_variable("seen", [], tf.int64, initializer=v1.zeros_initializer())
    step = v1.train.get_or_create_global_step()
    train_op = tf.group(seen.assign_add(tf.reduce_sum(features)), step.assign_add(1))
    return ec.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=train_op)


def input_fn():
    return tf.data.Dataset.range(100).batch(1)


def test_training_resumes_where_the_input_stopped(tmp_path):
    est = ec.Estimator(model_fn, config=ec.RunConfig(model_dir=str(tmp_path),
                                                     save_checkpoints_steps=3))
    est.train(input_fn, steps=5, hooks=[CheckpointInputPipelineHook(est)])
    assert est.get_variable_value("seen") == 0 + 1 + 2 + 3 + 4
    state = tf.train.get_checkpoint_state(str(tmp_path), latest_filename="checkpoint_input")
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        "input.ckpt-0", "input.ckpt-3", "input.ckpt-5"]
    assert all(os.path.isabs(p) for p in state.all_model_checkpoint_paths)
    est.train(input_fn, steps=4, hooks=[CheckpointInputPipelineHook(est)])
    assert est.get_variable_value("seen") == 10 + 5 + 6 + 7 + 8
    est.train(input_fn, steps=2)  # without the hook: from the start
    assert est.get_variable_value("seen") == 36 + 0 + 1


def test_served_where_tf_1_15_had_it():
    ec.install()
    assert tf.compat.v1.data.experimental.CheckpointInputPipelineHook is \
        CheckpointInputPipelineHook
    assert tf.contrib.data.CheckpointInputPipelineHook is CheckpointInputPipelineHook
    try:
        CheckpointInputPipelineHook(object())
    except TypeError as e:
        assert "Estimator" in str(e)
    else:
        raise AssertionError("a non-Estimator was taken")
