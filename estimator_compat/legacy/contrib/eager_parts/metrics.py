"""`tfe.metrics`: TF 1.15's eager-friendly metric objects (`Mean`, `Accuracy`, ...).

A metric makes its variables on its first call (`build`), under a variable scope fixed when it
was made; `call` updates them and `result()` reads them. Eagerly a call updates at once; in a
graph `call` is a function (TF 1.15: a defun, here a `tf.function`), so the tensors a call
returns are the outputs of one op that runs every update. Graph-mode variables are local and
metric variables (global ones with `use_global_variables=True`).
"""
import re

import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.framework import ops
from tensorflow.python.framework import smart_cond
from tensorflow.python.ops import summary_ops_v2
from tensorflow.python.trackable import base as trackable

_v1 = tf.compat.v1
_UNSAFE = re.compile("[^A-Za-z0-9.]")


class Metric(trackable.Trackable):
    """State aggregated over an evaluation: subclasses define `build()` (variables, through
    `add_variable`), `call()` (updates) and `result()`."""

    def __init__(self, name=None, use_global_variables=False):
        self._built = False
        self._vars = []
        self._initial_values = {}
        self._updates = []
        self._use_global_variables = use_global_variables
        name = name or self.__class__.__name__
        scope_name = _UNSAFE.sub("_", name)
        with _v1.variable_scope(scope_name, use_resource=True, reuse=False) as scope:
            suffix = scope.name[scope.name.rfind(scope_name) + len(scope_name):]
            self._name = name + suffix
            self._scope = scope
        self._build = self.build

        def actual_build(*args, **kwargs):
            self._build(*args, **kwargs)
            self._built = True
        actual_build.__doc__ = self._build.__doc__
        self.build = actual_build
        if context.executing_eagerly():
            self._construction_scope = context.eager_mode
        else:
            self._construction_scope = ops.get_default_graph().as_default
            self.call = tf.function(self.call)

    def __call__(self, *args, **kwargs):
        """Updates the metric with a batch (eagerly at once; in a graph, the returned tensors
        run the update)."""
        if not self._built:
            with _v1.variable_scope(self._scope), self._construction_scope():
                self.build(*args, **kwargs)
            self._built = True
        return self.call(*args, **kwargs)

    @property
    def name(self):
        return self._name

    @property
    def variables(self):
        return self._vars

    def init_variables(self):
        """Resets the variables: eagerly at once (returns None), in a graph the op that does."""
        if context.executing_eagerly():
            for v in self._vars:
                v.assign(self._initial_values[v.ref()])
            return None
        return tf.group([v.initializer for v in self._vars])

    def build(self, *args, **kwargs):
        raise NotImplementedError("Metrics must define a build() member function")

    def call(self, *args, **kwargs):
        raise NotImplementedError("Metrics must define a call() member function")

    def result(self):
        raise NotImplementedError("Metrics must define a result() member function")

    def value(self):
        """Eagerly the `result` method itself; in a graph the result tensor."""
        return self.result if context.executing_eagerly() else self.result()

    def aggregate(self, metrics):
        """Adds the variables of `metrics` (same type, same variable order) into these."""
        for m in metrics:
            if type(self) is not type(m):
                raise TypeError("All metrics must be the same type, '%s' != '%s'." %
                                (type(self), type(m)))
        for i, variable in enumerate(self._vars):
            if any(m._vars[i].name != variable.name for m in metrics):
                raise ValueError("All metrics must have variables in the same order.")
            variable.assign_add(tf.add_n([m._vars[i] for m in metrics]))

    def add_variable(self, name, shape=None, dtype=None, initializer=None):
        """A variable of this metric (only inside `build()`)."""
        if self._built:
            raise RuntimeError("Can't call add_variable() except in build().")
        if context.executing_eagerly():
            collections = None
        else:
            collections = [ops.GraphKeys.GLOBAL_VARIABLES if self._use_global_variables
                           else ops.GraphKeys.LOCAL_VARIABLES, ops.GraphKeys.METRIC_VARIABLES]
        v = self._add_variable_with_custom_getter(
            name=name, shape=shape, dtype=dtype, initializer=initializer, trainable=False,
            collections=collections, use_resource=True, getter=_v1.get_variable,
            overwrite=True)
        self._vars.append(v)
        if context.executing_eagerly():
            self._initial_values[v.ref()] = v.value()
        return v


