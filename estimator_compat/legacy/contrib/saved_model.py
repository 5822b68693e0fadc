"""`tf.contrib.saved_model`, served whole by declining both names (`missing.REPLACEMENTS`).

TF 1.15's `save_keras_model(model, path)` wrote a Keras model as a SavedModel under
`path/<timestamp>` (train / eval / predict graphs plus the model's JSON), and
`load_keras_model(path)` rebuilt the Keras model from it. Keras 3 exports SavedModels for
serving only (`model.export`) and cannot rebuild a Keras model from one, so neither can be
served faithfully: the replacement is `model.save("m.keras")` / `keras.models.load_model`, and
`model.export(dir)` (read with `tf.saved_model.load`) for serving.
"""


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.saved_model", "tf.contrib.saved_model",
                     __served_whole__=True)
