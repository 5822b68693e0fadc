"""tf.contrib.learn.Estimator and its canned estimators, over tf.estimator's.

contrib.learn's API on the same engine: `fit(input_fn, steps, max_steps, monitors)`,
`evaluate(input_fn, steps, metrics={name: MetricSpec or metric_fn})`, `predict(input_fn,
outputs, as_iterable)` (the canned classifiers yield class ids, `predict_proba` the
probabilities; regressors the scores), `export_savedmodel(..., default_output_alternative_key)`.
The canned classes (`DNNClassifier`, `LinearRegressor`, ...) are learn/canned_classes.py's,
importable from here as well.
`train` / `evaluate` / `export_saved_model` with tf.estimator's arguments work as well, so
Experiment and train_and_evaluate run them.
"""
import numpy as np
import tensorflow as tf

from estimator_compat.engine.input_pipeline import call_input_fn
from estimator_compat.engine.model_fn_call import call_model_fn as call_core_model_fn
from estimator_compat.estimator import Estimator as CoreEstimator
from estimator_compat.learn import label_signature, model_fn_ops, numpy_input
from estimator_compat.learn.interfaces import BaseEstimator
from estimator_compat.mode_keys import ModeKeys


def _input_fn(x, y, input_fn, batch_size, what, mode, dict_key=None):
    """`input_fn`, or one feeding the numpy `x` / `y` as TF 1.15's data feeders did."""
    if x is not None and input_fn is not None:
        raise ValueError(f"{what}() takes either x (and y) or input_fn, not both.")
    if x is None and y is not None:
        raise ValueError(f"{what}(y=...) needs x too.")
    if x is not None:
        return numpy_input.numpy_input_fn(
            x, y, batch_size, shuffle=mode == ModeKeys.TRAIN,
            num_epochs=None if mode == ModeKeys.TRAIN else 1, dict_key=dict_key)
    if input_fn is None:
        raise ValueError(f"{what}() needs input_fn (or x and y).")
    return input_fn


def _wrapped(model_fn, metrics, feature_engineering_fn):
    """model_fn with contrib.learn's feature_engineering_fn in front and evaluate's metrics
    added to its eval_metric_ops."""
    if not metrics and feature_engineering_fn is None:
        return model_fn

    def wrapped(features, labels, mode, params, config):
        if feature_engineering_fn is not None:
            features, labels = feature_engineering_fn(features, labels)
        spec = call_core_model_fn(model_fn, features, labels, mode, params, config)
        if mode == ModeKeys.EVAL and metrics:
            added = model_fn_ops.metric_ops(metrics, features, labels, spec.predictions)
            spec = spec._replace(eval_metric_ops=dict(spec.eval_metric_ops, **added))
        return spec
    return wrapped


class ContribAPI:
    """contrib.learn's fit / evaluate / predict, on the tf.estimator class it is mixed into."""
    _prediction_key = None  # the canned estimators' default predict output
    _numpy_key = None  # the canned estimators read a bare x as the feature ''

    def _contrib_setup(self, feature_engineering_fn=None):
        self._plain_model_fn = self._model_fn
        self._feature_engineering_fn = feature_engineering_fn
        self._metrics = None
        self.default_metrics = None  # Experiment(eval_metrics=...) sets them
        self._model_fn = _wrapped(self._plain_model_fn, None, feature_engineering_fn)

    def _use_metrics(self, metrics):
        if metrics is self._metrics:
            return
        self._metrics = metrics
        self._model_fn = _wrapped(self._plain_model_fn, metrics, self._feature_engineering_fn)
        for state in self._states.values():
            state.forget_step(ModeKeys.EVAL)

    def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None,
            max_steps=None):
        """Trains `steps` more steps (or to `max_steps`, or to the end of the input)."""
        from estimator_compat.learn.monitors import replace_monitors_with_hooks
        self.train(_input_fn(x, y, input_fn, batch_size, "fit", ModeKeys.TRAIN, self._numpy_key),
                   hooks=replace_monitors_with_hooks(monitors, self), steps=steps,
                   max_steps=max_steps)
        return self

    def partial_fit(self, x=None, y=None, input_fn=None, steps=1, batch_size=None,
                    monitors=None):
        return self.fit(x, y, input_fn, steps=steps, batch_size=batch_size, monitors=monitors)

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None,
                 metrics=None, name=None, checkpoint_path=None, hooks=None, log_progress=True):
        """{metric: value, 'loss', 'global_step'} of a checkpoint on `input_fn`."""
        if feed_fn is not None:  # TF 1.15: a FeedFnHook after the caller's hooks
            hooks = list(hooks or ()) + [tf.compat.v1.train.FeedFnHook(feed_fn)]
        input_fn = _input_fn(x, y, input_fn, batch_size, "evaluate", ModeKeys.EVAL,
                             self._numpy_key)
        self._use_metrics(metrics if metrics is not None else self.default_metrics)
        return CoreEstimator.evaluate(self, input_fn, steps=steps, hooks=hooks,
                                      checkpoint_path=checkpoint_path, name=name)

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True,
                iterate_batches=False):
        """Predictions per example (per batch with iterate_batches); arrays when not
        as_iterable. The canned estimators give their default output alone."""
        key = self._prediction_key if outputs is None else None
        results = _labels_from_signature(self, CoreEstimator.predict(
            self, _one_batch_if_constant(
                _input_fn(x, None, input_fn, batch_size, "predict", ModeKeys.PREDICT,
                          self._numpy_key), self),
            predict_keys=[key] if key else outputs, yield_single_examples=not iterate_batches))
        if key is not None:
            results = (_squeezed(r[key]) for r in results)
        if as_iterable:
            return results
        results = list(results)
        if results and isinstance(results[0], dict):
            return {k: np.stack([r[k] for r in results]) for k in results[0]}
        return np.stack(results)

    def _regroup_eval_results(self, results):
        """The model_fn's own `loss` metric (a head's) as `loss`, in place of the mean of the
        batches' losses, as TF 1.15 reported (and logged and wrote) it (engine/eval_loop.py)."""
        if model_fn_ops.HEAD_LOSS in results:
            results["loss"] = results.pop(model_fn_ops.HEAD_LOSS)
        return results

    def export_savedmodel(self, export_dir_base, serving_input_fn,
                          default_output_alternative_key=None, assets_extra=None,
                          as_text=False, checkpoint_path=None, graph_rewrite_specs=None,
                          strip_default_attrs=False):
        self._default_output_alternative_key = default_output_alternative_key
        return self.export_saved_model(export_dir_base, serving_input_fn,
                                       assets_extra=assets_extra, as_text=as_text,
                                       checkpoint_path=checkpoint_path)


