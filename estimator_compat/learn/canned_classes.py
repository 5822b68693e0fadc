"""tf.contrib.learn's canned estimators: `DNNClassifier`, `DNNRegressor`, `LinearClassifier`,
`LinearRegressor`, `DNNLinearCombinedClassifier`, `DNNLinearCombinedRegressor`.

As TF 1.15 built them: contrib.learn's own models (learn/head_estimators.py's DNN, linear and
wide & deep model_fns) under a contrib head (learn/heads.py): the classifiers'
`multi_class_head(n_classes, weight_column_name, enable_centered_bias, label_keys)`, the
regressors' `regression_head(weight_column_name, label_dimension, enable_centered_bias)`.
They take `tf.contrib.layers` columns (`real_valued_column`, `sparse_column_with_*`,
`embedding_column`, `one_hot_column`, `bucketized_column`, ...) and have TF 1.15's variable
names (`dnn/hiddenlayer_0/weights`, `linear/<column>/weight`, `linear/bias_weight`, a
centered bias `<scope>/<head>/centered_bias_weight`), metric keys (the head's), defaults
(the DNN: Adagrad at 0.05; the linear model: Ftrl at min(0.2, 1/sqrt(number of columns));
wide & deep: both, and without `fix_global_step_increment_bug=True` two global steps per
training step), `_joint_weight(s)` / `_joint_linear_weights` (one variable for the contrib
columns' weights) and predictions: `predict` / `predict_classes` the head's `classes`
(label_keys' strings where given), `predict_proba` its `probabilities`, `predict_scores`
its `scores`; a regressor's `evaluate(metrics={name: metric_fn})` reads the scores.

Core `tf.feature_column` columns make the same models, as in TF 1.15 (its input layer or
`linear_model` over them: `dnn/input_from_feature_columns/input_layer/...`,
`linear/linear_model/...`). `tf.contrib.linear_optimizer.SDCAOptimizer` makes TF 1.15's SDCA
model (learn/sdca_optimizer.py); only tf.estimator's `LinearSDCA`, which TF 1.15 did not have,
makes learn/canned_core.py's estimator (tf.estimator's canned linear model), still an instance
of the class here.
"""
import abc

import tensorflow as tf

from estimator_compat.canned.linear_sdca import LinearSDCA
from estimator_compat.learn import canned_core, head_estimators, heads
from estimator_compat.learn.estimator import Estimator, _CannedClassifier, _CannedRegressor
from estimator_compat.learn.model_fn_ops import MetricSpec


def _is_sdca(optimizer):
    """Whether `optimizer` is tf.contrib.linear_optimizer's SDCAOptimizer (TF 1.15's SDCA
    model: learn/sdca_optimizer.py)."""
    from estimator_compat.learn.sdca_optimizer import SDCAOptimizer
    return isinstance(optimizer, SDCAOptimizer)


class _Canned(Estimator, metaclass=abc.ABCMeta):
    _core = None  # learn/canned_core.py's class: tf.estimator's model, for LinearSDCA
    _numpy_key = None  # a bare x is the features tensor, as TF 1.15's data feeders gave it

    def _build(self, kind, params, model_dir, config, feature_engineering_fn):
        model_fn = kind if callable(kind) else head_estimators.model_fn(kind)
        # (the head's `loss` metric is evaluate's `loss`: learn/model_fn_ops.py's HEAD_LOSS)
        super().__init__(model_fn, model_dir=model_dir, config=config, params=params,
                         feature_engineering_fn=feature_engineering_fn)

    def _build_sdca(self, head, optimizer, weight_column_name, model_dir, config,
                    feature_engineering_fn):
        from estimator_compat.learn import sdca_optimizer
        self._build(head_estimators._tf1_equality(sdca_optimizer.sdca_model_fn), dict(
            head=head, feature_columns=self._feature_columns, optimizer=optimizer,
            weight_column_name=weight_column_name), model_dir, config, feature_engineering_fn)


class _Classifier(_CannedClassifier, _Canned):
    _prediction_key = "classes"
    _numpy_key = None


class _Regressor(_CannedRegressor, _Canned):
    _prediction_key = "scores"
    _numpy_key = None

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None,
                 steps=None, metrics=None, name=None, checkpoint_path=None, hooks=None,
                 log_progress=True):
        """As Estimator.evaluate; a metric given by name alone (not a MetricSpec) reads the
        `scores`, as TF 1.15's regressors passed it."""
        if metrics:
            metrics = {(key if isinstance(metric, MetricSpec) or isinstance(key, tuple)
                        else (key, "scores")): metric for key, metric in metrics.items()}
        return super().evaluate(x, y, input_fn, feed_fn, batch_size, steps, metrics, name,
                                checkpoint_path, hooks, log_progress)


