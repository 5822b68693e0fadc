"""tf.contrib.training's placement strategies for `tf.train.replica_device_setter(ps_strategy=)`
(`...contrib.training.python.training.device_setter`): `RandomStrategy` (a ps task from a hash
of the op's name, the same in every run), `GreedyLoadBalancingStrategy` (the least loaded ps
task, load measured by `load_fn`) and `byte_size_load_fn` (a variable's size in bytes)."""
import hashlib

import tensorflow as tf


class RandomStrategy:
    """Places each op on ps task `md5(f"{op.name}_{seed}") % num_ps_tasks`."""

    def __init__(self, num_ps_tasks, seed=0):
        self._num_ps_tasks = num_ps_tasks
        self._seed = seed

    def __call__(self, op):
        key = f"{op.name}_{self._seed}".encode("utf-8")
        return int(int(hashlib.md5(key).hexdigest(), 16) % self._num_ps_tasks)


class GreedyLoadBalancingStrategy:
    """Places each op on the ps task with the least load so far (ties: the lowest task), then
    adds `load_fn(op)` to that task's load."""

    def __init__(self, num_tasks, load_fn):
        self._num_tasks = num_tasks
        self._load_fn = load_fn
        self._ps_loads = [0] * num_tasks

    def __call__(self, op):
        task = min(range(self._num_tasks), key=lambda i: self._ps_loads[i])
        self._ps_loads[task] += self._load_fn(op)
        return task


def byte_size_load_fn(op):
    """The byte size of `op`'s single output (a variable's value): its shape (from the output,
    else the op's `shape` attribute) times its dtype's size; 0 when the shape is unknown."""
    if len(op.outputs) != 1:
        raise ValueError(f"byte_size_load_fn takes ops with one output; {op.name} has "
                         f"{len(op.outputs)}.")
    output = op.outputs[0]
    shape = output.get_shape()
    if not shape.is_fully_defined():
        try:
            shape = tf.TensorShape(op.get_attr("shape"))
        except ValueError:
            pass
    if not shape.is_fully_defined():
        return 0
    try:
        dtype = tf.dtypes.as_dtype(op.get_attr("dtype"))
    except ValueError:
        dtype = output.dtype
    return shape.num_elements() * dtype.base_dtype.size
