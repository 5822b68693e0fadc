"""contrib.learn's abstract interfaces and errors: `Trainable`, `Evaluable`, `BaseEstimator`,
`NotFittedError`, `NanLossDuringTrainingError`, and the `PredictionKey` names.

`tf.contrib.learn.Estimator` (and its canned classes) are `BaseEstimator`s, so
`isinstance(est, Trainable)` holds as in TF 1.15. `NanLossDuringTrainingError` is contrib's
own class (not `tf.train`'s), a RuntimeError, raised by the `NanLoss` monitor.
"""
import abc


class Trainable(abc.ABC):
    """What can be fitted: `fit(x, y, input_fn, steps, batch_size, monitors, max_steps)`."""

    @abc.abstractmethod
    def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None,
            max_steps=None):
        raise NotImplementedError


class Evaluable(abc.ABC):
    """What can be evaluated: `evaluate(...)` and its `model_dir`."""

    @property
    @abc.abstractmethod
    def model_dir(self):
        raise NotImplementedError

    @abc.abstractmethod
    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None,
                 steps=None, metrics=None, name=None, checkpoint_path=None, hooks=None):
        raise NotImplementedError


class BaseEstimator(Trainable, Evaluable):
    """The base of contrib.learn's estimators (abstract: `tf.contrib.learn.Estimator` is the
    one to instantiate)."""


class NotFittedError(ValueError, AttributeError):
    """An estimator used before it was fitted."""


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class PredictionKey:
    """The keys of contrib.learn's canned predictions."""
    CLASSES = "classes"
    PROBABILITIES = "probabilities"
    LOGITS = "logits"
    LOGISTIC = "logistic"
    SCORES = "scores"
    TOP_K = "top_k"
    GENERIC = "output"
