"""tensorflow_estimator 2.15's `export.function` helpers that work on their own: a model_fn
traced into a `tf.compat.v1.wrap_function` graph and the pieces of a serving receiver pruned
out of it. `_EstimatorWrappedGraph` (a WrappedGraph with a global step, `wrap_model_fn` and
`wrap_input_receiver_fn`), `_wrap_and_verify_model_fn`, `_filter_estimator_spec_outputs`,
`_canonicalize_receiver_tensors`, `_input_receiver_fn_name`, `_prune_receiver_tensors`, with
2.15's results and errors. (Its ModelFunction / EstimatorSpecFunction, built on these:
export_model_function.py.)"""
import tensorflow as tf
from tensorflow.python.eager import wrap_function
from tensorflow.python.framework import func_graph
from tensorflow.python.saved_model.model_utils import export_utils

from estimator_compat.fn_args import fn_args
from estimator_compat.mode_keys import ModeKeys

_RECEIVER_FN_NAME = "_input_receiver"


def _wrap_and_verify_model_fn(model_fn, mode=None, config=None, params=None,
                              input_signature=None):
    """(a function of the tensors alone: features, and labels when model_fn takes them and
    the signature has two parts; whether model_fn takes labels). model_fn's arguments are
    checked as the Estimator checks them (ValueError)."""
    from estimator_compat.legacy.estimator_tree.imported_privates import (
        _verify_model_fn_args,
    )
    _verify_model_fn_args(model_fn, params)
    args = fn_args(model_fn)
    kwargs = {k: v for k, v in (("mode", mode), ("params", params), ("config", config))
              if k in args}
    takes_labels = "labels" in args
    if takes_labels and (input_signature is None or len(input_signature) == 2):
        def wrapped_model_fn(features, labels=None):
            return model_fn(features=features, labels=labels, **kwargs)
    elif takes_labels:
        def wrapped_model_fn(features):
            return model_fn(features=features, labels=None, **kwargs)
    else:
        def wrapped_model_fn(features):
            return model_fn(features=features, **kwargs)
    return wrapped_model_fn, takes_labels


def _filter_estimator_spec_outputs(spec):
    """{predictions, train_op} of a TRAIN spec, {predictions} otherwise."""
    if spec.mode == ModeKeys.TRAIN:
        return dict(predictions=spec.predictions, train_op=spec.train_op)
    return dict(predictions=spec.predictions)


def _canonicalize_receiver_tensors(receiver_tensors):
    """A dict of receiver tensors ({'input': t} for a lone tensor); ValueError for anything
    but plain tensors."""
    for tensor in tf.nest.flatten(receiver_tensors):
        if not isinstance(tensor, tf.Tensor):
            raise ValueError("All receiver tensors must be tensors (composite tensors are not "
                             "yet supported).")
    if isinstance(receiver_tensors, dict):
        return receiver_tensors
    return {export_utils.SINGLE_RECEIVER_DEFAULT_NAME: receiver_tensors}


def _input_receiver_fn_name(name):
    """'_input_receiver', or '_input_receiver_<name>' for an alternative receiver."""
    return _RECEIVER_FN_NAME if name is None else f"{_RECEIVER_FN_NAME}_{name}"


def _prune_receiver_tensors(wrapped_function, receiver_tensors, outputs, name):
    """The function of `wrapped_function`'s graph from the receiver tensors (keyword
    arguments by their names) to `outputs`."""
    inputs = _canonicalize_receiver_tensors(receiver_tensors)
    return wrapped_function.prune(
        inputs, outputs, name=name,
        input_signature=(None, func_graph.convert_structure_to_signature(inputs)))


class _EstimatorWrappedGraph(wrap_function.WrappedGraph):
    """A WrappedGraph whose functions share a global step (`global_step` reads it) and which
    wraps one model_fn (`wrap_model_fn`: its EstimatorSpec kept as `estimator_spec`, the
    function returning `_filter_estimator_spec_outputs`) and serving receivers."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._global_step_read_fn = self.wrap_function(self._global_step, signature=[])
        self._concrete_model_fn = None
        self._estimator_spec = None

    def _global_step(self):
        return tf.compat.v1.train.get_or_create_global_step()

    @property
    def global_step(self):
        return self._global_step_read_fn()

    @property
    def model_fn(self):
        return self._concrete_model_fn

    @property
    def estimator_spec(self):
        if self._concrete_model_fn is None:
            raise ValueError("Please wrap a model function first.")
        return self._estimator_spec

    def wrap_model_fn(self, model_fn, mode, args=None, kwargs=None, signature=None):
        """The concrete function `model_fn_<mode>` of model_fn (once per graph)."""
        from estimator_compat.spec import EstimatorSpec
        if self._concrete_model_fn is not None:
            raise ValueError("`wrap_model_fn` should be only called once per graph.")

        def fn(*args, **kwargs):
            returned = model_fn(*args, **kwargs)
            if isinstance(returned, EstimatorSpec):
                self._estimator_spec = returned
                return _filter_estimator_spec_outputs(returned)
            return returned
        self._concrete_model_fn = self._wrap_function(fn, args, kwargs, signature,
                                                      f"model_fn_{mode}")
        return self._concrete_model_fn

    def wrap_input_receiver_fn(self, input_receiver_fn):
        """[(function of the receiver tensors to features (and labels), None), then one per
        alternative receiver: (function, its name)], traced into this graph."""
        made = []

        def fn():
            receiver = input_receiver_fn()
            made.append(receiver)
            labels = getattr(receiver, "labels", None)
            return receiver.features if labels is None else (receiver.features, labels)
        func_graph.func_graph_from_py_func(
            None, self._variable_holder.call_with_variable_creator_scope(fn), args=None,
            kwargs=None, signature=[], add_control_dependencies=False, func_graph=self.graph)
        receiver = made[0]
        outputs = self.graph.structured_outputs
        functions = [(_prune_receiver_tensors(self._wrapped_function, receiver.receiver_tensors,
                                              outputs, _input_receiver_fn_name(None)), None)]
        for name, tensors in (getattr(receiver, "receiver_tensors_alternatives", None)
                              or {}).items():
            functions.append((_prune_receiver_tensors(
                self._wrapped_function, _canonicalize_receiver_tensors(tensors), outputs,
                _input_receiver_fn_name(name)), name))
        return functions
