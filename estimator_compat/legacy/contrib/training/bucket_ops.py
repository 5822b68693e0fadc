"""tf.contrib.training's queue-based bucketing (`...contrib.training.python.training.
bucket_ops`): `bucket` batches examples per bucket (one queue each, padded with `dynamic_pad`)
and hands whole batches to a top queue; `bucket_by_sequence_length` picks the bucket from a
length and `bucket_boundaries`. TF1 queues and queue runners (`tf.train.start_queue_runners`
or a MonitoredSession runs them), with the `size` / `fraction_of_N_full` summaries TF 1.15
added."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
_CLOSED = (tf.errors.OutOfRangeError, tf.errors.CancelledError)


def _per_bucket(value, num_buckets, what):
    if isinstance(value, (list, tuple)):
        if len(value) != num_buckets:
            raise ValueError(f"{what} must be an int or a list of {num_buckets} (num_buckets) "
                             f"values; given {len(value)}")
        return list(value)
    return [value] * num_buckets


def bucket(tensors, which_bucket, batch_size, num_buckets, num_threads=1, capacity=32,
           bucket_capacities=None, shapes=None, dynamic_pad=False,
           allow_smaller_final_batch=False, keep_input=True, shared_name=None, name=None):
    """(bucket id, `tensors` batched): each example goes to queue `which_bucket`; a batch of
    `batch_size` (per bucket if a list) from one bucket at a time comes out, with its id."""
    batch_sizes = _per_bucket(batch_size, num_buckets, "batch_size")
    capacities = _per_bucket(bucket_capacities if bucket_capacities is not None else capacity,
                             num_buckets, "bucket_capacities")
    flat = tf.nest.flatten(tensors)
    if any(isinstance(t, tf.SparseTensor) for t in flat):
        raise TypeError("bucket takes dense tensors; SparseTensors are not supported here "
                        "(tf.data's Dataset.bucket_by_sequence_length takes them).")
    with tf.name_scope(name or "bucket") as scope:
        flat = [tf.convert_to_tensor(t) for t in flat]
        which_bucket = tf.convert_to_tensor(which_bucket, tf.int32, name="which_bucket")
        types = [t.dtype for t in flat]
        shapes = [tf.TensorShape(s) for s in shapes] if shapes is not None else \
            [t.shape for t in flat]
        if not dynamic_pad and not all(s.is_fully_defined() for s in shapes):
            raise ValueError("All shapes must be fully defined without dynamic_pad=True; "
                             f"given {shapes}")
        queue_class = v1.PaddingFIFOQueue if dynamic_pad else v1.FIFOQueue
        bucket_queues = [queue_class(capacity=capacities[i], dtypes=types, shapes=shapes,
                                     shared_name=f"{shared_name}_{i}" if shared_name else None,
                                     name=f"bucket_queue_{i}") for i in range(num_buckets)]
        static_batch = None if allow_smaller_final_batch or len(set(batch_sizes)) > 1 \
            else batch_sizes[0]
        top_queue = v1.PaddingFIFOQueue(
            capacity=capacity, dtypes=[tf.int32] + types,
            shapes=[[]] + [[static_batch] + s.as_list() for s in shapes],
            shared_name=shared_name, name="top_queue")

        def enqueue_example():
            enqueues = [tf.cond(tf.equal(which_bucket, i),
                                lambda q=q: q.enqueue(flat), tf.no_op)
                        for i, q in enumerate(bucket_queues)]
            return tf.group(*enqueues)
        keep = tf.convert_to_tensor(keep_input, tf.bool)
        maybe_enqueue = tf.cond(keep, enqueue_example, tf.no_op)
        dequeue = (lambda q: q.dequeue_up_to) if allow_smaller_final_batch else \
            (lambda q: q.dequeue_many)
        to_top = []
        for i, q in enumerate(bucket_queues):
            batch = dequeue(q)(batch_sizes[i], name=f"read_bucket_{i}")
            to_top.append(top_queue.enqueue([tf.constant(i)] + list(batch),
                                            name=f"enqueue_from_bucket_{i}"))
        v1.train.add_queue_runner(v1.train.QueueRunner(
            bucket_queues[0], to_top, close_op=top_queue.close(),
            cancel_op=top_queue.close(cancel_pending_enqueues=True),
            queue_closed_exception_types=_CLOSED))
        v1.train.add_queue_runner(v1.train.QueueRunner(
            top_queue, [maybe_enqueue] * num_threads,
            close_op=tf.group(*[q.close() for q in bucket_queues]),
            cancel_op=tf.group(*[q.close(cancel_pending_enqueues=True)
                                 for q in bucket_queues]),
            queue_closed_exception_types=_CLOSED))
        for q in bucket_queues:
            v1.summary.scalar(f"bucket/{q.name}/size", tf.cast(q.size(), tf.float32))
        v1.summary.scalar(f"bucket/{top_queue.name}/fraction_of_{capacity}_full",
                          tf.cast(top_queue.size(), tf.float32) * (1.0 / capacity))
        dequeued = top_queue.dequeue(name="dequeue_top")
        del scope
    return dequeued[0], tf.nest.pack_sequence_as(tensors, dequeued[1:])


def bucket_by_sequence_length(input_length, tensors, batch_size, bucket_boundaries,
                              num_threads=1, capacity=32, bucket_capacities=None, shapes=None,
                              dynamic_pad=False, allow_smaller_final_batch=False,
                              keep_input=True, shared_name=None, name=None):
    """(lengths [batch], `tensors` batched): `bucket` with the bucket of each example from its
    `input_length` (bucket i holds boundaries[i-1] <= length < boundaries[i])."""
    boundaries = list(bucket_boundaries)
    if not boundaries or boundaries != sorted(boundaries) or \
            not all(isinstance(b, (int, np.integer)) for b in boundaries):
        raise ValueError("bucket_boundaries must be a non-empty, sorted list of ints; given "
                         f"{bucket_boundaries!r}")
    flat = tf.nest.flatten(tensors)
    with tf.name_scope(name or "bucket_by_sequence_length"):
        input_length = tf.cast(tf.convert_to_tensor(input_length), tf.int32)
        low = tf.constant([np.iinfo(np.int32).min] + boundaries, tf.int32)
        high = tf.constant(boundaries + [np.iinfo(np.int32).max], tf.int32)
        inside = tf.logical_and(tf.less_equal(low, input_length), tf.less(input_length, high))
        which_bucket = tf.cast(tf.reduce_min(tf.where(inside)), tf.int32)
        if shapes is not None:
            shapes = [tf.TensorShape([])] + [tf.TensorShape(s) for s in shapes]
        _, dequeued = bucket([input_length] + flat, which_bucket, batch_size,
                             len(boundaries) + 1, num_threads=num_threads, capacity=capacity,
                             bucket_capacities=bucket_capacities, shapes=shapes,
                             dynamic_pad=dynamic_pad,
                             allow_smaller_final_batch=allow_smaller_final_batch,
                             keep_input=keep_input, shared_name=shared_name)
    return dequeued[0], tf.nest.pack_sequence_as(tensors, dequeued[1:])
