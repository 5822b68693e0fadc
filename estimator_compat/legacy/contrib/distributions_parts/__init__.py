"""The parts of `tf.contrib.distributions` (legacy/contrib/distributions.py): the scalar,
discrete and meta distributions and the functions (`scalar_names`), the distributions built on
bijectors and linear operators (`transformed_names`), and `bijectors`."""
