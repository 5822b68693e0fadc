"""`tf.contrib.learn.read_batch_*`: TF 1.x queue readers of example files (`learn_io.graph_io`).

`read_keyed_batch_examples(file_pattern, batch_size, reader, ...)` reads records of the files
matching `file_pattern` with `reader` (e.g. `tf.TFRecordReader`) through a filename queue
(`num_epochs` passes, shuffled with `randomize_input`) and batches them with
`shuffle_batch_join` / `batch_join`; the `*_features` variants parse them with
`tf.parse_example(features)`. These are TF 1.x queue ops: an Estimator input_fn using them runs
in a session of its own with its queue runners (engine/session_input.py), as TF 1.15 ran it.
With `num_epochs` the last batch may be smaller (allow_smaller_final_batch), then the input
ends. The parsed features go through one more queue (`feature_queue_capacity`,
`num_enqueue_threads` threads), as in TF 1.15; queue and summary names are TF 1.15's.
"""
import tensorflow as tf

v1 = tf.compat.v1


def _check_graph_mode(what):
    if tf.executing_eagerly():
        raise RuntimeError(f"tf.contrib.learn.{what} builds TF 1.x queues, which need graph "
                           "mode: call it in an Estimator input_fn, a TF 1.x program "
                           "(estimator-compat run) or `with tf.Graph().as_default():`.")


def _file_names(file_pattern, randomize_input):
    patterns = file_pattern if isinstance(file_pattern, (list, tuple)) else [file_pattern]
    names = []
    for pattern in patterns:
        names.extend(tf.io.gfile.glob(pattern))
    if not names:
        raise ValueError(f"No files match {file_pattern}.")
    return names if randomize_input else sorted(names)


def _check(batch_size, queue_capacity, num_epochs, read_batch_size=1):
    if batch_size is None or (not isinstance(batch_size, tf.Tensor) and batch_size <= 0):
        raise ValueError(f"Invalid batch_size {batch_size}.")
    if not isinstance(batch_size, tf.Tensor) and queue_capacity <= batch_size:
        raise ValueError(f"Invalid queue_capacity {queue_capacity}: it must be larger than "
                         f"batch_size {batch_size}.")
    if read_batch_size <= 0:
        raise ValueError(f"Invalid read_batch_size {read_batch_size}.")
    if num_epochs is not None and num_epochs <= 0:
        raise ValueError(f"Invalid num_epochs {num_epochs}.")


def _read_keyed(scope, file_pattern, batch_size, reader, randomize_input, num_epochs,
                queue_capacity, num_threads, read_batch_size, parse_fn, seed):
    """(keys, records) read and batched in the open name scope `scope`."""
    _check(batch_size, queue_capacity, num_epochs, read_batch_size)
    file_names = _file_names(file_pattern, randomize_input)
    queue = v1.train.string_input_producer(file_names, num_epochs=num_epochs,
                                           shuffle=randomize_input, seed=seed,
                                           name="file_name_queue")
    parts = []
    for _ in range(max(1, num_threads)):
        keys, records = reader().read_up_to(queue, read_batch_size)
        if parse_fn is not None:
            records = parse_fn(records)
        parts.append([keys, records])
    smaller_final = num_epochs is not None
    if randomize_input:
        return v1.train.shuffle_batch_join(
            parts, batch_size, capacity=queue_capacity,
            min_after_dequeue=queue_capacity // 4, seed=seed, enqueue_many=True,
            allow_smaller_final_batch=smaller_final, name=scope)
    return v1.train.batch_join(parts, batch_size, capacity=queue_capacity, enqueue_many=True,
                               allow_smaller_final_batch=smaller_final, name=scope)


def read_keyed_batch_examples(file_pattern, batch_size, reader, randomize_input=True,
                              num_epochs=None, queue_capacity=10000, num_threads=1,
                              read_batch_size=1, parse_fn=None, name=None, seed=None):
    """(keys, records) batches of `batch_size` read from the files of `file_pattern`."""
    _check_graph_mode("read_keyed_batch_examples")
    with tf.name_scope(name or "read_batch_examples") as scope:
        return _read_keyed(scope, file_pattern, batch_size, reader, randomize_input,
                           num_epochs, queue_capacity, num_threads, read_batch_size, parse_fn,
                           seed)


def read_batch_examples(file_pattern, batch_size, reader, randomize_input=True,
                        num_epochs=None, queue_capacity=10000, num_threads=1,
                        read_batch_size=1, parse_fn=None, name=None, seed=None):
    """Batches of records read from the files of `file_pattern` (no keys)."""
    return read_keyed_batch_examples(file_pattern, batch_size, reader, randomize_input,
                                     num_epochs, queue_capacity, num_threads, read_batch_size,
                                     parse_fn, name, seed)[1]


def read_keyed_batch_examples_shared_queue(file_pattern, batch_size, reader,
                                           randomize_input=True, num_epochs=None,
                                           queue_capacity=10000, num_threads=1,
                                           read_batch_size=1, parse_fn=None, name=None,
                                           seed=None):
    """read_keyed_batch_examples (its queues shared between workers in TF 1.15; one process
    here reads the same batches)."""
    return read_keyed_batch_examples(file_pattern, batch_size, reader, randomize_input,
                                     num_epochs, queue_capacity, num_threads, read_batch_size,
                                     parse_fn, name, seed)


