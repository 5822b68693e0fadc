"""tensorflow_estimator 2.15's `export.function.ModelFunction`, `EstimatorSpecFunction` and
`_EstimatorSpecFunction`: a TF1 model_fn as eager-callable functions, one per mode, all modes
sharing one set of variables (a `wrap_function.VariableHolder(share_variables=True)`) that
`tf.train.Checkpoint(model_function)` saves.

2.15 built these on tf.function hooks (`_defun`, `_create_graph_function`) TensorFlow no longer
calls, so every TF1 model_fn failed there. Here the same classes trace the model_fn themselves:
once per input signature, into an `_EstimatorWrappedGraph` (export_function_privates.py, the
graph the Estimator's own graph would be: a global step, TF1 collections, `get_variable`),
and a call runs that graph: a TRAIN call runs the train_op (advancing the global step) and
returns {'predictions', 'train_op'} (None for an op), other modes {'predictions'}. Misuse raises 2.15's
errors (a mode added twice, an undefined mode, model_fn arguments the Estimator rejects)."""
import inspect

import tensorflow as tf
from tensorflow.python.eager import wrap_function
from tensorflow.python.util import nest

from estimator_compat.legacy.estimator_tree.export_function_privates import (
    _EstimatorWrappedGraph, _wrap_and_verify_model_fn,
)
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.variables import take_initial_value

_Function = tf.__internal__.function.Function


def _as_input(value):
    """A call argument as the traced graph takes it: None and tensors as they are, variables
    read, numpy arrays and Python values converted to tensors (as tf.function feeds them)."""
    if value is None or isinstance(value, tf.TypeSpec) or (
            tf.is_tensor(value) and not isinstance(value, tf.Variable)):
        return value
    return tf.convert_to_tensor(value)


def _initial_value_outside(next_creator, **kwargs):
    """`tf.Variable(<a tensor the model_fn made>)`, which a TF1 graph allowed and a traced
    graph cannot lift: its value computed once from its ops (needing no input), as the
    Estimator's own traces take it (estimator_compat.variables)."""
    initial = kwargs.get("initial_value")
    if isinstance(initial, tf.Tensor) and getattr(initial, "graph", None) is not None \
            and initial.graph.building_function:
        take_initial_value(kwargs, initial)
    return next_creator(**kwargs)


def _spec_of(value):
    if value is None or isinstance(value, tf.TensorSpec):
        return value
    if isinstance(value, tf.Tensor):
        return tf.TensorSpec(value.shape, value.dtype)
    return tf.type_spec_from_value(value)


def _relaxed(spec):
    """The spec with every dimension unknown (its rank kept): reduce_retracing's trace."""
    if isinstance(spec, tf.TensorSpec) and spec.shape.rank is not None:
        return tf.TensorSpec([None] * spec.shape.rank, spec.dtype)
    return spec


def _compatible(traced, given):
    """Whether a trace made for the `traced` specs can run the `given` ones."""
    if traced is None or given is None:
        return traced is given
    return traced.is_compatible_with(given)


class _EstimatorSpecFunction(_Function):
    """The per-signature tracer behind an EstimatorSpecFunction: `python_function` (tensors
    in, EstimatorSpec out) traced into a new `_EstimatorWrappedGraph` for each input
    signature not seen before (all of them creating their variables in `variable_holder`, so
    they share them), the traced function run on each call."""

    def __init__(self, python_function, name, variable_holder=None, **kwargs):
        super().__init__(python_function, name, **kwargs)
        self._variable_holder = variable_holder or wrap_function.VariableHolder(
            share_variables=True)
        self._traces = []  # [(specs of the bound arguments, concrete function)]

    def _bind(self, args, kwargs):
        """The call's arguments as the python_function's positional parameters."""
        try:
            bound = inspect.signature(self._python_function).bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self._name}: the arguments {args!r}, {kwargs!r} do not fit the "
                            f"model function's tensor arguments "
                            f"{inspect.signature(self._python_function)}: {e}") from None
        bound.apply_defaults()
        return tuple(bound.arguments.values())

    def _to_signature(self, args):
        """`args` as the input_signature's tensors (Python values and numpy arrays converted
        to its dtypes, as tf.function took them); TypeError when they do not fit it."""
        signature = tuple(self.input_signature)

        def convert(spec, value):
            if isinstance(spec, tf.TensorSpec) and value is not None and not isinstance(
                    value, tf.Tensor):
                return tf.convert_to_tensor(value, dtype=spec.dtype)
            return value
        try:
            args = nest.map_structure_up_to(signature, convert, signature, args)
            tf.nest.assert_same_structure(signature, args)
            ok = all(_compatible(s, _spec_of(a)) for s, a in zip(
                tf.nest.flatten(signature), tf.nest.flatten(args)))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise TypeError(f"{self._name}: the inputs {args!r} do not match the function's "
                            f"input_signature {signature!r}; pass tensors of those dtypes and "
                            f"shapes.")
        return args

    def _create_graph_function(self, args, kwargs, **unused_kwargs):
        """The model_fn traced on `args` (tensors or TensorSpecs) in a new wrapped graph."""
        graph = _EstimatorWrappedGraph(self._variable_holder)
        python_function = self._python_function

        def model_fn(*args, **kwargs):
            with tf.variable_creator_scope(_initial_value_outside):
                return python_function(*args, **kwargs)
        return graph.wrap_model_fn(model_fn, self._name,
                                   signature=self.input_signature, args=args, kwargs=kwargs)

    def _concrete(self, args):
        """(the concrete function for `args`, traced if no earlier trace fits, the args)."""
        if self.input_signature is not None:
            args = self._to_signature(args)
            specs = tuple(self.input_signature)
        else:
            args = tf.nest.map_structure(_as_input, args)
            specs = tf.nest.map_structure(_spec_of, args)
        flat_specs = tf.nest.flatten(specs)
        for traced, concrete in self._traces:
            try:
                tf.nest.assert_same_structure(traced, specs)
            except (TypeError, ValueError):
                continue
            if all(_compatible(t, s) for t, s in zip(tf.nest.flatten(traced), flat_specs)):
                return concrete, args
        if self._reduce_retracing and self.input_signature is None:
            specs = tf.nest.map_structure(_relaxed, specs)
        concrete = self._create_graph_function(
            None if self.input_signature is not None else specs, {})
        self._traces.append((specs, concrete))
        return concrete, args

    def __call__(self, *args, **kwargs):
        concrete, args = self._concrete(self._bind(args, kwargs))
        return concrete(*args)

    def get_concrete_function(self, *args, **kwargs):
        """The traced function for these arguments (tensors or TensorSpecs; the
        input_signature's when none are given)."""
        if not args and not kwargs and self.input_signature is not None:
            args = tuple(self.input_signature)
        return self._concrete(self._bind(args, kwargs))[0]

    def experimental_get_tracing_count(self):
        return len(self._traces)

    def _list_all_concrete_functions(self):
        return [concrete for _, concrete in self._traces]

    def _list_all_concrete_functions_for_serialization(self):
        return self._list_all_concrete_functions()


