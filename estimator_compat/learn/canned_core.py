"""contrib.learn's canned estimators over tf.estimator's canned models: what
learn/canned_classes.py builds when every feature column is a core `tf.feature_column` one and
neither `enable_centered_bias` nor a joint-weights option is set.

contrib.learn's argument names (`weight_column_name`, `label_keys`, `feature_engineering_fn`)
mapped to tf.estimator's; checkpoints have tf.estimator's variable names, not contrib.learn's.
The default optimizers are TF 1.15's: Adagrad at 0.05 for the DNN, Ftrl at
min(0.2, 1/sqrt(number of columns)) for the linear model. `gradient_clip_norm`,
`embedding_lr_multipliers` and `input_layer_min_slice_size` act as in TF 1.15
(learn/canned_training.py).
"""
import functools
import math

import tensorflow as tf

from estimator_compat import canned
from estimator_compat.canned import dnn_linear_combined as canned_combined
from estimator_compat.canned import linear as canned_linear
from estimator_compat.canned.optimizers import check_name, get_optimizer
from estimator_compat.learn.canned_training import with_options
from estimator_compat.learn.estimator import _CannedClassifier, _CannedRegressor

DNN_LEARNING_RATE = 0.05  # contrib.learn's DNN (tf.estimator's took Keras' rate for a name)


def _named(optimizer, learning_rate):
    """A name (or None: `default`) as a callable making that optimizer at contrib.learn's
    rate; other optimizers as given."""
    if isinstance(optimizer, str):
        check_name(optimizer)
        return functools.partial(get_optimizer, optimizer, learning_rate)
    return optimizer


def _dnn_optimizer(optimizer, gradient_clip_norm, embedding_lr_multipliers):
    """The DNN's optimizer (Adagrad by default, a name at 0.05 as TF 1.15's optimize_loss
    took it) with contrib.learn's training options (learn/canned_training.py).
    `input_layer_min_slice_size` is accepted and has no effect: it set the minimum slice of
    the input layer's partitioner, which TF 1.15 gave at most one part per parameter server,
    so without parameter servers (all this library runs) its model had one part, whatever
    the size."""
    return with_options(_named(optimizer or "Adagrad", DNN_LEARNING_RATE), DNN_LEARNING_RATE,
                        gradient_clip_norm, embedding_lr_multipliers=embedding_lr_multipliers)


def _linear_optimizer(optimizer, gradient_clip_norm, feature_columns):
    """Ftrl at min(0.2, 1/sqrt(number of columns)) by default, a name at 0.2."""
    if optimizer is None:
        optimizer = _named("Ftrl", min(canned_linear.LEARNING_RATE,
                                       1.0 / math.sqrt(len(feature_columns) or 1)))
    return with_options(_named(optimizer, canned_linear.LEARNING_RATE),
                        canned_linear.LEARNING_RATE, gradient_clip_norm, style="linear")


class DNNClassifier(_CannedClassifier, canned.DNNClassifier):
    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column_name=None, optimizer=None, activation_fn=tf.nn.relu,
                 dropout=None, gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None, label_keys=None):
        super().__init__(hidden_units, feature_columns, model_dir=model_dir, n_classes=n_classes,
                         weight_column=weight_column_name, label_vocabulary=label_keys,
                         optimizer=_dnn_optimizer(optimizer, gradient_clip_norm,
                                                  embedding_lr_multipliers),
                         activation_fn=activation_fn, dropout=dropout, config=config)
        self._contrib_setup(feature_engineering_fn)


class DNNRegressor(_CannedRegressor, canned.DNNRegressor):
    def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None,
                 optimizer=None, activation_fn=tf.nn.relu, dropout=None,
                 gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, label_dimension=1, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None):
        super().__init__(hidden_units, feature_columns, model_dir=model_dir,
                         label_dimension=label_dimension, weight_column=weight_column_name,
                         optimizer=_dnn_optimizer(optimizer, gradient_clip_norm,
                                                  embedding_lr_multipliers),
                         activation_fn=activation_fn, dropout=dropout, config=config)
        self._contrib_setup(feature_engineering_fn)


