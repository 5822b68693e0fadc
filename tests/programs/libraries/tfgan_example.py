"""TF-GAN 2.1.0's estimator API, unchanged: `tfgan.estimator.GANEstimator` on a 1-D GAN (real
data N(3, 0.5)), Wasserstein losses, the default sequential train hooks (its
RunTrainOpsHook runs the generator's train op through `session.run` before each
discriminator step). Prints RESULT {"mean": generated mean, "global_step": ...}."""
import json
import sys
import tempfile

import numpy as np
import tensorflow as tf
import tensorflow_gan as tfgan


def generator_fn(noise):
    return tf.compat.v1.layers.dense(noise, 1)


def discriminator_fn(data, unused_conditioning):
    return tf.compat.v1.layers.dense(tf.compat.v1.layers.dense(data, 8, tf.nn.relu), 1)


def train_input_fn():
    real = np.random.RandomState(0).normal(3.0, 0.5, size=(512, 1)).astype(np.float32)
    noise = np.random.RandomState(1).normal(size=(512, 2)).astype(np.float32)
    return tf.data.Dataset.from_tensor_slices((noise, real)).repeat().batch(32)


def predict_input_fn():
    noise = np.random.RandomState(2).normal(size=(64, 2)).astype(np.float32)
    return tf.data.Dataset.from_tensor_slices(noise).batch(64)


estimator = tfgan.estimator.GANEstimator(
    model_dir=sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(),
    generator_fn=generator_fn, discriminator_fn=discriminator_fn,
    generator_loss_fn=tfgan.losses.wasserstein_generator_loss,
    discriminator_loss_fn=tfgan.losses.wasserstein_discriminator_loss,
    generator_optimizer=tf.compat.v1.train.AdamOptimizer(0.05, 0.5),
    discriminator_optimizer=tf.compat.v1.train.AdamOptimizer(0.05, 0.5))
estimator.train(train_input_fn, max_steps=50)
generated = np.concatenate(list(estimator.predict(predict_input_fn)))
print("RESULT " + json.dumps({"mean": float(generated.mean()),
                              "global_step": int(estimator.get_variable_value("global_step"))}))
