"""`inputs.*`: numpy_input_fn and pandas_input_fn (on tf.data here, not on feeding queues), the
private helpers of their modules (estimator_tree/input_privates.py), and 2.15's queue feeding
for TF1 input code (estimator_tree/feeding_queues.py)."""
import types


def modules():
    from estimator_compat import inputs
    from estimator_compat.legacy.estimator_tree import feeding_queues as q
    from estimator_compat.legacy.estimator_tree import input_privates as p
    public = {n: getattr(inputs, n) for n in dir(inputs) if not n.startswith("_")
              and not isinstance(getattr(inputs, n), types.ModuleType)}
    return {
        "inputs": public, "inputs.inputs": public,
        "inputs.numpy_io": dict(numpy_input_fn=inputs.numpy_input_fn,
                                _get_unique_target_key=p.numpy_unique_target_key,
                                _validate_and_convert_features=p._validate_and_convert_features),
        "inputs.pandas_io": dict(pandas_input_fn=inputs.pandas_input_fn,
                                 _get_unique_target_key=p.pandas_unique_target_key),
        "inputs.queues": {},
        "inputs.queues.feeding_functions": dict(
            _fill_array=p._fill_array, _pad_if_needed=p._pad_if_needed,
            _get_integer_indices_for_next_batch=p._get_integer_indices_for_next_batch,
            **{n: getattr(q, n) for n in ("_ArrayFeedFn", "_GeneratorFeedFn",
                                          "_OrderedDictNumpyFeedFn", "_PandasFeedFn",
                                          "_enqueue_data")}),
        "inputs.queues.feeding_queue_runner": dict(_FeedingQueueRunner=q._FeedingQueueRunner),
    }


DECLINED = {}
