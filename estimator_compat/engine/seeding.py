"""RunConfig(tf_random_seed=...) makes a model's starting weights repeatable, as it did in TF1.

In a TF1 graph the graph seed fixed every initializer. Keras 3 layers instead take their seeds
from Python's `random` when they are built, so the model_fn is traced with `random` seeded from
tf_random_seed as well; the user's own `random` state is put back afterwards, and the input_fn
runs outside (TF1 did not seed its Python code either).

TensorFlow's graph seed is set with `tf.random.set_seed` on an Estimator's first call only:
in eager mode it also clears TensorFlow's kernel and function caches, so every later call
would instantiate its compiled steps again (3-4x a small model's evaluate). Later calls only
restart the sequence of op seeds drawn from it (`graph_seed`), so an input_fn's
`shuffle(seed=None)` gets the seed a TF1 graph built anew for that call gave it.
"""
import contextlib
import random

import tensorflow as tf
from tensorflow.python.eager import context


def graph_seed(seed, first_call):
    """TF1's graph seed for one Estimator call: set (clearing TensorFlow's caches) on the
    Estimator's first call or when another seed is in force, else the op-seed sequence
    restarted with the caches kept. Returns whether the caches were cleared."""
    ctx = context.context()
    if first_call or getattr(ctx, "_seed", None) != seed:
        tf.random.set_seed(seed)
        return True
    ctx._rng = random.Random(seed)  # what set_seed does, less TFE_ContextClearCaches
    return False


@contextlib.contextmanager
def python_random(seed):
    """Python's `random` seeded with `seed` for the duration (nothing when `seed` is None)."""
    if seed is None:
        yield
        return
    saved = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved)


@contextlib.contextmanager
def kept_random():
    """Python's `random` state put back after the block (work the program does not see)."""
    saved = random.getstate()
    try:
        yield
    finally:
        random.setstate(saved)
