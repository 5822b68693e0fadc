"""`model.compile(optimizer=tf.train.AdamOptimizer(0.01))`, as TF 1.x's Keras took it.

TF 1.x's Keras wrapped a compat.v1 optimizer (TFOptimizer); TF 1.x programs compiled their
Keras models with one before `model_to_estimator` (the TPU-era samples did throughout). Keras 3
refuses it ("Could not interpret optimizer identifier"). After install() Keras' optimizer lookup
maps such an optimizer to the Keras 3 optimizer of the same kind and hyperparameters; one whose
hyperparameters are tensors (a TF1 decay of global_step) gets an error naming the Keras
schedule to use instead.
"""
import tensorflow as tf

v1 = tf.compat.v1


def _keras_of(optimizer):
    import keras

    o, kind = optimizer, type(optimizer).__name__
    values = {}

    def get(attr):
        value = getattr(o, attr)
        if tf.is_tensor(value) or callable(value):
            raise ValueError(
                f"model.compile(optimizer={kind}(...)): its {attr.strip('_')} is a tensor or a "
                "function (a TF1 decay of global_step), which Keras 3 optimizers cannot take; "
                "use keras.optimizers.schedules (e.g. ExponentialDecay) in a Keras optimizer.")
        values[attr] = float(value)
        return values[attr]
    if isinstance(o, v1.train.AdamOptimizer):
        return keras.optimizers.Adam(get("_lr"), beta_1=get("_beta1"), beta_2=get("_beta2"),
                                     epsilon=get("_epsilon"))
    if isinstance(o, v1.train.MomentumOptimizer):
        return keras.optimizers.SGD(get("_learning_rate"), momentum=get("_momentum"),
                                    nesterov=o._use_nesterov)
    if isinstance(o, v1.train.GradientDescentOptimizer):
        return keras.optimizers.SGD(get("_learning_rate"))
    if isinstance(o, v1.train.AdagradOptimizer):
        return keras.optimizers.Adagrad(get("_learning_rate"), initial_accumulator_value=get(
            "_initial_accumulator_value"), epsilon=1e-12)
    if isinstance(o, v1.train.RMSPropOptimizer):
        return keras.optimizers.RMSprop(get("_learning_rate"), rho=get("_decay"),
                                        momentum=get("_momentum"), epsilon=get("_epsilon"),
                                        centered=o._centered)
    if isinstance(o, v1.train.AdadeltaOptimizer):
        return keras.optimizers.Adadelta(get("_lr"), rho=get("_rho"), epsilon=get("_epsilon"))
    raise ValueError(f"model.compile(optimizer={kind}(...)): no Keras 3 optimizer matches this "
                     "compat.v1 optimizer; pass a keras.optimizers one.")


def use():
    """Keras' optimizer lookup (what compile() calls) also takes compat.v1 optimizers."""
    from keras.src import optimizers

    original = optimizers.get
    if getattr(original, "__estimator_compat__", False):
        return

    def get(identifier):
        if isinstance(identifier, v1.train.Optimizer):
            return _keras_of(identifier)
        return original(identifier)
    get.__estimator_compat__ = True
    optimizers.get = get
