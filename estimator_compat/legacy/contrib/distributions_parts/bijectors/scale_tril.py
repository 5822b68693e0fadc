"""`ScaleTriL`: an unconstrained vector to a lower-triangular matrix with positive diagonal
(a Cholesky factor): `FillTriangular`, then a diagonal bijector (softplus + 1e-5 shift)."""
from .affine_scalar import AffineScalar
from .chain import Chain
from .fill_triangular import FillTriangular
from .softplus import Softplus
from .transform_diagonal import TransformDiagonal


class ScaleTriL(Chain):
    """`Chain([TransformDiagonal(AffineScalar(shift=diag_shift) o diag_bijector),
    FillTriangular()])`; `diag_bijector` is `Softplus` when None, no shift when
    `diag_shift` is None."""

    def __init__(self, diag_bijector=None, diag_shift=1e-5, validate_args=False,
                 name="scale_tril"):
        if diag_bijector is None:
            diag_bijector = Softplus(validate_args=validate_args)
        if diag_shift is not None:
            diag_bijector = Chain([AffineScalar(shift=diag_shift), diag_bijector])
        super().__init__([TransformDiagonal(diag_bijector=diag_bijector), FillTriangular()],
                         validate_args=validate_args, name=name)
