"""tf.keras.experimental.LinearModel / WideDeepModel: removed with tf.keras; errors say where to go."""


def _removed(name, replacement):
    def make(*args, **kwargs):
        raise NotImplementedError(
            f"tf.keras.experimental.{name} was removed with tf.keras (Keras 2) and Keras 3 has "
            f"no equivalent. {replacement}")
    make.__name__ = name
    return make


LinearModel = _removed(
    "LinearModel", "Use tf.estimator.LinearClassifier / LinearRegressor (served by "
    "estimator_compat) for the same model, or a Keras 3 keras.layers.Dense(units) over the "
    "concatenated inputs.")
WideDeepModel = _removed(
    "WideDeepModel", "Use tf.estimator.DNNLinearCombinedClassifier / Regressor (served by "
    "estimator_compat), or a Keras 3 functional model adding a Dense linear part to a DNN.")
