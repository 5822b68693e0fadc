"""`tf.contrib.distributions.bijectors`, served whole: TF 1.15's bijectors.

`Bijector` (caching, `event_ndims` reductions, name scopes) and `Identity` are TensorFlow 2's
own (`tensorflow.python.ops.distributions`), unchanged since TF 1.15; the others are written
here on that `Bijector`, one module each, with TF 1.15's names, signatures and variables.
"""
from tensorflow.python.ops.distributions.bijector_impl import Bijector
from tensorflow.python.ops.distributions.identity_bijector import Identity

from .absolute_value import AbsoluteValue
from .affine import Affine
from .affine_linear_operator import AffineLinearOperator
from .affine_scalar import AffineScalar
from .batch_normalization import BatchNormalization
from .chain import Chain
from .cholesky_outer_product import CholeskyOuterProduct
from .conditional_bijector import ConditionalBijector
from .exp import Exp
from .fill_triangular import FillTriangular
from .gumbel import Gumbel
from .inline import Inline
from .invert import Invert
from .kumaraswamy import Kumaraswamy
from .masked_autoregressive import (MaskedAutoregressiveFlow,
                                    masked_autoregressive_default_template, masked_dense)
from .matrix_inverse_tril import MatrixInverseTriL
from .ordered import Ordered
from .permute import Permute
from .power_transform import PowerTransform
from .real_nvp import RealNVP, real_nvp_default_template
from .reshape import Reshape
from .scale_tril import ScaleTriL
from .sigmoid import Sigmoid
from .sinh_arcsinh import SinhArcsinh
from .softmax_centered import SoftmaxCentered
from .softplus import Softplus
from .softsign import Softsign
from .square import Square
from .transform_diagonal import TransformDiagonal

# TF 1.15's public names of tf.contrib.distributions.bijectors
NAMES = {
    "AbsoluteValue": AbsoluteValue, "Affine": Affine,
    "AffineLinearOperator": AffineLinearOperator, "AffineScalar": AffineScalar,
    "BatchNormalization": BatchNormalization, "Bijector": Bijector, "Chain": Chain,
    "CholeskyOuterProduct": CholeskyOuterProduct, "ConditionalBijector": ConditionalBijector,
    "Exp": Exp, "FillTriangular": FillTriangular, "Gumbel": Gumbel, "Identity": Identity,
    "Inline": Inline, "Invert": Invert, "Kumaraswamy": Kumaraswamy,
    "MaskedAutoregressiveFlow": MaskedAutoregressiveFlow,
    "MatrixInverseTriL": MatrixInverseTriL, "Ordered": Ordered, "Permute": Permute,
    "PowerTransform": PowerTransform, "RealNVP": RealNVP, "Reshape": Reshape,
    "ScaleTriL": ScaleTriL, "Sigmoid": Sigmoid, "SinhArcsinh": SinhArcsinh,
    "SoftmaxCentered": SoftmaxCentered, "Softplus": Softplus, "Softsign": Softsign,
    "Square": Square, "TransformDiagonal": TransformDiagonal,
    "masked_autoregressive_default_template": masked_autoregressive_default_template,
    "masked_dense": masked_dense, "real_nvp_default_template": real_nvp_default_template,
}

DEEP = "tensorflow.contrib.distributions.python.ops.bijectors"


def build():
    from estimator_compat.legacy.namespaces import namespace
    _register_module_paths()
    return namespace("tensorflow.contrib.distributions.bijectors",
                     "tf.contrib.distributions.bijectors: TF 1.15's bijectors",
                     __served_whole__=True, **NAMES)


def _register_module_paths():
    """TF 1.15's module paths too: `...distributions.python.ops.bijectors` and one module per
    file (`...bijectors.affine`: `Affine`), our files being named as TF 1.15's were."""
    from estimator_compat.legacy.namespaces import namespace
    files = {}
    for name, value in NAMES.items():
        if value.__module__.startswith(__name__ + "."):
            files.setdefault(value.__module__.rsplit(".", 1)[1], {})[name] = value
    children = {file: namespace(DEEP + "." + file, "contrib.distributions' bijectors/%s.py" % file,
                                **names) for file, names in files.items()}
    package = namespace(DEEP, "contrib.distributions' bijectors", **NAMES, **children)
    ops = namespace(DEEP.rsplit(".", 1)[0], "contrib.distributions' ops", bijectors=package)
    namespace(DEEP.rsplit(".", 2)[0], "contrib.distributions' python", ops=ops)