def _columns(feature_columns):
    columns = tuple(feature_columns or ())
    if not columns:
        raise ValueError("feature_columns can't be empty.")
    return columns


class DNNClassifier(_Classifier):
    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column_name=None, optimizer=None, activation_fn=tf.nn.relu,
                 dropout=None, gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None, label_keys=None):
        self._feature_columns = tuple(feature_columns or ())
        head = heads.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                      enable_centered_bias=enable_centered_bias,
                                      label_keys=label_keys)
        self._build("dnn", dict(
            head=head, hidden_units=hidden_units, feature_columns=self._feature_columns,
            optimizer=optimizer, activation_fn=activation_fn, dropout=dropout,
            gradient_clip_norm=gradient_clip_norm,
            embedding_lr_multipliers=embedding_lr_multipliers,
            input_layer_min_slice_size=input_layer_min_slice_size),
            model_dir, config, feature_engineering_fn)


class DNNRegressor(_Regressor):
    def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None,
                 optimizer=None, activation_fn=tf.nn.relu, dropout=None,
                 gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, label_dimension=1, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None):
        self._feature_columns = tuple(feature_columns or ())
        head = heads.regression_head(weight_column_name=weight_column_name,
                                     label_dimension=label_dimension,
                                     enable_centered_bias=enable_centered_bias)
        self._build("dnn", dict(
            head=head, hidden_units=hidden_units, feature_columns=self._feature_columns,
            optimizer=optimizer, activation_fn=activation_fn, dropout=dropout,
            gradient_clip_norm=gradient_clip_norm,
            embedding_lr_multipliers=embedding_lr_multipliers,
            input_layer_min_slice_size=input_layer_min_slice_size),
            model_dir, config, feature_engineering_fn)


class LinearClassifier(_Classifier):
    _core = canned_core.LinearClassifier

    def __new__(cls, *args, **kwargs):
        optimizer = kwargs.get("optimizer", args[4] if len(args) > 4 else None)
        if isinstance(optimizer, LinearSDCA):  # SDCA: tf.estimator's model (canned_core.py)
            if kwargs.get("enable_centered_bias", args[6] if len(args) > 6 else False):
                raise ValueError("enable_centered_bias is not supported with SDCA")
            return cls._core(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
                 optimizer=None, gradient_clip_norm=None, enable_centered_bias=False,
                 _joint_weight=False, config=None, feature_engineering_fn=None, label_keys=None):
        self._feature_columns = _columns(feature_columns)
        if _is_sdca(optimizer):
            if enable_centered_bias:
                raise ValueError("enable_centered_bias is not supported with SDCA")
            assert not _joint_weight, "_joint_weight is incompatible with the SDCAOptimizer"
            assert n_classes == 2, "SDCA only applies to binary classification."
        head = heads.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                      enable_centered_bias=enable_centered_bias,
                                      label_keys=label_keys)
        if _is_sdca(optimizer):
            return self._build_sdca(head, optimizer, weight_column_name, model_dir, config,
                                    feature_engineering_fn)
        self._build("linear", dict(
            head=head, feature_columns=self._feature_columns, optimizer=optimizer,
            gradient_clip_norm=gradient_clip_norm, joint_weights=_joint_weight),
            model_dir, config, feature_engineering_fn)


class LinearRegressor(_Regressor):
    _core = canned_core.LinearRegressor

    def __new__(cls, *args, **kwargs):
        optimizer = kwargs.get("optimizer", args[3] if len(args) > 3 else None)
        if isinstance(optimizer, LinearSDCA):  # TF 1.15 warned and dropped the centered bias
            if kwargs.pop("enable_centered_bias", False):
                tf.compat.v1.logging.warning("centered_bias is not supported with SDCA, "
                                             "please disable it explicitly.")
            return cls._core(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
                 gradient_clip_norm=None, enable_centered_bias=False, label_dimension=1,
                 _joint_weights=False, config=None, feature_engineering_fn=None):
        self._feature_columns = _columns(feature_columns)
        if _is_sdca(optimizer):
            if enable_centered_bias:
                enable_centered_bias = False
                tf.compat.v1.logging.warning("centered_bias is not supported with SDCA, "
                                             "please disable it explicitly.")
            assert label_dimension == 1, "SDCA only applies for label_dimension=1."
            assert not _joint_weights, "_joint_weights is incompatible with SDCAOptimizer."
        head = heads.regression_head(weight_column_name=weight_column_name,
                                     label_dimension=label_dimension,
                                     enable_centered_bias=enable_centered_bias)
        if _is_sdca(optimizer):
            return self._build_sdca(head, optimizer, weight_column_name, model_dir, config,
                                    feature_engineering_fn)
        self._build("linear", dict(
            head=head, feature_columns=self._feature_columns, optimizer=optimizer,
            gradient_clip_norm=gradient_clip_norm, joint_weights=_joint_weights),
            model_dir, config, feature_engineering_fn)


