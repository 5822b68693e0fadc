"""`streaming_covariance` and `streaming_pearson_correlation`: the (weighted) co-moment updated
batch by batch (Chan et al.'s pairwise update), in TF1's variables `count`, `mean_prediction`,
`mean_label`, `comoment`; Pearson's r is three such covariances under `pearson_r/`."""
import tensorflow as tf

from estimator_compat.legacy.contrib.metrics import variables as mv

_v1 = tf.compat.v1


def streaming_covariance(predictions, labels, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """The unbiased (sample) covariance of predictions and labels over the stream."""
    with _v1.variable_scope(name, "covariance", (predictions, labels, weights)):
        labels, predictions = mv.squeeze_pair(tf.convert_to_tensor(labels),
                                              tf.convert_to_tensor(predictions))
        predictions.shape.assert_is_compatible_with(labels.shape)
        x = tf.reshape(tf.cast(predictions, tf.float32), [-1])
        y = tf.reshape(tf.cast(labels, tf.float32), [-1])
        w = mv.flat_weights(weights, x)
        count = mv.metric_variable([], tf.float32, "count")
        mean_x = mv.metric_variable([], tf.float32, "mean_prediction")
        mean_y = mv.metric_variable([], tf.float32, "mean_label")
        comoment = mv.metric_variable([], tf.float32, "comoment")

        batch_count = tf.reduce_sum(w)
        batch_mean_x = tf.math.divide_no_nan(tf.reduce_sum(w * x), batch_count)
        batch_mean_y = tf.math.divide_no_nan(tf.reduce_sum(w * y), batch_count)
        batch_comoment = tf.reduce_sum(w * (x - batch_mean_x) * (y - batch_mean_y))
        new_count = count + batch_count
        share = tf.math.divide_no_nan(batch_count, new_count)
        cross = (mean_x - batch_mean_x) * (mean_y - batch_mean_y) * count * share
        # the co-moment's update reads the old means: it runs before they move
        update_comoment = _v1.assign_add(comoment, batch_comoment + cross)
        with tf.control_dependencies([update_comoment]):
            update_x = _v1.assign_add(mean_x, (batch_mean_x - mean_x) * share)
            update_y = _v1.assign_add(mean_y, (batch_mean_y - mean_y) * share)
            with tf.control_dependencies([update_x, update_y]):
                update_count = _v1.assign_add(count, batch_count)

        nan = tf.constant(float("nan"), tf.float32)
        value = tf.where(count > 1.0, comoment / (count - 1.0), nan, name="covariance")
        update = tf.where(update_count > 1.0, update_comoment / (update_count - 1.0), nan,
                          name="update_op")
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def streaming_pearson_correlation(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Pearson's r of predictions and labels over the stream."""
    with _v1.variable_scope(name, "pearson_r", (predictions, labels, weights)):
        labels, predictions = mv.squeeze_pair(tf.convert_to_tensor(labels),
                                              tf.convert_to_tensor(predictions))
        predictions.shape.assert_is_compatible_with(labels.shape)
        cov, update_cov = streaming_covariance(predictions, labels, weights,
                                               name="covariance")
        var_x, update_var_x = streaming_covariance(predictions, predictions, weights,
                                                   name="variance_predictions")
        var_y, update_var_y = streaming_covariance(labels, labels, weights,
                                                   name="variance_labels")
        value = tf.math.truediv(cov, tf.sqrt(var_x) * tf.sqrt(var_y), name="pearson_r")
        update = tf.math.truediv(update_cov, tf.sqrt(update_var_x) * tf.sqrt(update_var_y),
                                 name="update_op")
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


FUNCTIONS = dict(streaming_covariance=streaming_covariance,
                 streaming_pearson_correlation=streaming_pearson_correlation)
