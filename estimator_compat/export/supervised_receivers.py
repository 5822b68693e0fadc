"""tensorflow_estimator 2.15's `export.export` helpers for TRAIN/EVAL exports, which public code
imported from `tensorflow_estimator.python.estimator.export.export`:

- `wrap_and_check_input_tensors(tensors, field_name, allow_int_keys=False)`: the receivers'
  check that a value is a dict of string keys to tensors (a lone tensor is wrapped under the
  field's default key: 'feature', 'label', or 'input' for receiver tensors);
- `UnsupervisedInputReceiver(features, receiver_tensors)`: a ServingInputReceiver (so every
  exporter takes it) for TRAIN/EVAL exports of models without labels;
- `build_supervised_input_receiver_fn_from_input_fn(input_fn, **input_fn_args)`: a
  SupervisedInputReceiver fn whose placeholders copy what `input_fn` returns (called once, in
  a graph of its own).
"""
import tensorflow as tf

from estimator_compat.export.receivers import ServingInputReceiver, SupervisedInputReceiver

v1 = tf.compat.v1
_TENSORS = (tf.Tensor, tf.SparseTensor, tf.RaggedTensor)
# the key a lone tensor gets, by the receiver field it was passed as (as tf.estimator 2.15)
_SINGLE_KEYS = {"feature": "feature", "label": "label", "receiver_tensor": "input",
                "receiver_tensors_alternative": "input"}


def wrap_and_check_input_tensors(tensors, field_name, allow_int_keys=False):
    """`tensors` as a dict of str (or int, with allow_int_keys) to Tensor / SparseTensor /
    RaggedTensor: a dict is checked and returned itself; a lone tensor is wrapped under the
    default key of `field_name` ('feature', 'label', 'receiver_tensor',
    'receiver_tensors_alternative'; another field name is a KeyError, as in 2.15)."""
    if tensors is None:
        raise ValueError(f"{field_name}s must be defined.")
    if not isinstance(tensors, dict):
        tensors = {_SINGLE_KEYS[field_name]: tensors}
    for name, tensor in tensors.items():
        if allow_int_keys:
            if not isinstance(name, (str, int)):
                raise ValueError(f"{field_name} keys must be strings or ints: {name}.")
        elif not isinstance(name, str):
            raise ValueError(f"{field_name} keys must be strings: {name}.")
        if not isinstance(tensor, _TENSORS):
            raise ValueError(f"{field_name} {name} must be a Tensor, SparseTensor, or "
                             "RaggedTensor.")
    return tensors


class UnsupervisedInputReceiver(ServingInputReceiver):
    """What a TRAIN/EVAL input receiver fn returns for a model without labels: features for
    the model_fn and the tensors the export feeds (a ServingInputReceiver, fields
    `features`, `receiver_tensors`, `receiver_tensors_alternatives` = None)."""

    __slots__ = ()

    def __new__(cls, features, receiver_tensors):
        return super().__new__(cls, features, receiver_tensors, None)


def build_supervised_input_receiver_fn_from_input_fn(input_fn, **input_fn_args):
    """A fn returning a SupervisedInputReceiver whose features and labels are placeholders
    shaped like `input_fn(**input_fn_args)`'s (its batch dimension left free, each named as
    the input_fn's tensor was): `input_fn` runs once, now, in a graph of its own; it may
    return (features, labels) or a Dataset of them. The receiver tensors are the feature
    placeholders (a lone feature tensor under 'input') plus the labels' (a lone labels tensor
    under 'label')."""
    with tf.Graph().as_default():
        result = input_fn(**input_fn_args)
        if isinstance(result, tf.data.Dataset):
            result = v1.data.make_one_shot_iterator(result).get_next()
        features, labels = _features_and_labels(result)

    def supervised_input_receiver_fn():
        feature_inputs = _placeholders_like(features)
        label_inputs = _placeholders_like(labels)
        receiver = dict(wrap_and_check_input_tensors(feature_inputs, "receiver_tensor"))
        receiver.update(wrap_and_check_input_tensors(label_inputs, "label"))
        return SupervisedInputReceiver(feature_inputs, label_inputs, receiver)
    return supervised_input_receiver_fn


def _features_and_labels(result):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise ValueError("build_supervised_input_receiver_fn_from_input_fn needs an input_fn "
                         "returning (features, labels), or a Dataset of such pairs; got "
                         f"{type(result).__name__}.")
    features, labels = result
    for what, value in (("features", features), ("labels", labels)):
        if value is None:
            raise ValueError(f"The input_fn returned {what}=None: a supervised receiver needs "
                             "both features and labels (use UnsupervisedInputReceiver for a "
                             "model without labels).")
    return features, labels


def _placeholder_like(tensor):
    shape = tf.TensorShape(tensor.get_shape())
    if shape.rank is not None:
        shape = tf.TensorShape([None] + shape.as_list()[1:])
    return v1.placeholder(tensor.dtype, shape, name=tensor.op.name)


def _placeholders_like(value):
    if isinstance(value, dict):
        return {key: _placeholder_like(tensor) for key, tensor in value.items()}
    return _placeholder_like(value)
