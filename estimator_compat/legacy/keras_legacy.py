"""`tf.keras.optimizers.legacy.<Name>` for estimator scripts of TensorFlow 2.11-2.15.

tf.estimator then required Keras' legacy optimizers, so such scripts say
`optimizer=tf.keras.optimizers.legacy.Adam(0.01)`, or give a tensor learning rate made from
global_step by a TF1 decay (`tf.compat.v1.train.exponential_decay`) inside an optimizer
lambda. Keras 3 keeps those names only to raise ImportError; install() points them at
subclasses of Keras 3's optimizers of the same name and arguments (and adds 2.15's
Adadelta, Adamax and Nadam, which Keras 3 does not list there), which also keep such a
tensor for the canned estimators and heads (they convert Keras optimizers to compat.v1 ones).
"""
import inspect

import tensorflow as tf

_NAMES = ("Adagrad", "Adam", "Ftrl", "RMSprop", "SGD")
_ABSENT = ("Adadelta", "Adamax", "Nadam")  # tf.keras 2.15's legacy had them; Keras 3's has none
TENSOR_RATE = "_estimator_compat_tensor_rate"


def legacy_class(base):
    """A subclass of Keras optimizer `base` that also takes a tensor learning rate."""
    signature = inspect.signature(base.__init__)

    def __init__(self, *args, **kwargs):
        bound = signature.bind_partial(self, *args, **kwargs)
        rate = bound.arguments.get("learning_rate")
        tensor = isinstance(rate, tf.Tensor)
        if tensor:
            bound.arguments["learning_rate"] = signature.parameters["learning_rate"].default
        base.__init__(*bound.args, **bound.kwargs)
        if tensor:  # read by the canned estimators when they convert the optimizer
            setattr(self, TENSOR_RATE, rate)

    return type(base.__name__, (base,), {
        "__init__": __init__, "__module__": "keras.optimizers.legacy",
        "__doc__": f"Keras 3's {base.__name__}, taking a tensor learning rate as tf.keras' "
                   "legacy optimizer did (a TF1 decay of global_step, in the optimizer lambda "
                   "of a canned estimator).",
        "_estimator_compat_base": base})


def use():
    """Replaces the names that only raise; idempotent; leaves a working `legacy` alone."""
    import keras

    legacy = getattr(keras.optimizers, "legacy", None)
    for name in _NAMES + ("Optimizer",):
        current = getattr(legacy, name, None)
        if current is not None and getattr(current, "__name__", "") == "LegacyOptimizerWarning":
            base = getattr(keras.optimizers, name)
            setattr(legacy, name, base if name == "Optimizer" else legacy_class(base))
    for name in _ABSENT if legacy is not None else ():
        if not hasattr(legacy, name):
            setattr(legacy, name, legacy_class(getattr(keras.optimizers, name)))
