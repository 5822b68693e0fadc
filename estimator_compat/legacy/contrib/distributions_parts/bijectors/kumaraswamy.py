"""`Kumaraswamy`: the Kumaraswamy distribution's inverse CDF, Y = (1 - (1 - X)^(1/b))^(1/a)."""
import tensorflow as tf

from ._checks import Bijector, checked, start_scope, _v1


class Kumaraswamy(Bijector):
    """Compute `Y = g(X) = (1 - (1 - X)**(1 / b))**(1 / a)`, X in [0, 1], with
    a = `concentration1` and b = `concentration0`."""

    def __init__(self, concentration1=None, concentration0=None, validate_args=False,
                 name="kumaraswamy"):
        start_scope(self, name, validate_args)
        with self._name_scope("init", values=[concentration1, concentration0]):
            concentration1 = self._valid_concentration(
                tf.convert_to_tensor(concentration1, name="concentration1"), validate_args)
            concentration0 = self._valid_concentration(
                tf.convert_to_tensor(concentration0, name="concentration0"), validate_args)
        self._concentration1 = concentration1
        self._concentration0 = concentration0
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    def _forward(self, x):
        x = self._valid(x)
        return tf.exp(tf.math.log1p(-tf.exp(tf.math.log1p(-x) / self._concentration0))
                      / self._concentration1)

    def _inverse(self, y):
        y = self._valid(y)
        return tf.exp(tf.math.log1p(-(1 - y ** self._concentration1) ** self._concentration0))

    def _inverse_log_det_jacobian(self, y):
        y = self._valid(y)
        a, b = self._concentration1, self._concentration0
        return (tf.math.log(a) + tf.math.log(b) + (a - 1) * tf.math.log(y)
                + (b - 1) * tf.math.log1p(-y ** a))

    @staticmethod
    def _valid_concentration(concentration, validate_args):
        if not validate_args:
            return concentration
        return checked(concentration, _v1.assert_positive(
            concentration, message="Concentration parameter must be positive."))

    def _valid(self, x):
        if not self.validate_args:
            return x
        return checked(x, _v1.assert_non_negative(x, message="sample must be non-negative"),
                       _v1.assert_less_equal(x, tf.ones([], self._concentration0.dtype),
                                             message="sample must be no larger than `1`."))
