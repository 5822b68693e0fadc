"""What the bijectors share: argument checks run before a value is used (TF 1.15's
`with_dependencies`), so `validate_args=True` fails at run time, or at build time on constants."""
import tensorflow as tf

from tensorflow.python.ops.distributions import bijector_impl

Bijector = bijector_impl.Bijector
_v1 = tf.compat.v1


def checked(x, *assertions):
    """`x` after `assertions` (None entries skipped)."""
    assertions = [a for a in assertions if a is not None]
    if not assertions:
        return x
    with tf.control_dependencies(assertions):
        return tf.identity(x)


def tensor_or_none(x, name, dtype=None):
    return None if x is None else tf.convert_to_tensor(x, name=name, dtype=dtype)


def start_scope(bijector, name, validate_args):
    """Set what `Bijector._name_scope` reads, so a constructor can open its "init" scope
    before `Bijector.__init__` runs (as TF 1.15's bijectors did)."""
    bijector._graph_parents = []
    bijector._name = name
    bijector._validate_args = validate_args


def check_batch_rank(x, scale):
    """TF 1.15's error where `x` has fewer dims than the batch of the `scale` operator plus one
    event dim (it reshaped x to batch-of-matrices; the matvec here would broadcast instead)."""
    rank = scale.tensor_rank
    if isinstance(rank, int) and x.shape.ndims is not None and x.shape.ndims < rank - 1:
        raise ValueError("expected batch_ndims(%d) + event_ndims(%d) <= ndims(%d)"
                         % (rank - 2, 1, x.shape.ndims))