def queue_parsed_features(parsed_features, keys=None, feature_queue_capacity=100,
                          num_enqueue_threads=2, name=None):
    """(keys, features) through one more FIFO queue filled by `num_enqueue_threads` queue
    runner threads (SparseTensors as their three parts), shapes kept."""
    _check_graph_mode("queue_parsed_features")
    with tf.name_scope(name or "queue_parsed_features"):
        names = sorted(parsed_features)
        tensors, layout = [], []
        if keys is not None:
            tensors.append(keys)
        for key in names:
            value = parsed_features[key]
            if isinstance(value, tf.SparseTensor):
                layout.append((key, True, len(tensors)))
                tensors.extend([value.indices, value.values, value.dense_shape])
            else:
                layout.append((key, False, len(tensors)))
                tensors.append(value)
        queue = v1.FIFOQueue(feature_queue_capacity, dtypes=[t.dtype for t in tensors])
        v1.summary.scalar(
            f"queue/parsed_features/{queue.name}/fraction_of_{feature_queue_capacity}_full",
            tf.cast(queue.size(), tf.float32) * (1.0 / feature_queue_capacity))
        enqueue = [queue.enqueue(tensors) for _ in range(max(1, num_enqueue_threads))]
        v1.train.add_queue_runner(v1.train.QueueRunner(queue, enqueue,
                                                       queue_closed_exception_types=(
                                                           tf.errors.OutOfRangeError,
                                                           tf.errors.CancelledError)))
        dequeued = queue.dequeue()
        if not isinstance(dequeued, (list, tuple)):
            dequeued = [dequeued]
        for tensor, original in zip(dequeued, tensors):
            tensor.set_shape(original.shape)
        features = {}
        for key, sparse, i in layout:
            features[key] = (tf.SparseTensor(dequeued[i], dequeued[i + 1], dequeued[i + 2])
                             if sparse else dequeued[i])
        return (dequeued[0] if keys is not None else None), features


def read_keyed_batch_features(file_pattern, batch_size, features, reader, randomize_input=True,
                              num_epochs=None, queue_capacity=10000, reader_num_threads=1,
                              feature_queue_capacity=100, num_enqueue_threads=2,
                              parse_fn=None, name=None, read_batch_size=None):
    """(keys, {feature: Tensor or SparseTensor}) batches: records parsed with
    `tf.parse_example(features)`, then queued once more (`feature_queue_capacity`)."""
    _check_graph_mode("read_keyed_batch_features")
    with tf.name_scope(name or "read_batch_features") as scope:
        keys, examples = _read_keyed(
            scope, file_pattern, batch_size, reader, randomize_input, num_epochs,
            queue_capacity, reader_num_threads, read_batch_size or batch_size, parse_fn, None)
        parsed = v1.parse_example(examples, features)
        return queue_parsed_features(parsed, keys=keys,
                                     feature_queue_capacity=feature_queue_capacity,
                                     num_enqueue_threads=num_enqueue_threads, name=scope)


def read_keyed_batch_features_shared_queue(file_pattern, batch_size, features, reader,
                                           randomize_input=True, num_epochs=None,
                                           queue_capacity=10000, reader_num_threads=1,
                                           feature_queue_capacity=100, num_queue_runners=2,
                                           parse_fn=None, name=None):
    return read_keyed_batch_features(file_pattern, batch_size, features, reader,
                                     randomize_input, num_epochs, queue_capacity,
                                     reader_num_threads, feature_queue_capacity,
                                     num_queue_runners, parse_fn, name)


def read_batch_features(file_pattern, batch_size, features, reader, randomize_input=True,
                        num_epochs=None, queue_capacity=10000, feature_queue_capacity=100,
                        reader_num_threads=1, num_enqueue_threads=2, parse_fn=None, name=None,
                        read_batch_size=None):
    """{feature: Tensor or SparseTensor} batches parsed from the files of `file_pattern`."""
    return read_keyed_batch_features(
        file_pattern, batch_size, features, reader, randomize_input=randomize_input,
        num_epochs=num_epochs, queue_capacity=queue_capacity,
        reader_num_threads=reader_num_threads, feature_queue_capacity=feature_queue_capacity,
        num_enqueue_threads=num_enqueue_threads, parse_fn=parse_fn, name=name,
        read_batch_size=read_batch_size)[1]


def read_batch_record_features(file_pattern, batch_size, features, randomize_input=True,
                               num_epochs=None, queue_capacity=10000, reader_num_threads=1,
                               name="dequeue_record_examples"):
    """read_batch_features of TFRecord files."""
    return read_batch_features(file_pattern, batch_size, features, v1.TFRecordReader,
                               randomize_input=randomize_input, num_epochs=num_epochs,
                               queue_capacity=queue_capacity,
                               reader_num_threads=reader_num_threads, name=name)