class LinearClassifier(_CannedClassifier, canned.LinearClassifier):
    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
                 optimizer=None, gradient_clip_norm=None, enable_centered_bias=False,
                 _joint_weight=False, config=None, feature_engineering_fn=None, label_keys=None):
        feature_columns = list(feature_columns or [])
        super().__init__(feature_columns, model_dir=model_dir, n_classes=n_classes,
                         weight_column=weight_column_name, label_vocabulary=label_keys,
                         optimizer=_linear_optimizer(optimizer, gradient_clip_norm,
                                                     feature_columns),
                         config=config)
        self._contrib_setup(feature_engineering_fn)


class LinearRegressor(_CannedRegressor, canned.LinearRegressor):
    def __init__(self, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
                 gradient_clip_norm=None, enable_centered_bias=False, label_dimension=1,
                 _joint_weights=False, config=None, feature_engineering_fn=None):
        feature_columns = list(feature_columns or [])
        super().__init__(feature_columns, model_dir=model_dir, label_dimension=label_dimension,
                         weight_column=weight_column_name,
                         optimizer=_linear_optimizer(optimizer, gradient_clip_norm,
                                                     feature_columns),
                         config=config)
        self._contrib_setup(feature_engineering_fn)


def _combined(kind, extra):
    """contrib.learn's DNNLinearCombined{Classifier,Regressor} arguments, checked and mapped
    to tf.estimator's."""
    for served_elsewhere in ("enable_centered_bias", "_joint_linear_weights"):
        extra.pop(served_elsewhere)  # False here: canned_classes.py takes the other path
    extra.pop("fix_global_step_increment_bug")  # one step per call here, as after the fix
    extra.pop("input_layer_min_slice_size")  # see _dnn_optimizer
    clip = extra.pop("gradient_clip_norm")
    multipliers = extra.pop("embedding_lr_multipliers")
    extra["weight_column"] = extra.pop("weight_column_name")
    # contrib.learn's defaults (tf.estimator's combined model used smaller learning rates)
    columns = len(extra["linear_feature_columns"] or ()) or 1
    extra["linear_optimizer"] = with_options(extra["linear_optimizer"] or (
        lambda: tf.compat.v1.train.FtrlOptimizer(min(0.2, 1.0 / math.sqrt(columns)))),
        min(canned_combined.LINEAR_LEARNING_RATE, 1.0 / math.sqrt(columns)), clip)
    extra["dnn_optimizer"] = with_options(extra["dnn_optimizer"] or (
        lambda: tf.compat.v1.train.AdagradOptimizer(0.05)), canned_combined.DNN_LEARNING_RATE,
        clip, embedding_lr_multipliers=multipliers)
    return extra


class DNNLinearCombinedClassifier(_CannedClassifier, canned.DNNLinearCombinedClassifier):
    def __init__(self, model_dir=None, n_classes=2, weight_column_name=None,
                 linear_feature_columns=None, linear_optimizer=None, _joint_linear_weights=False,
                 dnn_feature_columns=None, dnn_optimizer=None, dnn_hidden_units=None,
                 dnn_activation_fn=tf.nn.relu, dnn_dropout=None, gradient_clip_norm=None,
                 enable_centered_bias=False, config=None, feature_engineering_fn=None,
                 embedding_lr_multipliers=None, input_layer_min_slice_size=None,
                 label_keys=None, fix_global_step_increment_bug=False):
        arguments = _combined("DNNLinearCombinedClassifier", {
            k: v for k, v in locals().items()
            if k not in ("self", "__class__", "feature_engineering_fn", "label_keys")})
        super().__init__(label_vocabulary=label_keys, **arguments)
        self._contrib_setup(feature_engineering_fn)


class DNNLinearCombinedRegressor(_CannedRegressor, canned.DNNLinearCombinedRegressor):
    def __init__(self, model_dir=None, weight_column_name=None, linear_feature_columns=None,
                 linear_optimizer=None, _joint_linear_weights=False, dnn_feature_columns=None,
                 dnn_optimizer=None, dnn_hidden_units=None, dnn_activation_fn=tf.nn.relu,
                 dnn_dropout=None, gradient_clip_norm=None, enable_centered_bias=False,
                 label_dimension=1, config=None, feature_engineering_fn=None,
                 embedding_lr_multipliers=None, input_layer_min_slice_size=None,
                 fix_global_step_increment_bug=False):
        arguments = _combined("DNNLinearCombinedRegressor", {
            k: v for k, v in locals().items()
            if k not in ("self", "__class__", "feature_engineering_fn")})
        super().__init__(**arguments)
        self._contrib_setup(feature_engineering_fn)

