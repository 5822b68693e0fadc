"""A TF 1.x classifier pruned while it trains, in the style of the model_pruning README and its
cifar10 example: layers from tf.contrib.model_pruning (masked_fully_connected), the pruning
hparams parsed from a string, `Pruning(hparams, global_step=...)`, its
`conditional_mask_update_op()` grouped with the train op in a tf.estimator model_fn, and its
summaries; then a pruned inference graph from the checkpoint (graph_def_from_checkpoint,
strip_pruning_vars_fn). Synthetic data: 4 classes, the argmax of a fixed linear map of 12
features.

    python pruned_mlp.py --model_dir DIR [--steps 60]
Prints `RESULT {"accuracy": ..., "sparsity": {...}, ...}`.
"""
import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "where the Estimator writes")
flags.DEFINE_integer("steps", 60, "training steps")
FLAGS = flags.FLAGS

FEATURES, CLASSES = 12, 4
PRUNING = ("name=mlp_pruning,begin_pruning_step=10,end_pruning_step=50,target_sparsity=0.75,"
           "sparsity_function_begin_step=10,sparsity_function_end_step=40,pruning_frequency=5,"
           "weight_sparsity_map=[logits/weights:0.5]")


def examples(n, seed):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, FEATURES)).astype(np.float32)
    w = np.random.RandomState(7).normal(size=(FEATURES, CLASSES))
    return x, np.argmax(x.dot(w), axis=1).astype(np.int64)


def input_fn(n, seed, train):
    def fn():
        x, y = examples(n, seed)
        data = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
        data = data.shuffle(n, seed=1).repeat() if train else data
        return data.batch(64)
    return fn


def model_fn(features, labels, mode):
    mp = tf.contrib.model_pruning
    init = tf.glorot_uniform_initializer(seed=3)
    hidden = mp.masked_fully_connected(features["x"], 32, weights_initializer=init,
                                       scope="hidden")
    logits = mp.masked_fully_connected(hidden, CLASSES, activation_fn=None,
                                       weights_initializer=init, scope="logits")
    predictions = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"class": predictions})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    metrics = {"accuracy": tf.metrics.accuracy(labels, predictions)}
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)
    global_step = tf.train.get_global_step()
    train_op = tf.train.AdamOptimizer(0.02).minimize(loss, global_step)
    hparams = mp.get_pruning_hparams().parse(PRUNING)
    pruning = mp.Pruning(hparams, global_step=global_step)
    mask_update_op = pruning.conditional_mask_update_op()
    pruning.add_pruning_summaries()
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.group(train_op,
                                                                        mask_update_op))


def pruned_graph(model_dir):
    """The checkpoint's graph frozen and stripped of its masks: its masked weights as
    constants, the fraction of zeros in each."""
    mp = tf.contrib.model_pruning
    with tf.Graph().as_default():
        frozen = mp.graph_def_from_checkpoint(model_dir, ["logits/BiasAdd"])
    stripped = mp.strip_pruning_vars_fn(frozen, ["logits/BiasAdd"])
    consts = {}
    for node in stripped.node:
        if node.name.endswith("masked_weight"):
            value = tf.make_ndarray(node.attr["value"].tensor)
            consts[node.name] = round(float(np.mean(value == 0)), 4)
    return {"masked_weight_consts": consts,
            "masks_left": sorted(n.name for n in stripped.node if n.name.endswith("/mask"))}


def pruning_summary_tags(model_dir):
    """The pruning summaries' tags the Estimator wrote in its training events."""
    tags = set()
    for path in tf.gfile.Glob(model_dir + "/events.out.tfevents.*"):
        for event in tf.train.summary_iterator(path):
            tags.update(v.tag for v in event.summary.value if "pruning" in v.tag)
    return sorted(tags)


def main(_):
    config = tf.estimator.RunConfig(tf_random_seed=0, save_checkpoints_steps=1000)
    estimator = tf.estimator.Estimator(model_fn, FLAGS.model_dir, config=config)
    estimator.train(input_fn(1024, 0, True), steps=FLAGS.steps)
    result = estimator.evaluate(input_fn(512, 1, False))
    value = estimator.get_variable_value
    print("RESULT " + json.dumps({
        "accuracy": float(result["accuracy"]),
        "sparsity": {n: round(float(np.mean(value(n + "/mask") == 0)), 4)
                     for n in ("hidden", "logits")},
        "thresholds": {n: round(float(value(n + "/threshold")), 4) for n in ("hidden", "logits")},
        "last_update": int(value("mlp_pruning/last_mask_update_step")),
        "pruned_graph": pruned_graph(FLAGS.model_dir),
        "summary_tags": pruning_summary_tags(FLAGS.model_dir),
        "variables": sorted(estimator.get_variable_names())}))


if __name__ == "__main__":
    tf.app.run()
