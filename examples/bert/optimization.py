"""BERT's optimizer: Adam with decoupled weight decay, linear warmup then linear decay."""
import re

import tensorflow.compat.v1 as tf


def create_optimizer(loss, init_lr, num_train_steps, num_warmup_steps, use_tpu):
    """The train_op: clipped gradients, AdamWeightDecay, and the global step increment."""
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.train.polynomial_decay(tf.constant(init_lr, tf.float32), global_step,
                                              num_train_steps, end_learning_rate=0.0, power=1.0)
    if num_warmup_steps:
        step = tf.cast(global_step, tf.float32)
        warmup = init_lr * step / float(num_warmup_steps)
        learning_rate = tf.where(step < num_warmup_steps, warmup, learning_rate)
    tf.summary.scalar("learning_rate", learning_rate)
    optimizer = AdamWeightDecayOptimizer(learning_rate, weight_decay_rate=0.01,
                                         exclude_from_weight_decay=["LayerNorm", "layer_norm",
                                                                    "bias"])
    if use_tpu:
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    tvars = tf.trainable_variables()
    grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), clip_norm=1.0)
    train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
    # AdamWeightDecay does not increment the step itself (as in the original BERT).
    return tf.group(train_op, global_step.assign(global_step + 1))


class AdamWeightDecayOptimizer(tf.train.Optimizer):
    """Adam whose weight decay is added to the update, not to the loss (no bias correction)."""

    def __init__(self, learning_rate, weight_decay_rate=0.0, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-6, exclude_from_weight_decay=None, name="AdamWeightDecayOptimizer"):
        super().__init__(False, name)
        self.learning_rate, self.weight_decay_rate = learning_rate, weight_decay_rate
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.exclude_from_weight_decay = exclude_from_weight_decay or []

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        updates = []
        for grad, param in grads_and_vars:
            if grad is None or param is None:
                continue
            grad = tf.convert_to_tensor(grad)  # IndexedSlices of the embedding gather
            param_name = re.sub(r":\d+$", "", param.name)
            m = tf.get_variable(param_name + "/adam_m", param.shape.as_list(), tf.float32,
                                trainable=False, initializer=tf.zeros_initializer())
            v = tf.get_variable(param_name + "/adam_v", param.shape.as_list(), tf.float32,
                                trainable=False, initializer=tf.zeros_initializer())
            next_m = self.beta_1 * m + (1.0 - self.beta_1) * grad
            next_v = self.beta_2 * v + (1.0 - self.beta_2) * tf.square(grad)
            update = next_m / (tf.sqrt(next_v) + self.epsilon)
            if self.weight_decay_rate and not any(
                    re.search(p, param_name) for p in self.exclude_from_weight_decay):
                update += self.weight_decay_rate * param
            updates.extend([param.assign(param - self.learning_rate * update), m.assign(next_m),
                            v.assign(next_v)])
        return tf.group(*updates, name=name)
