"""A Keras model turned into an Estimator by a TF 1.x program, in the style of TF 1.x's
"Creating Estimators from Keras models" guide and the TPU-era Keras samples.

The idioms it keeps: the Keras model built and compiled at the program's top level (TF 1.x's
graph mode), compiled with a `tf.train.AdamOptimizer` (TF 1.x's Keras took compat.v1
optimizers), `tf.keras.estimator.model_to_estimator`, an input_fn keyed by the Keras input name
(`dense_input`), the evaluation's `acc` (TF 1.x's Keras name of metrics=['accuracy']),
`tf.flags`, `tf.app.run`. Data: make_data.py's iris CSV files. Prints `eval accuracy = …`.
"""
import numpy as np
import tensorflow as tf

tf.flags.DEFINE_string("data_dir", None, "Directory of make_data.py's files.")
tf.flags.DEFINE_string("model_dir", None, "Model directory.")
tf.flags.DEFINE_integer("steps", 400, "Training steps.")
FLAGS = tf.flags.FLAGS


def load(name):
    rows = np.loadtxt("%s/%s" % (FLAGS.data_dir, name), delimiter=",", skiprows=1)
    return rows[:, :4].astype(np.float32), tf.keras.utils.to_categorical(rows[:, 4], 3)


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    model = tf.keras.models.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer=tf.train.AdamOptimizer(learning_rate=0.02),
                  loss="categorical_crossentropy", metrics=["accuracy"])
    config = tf.estimator.RunConfig(tf_random_seed=4)
    estimator = tf.keras.estimator.model_to_estimator(keras_model=model,
                                                      model_dir=FLAGS.model_dir, config=config)
    x_train, y_train = load("iris_training.csv")
    x_test, y_test = load("iris_test.csv")
    train_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"dense_input": x_train}, y=y_train, batch_size=16, num_epochs=None, shuffle=True)
    estimator.train(input_fn=train_input_fn, steps=FLAGS.steps)
    eval_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"dense_input": x_test}, y=y_test, num_epochs=1, shuffle=False)
    result = estimator.evaluate(input_fn=eval_input_fn)
    print("eval accuracy = %.4f, global_step = %d" % (result["acc"], result["global_step"]))


if __name__ == "__main__":
    tf.app.run()
