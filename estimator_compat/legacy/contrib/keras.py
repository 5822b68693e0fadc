"""`tf.contrib.keras`, served whole: in TF 1.15 its 17 submodules (`tf.contrib.keras.layers`,
`.backend`, ..., and `api.keras.<same>`) were aliases of `tf.keras`'s; here each reads through
to Keras 3's module of the same name (`tf.keras.<module>`).

Names Keras 3 renamed are mapped (`losses.mean_squared_error` -> `mse`, `cosine_similarity`
-> the positive similarity TF 1.15 returned (Keras 3's loss is negative), `models.model_from_config` ->
`layers.deserialize`); names Keras 3 dropped (placeholders and sessions in `backend`,
`LocallyConnected*`, YAML, the old enqueuers, `wrappers.scikit_learn`) raise an AttributeError
naming what to use instead.
"""
import sys

import tensorflow as tf

from estimator_compat.legacy.namespaces import Namespace

SUBMODULES = ("activations", "applications", "backend", "callbacks", "constraints", "datasets",
              "initializers", "layers", "losses", "metrics", "models", "optimizers",
              "preprocessing", "regularizers", "utils", "wrappers")


def _cosine_similarity(y_true, y_pred, axis=-1):
    """TF 1.15's losses.cosine_similarity and metrics.cosine_similarity: the cosine similarity
    itself (Keras 3's loss is its negative)."""
    return -tf.keras.losses.cosine_similarity(y_true, y_pred, axis=axis)


def _model_from_config(config, custom_objects=None):
    """A model (or layer) from its get_config() dict, as TF 1.15's models.model_from_config."""
    if isinstance(config, list):
        raise TypeError("model_from_config expects a dictionary, not a list; did you mean "
                        "Sequential.from_config(config)?")
    return tf.keras.layers.deserialize(config, custom_objects=custom_objects)


_MEAN_ERRORS = {"mean_absolute_error": "mae", "mean_absolute_percentage_error": "mape",
                "mean_squared_error": "mse", "mean_squared_logarithmic_error": "msle"}
_RENAMED = {  # (submodule, TF 1.15 name): the Keras 3 object that behaves as it did
    **{("losses", old): ("losses", new) for old, new in _MEAN_ERRORS.items()},
    **{("metrics", old): ("losses", new) for old, new in _MEAN_ERRORS.items()},
}
_FUNCTIONS = {("metrics", "cosine_similarity"): _cosine_similarity,
              ("losses", "cosine_similarity"): _cosine_similarity,
              ("models", "model_from_config"): _model_from_config}
_SESSION = "tf.compat.v1.Session / tf.function (Keras 3 has no graph session)"
_DROPPED = {  # (submodule, name): what to use instead
    ("backend", "function"): "a tf.function, or calling the Keras model",
    ("backend", "get_session"): _SESSION, ("backend", "set_session"): _SESSION,
    ("backend", "placeholder"): "tf.keras.Input (Keras 3 has no placeholders)",
    ("backend", "learning_phase"): "the `training` argument of a layer or model call",
    ("backend", "set_learning_phase"): "the `training` argument of a layer or model call",
    ("backend", "in_train_phase"): "tf.cond / the `training` argument of a layer call",
    ("backend", "in_test_phase"): "tf.cond / the `training` argument of a layer call",
    ("backend", "manual_variable_initialization"): "tf.compat.v1.global_variables_initializer",
    ("backend", "normalize_batch_in_training"): "tf.nn.moments and "
                                                "tf.nn.batch_normalization",
    ("backend", "print_tensor"): "tf.print", ("backend", "reset_uids"): "tf.keras.backend.clear_session",
    ("backend", "random_binomial"): "tf.random.stateless_binomial, or tf.where on "
                                    "tf.random.uniform",
    ("callbacks", "BaseLogger"): "the logs Keras 3's Model.fit passes to callbacks",
    ("layers", "LocallyConnected1D"): "tf.keras.layers.Conv1D (Keras 3 dropped locally connected "
                                      "layers)",
    ("layers", "LocallyConnected2D"): "tf.keras.layers.Conv2D (Keras 3 dropped locally connected "
                                      "layers)",
    ("models", "model_from_yaml"): "tf.keras.models.model_from_json (Keras dropped YAML)",
    ("utils", "GeneratorEnqueuer"): "tf.data.Dataset.from_generator",
    ("utils", "SequenceEnqueuer"): "tf.keras.utils.PyDataset",
    ("utils", "HDF5Matrix"): "h5py arrays or tf.data",
    ("utils", "convert_all_kernels_in_model"): "nothing (Theano kernels are gone)",
    ("wrappers", "scikit_learn"): "keras.wrappers.SKLearnClassifier / SKLearnRegressor",
}


class KerasAlias(Namespace):
    """`tf.contrib.keras.<module>`: Keras 3's `tf.keras.<module>`, TF 1.15's names kept."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        key = (self._submodule, name)
        if key in _FUNCTIONS:
            return _FUNCTIONS[key]
        if key in _RENAMED:
            module, new = _RENAMED[key]
            return getattr(getattr(tf.keras, module), new)
        if key in _DROPPED:
            raise AttributeError(f"tf.contrib.keras.{self._submodule}.{name} is not provided by "
                                 f"Keras 3 nor by estimator_compat; in TensorFlow 2 use "
                                 f"{_DROPPED[key]}.")
        target = getattr(tf.keras, self._submodule)
        try:
            return getattr(target, name)
        except AttributeError:
            return super().__getattr__(name)

    def __dir__(self):
        return sorted(set(dir(getattr(tf.keras, self._submodule))) | set(vars(self)))


def _alias(dotted, submodule):
    module = sys.modules.get(dotted)
    if not isinstance(module, KerasAlias):
        module = KerasAlias(dotted, f"tf.contrib.keras.{submodule} (Keras 3's tf.keras."
                                    f"{submodule})")
        module.__estimator_compat__ = True
        module._submodule = submodule
        sys.modules[dotted] = module
    return module


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.keras"
    modules = {sub: _alias(f"{prefix}.{sub}", sub) for sub in SUBMODULES}
    api_keras = namespace(f"{prefix}.api.keras", "tf.contrib.keras.api.keras (tf.keras)", **{
        sub: _alias(f"{prefix}.api.keras.{sub}", sub) for sub in SUBMODULES})
    api = namespace(f"{prefix}.api", "tf.contrib.keras.api", keras=api_keras)
    return namespace(prefix, "tf.contrib.keras (Keras 3's tf.keras)", api=api,
                     __served_whole__=True, **modules)