class Mean(Metric):
    """The (weighted) mean of the values given."""

    def __init__(self, name=None, dtype=tf.float64, use_global_variables=False):
        super().__init__(name=name, use_global_variables=use_global_variables)
        self.dtype = dtype

    def build(self, *args, **kwargs):
        del args, kwargs
        self.numer = self.add_variable(name="numer", shape=(), dtype=self.dtype,
                                       initializer=_v1.zeros_initializer)
        self.denom = self.add_variable(name="denom", shape=(), dtype=self.dtype,
                                       initializer=_v1.zeros_initializer)

    def call(self, values, weights=None):
        """Adds `values` (weighted by `weights`); returns the arguments as used."""
        if weights is None:
            self.denom.assign_add(tf.cast(tf.identity(tf.size(values)), self.dtype))
            values = tf.reduce_sum(values)
            self.numer.assign_add(tf.cast(values, self.dtype))
            return values
        weights = tf.cast(weights, self.dtype)
        self.denom.assign_add(tf.reduce_sum(weights))
        values = tf.cast(values, self.dtype) * weights
        self.numer.assign_add(tf.reduce_sum(values))
        return values, weights

    def result(self, write_summary=True):
        """numer / denom, also written as a summary scalar under the metric's name where a
        default summary writer records (`write_summary`)."""
        if not isinstance(write_summary, tf.Tensor):
            write_summary = ops.convert_to_tensor(write_summary)
        t = self.numer / self.denom

        def write():
            summary_ops_v2.scalar(name=self.name, tensor=t)
            return t
        smart_cond.smart_cond(write_summary, write, lambda: t, name="")
        return t


def _same_shape(labels, predictions, message):
    tf.debugging.assert_equal(tf.shape(labels), tf.shape(predictions), message=message)


class Accuracy(Mean):
    """How often `predictions` equals `labels`."""

    def __init__(self, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)

    def call(self, labels, predictions, weights=None):
        _same_shape(labels, predictions, "Shapes of labels and predictions are unequal")
        matches = tf.cast(tf.equal(labels, predictions), self.dtype)
        super().call(matches, weights=weights)
        return (labels, predictions) if weights is None else (labels, predictions, weights)


class CategoricalAccuracy(Mean):
    """How often the argmax of `predictions` equals that of the one-hot `labels`."""

    def __init__(self, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)

    def call(self, labels, predictions, weights=None):
        _same_shape(labels, predictions, "Shapes of labels and predictions are unequal")
        labels = tf.argmax(labels, axis=-1)
        predictions = tf.argmax(predictions, axis=-1)
        super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
        return (labels, predictions) if weights is None else (labels, predictions, weights)


class BinaryAccuracy(Mean):
    """How often `predictions > threshold` equals the 0/1 `labels`."""

    def __init__(self, threshold, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)
        self.threshold = threshold

    def call(self, labels, predictions, weights=None):
        _same_shape(labels, predictions, "Shapes of labels and predictions are unequal")
        predictions = ops.convert_to_tensor(predictions) > self.threshold
        labels = tf.cast(labels, tf.bool)
        super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
        return (labels, predictions) if weights is None else (labels, predictions, weights)


class SparseAccuracy(Mean):
    """How often the argmax of `predictions` equals the integer `labels`."""

    def __init__(self, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)

    def call(self, labels, predictions, weights=None):
        tf.debugging.assert_equal(tf.shape(labels), tf.shape(predictions)[0],
                                  message="First axis of labels and predictions is unequal")
        predictions = tf.argmax(predictions, axis=-1)
        labels = tf.cast(labels, tf.int64)
        super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
        return (labels, predictions) if weights is None else (labels, predictions, weights)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.eager.metrics", "tf.contrib.eager.metrics",
                     __served_whole__=True, Metric=Metric, Mean=Mean, Accuracy=Accuracy,
                     CategoricalAccuracy=CategoricalAccuracy, BinaryAccuracy=BinaryAccuracy,
                     SparseAccuracy=SparseAccuracy)
