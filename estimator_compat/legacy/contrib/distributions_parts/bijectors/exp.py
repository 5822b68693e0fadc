"""`Exp`: Y = exp(X), the power transform at power 0 (a `PowerTransform`, as in TF 1.15)."""
from .power_transform import PowerTransform


class Exp(PowerTransform):
    """Compute `Y = g(X) = exp(X)`."""

    def __init__(self, validate_args=False, name="exp"):
        super().__init__(validate_args=validate_args, name=name)
