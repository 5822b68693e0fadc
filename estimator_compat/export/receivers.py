"""Serving input receivers: what a serving_input_receiver_fn returns, and builders of such fns."""
import collections

import tensorflow as tf

_TENSOR_TYPES = (tf.Tensor, tf.SparseTensor)


def _as_dict(value, default_key, what):
    if isinstance(value, _TENSOR_TYPES):
        return {default_key: value}
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a Tensor or a dict of string to Tensor, given: {value!r}")
    for key, tensor in value.items():
        if not isinstance(key, str):
            raise ValueError(f"{what} keys must be strings: {key!r}.")
        if not isinstance(tensor, _TENSOR_TYPES):
            raise ValueError(f"{what} {key!r} must be a Tensor or SparseTensor, given: {tensor!r}")
    return dict(value)


def _alternatives(value):
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError(f"receiver_tensors_alternatives must be a dict, given: {value!r}")
    return {name: _as_dict(t, "input", f"receiver_tensors_alternatives[{name!r}]")
            for name, t in value.items()}


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """Features for model_fn, and the tensors the served model receives (signature inputs)."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        if features is None:
            raise ValueError("features must be defined.")
        return super().__new__(cls, _as_dict(features, "feature", "feature"),
                               _as_dict(receiver_tensors, "input", "receiver_tensor"),
                               _alternatives(receiver_tensors_alternatives))


class TensorServingInputReceiver(collections.namedtuple(
        "TensorServingInputReceiver",
        ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """Like ServingInputReceiver, but model_fn gets `features` as one Tensor, not a dict."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        if not isinstance(features, _TENSOR_TYPES):
            raise ValueError(f"features must be a Tensor or SparseTensor, given: {features!r}")
        return super().__new__(cls, features, _as_dict(receiver_tensors, "input", "receiver_tensor"),
                               _alternatives(receiver_tensors_alternatives))


class SupervisedInputReceiver(collections.namedtuple(
        "SupervisedInputReceiver", ["features", "labels", "receiver_tensors"])):
    """Features and labels for TRAIN/EVAL exports."""

    def __new__(cls, features, labels, receiver_tensors):
        return super().__new__(cls, features, labels,
                               _as_dict(receiver_tensors, "input", "receiver_tensor"))


def call_receiver_fn(receiver_fn):
    """receiver_fn()'s receiver; tf.contrib.learn's InputFnOps(features, labels,
    default_inputs) is read as ServingInputReceiver(features, default_inputs)."""
    receiver = receiver_fn()
    if type(receiver).__name__ == "InputFnOps":
        receiver = ServingInputReceiver(receiver.features, receiver.default_inputs)
    return receiver


def build_parsing_serving_input_receiver_fn(feature_spec, default_batch_size=None):
    """A receiver fn that takes serialized tf.Example protos ('examples') and parses them."""
    def serving_input_receiver_fn():
        serialized = tf.compat.v1.placeholder(tf.string, [default_batch_size],
                                              name="input_example_tensor")
        features = tf.io.parse_example(serialized, feature_spec)
        return ServingInputReceiver(features, {"examples": serialized})
    return serving_input_receiver_fn


def _placeholders_like(features, default_batch_size):
    out = {}
    for name, tensor in features.items():
        shape = tf.TensorShape(tensor.shape)
        # the batch dimension replaces the first one (a scalar gains one, as in tf.estimator)
        shape = [default_batch_size] + shape.as_list()[1:] if shape.rank is not None else shape
        out[name] = tf.compat.v1.placeholder(tf.as_dtype(tensor.dtype), shape, name=name)
    return out


def build_raw_serving_input_receiver_fn(features, default_batch_size=None):
    """A receiver fn whose inputs are raw tensors shaped like `features` (any batch size)."""
    def serving_input_receiver_fn():
        receiver = _placeholders_like(features, default_batch_size)
        return ServingInputReceiver(dict(receiver), receiver)
    return serving_input_receiver_fn


def build_raw_supervised_input_receiver_fn(features, labels, default_batch_size=None):
    """A receiver fn of raw features and labels, for TRAIN/EVAL exports."""
    def supervised_input_receiver_fn():
        feats = _placeholders_like(features if isinstance(features, dict) else {"feature": features},
                                   default_batch_size)
        labs = _placeholders_like(labels if isinstance(labels, dict) else {"label": labels},
                                  default_batch_size)
        receiver = dict(feats, **labs)
        return SupervisedInputReceiver(feats if isinstance(features, dict) else feats["feature"],
                                       labs if isinstance(labels, dict) else labs["label"],
                                       receiver)
    return supervised_input_receiver_fn
