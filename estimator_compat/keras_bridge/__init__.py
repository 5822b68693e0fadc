"""The Keras side of estimator code, on Keras 3: what tf.keras (Keras 2) gave estimators.

- `DenseFeatures` (dense_features.py): `tf.keras.layers.DenseFeatures` over feature columns.
- `SequenceFeatures` (sequence_features.py): `tf.keras.experimental.SequenceFeatures`.
- `model_to_estimator` (model_to_estimator.py): `tf.keras.estimator.model_to_estimator`.
- `LinearModel` / `WideDeepModel` (removed.py): errors naming what replaces them.
- Keras 3 optimizers inside a model_fn: `engine/keras_optimizer_ops.py`; legacy optimizer
  names: `legacy/keras_legacy.py`.
- `Layer.get_updates_for` / `get_losses_for` (layer_updates.py), as TF 2.0-2.3's model_fns used.

`use()` (called by `install()`) puts these names where tf.keras had them.
"""
import sys
import types


def use():
    """Registers tf.keras.layers.DenseFeatures, tf.keras.estimator, tf.keras.experimental.*."""
    import keras

    from estimator_compat.keras_bridge import layer_updates, removed
    from estimator_compat.keras_bridge.dense_features import DenseFeatures
    from estimator_compat.keras_bridge.model_to_estimator import model_to_estimator
    from estimator_compat.keras_bridge.sequence_features import SequenceFeatures

    layer_updates.use()

    tf_keras = sys.modules.get("keras._tf_keras.keras") or __import__(
        "keras._tf_keras.keras", fromlist=["layers"])
    for layers in (tf_keras.layers, keras.layers):
        if not hasattr(layers, "DenseFeatures"):
            layers.DenseFeatures = DenseFeatures
    estimator = types.ModuleType("keras.estimator", "tf.keras.estimator, by estimator_compat.")
    estimator.model_to_estimator = model_to_estimator
    for root in (tf_keras, keras):
        if not hasattr(root, "estimator"):
            root.estimator = estimator
        experimental = getattr(root, "experimental", None)
        if experimental is None:
            experimental = root.experimental = types.ModuleType(root.__name__ + ".experimental")
        for name in ("LinearModel", "WideDeepModel"):
            if not hasattr(experimental, name):
                setattr(experimental, name, getattr(removed, name))
        if not hasattr(experimental, "SequenceFeatures"):
            experimental.SequenceFeatures = SequenceFeatures
    sys.modules.setdefault("keras.estimator", estimator)
