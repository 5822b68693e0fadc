"""The parts of `tf.contrib.eager` that TensorFlow 2.21 no longer has under any name (see
`legacy/contrib/eager.py` for where each name comes from)."""
