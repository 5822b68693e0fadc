"""contrib.learn heads' centered bias (`enable_centered_bias=True`), kept apart from heads.py
because it is a small model of its own, with its own variable, summaries and optimizer.

As TF 1.15 made it, in the head's scope:
- `centered_bias_weight`: zeros of the logits' size, trainable, a plain `tf.Variable` (never
  partitioned), added to the logits (`BiasAdd`) before the head's predictions and loss;
- a scalar summary of each entry, `<scope>/centered_bias/bias_<i>` (`.../bias_<i>/<head_name>`
  for a named head);
- in TRAIN, `centered_bias_step`: the head's loss of the bias alone (tiled over the batch),
  taken as TF 1.15 took it: the mean of the head's training loss and its reported (weight-
  normalized) loss, one and the same for a custom `loss_fn` or without weights, minimized by
  Adagrad at 0.1 on the bias only (slot `<scope>/<scope>/centered_bias_weight/Adagrad`, no
  global step); the head groups it with the model's train op in `train_op`.
"""
import tensorflow as tf

v1 = tf.compat.v1


def centered_bias(logits_dimension, head_name=None):
    """The `centered_bias_weight` variable, with a summary per entry."""
    bias = v1.Variable(tf.zeros([logits_dimension]), name="centered_bias_weight",
                       trainable=True)
    for i in range(logits_dimension):
        tag = f"centered_bias/bias_{i}/{head_name}" if head_name else f"centered_bias/bias_{i}"
        v1.summary.scalar(tag, bias[i])
    return bias


def centered_bias_step(bias, batch_size, losses, head_loss):
    """The op training `bias` alone; `losses(logits)` is the head's (training loss, reported
    loss) for logits of shape [batch_size, logits_dimension]. The update waits for
    `head_loss`, so the model's step reads the bias as it was before it (TF 1.15 left the order
    to its executor, which read it so in our recordings unless the model's optimizer trained
    the bias too)."""
    with v1.name_scope(None, "centered_bias_step") as name:
        logits = tf.reshape(tf.tile(bias, [batch_size]), [batch_size, tf.shape(bias)[0]])
        with v1.name_scope(None, "centered_bias"):
            loss = tf.reduce_mean(tf.stack(losses(logits)), name="training_loss")
    optimizer = v1.train.AdagradOptimizer(0.1)
    gradients = optimizer.compute_gradients(loss, var_list=[bias])
    with tf.control_dependencies([head_loss]):
        return optimizer.apply_gradients(gradients, name=name)