def _combined_params(head, config, linear_feature_columns, linear_optimizer,
                     _joint_linear_weights, dnn_feature_columns, dnn_optimizer,
                     dnn_hidden_units, dnn_activation_fn, dnn_dropout, gradient_clip_norm,
                     embedding_lr_multipliers, input_layer_min_slice_size,
                     fix_global_step_increment_bug):
    linear_feature_columns = tuple(linear_feature_columns or ())
    dnn_feature_columns = tuple(dnn_feature_columns or ())
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    return linear_feature_columns + dnn_feature_columns, dict(
        head=head, linear_feature_columns=linear_feature_columns,
        linear_optimizer=linear_optimizer, joint_linear_weights=_joint_linear_weights,
        dnn_feature_columns=dnn_feature_columns, dnn_optimizer=dnn_optimizer,
        dnn_hidden_units=dnn_hidden_units, dnn_activation_fn=dnn_activation_fn,
        dnn_dropout=dnn_dropout, gradient_clip_norm=gradient_clip_norm,
        embedding_lr_multipliers=embedding_lr_multipliers,
        input_layer_partitioner=head_estimators.input_layer_partitioner(
            config, input_layer_min_slice_size),
        fix_global_step_increment_bug=fix_global_step_increment_bug)


class DNNLinearCombinedClassifier(_Classifier):
    def __init__(self, model_dir=None, n_classes=2, weight_column_name=None,
                 linear_feature_columns=None, linear_optimizer=None, _joint_linear_weights=False,
                 dnn_feature_columns=None, dnn_optimizer=None, dnn_hidden_units=None,
                 dnn_activation_fn=tf.nn.relu, dnn_dropout=None, gradient_clip_norm=None,
                 enable_centered_bias=False, config=None, feature_engineering_fn=None,
                 embedding_lr_multipliers=None, input_layer_min_slice_size=None,
                 label_keys=None, fix_global_step_increment_bug=False):
        head = heads.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                      enable_centered_bias=enable_centered_bias,
                                      label_keys=label_keys)
        self._feature_columns, params = _combined_params(
            head, config, linear_feature_columns, linear_optimizer, _joint_linear_weights,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
            dnn_dropout, gradient_clip_norm, embedding_lr_multipliers,
            input_layer_min_slice_size, fix_global_step_increment_bug)
        self._build("combined", params, model_dir, config, feature_engineering_fn)


class DNNLinearCombinedRegressor(_Regressor):
    def __init__(self, model_dir=None, weight_column_name=None, linear_feature_columns=None,
                 linear_optimizer=None, _joint_linear_weights=False, dnn_feature_columns=None,
                 dnn_optimizer=None, dnn_hidden_units=None, dnn_activation_fn=tf.nn.relu,
                 dnn_dropout=None, gradient_clip_norm=None, enable_centered_bias=False,
                 label_dimension=1, config=None, feature_engineering_fn=None,
                 embedding_lr_multipliers=None, input_layer_min_slice_size=None,
                 fix_global_step_increment_bug=False):
        head = heads.regression_head(weight_column_name=weight_column_name,
                                     label_dimension=label_dimension,
                                     enable_centered_bias=enable_centered_bias)
        self._feature_columns, params = _combined_params(
            head, config, linear_feature_columns, linear_optimizer, _joint_linear_weights,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
            dnn_dropout, gradient_clip_norm, embedding_lr_multipliers,
            input_layer_min_slice_size, fix_global_step_increment_bug)
        self._build("combined", params, model_dir, config, feature_engineering_fn)


CANNED = {cls.__name__: cls for cls in (
    DNNClassifier, DNNRegressor, LinearClassifier, LinearRegressor, DNNLinearCombinedClassifier,
    DNNLinearCombinedRegressor)}
for _cls in (LinearClassifier, LinearRegressor):
    _cls.register(_cls._core)  # isinstance(the LinearSDCA estimator, the class) holds
