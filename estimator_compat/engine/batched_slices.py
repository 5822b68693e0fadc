"""In-memory arrays sliced and batched, read a whole batch at a time.

`from_tensor_slices(arrays).batch(n)`, with a `repeat()` around it, is the commonest input_fn
over data held in memory (tutorials' evaluation and prediction input, numpy features). tf.data
makes each of its elements on its own: a slice of every array per example, then a copy of n
of them into the batch, on the pipeline's thread. With the canned wide & deep benchmark's 23
columns that is 5,888 slices and copies a batch, and on 2 cores that thread held the model
back: an evaluate call took 66 ms, 30 ms read as below; training ran at 175k examples/s,
240k below.

The same batches come straight from the arrays seen as [batches, n, ...]:
`from_tensor_slices` of that view yields each batch as one slice of each array (a dim-0
slice of a tensor shares its buffer). Only pipelines whose elements are then the same, in the
same order and with the same element_spec, are read so: dense tensors sliced; batched (a
last partial batch kept, or dropped with `drop_remainder`); repeated after the batch, or
before it where the batch size divides the length or the repeat is once (numpy_input_fn's
`repeat(num_epochs=1).batch(n)`); a prefetch kept on top. Anything else (a
shuffle, a map, take / skip, sparse or ragged components, names or options) is read as
written, and so is a rewrite whose element_spec or cardinality would differ.
"""
import tensorflow as tf


def rebatched(dataset):
    """`dataset` read a batch at a time where that gives the same elements, else `dataset`."""
    try:
        with tf.device("/cpu:0"):  # the views stay where tf.data keeps its tensors
            found = _whole_batches(dataset)
    except Exception:  # noqa: BLE001 - another TensorFlow's internals: read as written
        return dataset
    if found is None or found.element_spec != dataset.element_spec:
        return dataset
    if int(found.cardinality()) != int(dataset.cardinality()):
        return dataset
    return found


def _whole_batches(dataset):
    chain = [dataset]  # the datasets looked at, top first
    prefetch = None
    if _kind(dataset) == "_PrefetchDataset":
        prefetch, dataset = int(dataset._buffer_size), dataset._input_dataset
        chain.append(dataset)
    repeat_after = None
    if _kind(dataset) == "_RepeatDataset":
        repeat_after, dataset = dataset._count, dataset._input_dataset
        chain.append(dataset)
    if _kind(dataset) != "_BatchDataset":
        return None
    size, drop = int(dataset._batch_size), bool(dataset._drop_remainder)
    dataset = dataset._input_dataset
    chain.append(dataset)
    repeat_before = None
    if _kind(dataset) == "_RepeatDataset":
        if repeat_after is not None:
            return None
        repeat_before, dataset = dataset._count, dataset._input_dataset
        chain.append(dataset)
    if _kind(dataset) != "_TensorSliceDataset" or size < 1:
        return None
    if any(getattr(d, "_name", None) for d in chain):
        return None  # a `name=` given: kept by reading the chain as written
    arrays = _dense_arrays(dataset)
    if arrays is None:
        return None
    length = int(tf.nest.flatten(arrays)[0].shape[0])
    if repeat_before is not None and length % size and int(repeat_before) != 1:
        return None  # the batches would straddle the repetitions (one epoch: nothing to straddle)
    out = _batches(arrays, length, size, drop)
    if out is None:
        return None
    count = repeat_after if repeat_after is not None else repeat_before
    if count is not None:
        out = out.repeat(count)
    return out.prefetch(prefetch) if prefetch is not None else out


def _batches(arrays, length, size, drop):
    """The batches of `arrays` (each [length, ...]): full ones as slices of a [k, size, ...]
    view, then the partial last one unless dropped. A batch dataset that keeps its remainder
    has an unknown batch dimension: the view's static one is widened by concatenating what is
    left (an empty dataset where nothing is)."""
    full = length // size
    if not drop and full == 0:
        return None  # (only a partial batch, whose static shape would be its length)
    out = tf.data.Dataset.from_tensor_slices(tf.nest.map_structure(
        lambda t: tf.reshape(t[:full * size], [full, size] + t.shape[1:].as_list()), arrays))
    if drop:
        return out
    rest = tf.nest.map_structure(lambda t: t[full * size:], arrays)
    if length % size:
        return out.concatenate(tf.data.Dataset.from_tensors(rest))
    return out.concatenate(tf.data.Dataset.from_tensor_slices(tf.nest.map_structure(
        lambda t: tf.reshape(t, [0, 0] + t.shape[1:].as_list()), rest)))


def _dense_arrays(slices):
    """The sliced tensors in their structure, or None unless every component is dense."""
    spec = slices.element_spec
    flat = tf.nest.flatten(spec)
    tensors = slices._tensors
    if not flat or len(tensors) != len(flat) or not all(
            type(s) is tf.TensorSpec for s in flat) or not all(
            isinstance(t, tf.Tensor) and t.shape.rank and t.shape.rank >= 1
            and t.shape[0] is not None for t in tensors):
        return None
    if len({int(t.shape[0]) for t in tensors}) != 1:
        return None
    return tf.nest.pack_sequence_as(spec, list(tensors))


def _kind(dataset):
    return type(dataset).__name__
