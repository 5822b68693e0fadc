"""The loop pieces of tensorflow_estimator 2.15's `tpu.tpu_estimator` that are plain graph ops
(they run on the host CPU, or any device, as well as around a TPU computation):

- `_create_or_get_iterations_per_loop()`: the int32 local resource variable
  `tpu_estimator/iterations_per_loop` (collection `tpu_estimator_iterations_per_loop`),
  colocated with the global step;
- `_increase_eval_step_op(iterations_per_loop)`: adds `iterations_per_loop - 1` to the eval
  step (the session's own run adds the last one);
- `_wrap_computation_in_while_loop(device, op_fn)`: runs `op_fn`'s ops
  `iterations_per_loop` times in a tf.while_loop;
- `_StopSignals` and `_wrap_computation_in_while_loop_with_stopping_signals(device, op_fn)`:
  the `stopping` signal a batch carries, and a loop run until it says stop."""
import tensorflow as tf
from tensorflow.python.training import evaluation

v1 = tf.compat.v1
_ITERATIONS_PER_LOOP_VAR = "iterations_per_loop"
_COLLECTION = "tpu_estimator_iterations_per_loop"


def _create_or_get_iterations_per_loop():
    """The graph's iterations_per_loop variable (RuntimeError if several)."""
    graph = v1.get_default_graph()
    found = graph.get_collection(_COLLECTION)
    if len(found) > 1:
        raise RuntimeError("Multiple iterations_per_loop_var in collection.")
    if found:
        return found[0]
    with v1.colocate_with(v1.train.get_global_step()), \
            v1.variable_scope("tpu_estimator", reuse=v1.AUTO_REUSE):
        return v1.get_variable(
            _ITERATIONS_PER_LOOP_VAR, initializer=v1.zeros_initializer(), shape=[],
            dtype=tf.int32, trainable=False,
            collections=[_COLLECTION, v1.GraphKeys.LOCAL_VARIABLES], use_resource=True)


def _increase_eval_step_op(iterations_per_loop):
    """assign_add of `iterations_per_loop - 1` to the (created if missing) eval step."""
    eval_step = evaluation._get_or_create_eval_step()
    return v1.assign_add(eval_step, tf.cast(iterations_per_loop - 1, dtype=eval_step.dtype),
                         use_locking=True)


def _wrap_computation_in_while_loop(device, op_fn):
    """A while loop on `device` running `op_fn()`'s ops iterations_per_loop times; its
    output is the iteration count."""
    def computation(i):
        with tf.control_dependencies(op_fn()):
            return i + 1

    iterations_per_loop_var = _create_or_get_iterations_per_loop()
    with tf.device(device):
        iterations = tf.identity(iterations_per_loop_var)
        return v1.while_loop(lambda i: i < iterations, computation, [tf.constant(0)],
                             parallel_iterations=1)


class _StopSignals:
    """A batch's `stopping` signal ([batch_size, 1] bools, True on the stopping batch) and
    its `padding_mask` if any."""
    NON_STOPPING_SIGNAL = False
    STOPPING_SIGNAL = True

    def __init__(self, stop, batch_size, padding_mask=None):
        self._stop = stop
        self._batch_size = batch_size
        self._padding_mask = padding_mask

    def as_dict(self):
        """{'stopping': [batch_size, 1] bools[, 'padding_mask': the mask]}."""
        shape = [self._batch_size, 1]
        signals = {"stopping": (tf.ones(shape=shape, dtype=tf.bool) if self._stop else
                                tf.zeros(shape=shape, dtype=tf.bool))}
        if self._padding_mask is not None:
            signals["padding_mask"] = self._padding_mask
        return signals

    @staticmethod
    def as_scalar_stopping_signal(signals):
        return tf.identity(signals["stopping"][0][0])

    @staticmethod
    def should_stop(scalar_stopping_signal):
        """Whether the signal says stop (a bool tensor for a tensor)."""
        if isinstance(scalar_stopping_signal, tf.Tensor):
            return tf.logical_and(scalar_stopping_signal, _StopSignals.STOPPING_SIGNAL)
        return bool(scalar_stopping_signal)


def _wrap_computation_in_while_loop_with_stopping_signals(device, op_fn):
    """A while loop on `device` running `op_fn()` ({'ops', 'signals'}) until its signals
    say stop; its output is the last scalar stopping signal."""
    def cond(scalar_stopping_signal):
        return tf.logical_not(_StopSignals.should_stop(scalar_stopping_signal))

    def computation(unused_scalar_stopping_signal):
        return_value = op_fn()
        with tf.control_dependencies(return_value["ops"]):
            return _StopSignals.as_scalar_stopping_signal(return_value["signals"])

    with tf.device(device):
        return v1.while_loop(cond, computation, [_StopSignals.NON_STOPPING_SIGNAL],
                             parallel_iterations=1)
