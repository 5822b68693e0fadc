"""Chi2: Gamma(df / 2, 1 / 2), as TF 1.15 built it on the Gamma TensorFlow 2 still has."""
import tensorflow as tf
from tensorflow.python.ops.distributions import gamma

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class Chi2(gamma.Gamma):
    """The chi-squared distribution with `df` degrees of freedom."""

    def __init__(self, df, validate_args=False, allow_nan_stats=True, name="Chi2"):
        parameters = c.params(locals())
        with c.scope(name, [df]) as name:
            self._df, = c.named([df], ["df"], c.positive(df, validate_args))
            super().__init__(concentration=0.5 * self._df,
                             rate=tf.constant(0.5, dtype=self._df.dtype),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters

    @staticmethod
    def _param_shapes(sample_shape):
        return c.shape_param(sample_shape, "df")

    @property
    def df(self):
        return self._df


class Chi2WithAbsDf(Chi2):
    """Chi2 with floor(|df|) degrees of freedom."""

    def __init__(self, df, validate_args=False, allow_nan_stats=True, name="Chi2WithAbsDf"):
        parameters = c.params(locals())
        with c.scope(name, [df]) as name:
            super().__init__(df=tf.floor(tf.abs(df, name="abs_df"), name="floor_abs_df"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters
