"""tensorflow_estimator 2.15's `head` privates: `multi_head._no_op_train_fn` and
`_default_export_output`, `sequential_head._SequentialHead` (the abstract head with an
`input_sequence_mask_key`; SequentialHeadWrapper is registered as one) and `_flatten_tensor`,
and `head_utils`' test helpers (`_initialize_variables`, `_assert_simple_summaries`,
`_assert_no_hooks`) that heads' own tests in other libraries reused, with 2.15's behaviour."""
import abc

import tensorflow as tf

from estimator_compat.canned.heads.base import SERVING_KEY, Head
from estimator_compat.canned.heads.sequential import SequentialHeadWrapper

v1 = tf.compat.v1


def _no_op_train_fn(loss):
    """A train_op_fn ignoring the loss: tf.no_op()."""
    del loss
    return tf.no_op()


def _default_export_output(export_outputs, head_name):
    """The only export output, else the one under the default serving key; ValueError naming
    the head when there is none."""
    if len(export_outputs) == 1:
        return next(iter(export_outputs.values()))
    if SERVING_KEY not in export_outputs:
        raise ValueError(f"{head_name} did not specify default export_outputs. Given: "
                         f"{export_outputs} Suggested fix: Use one of the heads in "
                         f"tf.estimator, or include key {SERVING_KEY} in export_outputs.")
    return export_outputs[SERVING_KEY]


class _SequentialHead(Head, metaclass=abc.ABCMeta):
    """A head over sequences: features[input_sequence_mask_key] masks the padded steps."""

    @property
    @abc.abstractmethod
    def input_sequence_mask_key(self):
        """Key of the sequence mask tensor in the feature dictionary."""
        raise NotImplementedError("Calling an abstract method.")


_SequentialHead.register(SequentialHeadWrapper)

_MASK_MISMATCH = "Tensor shape is incompatible with provided mask."


def _flatten_tensor(tensor, sequence_mask, expected_length):
    """[batch, time, D...] -> [expected_length, D...] ([n, 1] for 2-D): a dense tensor's
    steps where `sequence_mask` is true; a SparseTensor's values (indices reordered first for
    2-D). ValueError under 2 dimensions or for another type; the length is asserted (an
    InvalidArgumentError when run; a ValueError at once when eager)."""
    shape = tensor.get_shape()
    if shape.ndims < 2:
        raise ValueError(f"Input tensor expected to have at least 2 dimensions, got "
                         f"{shape.ndims} instead.")
    if isinstance(tensor, tf.SparseTensor):
        flat = tf.sparse.reorder(tensor).values
        if shape.ndims > 2:  # as 2.15: the values in the order given
            flat = tf.reshape(tensor.values, tf.concat([[-1], shape[2:]], axis=0))
    elif isinstance(tensor, tf.Tensor):
        flat = tf.boolean_mask(tensor, sequence_mask)
    else:
        raise ValueError(f"`tensor` expected to be a `Tensor` or  `SparseTensor` got "
                         f"`{tensor}` instead.")
    if shape.ndims == 2:
        flat = tf.expand_dims(flat, -1)
        expected = tf.concat([[expected_length], [1]], axis=0)
    else:
        expected = tf.concat([[expected_length], shape[2:]], axis=0)
    if tf.executing_eagerly():
        if tuple(flat.shape) != tuple(expected.numpy()):
            raise ValueError(_MASK_MISMATCH)
        return flat
    check = v1.debugging.assert_equal(v1.shape(flat), expected, message=_MASK_MISMATCH)
    with tf.control_dependencies([check]):
        return tf.identity(flat)


def _initialize_variables(test_case, scaffold):
    """Finalizes `scaffold` and runs its init, ready and local-init ops in the default session,
    asserting (on the tf.test.TestCase `test_case`) no init feed dict or init_fn, a saver."""
    scaffold.finalize()
    test_case.assertIsNone(scaffold.init_feed_dict)
    test_case.assertIsNone(scaffold.init_fn)
    scaffold.init_op.run()
    scaffold.ready_for_local_init_op.eval()
    scaffold.local_init_op.run()
    scaffold.ready_op.eval()
    test_case.assertIsNotNone(scaffold.saver)


def _assert_simple_summaries(test_case, expected_summaries, summary_str, tol=1e-6):
    """Asserts the serialized Summary's simple values are `expected_summaries` {tag: value}."""
    summary = v1.summary.Summary()
    summary.ParseFromString(summary_str)
    test_case.assertAllClose(expected_summaries,
                             {v.tag: v.simple_value for v in summary.value}, rtol=tol, atol=tol)


def _assert_no_hooks(test_case, spec):
    """Asserts `spec` has no training or training-chief hooks."""
    test_case.assertAllEqual([], spec.training_chief_hooks)
    test_case.assertAllEqual([], spec.training_hooks)
