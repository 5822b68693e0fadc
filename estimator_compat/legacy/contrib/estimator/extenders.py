"""tf.contrib.estimator's extenders: `forward_features` (an Estimator whose predictions also
carry some of its input features) and `clip_gradients_by_norm` (an optimizer clipping its
gradients by their global norm). `add_metrics` is `tf.estimator.add_metrics`
(`estimator_compat.canned.extenders`)."""
import tensorflow as tf

from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.estimator import Estimator
from estimator_compat.export.outputs import PredictOutput

v1 = tf.compat.v1


def _key_list(keys):
    if keys is None:
        return None
    if isinstance(keys, str):
        return [keys]
    if not isinstance(keys, (list, tuple)):
        raise TypeError(f"keys should be either a string or a list of strings. Given: "
                        f"{type(keys)}")
    for key in keys:
        if not isinstance(key, str):
            raise TypeError("All items in the given keys list should be a string. There "
                            f"exist an item with type: {type(key)}")
    return list(keys)


def forward_features(estimator, keys=None, sparse_default_values=None):
    """A new Estimator (same model_dir and config) whose predictions, and 'predict' /
    'serving_default' PredictOutputs, also hold the features `keys` (all when None). A sparse
    feature is forwarded dense, filled with `sparse_default_values[key]`."""
    keys = _key_list(keys)
    sparse_default_values = sparse_default_values or {}

    def model_fn(features, labels, mode, config):
        spec = call_model_fn(estimator._model_fn, features, labels, mode,
                             estimator._params_for_call(mode), config)
        predictions = spec.predictions
        if predictions is None:
            return spec
        if not isinstance(predictions, dict):
            raise ValueError("Predictions should be a dict to be able to forward features. "
                             f"Given: {type(predictions)}")
        wanted = list(features) if keys is None else keys
        predictions = dict(predictions)
        for key in wanted:
            if key not in features:
                raise ValueError(f'keys should be exist in features. Key "{key}" is not in '
                                 f"features dict. features dict has following keys: "
                                 f"{list(features)}. Please check arguments of "
                                 "forward_features.")
            if key in predictions:
                raise ValueError(f"Cannot forward feature key ({key}). Since it does exist "
                                 f"in predictions. Existing prediction keys: "
                                 f"{list(predictions)}. Please check arguments of "
                                 "forward_features.")
            feature = features[key]
            if key in sparse_default_values:
                if not isinstance(feature, tf.SparseTensor):
                    raise ValueError(f"Feature ({key}) is expected to be a `SparseTensor`.")
                feature = tf.sparse.to_dense(feature,
                                             default_value=sparse_default_values[key])
            if not isinstance(feature, tf.Tensor):
                raise ValueError(f"Feature ({key}) should be a Tensor. Please use `keys` "
                                 "argument of forward_features to filter unwanted features, "
                                 "or add key to argument `sparse_default_values`. Type of "
                                 f"features[{key}] is {type(feature)}.")
            predictions[key] = feature
        outputs = dict(spec.export_outputs or {})
        for name in ("predict", "serving_default"):
            if isinstance(outputs.get(name), PredictOutput):
                outputs[name] = PredictOutput(dict(outputs[name].outputs, **{
                    key: predictions[key] for key in wanted}))
        return spec._replace(predictions=predictions,
                             export_outputs=outputs or spec.export_outputs)
    return Estimator(model_fn, model_dir=estimator.model_dir, config=estimator.config)


class _ClippedByGlobalNorm(v1.train.Optimizer):
    """`optimizer` applying gradients clipped by their global norm to `clip_norm`; its slots
    and name are the wrapped optimizer's (named 'ClipByNorm' + its name)."""

    def __init__(self, optimizer, clip_norm):
        super().__init__(use_locking=False, name="ClipByNorm" + optimizer.get_name())
        self._optimizer, self._clip_norm = optimizer, clip_norm

    def compute_gradients(self, *args, **kwargs):
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        grads, variables = zip(*grads_and_vars)
        clipped, _ = tf.clip_by_global_norm(list(grads), self._clip_norm)
        return self._optimizer.apply_gradients(list(zip(clipped, variables)), global_step,
                                               name)

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)

    def variables(self):
        return self._optimizer.variables()


def clip_gradients_by_norm(optimizer, clip_norm):
    """A tf.compat.v1 optimizer like `optimizer` whose gradients are clipped together to
    global norm `clip_norm` before they are applied."""
    if not isinstance(optimizer, v1.train.Optimizer):
        raise ValueError("clip_gradients_by_norm takes a tf.compat.v1.train.Optimizer, given "
                         f"{type(optimizer).__name__}")
    return _ClippedByGlobalNorm(optimizer, clip_norm)
