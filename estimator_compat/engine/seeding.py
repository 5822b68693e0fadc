"""RunConfig(tf_random_seed=...) makes a model's starting weights repeatable, as it did in TF1.

In a TF1 graph the graph seed fixed every initializer. Keras 3 layers instead take their seeds
from Python's `random` when they are built, so the model_fn is traced with `random` seeded from
tf_random_seed as well; the user's own `random` state is put back afterwards, and the input_fn
runs outside (TF1 did not seed its Python code either).
"""
import contextlib
import random


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
