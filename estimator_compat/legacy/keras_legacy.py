"""`tf.keras.optimizers.legacy.<Name>` for estimator scripts of TensorFlow 2.11-2.15.

tf.estimator then required Keras' legacy optimizers, so such scripts say
`optimizer=tf.keras.optimizers.legacy.Adam(0.01)`. Keras 3 keeps those names only to raise
ImportError; install() points them at Keras 3's optimizers of the same name and arguments,
which estimator_compat's canned estimators and heads take (converted to compat.v1 ones).
"""
_NAMES = ("Adagrad", "Adam", "Ftrl", "RMSprop", "SGD", "Optimizer")


def use():
    """Replaces the names that only raise; idempotent; leaves a working `legacy` alone."""
    import keras

    legacy = getattr(keras.optimizers, "legacy", None)
    for name in _NAMES:
        current = getattr(legacy, name, None)
        if current is not None and getattr(current, "__name__", "") == "LegacyOptimizerWarning":
            setattr(legacy, name, getattr(keras.optimizers, name))
