"""tf.contrib.keras cases: the functions TF 1.15's aliases pointed at, on fixed tensors."""
import numpy as np

Y_TRUE = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32)
Y_PRED = np.array([[0.2, 0.7, 0.1], [0.6, 0.3, 0.1]], np.float32)


def case_functions(tf):
    k = tf.contrib.keras
    t, p = tf.constant(Y_TRUE), tf.constant(Y_PRED)
    return {
        "mse": k.losses.mean_squared_error(t, p), "mae": k.metrics.mean_absolute_error(t, p),
        "mape": k.losses.mean_absolute_percentage_error(t + 1.0, p),
        "msle": k.metrics.mean_squared_logarithmic_error(t, p),
        "cos_metric": k.metrics.cosine_similarity(t, p),
        "cos_loss": k.losses.cosine_similarity(t, p),
        "cce": k.losses.categorical_crossentropy(t, p),
        "acc": k.metrics.categorical_accuracy(t, p),
        "relu": k.activations.relu(p - 0.3), "softmax": k.activations.softmax(p),
        "epsilon": k.backend.epsilon(), "floatx": k.api.keras.backend.floatx(),
        "to_categorical": tf.constant(k.utils.to_categorical([0, 2, 1], 3)),
    }
