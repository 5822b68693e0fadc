"""`tf.contrib.eager` (`tfe`), served whole: TF 1.15's eager-execution API.

Eager mode is per thread here (`legacy/graph_mode.py`): `tfe.enable_eager_execution` is the
view's `tf.enable_eager_execution` (the program's thread runs eagerly, the engine is
unchanged). Where each name comes from:

- TensorFlow 2.21's own, the objects TF 1.15 served: `GradientTape`, `implicit_gradients`,
  `implicit_value_and_gradients`, `gradients_function`, `value_and_gradients_function`
  (TensorFlow's backprop module kept them), `Variable` (ResourceVariable), `Checkpoint`
  (`tf.compat.v1.train.Checkpoint`), `Checkpointable` (AutoTrackable), `EagerVariableStore`,
  `make_template` (the internal form, with `create_graph_function_`), `py_func`
  (`tf.py_function`), `custom_gradient`, `TensorSpec`, `function` (`tf.function`),
  `executing_eagerly` / `in_eager_mode`, `num_gpus`, `execution_mode`, `set_execution_mode`,
  `async_wait`, `async_clear_error`, `set_server_def`, `connect_to_remote_host`, `SYNC`,
  `ASYNC`, `DEVICE_PLACEMENT_*`.
- Written here (`eager_parts/`): `metrics` (Mean, Accuracy, ...), `Iterator`, `Saver`,
  `restore_variables_on_create`, `get_optimizer_variables`, the execution callbacks
  (`add_execution_callback`, `seterr`, `errstate`, `inf_nan_callback`, ...: TensorFlow 2's
  op callbacks), `defun`, `run`, `enable_remote_eager_execution`, `list_devices`, the
  graph-and-eager test decorators, and `Network` / `Sequential` with their checkpoint
  functions (`eager_parts/network.py`).
"""
import tensorflow as tf
from tensorflow.python.eager import backprop, context, remote
from tensorflow.python.ops import resource_variable_ops, script_ops, template, variable_scope
from tensorflow.python.trackable import autotrackable

from estimator_compat.legacy.contrib.eager_parts import execution_callbacks as _callbacks
from estimator_compat.legacy.contrib.eager_parts import iterator as _iterator
from estimator_compat.legacy.contrib.eager_parts import metrics as _metrics
from estimator_compat.legacy.contrib.eager_parts import modes as _modes
from estimator_compat.legacy.contrib.eager_parts import network as _network
from estimator_compat.legacy.contrib.eager_parts import saving as _saving


_METRICS = ("Metric", "Mean", "Accuracy", "CategoricalAccuracy", "BinaryAccuracy",
            "SparseAccuracy")


def _python_paths(namespace, names):
    """TF 1.15's `tensorflow.contrib.eager.python.*` modules (`from
    tensorflow.contrib.eager.python import tfe`, as TF 1.4-1.6 programs imported it)."""
    def part(module, values):
        return namespace("tensorflow.contrib.eager.python." + module,
                         f"contrib/eager/python/{module}.py", **values)

    def some(*keys):
        return {k: names[k] for k in keys}
    return namespace(
        "tensorflow.contrib.eager.python", "contrib/eager/python",
        tfe=part("tfe", names), metrics=names["metrics"],
        metrics_impl=part("metrics_impl", {k: getattr(_metrics, k) for k in _METRICS}),
        datasets=part("datasets", some("Iterator")),
        saver=part("saver", some("Saver", "restore_variables_on_create",
                                 "get_optimizer_variables")),
        network=part("network", some("Network", "Sequential", "save_network_checkpoint",
                                     "restore_network_checkpoint")))


def build():
    from estimator_compat.legacy.namespaces import namespace
    names = _names(_metrics.build())
    return namespace(
        "tensorflow.contrib.eager", "tf.contrib.eager (tfe): TF 1.15's eager execution API",
        __served_whole__=True, python=_python_paths(namespace, names), **names)


def _names(metrics):
    return dict(
        metrics=metrics,
        # gradients
        GradientTape=backprop.GradientTape, implicit_gradients=backprop.implicit_grad,
        implicit_value_and_gradients=backprop.implicit_val_and_grad,
        gradients_function=backprop.gradients_function,
        value_and_gradients_function=backprop.val_and_grad_function,
        custom_gradient=tf.custom_gradient,
        # functions and variables
        defun=_modes.defun, function=tf.function, py_func=script_ops.eager_py_func,
        make_template=template.make_template_internal, TensorSpec=tf.TensorSpec,
        Variable=resource_variable_ops.ResourceVariable,
        EagerVariableStore=variable_scope.EagerVariableStore,
        # data and checkpoints
        Iterator=_iterator.Iterator, Saver=_saving.Saver,
        restore_variables_on_create=_saving.restore_variables_on_create,
        get_optimizer_variables=_saving.get_optimizer_variables,
        Checkpoint=tf.compat.v1.train.Checkpoint, Checkpointable=autotrackable.AutoTrackable,
        Network=_network.Network, Sequential=_network.Sequential,
        save_network_checkpoint=_network.save_network_checkpoint,
        restore_network_checkpoint=_network.restore_network_checkpoint,
        # execution
        enable_eager_execution=_modes.enable_eager_execution,
        enable_remote_eager_execution=_modes.enable_remote_eager_execution,
        run=_modes.run, executing_eagerly=context.executing_eagerly,
        in_eager_mode=context.executing_eagerly, list_devices=_modes.list_devices,
        num_gpus=context.num_gpus, execution_mode=context.execution_mode,
        set_execution_mode=context.set_execution_mode, async_wait=context.async_wait,
        async_clear_error=context.async_clear_error, set_server_def=context.set_server_def,
        connect_to_remote_host=remote.connect_to_remote_host,
        SYNC=context.SYNC, ASYNC=context.ASYNC,
        DEVICE_PLACEMENT_EXPLICIT=context.DEVICE_PLACEMENT_EXPLICIT,
        DEVICE_PLACEMENT_WARN=context.DEVICE_PLACEMENT_WARN,
        DEVICE_PLACEMENT_SILENT=context.DEVICE_PLACEMENT_SILENT,
        # execution callbacks
        ExecutionCallback=_callbacks.ExecutionCallback,
        add_execution_callback=_callbacks.add_execution_callback,
        clear_execution_callbacks=_callbacks.clear_execution_callbacks,
        inf_callback=_callbacks.inf_callback, nan_callback=_callbacks.nan_callback,
        inf_nan_callback=_callbacks.inf_nan_callback, seterr=_callbacks.seterr,
        errstate=_callbacks.errstate,
        # tests
        run_test_in_graph_and_eager_modes=_modes.run_test_in_graph_and_eager_modes,
        run_all_tests_in_graph_and_eager_modes=_modes.run_all_tests_in_graph_and_eager_modes)
