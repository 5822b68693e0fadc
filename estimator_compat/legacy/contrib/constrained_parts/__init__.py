"""The pieces of `tf.contrib.constrained_optimization` (see ../constrained_optimization.py)."""
