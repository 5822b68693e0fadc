"""tf.contrib.learn's `SVM` (a linear SVM trained by SDCA on the hinge loss) and
`binary_svm_head`.

`binary_svm_head`: a contrib.learn head (heads.py's protocol) in the scope `binary_svm_head`:
the loss `hinge_loss/loss` (the weighted mean of max(0, 1 - (2 label - 1) logit), the
per-example losses added to LOSSES as TF 1.15 did), metrics `loss` and `accuracy`,
predictions `logits` and `classes` (logit > 0).

`SVM`: the linear model of contrib's feature columns (`weighted_sum_from_feature_columns`:
`linear/<column>/weight(s)`, `linear/bias_weight`) under that head, trained by TensorFlow's
SDCA kernel with `loss_type='hinge_loss'` (canned/sdca_step.py, the step LinearSDCA uses):
the unshrunk copies are TF 1.15's `binary_svm_head/train_op/<weight>_unshrinked/
SDCAOptimizer`, the example states its `ShardedMutableHashTable-*` tables. As TF 1.15's
SDCAOptimizer: `l1_regularization` as given, `l2_regularization` at least 1.0 (the solver's
requirement), adaptive sampling. Dense columns are real-valued ones; sparse, weighted
sparse, bucketized and crossed columns go to the kernel as sparse features. The training
loss is the hinge loss before the step's update.
"""
import collections

import tensorflow as tf

from estimator_compat.canned import linear_sdca
from estimator_compat.canned.sdca_step import SdcaStep, sparse_feature
from estimator_compat.learn import heads
from estimator_compat.learn.estimator import Estimator
from estimator_compat.learn.model_fn_ops import ProblemType

v1 = tf.compat.v1

_Settings = collections.namedtuple("_Settings", [
    "symmetric_l1_regularization", "symmetric_l2_regularization", "num_loss_partitions",
    "num_table_shards", "adaptive"])


class _BinarySvmHead(heads._Head):
    _default_scope = "binary_svm_head"
    _loss_name = "hinge_loss"
    _problem_type = ProblemType.LOGISTIC_REGRESSION

    def __init__(self, label_name, weight_column_name, enable_centered_bias, head_name,
                 thresholds):
        super().__init__(1, label_name, weight_column_name, head_name, enable_centered_bias)
        if thresholds and list(thresholds) != [0.5]:
            raise ValueError("binary_svm_head(thresholds=...): the SVM head classifies at "
                             "logit 0 and takes no other thresholds.")

    def _predictions(self, logits):
        with tf.name_scope("predictions"):
            classes = tf.argmax(tf.concat([tf.zeros_like(logits), logits], 1), 1,
                                name="classes")
        return {"logits": logits, "classes": classes}

    def _per_example_loss(self, labels, logits):
        labels = tf.cast(tf.reshape(labels, tf.shape(logits)), logits.dtype)
        return tf.reshape(v1.losses.hinge_loss(labels, logits,
                                               reduction=v1.losses.Reduction.NONE), [-1])

    def _metrics(self, per_example, weights, labels, predictions):
        logits = predictions["logits"]
        labels = tf.cast(tf.reshape(labels, tf.shape(logits)), tf.float32)
        classes = tf.reshape(predictions["classes"], tf.shape(logits))
        return {"loss": v1.metrics.mean(per_example, tf.reshape(weights, [-1])),
                "accuracy": v1.metrics.accuracy(labels, classes,
                                                tf.reshape(weights, tf.shape(logits)))}

    def _exported(self, predictions):
        return dict(predictions)


def binary_svm_head(label_name=None, weight_column_name=None, enable_centered_bias=False,
                    head_name=None, thresholds=None):
    """The hinge-loss head of a binary linear SVM (labels 0 / 1)."""
    return _BinarySvmHead(label_name, weight_column_name, enable_centered_bias, head_name,
                          thresholds)


