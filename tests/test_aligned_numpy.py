"""engine/aligned_numpy.py: an input_fn's numpy arrays become tensors in one (aligned) copy,
with TensorFlow's semantics kept: the tensor owns its copy, dtypes convert or fail as before."""
import numpy as np
import pytest
import tensorflow as tf

from estimator_compat.engine import aligned_numpy


@pytest.fixture(scope="module", autouse=True)
def installed():
    aligned_numpy.install()


def test_copy_is_aligned_and_equal():
    x = np.arange(3 * 50000, dtype=np.float32).reshape(3, 50000)[:, ::2]  # not contiguous
    out = aligned_numpy.aligned_copy(x)
    assert out.ctypes.data % 64 == 0 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_, np.complex64])
def test_tensor_owns_its_copy(dtype):
    x = (np.arange(40000) % 3).astype(dtype)
    t = tf.constant(x)
    ds_first = next(iter(tf.data.Dataset.from_tensor_slices(x).batch(40000)))
    x[0] = 2
    assert t.dtype == tf.as_dtype(dtype) and t.numpy()[0] == 0 and ds_first.numpy()[0] == 0
    np.testing.assert_array_equal(t.numpy()[1:], x[1:])


def _outcome(convert, value, dtype):
    from tensorflow.python.eager import context
    try:
        t = convert(value, context.context(), dtype)
        return t.dtype, t.numpy().tolist()[-3:]
    except Exception as error:  # noqa: BLE001 - the error's type is what is compared
        return type(error)


@pytest.mark.parametrize("dtype", [None, tf.float32, "int32", tf.string, tf.bool])
def test_dtype_requests_behave_as_tensorflows(dtype):
    from tensorflow.python.framework import constant_op
    ours = constant_op.convert_to_eager_tensor
    x = np.linspace(0, 5, 40000)
    assert _outcome(ours, x, dtype) == _outcome(ours.__wrapped__, x, dtype)


def test_buffers_are_reused_only_once_no_tensor_holds_them():
    """The next conversion of an array of the same size takes a kept buffer only when the
    tensor that adopted it is gone: a live tensor keeps its values whatever follows."""
    x = np.arange(100000, dtype=np.float32)
    first = tf.constant(x)
    x[:] = -1
    second = tf.constant(x)  # `first` is alive: a buffer of its own
    np.testing.assert_array_equal(first.numpy(), np.arange(100000, dtype=np.float32))
    np.testing.assert_array_equal(second.numpy(), x)
    kept = aligned_numpy._pool._sizes[x.nbytes + 64]
    buffers = [id(b) for b in kept]
    assert len(buffers) == 2
    del second
    tf.constant(1.0) + 1  # TensorFlow lets go of the numpy arrays it held
    x[:] = 7
    third = tf.constant(x)
    assert [id(b) for b in kept] == buffers  # the freed one reused, no new buffer
    np.testing.assert_array_equal(third.numpy(), x)
    np.testing.assert_array_equal(first.numpy(), np.arange(100000, dtype=np.float32))


@pytest.mark.parametrize("make", [
    lambda: np.arange(6 * 1_200_000, dtype=np.float32).reshape(1_200_000, 6)[:, 2],  # a column
    lambda: np.asfortranarray(np.arange(3000 * 800, dtype=np.float64).reshape(3000, 800)),
    lambda: np.arange(5 * 700 * 400, dtype=np.int32).reshape(5, 700, 400),
])
def test_a_large_copy_split_over_two_threads_is_whole(make):
    """From 4 MB the copy's halves go to two threads: every layout comes out whole."""
    x = make()
    assert x.nbytes >= aligned_numpy._SPLIT_BYTES
    t = tf.constant(x)
    np.testing.assert_array_equal(t.numpy(), x)


def _copy_in_child(queue):
    x = np.arange(2_000_000, dtype=np.float32)
    queue.put(bool((aligned_numpy.aligned_copy(x) == x).all()))


def test_a_forked_child_copies_with_a_thread_of_its_own():
    """The parent's copy thread is not in a forked child: the child's first split copy makes
    its own, where waiting on the parent's would never return."""
    import multiprocessing
    aligned_numpy.aligned_copy(np.arange(2_000_000, dtype=np.float32))  # the parent's thread
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_copy_in_child, args=(queue,))
    child.start()
    child.join(60)
    assert child.exitcode == 0 and queue.get(timeout=5) is True