def _labels_from_signature(estimator, results):
    """predict()'s results, the model_fn traced meanwhile seeing the labels placeholders of
    `label_signature` (export traces it with labels None, as TF 1.15 did)."""
    estimator._in_predict = True
    try:
        yield from results
    finally:
        estimator._in_predict = False


def _one_batch_if_constant(input_fn, estimator):
    """TF 1.15's contrib predict read an input_fn without queue runners (constant tensors,
    an iterator's get_next()) once: one batch of predictions, not an endless repeat of it.
    Datasets and queue input pass through."""
    graph = tf.Graph()
    try:
        with graph.as_default():
            result = call_input_fn(input_fn, ModeKeys.PREDICT, estimator.params,
                                   estimator.config)
    except Exception:  # noqa: BLE001 - an input_fn that needs eager: left to the engine
        return input_fn
    if isinstance(result, tf.data.Dataset) or graph.get_collection(
            tf.compat.v1.GraphKeys.QUEUE_RUNNERS):
        return input_fn

    def one_batch(params=None, config=None):
        result = call_input_fn(input_fn, ModeKeys.PREDICT, params, config)
        if isinstance(result, (tuple, list)):
            result = result[0] if len(result) == 1 or result[1] is None else tuple(result)
        return tf.data.Dataset.from_tensors(result)
    return one_batch


def _squeezed(value):
    value = np.asarray(value)
    return value.reshape(()) if value.size == 1 else value


class Estimator(ContribAPI, CoreEstimator):
    """tf.contrib.learn.Estimator: a model_fn returning ModelFnOps or (predictions, loss,
    train_op), taking features and labels by position and mode/params/config/model_dir by
    name."""

    def __init__(self, model_fn=None, model_dir=None, config=None, params=None,
                 feature_engineering_fn=None):
        if not callable(model_fn):
            raise ValueError(f"model_fn must be callable, given {model_fn!r}")
        self._default_output_alternative_key = None
        self._labels_signature = None  # of the first fit / evaluate: see label_signature
        self._in_predict = False

        def core_model_fn(features, labels, mode, config):
            if mode == ModeKeys.PREDICT:
                labels = (label_signature.placeholders(self._labels_signature, features)
                          if self._in_predict else None)
            elif self._labels_signature is None:
                self._labels_signature = label_signature.signature(labels)
            ops = model_fn_ops.call_model_fn(model_fn, features, labels, mode, params, config,
                                             self.model_dir)
            if mode == ModeKeys.PREDICT and labels is not None:
                label_signature.check_predictions(ops.predictions, labels)
            if isinstance(ops, model_fn_ops.ModelFnOps):
                return ops.estimator_spec(self._default_output_alternative_key)
            return ops
        super().__init__(core_model_fn, model_dir=model_dir, config=config)
        self._contrib_params = params
        self._contrib_setup(feature_engineering_fn)

    @property
    def params(self):
        return self._contrib_params


BaseEstimator.register(ContribAPI)


class _CannedClassifier(ContribAPI):
    _prediction_key = "class_ids"
    _numpy_key = ""

    def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        return self.predict(x, input_fn, batch_size, as_iterable=as_iterable)

    def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        results = (r["probabilities"] for r in CoreEstimator.predict(
            self, _one_batch_if_constant(
                _input_fn(x, None, input_fn, batch_size, "predict_proba", ModeKeys.PREDICT,
                          self._numpy_key), self),
            predict_keys=["probabilities"]))
        return results if as_iterable else np.stack(list(results))


class _CannedRegressor(ContribAPI):
    _prediction_key = "predictions"
    _numpy_key = ""

    def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        return self.predict(x, input_fn, batch_size, as_iterable=as_iterable)


_CANNED_NAMES = ("DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor",
                 "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor", "CANNED")


def __getattr__(name):
    """The canned classes, from learn/canned_classes.py (which imports this module)."""
    if name in _CANNED_NAMES:
        from estimator_compat.learn import canned_classes
        return getattr(canned_classes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
