"""`inputs.*`: numpy_input_fn and pandas_input_fn (on tf.data here, not on feeding queues)."""
import types

from estimator_compat.legacy.estimator_tree.reasons import PRIVATE, declined


def modules():
    from estimator_compat import inputs
    public = {n: getattr(inputs, n) for n in dir(inputs) if not n.startswith("_")
              and not isinstance(getattr(inputs, n), types.ModuleType)}
    return {
        "inputs": public, "inputs.inputs": public,
        "inputs.numpy_io": dict(numpy_input_fn=inputs.numpy_input_fn),
        "inputs.pandas_io": dict(pandas_input_fn=inputs.pandas_input_fn),
        "inputs.queues": {}, "inputs.queues.feeding_functions": {},
        "inputs.queues.feeding_queue_runner": {},
    }


QUEUES = ("tensorflow_estimator's queue-runner feeding of numpy / pandas data; estimator_compat's "
          "numpy_input_fn and pandas_input_fn read them with tf.data")
DECLINED = {
    "inputs.numpy_io": declined(PRIVATE, ("_get_unique_target_key",
                                          "_validate_and_convert_features")),
    "inputs.pandas_io": declined(PRIVATE, ("_get_unique_target_key",)),
    "inputs.queues.feeding_functions": declined(QUEUES, (
        "_ArrayFeedFn", "_GeneratorFeedFn", "_OrderedDictNumpyFeedFn", "_PandasFeedFn",
        "_enqueue_data", "_fill_array", "_get_integer_indices_for_next_batch",
        "_pad_if_needed")),
    "inputs.queues.feeding_queue_runner": declined(QUEUES, ("_FeedingQueueRunner",)),
}
