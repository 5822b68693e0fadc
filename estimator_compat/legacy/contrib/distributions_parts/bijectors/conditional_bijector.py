"""`ConditionalBijector`: a `Bijector` whose public methods pass keyword arguments (the
condition) on to the subclass's `_forward` / `_inverse` / log-det-Jacobian methods."""
from ._checks import Bijector


class ConditionalBijector(Bijector):
    """Conditional Bijector is a Bijector that allows intrinsic conditioning."""

    def forward(self, x, name="forward", **condition_kwargs):
        return self._call_forward(x, name, **condition_kwargs)

    def inverse(self, y, name="inverse", **condition_kwargs):
        return self._call_inverse(y, name, **condition_kwargs)

    def inverse_log_det_jacobian(self, y, event_ndims, name="inverse_log_det_jacobian",
                                 **condition_kwargs):
        return self._call_inverse_log_det_jacobian(y, event_ndims, name, **condition_kwargs)

    def forward_log_det_jacobian(self, x, event_ndims, name="forward_log_det_jacobian",
                                 **condition_kwargs):
        return self._call_forward_log_det_jacobian(x, event_ndims, name, **condition_kwargs)
