"""One process of a job sharing a model_dir: `train` to max_steps, or `evaluate` in a loop.

Checkpoints every 2 steps, keeping 2, so processes on one model_dir rotate checkpoints under
each other as often as possible. Usage: python job.py train|evaluate MODEL_DIR MAX_STEPS.
Prints `DONE <global_step>` (train) or `EVALUATED <n> <last global_step>` (evaluate).
"""
import sys
import time

import numpy as np
import tensorflow as tf

import estimator_compat as ec

v1 = tf.compat.v1


def model_fn(features, labels, mode):
    logits = v1.layers.dense(v1.layers.dense(features["x"], 32, tf.nn.relu), 1)
    loss = v1.losses.mean_squared_error(labels, logits)
    train_op = v1.train.AdamOptimizer(0.01).minimize(loss, v1.train.get_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op,
                            eval_metric_ops={"mae": v1.metrics.mean_absolute_error(labels, logits)})


def input_fn(repeat=True):
    rng = np.random.RandomState(0)
    x = rng.randn(512, 8).astype(np.float32)
    y = x.sum(1, keepdims=True).astype(np.float32)
    ds = tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(32)
    return ds.repeat() if repeat else ds


def main(what, model_dir, max_steps):
    config = ec.RunConfig(save_checkpoints_steps=2, keep_checkpoint_max=2,
                          log_step_count_steps=1000)
    est = ec.Estimator(model_fn, model_dir, config=config)
    if what == "train":
        est.train(input_fn, max_steps=max_steps)
        print("DONE", est.get_variable_value("global_step"), flush=True)
        return
    done, step = 0, 0
    while step < max_steps:
        if est.latest_checkpoint() is None:
            time.sleep(0.2)
            continue
        step = int(est.evaluate(lambda: input_fn(repeat=False), steps=4)["global_step"])
        done += 1
    print("EVALUATED", done, step, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
