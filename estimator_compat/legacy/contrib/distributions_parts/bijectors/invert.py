"""`Invert`: a bijector run backwards (its forward is the wrapped one's inverse)."""
from ._checks import Bijector


class Invert(Bijector):
    """The bijector whose forward is `bijector.inverse` and whose inverse is
    `bijector.forward`; log-det-Jacobians and event shapes are swapped likewise."""

    def __init__(self, bijector, validate_args=False, name=None):
        if not bijector._is_injective:  # pylint: disable=protected-access
            raise NotImplementedError(
                "Invert is not implemented for non-injective bijectors.")
        self._bijector = bijector
        super().__init__(graph_parents=bijector.graph_parents,
                         forward_min_event_ndims=bijector.inverse_min_event_ndims,
                         inverse_min_event_ndims=bijector.forward_min_event_ndims,
                         is_constant_jacobian=bijector.is_constant_jacobian,
                         validate_args=validate_args, dtype=bijector.dtype,
                         name=name or "invert_" + bijector.name)

    @property
    def bijector(self):
        return self._bijector

    # pylint: disable=protected-access
    def _forward_event_shape(self, input_shape):
        return self._bijector._inverse_event_shape(input_shape)

    def _forward_event_shape_tensor(self, input_shape):
        return self._bijector._inverse_event_shape_tensor(input_shape)

    def _inverse_event_shape(self, output_shape):
        return self._bijector._forward_event_shape(output_shape)

    def _inverse_event_shape_tensor(self, output_shape):
        return self._bijector._forward_event_shape_tensor(output_shape)

    def _forward(self, x, **kwargs):
        return self._bijector._inverse(x, **kwargs)

    def _inverse(self, y, **kwargs):
        return self._bijector._forward(y, **kwargs)

    def _inverse_log_det_jacobian(self, y, **kwargs):
        return self._bijector._forward_log_det_jacobian(y, **kwargs)

    def _forward_log_det_jacobian(self, x, **kwargs):
        return self._bijector._inverse_log_det_jacobian(x, **kwargs)
