"""TF 1.15 cases for tf.contrib.slim: losses, create_train_op (its summaries and updates),
metrics, summaries, nets (names and shapes), arg_scope over slim layers."""
import numpy as np


def _inputs():
    x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4)
    labels = np.array([0, 1, 2, 1, 0, 2])
    return x, labels


def case_losses_and_total_loss(tf):
    slim = tf.contrib.slim
    x, labels = _inputs()
    logits = slim.fully_connected(x, 3, activation_fn=None,
                                  weights_initializer=tf.constant_initializer(0.1),
                                  weights_regularizer=slim.l2_regularizer(0.5), scope="logits")
    onehot = tf.one_hot(labels, 3)
    xent = slim.losses.softmax_cross_entropy(logits, onehot, label_smoothing=0.1)
    sparse = slim.losses.sparse_softmax_cross_entropy(logits, tf.constant(labels), weights=2.0)
    mse = slim.losses.mean_squared_error(logits, onehot)
    return {"xent": xent, "sparse": sparse, "mse": mse,
            "total": slim.losses.get_total_loss(),
            "without_reg": slim.losses.get_total_loss(add_regularization_losses=False),
            "reg": slim.losses.get_regularization_losses()}


def case_create_train_op_with_batch_norm(tf):
    slim = tf.contrib.slim
    x, labels = _inputs()
    with slim.arg_scope([slim.fully_connected], normalizer_fn=slim.batch_norm,
                        normalizer_params={"is_training": True, "decay": 0.5},
                        weights_initializer=tf.constant_initializer(0.2)):
        net = slim.fully_connected(tf.reshape(x, [6, 2, 2, 1]), 4, scope="hidden")
        net = slim.flatten(net)
        logits = slim.fully_connected(net, 3, activation_fn=None, normalizer_fn=None,
                                      scope="logits")
    slim.losses.sparse_softmax_cross_entropy(logits, tf.constant(labels))
    total = slim.losses.get_total_loss()
    step = tf.train.get_or_create_global_step()
    train_op = slim.learning.create_train_op(
        total, tf.train.GradientDescentOptimizer(0.5), global_step=step,
        summarize_gradients=True, clip_gradient_norm=1.0)
    moving = [v for v in tf.global_variables() if "moving" in v.op.name]

    def run(sess):
        losses = [sess.run(train_op) for _ in range(3)]
        return {"losses": losses, "step": sess.run(step),
                "moving": sess.run({v.op.name: v for v in moving}),
                "logits_w": sess.run(tf.get_default_graph().get_tensor_by_name(
                    "logits/weights:0"))}
    return run


def case_metrics_and_summaries(tf):
    slim = tf.contrib.slim
    predictions = tf.constant([1, 0, 2, 2])
    labels = tf.constant([1, 1, 2, 0])
    values, updates = slim.metrics.aggregate_metric_map({
        "accuracy": slim.metrics.streaming_accuracy(predictions, labels),
        "recall_1": slim.metrics.streaming_recall_at_k(
            tf.one_hot(predictions, 3), labels, 1),
        "mean": slim.metrics.streaming_mean(tf.constant([1.0, 3.0])),
    })
    slim.summaries.add_scalar_summary(tf.constant(2.0), "two", prefix="eval")
    slim.summaries.add_histogram_summary(tf.constant([1.0, 2.0]), "hist")
    slim.summaries.add_zero_fraction_summary(tf.constant([0.0, 1.0]), "zeros")
    merged = tf.summary.merge_all()

    def run(sess):
        sess.run(updates)
        out = sess.run(values)
        out["tags"] = sorted(v.tag for v in tf.Summary.FromString(sess.run(merged)).value)
        return out
    return run


def case_resnet_v1_small_net(tf):
    import importlib
    resnet_v1 = importlib.import_module("tensorflow.contrib.slim.nets").resnet_v1
    blocks = [resnet_v1.resnet_v1_block("block1", base_depth=2, num_units=1, stride=2),
              resnet_v1.resnet_v1_block("block2", base_depth=4, num_units=1, stride=1)]
    images = tf.constant(np.linspace(0.0, 1.0, 2 * 16 * 16 * 3, dtype=np.float32).reshape(
        2, 16, 16, 3))
    with tf.contrib.slim.arg_scope(resnet_v1.resnet_arg_scope()):
        logits, end_points = resnet_v1.resnet_v1(images, blocks, num_classes=3,
                                                 is_training=False, scope="resnet")
    return {"shape": list(logits.shape.as_list()), "end_points": sorted(end_points)}



def case_slim_layers_arg_scope_outputs(tf):
    slim = tf.contrib.slim
    images = tf.constant(np.linspace(-1.0, 1.0, 2 * 6 * 6 * 2, dtype=np.float32).reshape(
        2, 6, 6, 2))
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_initializer=tf.constant_initializer(0.1),
                        outputs_collections="endpoints"):
        net = slim.repeat(images, 2, slim.conv2d, 3, [3, 3], scope="convs")
        net = slim.avg_pool2d(net, [2, 2], scope="pool")
        net = slim.fully_connected(slim.flatten(net), 2, scope="fc")
    return {"out": net, "endpoints": [t.aliases[0] for t in tf.get_collection("endpoints")],
            "utils": sorted(slim.utils.convert_collection_to_dict("endpoints"))}


def case_evaluation_evaluate_once(tf):
    import os
    import tempfile
    slim = tf.contrib.slim
    x, labels = _inputs()
    logits = slim.fully_connected(x, 3, activation_fn=None,
                                  weights_initializer=tf.constant_initializer(0.1),
                                  biases_initializer=tf.constant_initializer([0.3, 0.2, 0.1]))
    tf.train.get_or_create_global_step()
    values, updates = slim.metrics.aggregate_metric_map({
        "accuracy": slim.metrics.streaming_accuracy(tf.argmax(logits, 1), labels)})
    directory = tempfile.mkdtemp()

    def run(sess):
        checkpoint = tf.train.Saver().save(sess, os.path.join(directory, "model.ckpt"))
        return slim.evaluation.evaluate_once("", checkpoint, os.path.join(directory, "eval"),
                                             num_evals=2, eval_op=list(updates.values()),
                                             final_op=values)
    return run