def _sdca_inputs(features, columns, column_to_variables):
    """(sparse [(SparseFeature, weights)], dense [(tensor, weights)]) for the kernel."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    from estimator_compat.legacy.contrib.layers.feature_columns.ops import transform_all
    transformed = transform_all(features, columns)
    sparse, dense = [], []
    for column in columns:
        weights = column_to_variables[column][0]
        value = transformed[column]
        if isinstance(column, fc._RealValuedColumn):
            dense.append((column._dense(value), weights))
        elif callable(getattr(column, "id_tensor", None)):
            sparse.append((sparse_feature(column.id_tensor(value),
                                          column.weight_tensor(value)), weights))
        else:
            raise ValueError(f"SVM does not support the column {column.name!r} "
                             f"({type(column).__name__}): give real-valued, sparse, weighted "
                             "sparse, bucketized or crossed columns.")
    return sparse, dense


def _unshrunk_name(name):
    return f"binary_svm_head/train_op/{name}_unshrinked/SDCAOptimizer"


class SVM(Estimator):
    """A binary linear SVM (labels 0 / 1) trained by SDCA on the hinge loss; every example
    needs a unique id in the feature `example_id_column`."""

    def __init__(self, example_id_column, feature_columns, weight_column_name=None,
                 model_dir=None, l1_regularization=0.0, l2_regularization=0.0,
                 num_loss_partitions=1, kernels=None, config=None,
                 feature_engineering_fn=None):
        if kernels is not None:
            raise ValueError("Kernel SVMs are not currently supported.")
        if not example_id_column:
            raise ValueError("SVM needs example_id_column, the feature holding a unique id "
                             "per example.")
        if l1_regularization < 0 or l2_regularization < 0:
            raise ValueError("SVM's l1_regularization and l2_regularization must be >= 0, "
                             f"given {l1_regularization} and {l2_regularization}.")
        self._columns = list(feature_columns)
        self._example_id_column = example_id_column
        self._settings = _Settings(float(l1_regularization), max(float(l2_regularization), 1.0),
                                   num_loss_partitions, None, True)
        self._head = binary_svm_head(weight_column_name=weight_column_name)
        self._svm_weight_column = weight_column_name
        super().__init__(model_fn=self._svm_model_fn, model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn)

    def _svm_model_fn(self, features, labels, mode):
        from estimator_compat.legacy.contrib.layers.feature_columns.ops import (
            weighted_sum_from_feature_columns)
        if not isinstance(features, dict):
            raise ValueError("SVM's input_fn returns a dict of features (with the example "
                             f"ids under {self._example_id_column!r}).")
        logits, column_to_variables, bias = weighted_sum_from_feature_columns(
            features, self._columns, 1, weight_collections=["linear"], scope="linear")

        def train_op_fn(loss):
            del loss
            sparse, dense = _sdca_inputs(features, self._columns, column_to_variables)
            label_values = linear_sdca._labels(labels)
            dense.append((tf.ones([tf.shape(label_values)[0], 1]), bias))
            weights = tf.ones_like(label_values)
            if self._svm_weight_column is not None:
                weights = tf.cast(tf.reshape(features[self._svm_weight_column], [-1]),
                                  tf.float32)
            step = SdcaStep(self._settings, "hinge_loss", sparse, dense,
                            example_weights=weights, labels=label_values,
                            example_ids=linear_sdca._example_ids(features,
                                                                 self._example_id_column),
                            unshrunk_name=_unshrunk_name)
            return step.train_op(v1.train.get_global_step())
        return self._head.create_model_fn_ops(features, mode, labels, train_op_fn,
                                              logits=logits)

    def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The predicted class (0 / 1) of each example."""
        results = self.predict(x=x, input_fn=input_fn, batch_size=batch_size,
                               outputs=["classes"], as_iterable=as_iterable)
        if as_iterable:
            return (r["classes"] for r in results)
        return results["classes"]

    def predict_proba(self, x=None, input_fn=None, batch_size=None, outputs=None,
                      as_iterable=True):
        """An SVM gives no probabilities (TF 1.15 raised the same)."""
        raise ValueError("Expected to run at least one output from ['logits', 'classes'], "
                         "provided ['probabilities']: an SVM gives no probabilities; use "
                         "predict_classes or predict()'s 'logits'.")
