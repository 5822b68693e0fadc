"""`tf.contrib.distributions`, served whole: TF 1.15's distributions, bijectors and their
functions.

TensorFlow 2.21 still has TF 1.15's `Distribution` and `Bijector` base classes, fourteen of the
distributions and the KL registry (`tensorflow.python.ops.distributions`): those are served as
they are, and the rest are written on them (`distributions_parts/`), their KL divergences
registered in the same registry, so `tf.compat.v1.distributions.kl_divergence` finds them too.
"""


def build():
    from estimator_compat.legacy.contrib.distributions_parts import (
        bijectors, scalar_names, transformed_names)
    from estimator_compat.legacy.namespaces import namespace
    names = dict(scalar_names.NAMES)
    names.update(transformed_names.NAMES)
    return namespace("tensorflow.contrib.distributions",
                     "tf.contrib.distributions: TF 1.15's distributions and bijectors",
                     __served_whole__=True, bijectors=bijectors.build(), **names)
