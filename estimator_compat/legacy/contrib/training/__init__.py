"""`tf.contrib.training`: TF 1.15's training and evaluation helpers. Where each name lives:

- `evaluation.py`: `checkpoints_iterator`, `wait_for_new_checkpoint`, `evaluate_once`,
  `evaluate_repeatedly`, `StopAfterNEvalsHook`, `SummaryAtEndHook`, `get_or_create_eval_step`
  (also the deep path `tensorflow.contrib.training.python.training.evaluation`);
- `training_ops.py`: `create_train_op`, `add_gradients_summaries`, `clip_gradient_norms(_fn)`,
  `multiply_gradients`, `train` (`...python.training.training`);
- `device_setter.py`: `RandomStrategy`, `GreedyLoadBalancingStrategy`, `byte_size_load_fn`;
- `feeding_queue_runner.py`: `FeedingQueueRunner`;
- `hparam.py`: `parse_values`; `HParams` is `estimator_compat.learn.HParams`
  (`...python.training.hparam`);
- `bucket_ops.py`: `bucket`, `bucket_by_sequence_length` (TF1 queues and queue runners);
- `sampling_ops.py`: `rejection_sample`, `stratified_sample` (TF1 queues and queue runners);
- `resample.py`: `resample_at_rate`, `weighted_resample`;
- `state_saver.py`: `batch_sequences_with_states`, `SequenceQueueingStateSaver`,
  `NextQueuedSequenceBatch` (TF1 barrier ops; `...python.training.sequence_queueing_state_saver`).
"""
import sys

from estimator_compat.legacy.namespaces import namespace

_MODULES = {
    "evaluation": ("checkpoints_iterator", "wait_for_new_checkpoint", "evaluate_once",
                   "evaluate_repeatedly", "StopAfterNEvalsHook", "SummaryAtEndHook",
                   "get_or_create_eval_step"),
    "training_ops": ("create_train_op", "add_gradients_summaries", "clip_gradient_norms",
                     "clip_gradient_norms_fn", "multiply_gradients", "train"),
    "device_setter": ("RandomStrategy", "GreedyLoadBalancingStrategy", "byte_size_load_fn"),
    "feeding_queue_runner": ("FeedingQueueRunner",),
    "hparam": ("parse_values",),
    "bucket_ops": ("bucket", "bucket_by_sequence_length"),
    "sampling_ops": ("rejection_sample", "stratified_sample"),
    "resample": ("resample_at_rate", "weighted_resample"),
    "state_saver": ("batch_sequences_with_states", "SequenceQueueingStateSaver",
                    "NextQueuedSequenceBatch"),
}
# deep module paths TF 1.x code imported: {path under ...python.training: our module}
_DEEP = {"evaluation": "evaluation", "training": "training_ops", "device_setter": "device_setter",
         "feeding_queue_runner": "feeding_queue_runner", "hparam": "hparam",
         "bucket_ops": "bucket_ops", "sampling_ops": "sampling_ops", "resample": "resample",
         "sequence_queueing_state_saver": "state_saver"}


def build():
    import importlib

    from estimator_compat import learn
    names = {"HParams": learn.HParams}
    modules = {}
    for module, members in _MODULES.items():
        modules[module] = importlib.import_module(f"{__name__}.{module}")
        names.update({n: getattr(modules[module], n) for n in members})
    deep = {}
    for path, module in _DEEP.items():
        attrs = {n: names[n] for n in _MODULES[module]}
        if path == "hparam":
            attrs["HParams"] = learn.HParams
        deep[path] = namespace(f"tensorflow.contrib.training.python.training.{path}",
                               f"tf.contrib.training's {path}", **attrs)
    namespace("tensorflow.contrib.training.python", "tf.contrib.training",
              training=namespace("tensorflow.contrib.training.python.training",
                                 "tf.contrib.training", **deep, **names))
    return namespace("tensorflow.contrib.training", "tf.contrib.training",
                     __served_whole__=True, **names,
                     python=sys.modules["tensorflow.contrib.training.python"])
