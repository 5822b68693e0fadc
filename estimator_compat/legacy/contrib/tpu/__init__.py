"""`tf.contrib.tpu`: what of TF 1.15's TPU API runs without a TPU. Where each name lives:

- TPUEstimator, TPUEstimatorSpec, RunConfig, TPUConfig, InputPipelineConfig,
  CrossShardOptimizer: `estimator_compat.tpu` (use_tpu=False runs on CPU/GPU);
- `bfloat16_scope`, `core`, `repeat`, `while_loop`: TensorFlow 2.21's own
  (`tensorflow.python.tpu`), the code TF 1.15 ran (graph ops that run on any device);
- `outside_compilation`, `export_estimator_savedmodel`: `off_tpu.py`;
- `AsyncCheckpointSaverHook`: `async_checkpoint.py`;
- `profiler`: the trace-event protos it held (`Device`, `Resource`, `Trace`, `TraceEvent`),
  TensorFlow 2.21's own `trace_events.proto` messages (same fields and field numbers, so the
  same bytes; 2.21's `Resource` adds `sort_index`, and the package is `tsl.profiler`).
Also the deep paths `tensorflow.contrib.tpu.python.tpu.{tpu_estimator, tpu_config,
tpu_optimizer, async_checkpoint, bfloat16, tpu, training_loop}`.

What needs TPU hardware or TF 1.15's TPU runtime (infeed / outfeed ops, `rewrite`, `shard`,
`replicate`, `batch_parallel`, `cross_replica_sum`, `initialize_system` /
`shutdown_system`, the 3-D `Topology` / `DeviceAssignment` a TPU's initialize_system
reported, the Keras TPU model) is declined: each `missing.REPLACEMENTS` entry names
TensorFlow 2's TPU API.
"""
from estimator_compat.legacy.namespaces import namespace


def _profiler():
    from tensorflow.tsl.profiler.protobuf import trace_events_pb2
    return namespace("tensorflow.contrib.tpu.profiler", "tf.contrib.tpu.profiler", **{
        n: getattr(trace_events_pb2, n) for n in ("Device", "Resource", "Trace", "TraceEvent")})


def build():
    from tensorflow.python.tpu import bfloat16, training_loop
    from tensorflow.python.tpu import tpu as tf_tpu

    from estimator_compat import tpu
    from estimator_compat.legacy.contrib.tpu import async_checkpoint, off_tpu
    names = {n: getattr(tpu, n) for n in (
        "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
        "CrossShardOptimizer")}
    names.update(bfloat16_scope=bfloat16.bfloat16_scope, core=tf_tpu.core,
                 repeat=training_loop.repeat, while_loop=training_loop.while_loop,
                 outside_compilation=off_tpu.outside_compilation,
                 export_estimator_savedmodel=off_tpu.export_estimator_savedmodel,
                 AsyncCheckpointSaverHook=async_checkpoint.AsyncCheckpointSaverHook,
                 profiler=_profiler())
    modules = {"tpu_estimator": ("TPUEstimator", "TPUEstimatorSpec",
                                 "export_estimator_savedmodel"),
               "tpu_config": ("RunConfig", "TPUConfig", "InputPipelineConfig"),
               "tpu_optimizer": ("CrossShardOptimizer",),
               "async_checkpoint": ("AsyncCheckpointSaverHook",),
               "bfloat16": ("bfloat16_scope",),
               "tpu": ("core", "outside_compilation"),
               "training_loop": ("repeat", "while_loop")}
    tpu_python = namespace("tensorflow.contrib.tpu.python.tpu", "tf.contrib.tpu", **{
        module: namespace(f"tensorflow.contrib.tpu.python.tpu.{module}", f"tf.contrib.tpu's "
                          f"{module}", **{n: names[n] for n in members})
        for module, members in modules.items()})
    return namespace("tensorflow.contrib.tpu", "tf.contrib.tpu", __served_whole__=True,
                     **names, python=namespace("tensorflow.contrib.tpu.python",
                                               "tf.contrib.tpu", tpu=tpu_python))
