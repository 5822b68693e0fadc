"""The TensorBoard summaries tf.estimator's canned models wrote, under the same tags; their
costly parts computed only on the steps that write them (summary_ops.when_due).

tf.compat.v1.estimator's classes (TF 1.15's `tf.estimator`, in TF 1.15 and in 2.15 alike)
wrote their model summaries one scope deeper than tf.estimator 2.15's V2 classes, and their
heads, with a summed loss, added the training `average_loss` (tests/fixtures/tag_census/
holds both originals' tags). V2 class / tf.compat.v1.estimator class:

- DNN layers: `dnn/hiddenlayer_N/activation` and `/fraction_of_zero_values`, `dnn/logits/...`
  / `dnn/dnn/hiddenlayer_N/...`, `dnn/dnn/logits/...`;
- the linear model: `bias`, `fraction_of_zero_weights` / `linear/bias`,
  `linear/fraction_of_zero_weights`;
- wide & deep's linear logits: `linear/activation`, `linear/fraction_of_zero_values` /
  `linear/linear/...`;
- the head (heads/base.py): `loss` (`loss/<name>`) and `regularization_loss` / the same and
  `average_loss` (loss_reduction SUM only).

`V1_PREFIX` gives the V1 classes' prefixes, by part.
"""
import tensorflow as tf

from estimator_compat.engine.summary_ops import when_due

v1 = tf.compat.v1
V1_PREFIX = {"dnn": "dnn/", "linear": "linear/"}


def layer_summary(tag, value):
    """`<tag>/fraction_of_zero_values` and the `<tag>/activation` histogram (DNN layers)."""
    v1.summary.scalar(f"{tag}/fraction_of_zero_values",
                      when_due(lambda: tf.math.zero_fraction(value), lambda: tf.constant(0.0)))
    v1.summary.histogram(f"{tag}/activation", value)  # deferred by summary_ops


def linear_summaries(scope, prefix=""):
    """`<prefix>bias` and `<prefix>fraction_of_zero_weights` of the linear model's variables
    under `scope`."""
    variables = v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES, scope=scope)
    is_bias = [v.name.split(":")[0].endswith("/bias_weights") for v in variables]
    bias = [v for v, b in zip(variables, is_bias) if b]
    weights = [v for v, b in zip(variables, is_bias) if not b]
    if bias:
        if bias[0].shape[0] > 1:
            v1.summary.histogram(prefix + "bias", bias[0])
        else:
            v1.summary.scalar(prefix + "bias", bias[0][0])
    if weights:
        v1.summary.scalar(prefix + "fraction_of_zero_weights",
                          when_due(lambda: _fraction_of_zeros(weights), lambda: tf.constant(0.0)))


def _fraction_of_zeros(weights):
    sizes = [tf.cast(tf.size(w), tf.float32) for w in weights]
    zeros = tf.add_n([tf.math.zero_fraction(w) * s for w, s in zip(weights, sizes)])
    return tf.math.divide_no_nan(zeros, tf.add_n(sizes))