class EstimatorSpecFunction(_Function):
    """A model_fn of one mode as a function of its tensors: `fn(features, labels)` (or
    `fn(features)` when the model_fn takes no labels, or input_signature has one part:
    `expects_labels` says which), each new input signature traced once, returning the spec's
    {'predictions'[, 'train_op']}."""

    def __init__(self, fn, mode, config=None, params=None, variable_holder=None, **kwargs):
        python_function, self.expects_labels = _wrap_and_verify_model_fn(
            fn, mode=mode, config=config, params=params,
            input_signature=kwargs.get("input_signature"))
        super().__init__(python_function, mode, **kwargs)
        self._variable_holder = variable_holder or wrap_function.VariableHolder(
            share_variables=True)
        self._stateless = None

    def _defun(self, fn):
        """The tracer that runs `fn` (this function's python_function)."""
        return _EstimatorSpecFunction(
            fn, name=self._name, variable_holder=self._variable_holder,
            input_signature=self.input_signature, autograph=self._autograph,
            experimental_autograph_options=self._experimental_autograph_options,
            reduce_retracing=self._reduce_retracing)

    def _tracer(self):
        if self._stateless is None:
            self._stateless = self._defun(self._python_function)
        return self._stateless

    def __call__(self, *args, **kwargs):
        return self._tracer()(*args, **kwargs)

    def get_concrete_function(self, *args, **kwargs):
        return self._tracer().get_concrete_function(*args, **kwargs)

    def experimental_get_tracing_count(self):
        return 0 if self._stateless is None else self._stateless.experimental_get_tracing_count()

    def _list_all_concrete_functions(self):
        return [] if self._stateless is None else self._stateless._list_all_concrete_functions()

    def _list_all_concrete_functions_for_serialization(self):
        return self._list_all_concrete_functions()


class ModelFunction(tf.__internal__.tracking.AutoTrackable):
    """A model_fn's modes (`add_mode`, or `from_function` for TRAIN, EVAL and PREDICT) as
    EstimatorSpecFunctions sharing one set of variables (`variables`, by name; what
    `tf.train.Checkpoint(model_function)` saves): `train(features, labels)`,
    `evaluate(features, labels)`, `predict(features)`, `call(mode, features, labels)`."""

    def __init__(self, config=None, params=None):
        self._config = config
        self._params = self._no_dependency(params)  # given to model_fn as it was passed
        self._functions = {}
        self._variable_holder = wrap_function.VariableHolder(share_variables=True)
        self._variables_by_name = self._variable_holder.variables

    @staticmethod
    def from_function(model_fn, all_modes=None, config=None, params=None):
        """A ModelFunction with model_fn added for each of `all_modes` (default: TRAIN,
        EVAL, PREDICT)."""
        modes = ([ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT] if all_modes is None
                 else list(all_modes))
        model_function = ModelFunction(config=config, params=params)
        for mode in modes:
            model_function.add_mode(model_fn, mode)
        return model_function

    @property
    def variables(self):
        return self._variables_by_name

    def add_mode(self, fn, mode, input_signature=None):
        if mode in self._functions:
            raise ValueError(f"ModelFunction object has multiple functions with name {mode}.")
        self._functions[mode] = EstimatorSpecFunction(
            fn, mode, config=self._config, params=self._params,
            variable_holder=self._variable_holder, input_signature=input_signature)

    def train(self, features, labels):
        return self.call(ModeKeys.TRAIN, features, labels)

    def evaluate(self, features, labels):
        return self.call(ModeKeys.EVAL, features, labels)

    def predict(self, features):
        return self.call(ModeKeys.PREDICT, features)

    def call(self, mode, features, labels=None):
        if mode not in self._functions:
            raise ValueError(
                f"Mode {mode} is not defined the ModelFunction. To add modes, use the "
                f"`add_mode()` function. Available modes: {self._functions.keys()}")
        function = self._functions[mode]
        if function.expects_labels:
            return function(features, labels)
        return function(features)
