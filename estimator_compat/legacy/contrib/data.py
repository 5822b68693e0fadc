"""`tf.contrib.data`: the tf.data transformations and readers TF 1.x input_fns took from contrib.

Most of TF 1.15's names had moved to `tf.data.experimental` already and are served from
`tf.compat.v1.data.experimental` (so readers return TF1 datasets, with
`make_one_shot_iterator()`). The ones contrib alone had are small compositions of tf.data here:

- `batch_and_drop_remainder(n)` / `padded_batch_and_drop_remainder(n, shapes)`:
  `batch` / `padded_batch` with `drop_remainder=True`;
- `sliding_window_batch(size, stride | window_shift, window_stride)`: `Dataset.window` with
  incomplete windows dropped, each window batched (elements of shape `[None, ...]`);
- `sloppy_interleave`: `parallel_interleave(sloppy=True)`;
- `assert_element_shape(shapes)`: checked against the static shapes at once (ValueError), then
  per element (`tf.ensure_shape`), the merged shapes set on the output;
- `reduce_dataset(dataset, reducer)`: the dataset reduced as one group, its single element;
- `read_batch_features(...)`: `make_batched_features_dataset`'s next batch (a one-shot
  iterator's `get_next()`).

`LMDBDataset` is `lmdb_dataset.py` (the lmdb package read through `Dataset.from_generator`:
TensorFlow 2.21's LMDB kernel only raises "LMDB support is removed from TensorFlow").

`CheckpointInputPipelineHook`: hooks/input_checkpoint.py (the engine saves the training
input's position with each model checkpoint).
"""
import tensorflow as tf

from estimator_compat.hooks import input_checkpoint
from estimator_compat.legacy.contrib.lmdb_dataset import LMDBDataset
from estimator_compat.legacy.namespaces import namespace

_experimental = tf.compat.v1.data.experimental
_FROM_EXPERIMENTAL = (
    "AUTOTUNE", "Counter", "CsvDataset", "Optional", "RandomDataset", "Reducer", "SqlDataset",
    "TFRecordWriter", "bucket_by_sequence_length", "choose_from_datasets", "copy_to_device",
    "dense_to_sparse_batch", "enumerate_dataset", "get_next_as_optional", "get_single_element",
    "group_by_reducer", "group_by_window", "ignore_errors", "make_batched_features_dataset",
    "make_csv_dataset", "make_saveable_from_iterator", "map_and_batch", "parallel_interleave",
    "parse_example_dataset", "prefetch_to_device", "rejection_resample",
    "sample_from_datasets", "scan", "shuffle_and_repeat", "unbatch", "unique")


def batch_and_drop_remainder(batch_size):
    """`dataset.apply(...)`: batches of `batch_size`, a smaller last batch dropped."""
    return lambda dataset: dataset.batch(batch_size, drop_remainder=True)


def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
    """`dataset.apply(...)`: padded batches of `batch_size`, a smaller last batch dropped."""
    return lambda dataset: dataset.padded_batch(batch_size, padded_shapes, padding_values,
                                                drop_remainder=True)


def sloppy_interleave(map_func, cycle_length, block_length=1):
    """parallel_interleave that may give elements out of order when an input is slow."""
    return _experimental.parallel_interleave(map_func, cycle_length, block_length, sloppy=True)


def sliding_window_batch(window_size, stride=None, window_shift=None, window_stride=1):
    """`dataset.apply(...)`: windows of `window_size` consecutive elements (every
    `window_stride`-th), one starting every `window_shift` (or `stride`) elements, each batched;
    windows that would run past the end are dropped."""
    if stride is not None and window_shift is not None:
        raise ValueError("Cannot specify both `stride` and `window_shift`; they are the same "
                         "(the shift between windows): pass `window_shift`.")
    shift = window_shift if window_shift is not None else (stride if stride is not None else 1)
    for name, value in (("window_size", window_size), ("window_shift", shift),
                        ("window_stride", window_stride)):
        if isinstance(value, int) and value <= 0:
            raise ValueError(f"`{name}` must be > 0, given {value}.")

    def batch_window(*windows):
        zipped = windows[0] if len(windows) == 1 else tf.data.Dataset.zip(windows)
        return zipped.batch(window_size)

    def apply(dataset):
        windows = dataset.window(window_size, shift, window_stride, drop_remainder=True)
        return windows.flat_map(batch_window)
    return apply


def assert_element_shape(expected_shapes):
    """`dataset.apply(...)`: each element checked against `expected_shapes` (a structure of
    shapes like the dataset's elements): incompatible static shapes raise ValueError now, a
    mismatch seen while iterating raises InvalidArgumentError; the shapes are merged into the
    dataset's."""
    def apply(dataset):
        structure = tf.compat.v1.data.get_output_shapes(dataset)
        expected = tf.nest.pack_sequence_as(structure, _shapes_like(structure, expected_shapes))
        merged = tf.nest.map_structure(lambda have, want: have.merge_with(want), structure,
                                       expected)

        def check(*element):
            element = element[0] if len(element) == 1 else element
            return tf.nest.map_structure(
                lambda tensor, shape: tf.ensure_shape(tensor, shape), element, merged)
        return dataset.map(check)
    return apply


def _shapes_like(structure, shapes):
    """`shapes` (lists, tuples or TensorShapes, nested like `structure`, the dataset's shapes)
    flattened as tf.nest flattens `structure`, each a TensorShape."""
    if isinstance(structure, tf.TensorShape):
        return [tf.TensorShape(shapes)]
    if isinstance(structure, dict):
        if not isinstance(shapes, dict) or sorted(shapes) != sorted(structure):
            raise ValueError(f"expected_shapes {shapes!r} must be a dict with the keys of the "
                             f"dataset's elements: {sorted(structure)}")
        return [s for key in sorted(structure) for s in _shapes_like(structure[key], shapes[key])]
    if not isinstance(shapes, (list, tuple)) or len(shapes) != len(structure):
        raise ValueError(f"expected_shapes {shapes!r} does not match the structure of the "
                         f"dataset's elements: {structure!r}")
    return [s for sub, shape in zip(structure, shapes) for s in _shapes_like(sub, shape)]


def reduce_dataset(dataset, reducer):
    """The `Reducer`'s result over every element of `dataset` (a tensor structure)."""
    if not isinstance(reducer, _experimental.Reducer):
        raise TypeError(f"reducer must be a tf.contrib.data.Reducer, given {type(reducer)}")
    grouped = dataset.apply(_experimental.group_by_reducer(
        lambda *_: tf.constant(0, tf.int64), reducer))
    return _experimental.get_single_element(grouped)


def read_batch_features(file_pattern, batch_size, features, reader=None, reader_args=None,
                        randomize_input=True, num_epochs=None, capacity=10000):
    """The next batch (a dict of tensors) of the Example files matching `file_pattern`."""
    dataset = _experimental.make_batched_features_dataset(
        file_pattern, batch_size, features, reader=reader or tf.compat.v1.data.TFRecordDataset,
        reader_args=reader_args, shuffle=randomize_input, num_epochs=num_epochs,
        shuffle_buffer_size=capacity)
    return tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()


def build():
    own = dict(batch_and_drop_remainder=batch_and_drop_remainder,
               padded_batch_and_drop_remainder=padded_batch_and_drop_remainder,
               sloppy_interleave=sloppy_interleave, sliding_window_batch=sliding_window_batch,
               assert_element_shape=assert_element_shape, reduce_dataset=reduce_dataset,
               read_batch_features=read_batch_features, LMDBDataset=LMDBDataset,
               CheckpointInputPipelineHook=input_checkpoint.CheckpointInputPipelineHook)
    return namespace("tensorflow.contrib.data", "tf.contrib.data", __served_whole__=True,
                     **{n: getattr(_experimental, n) for n in _FROM_EXPERIMENTAL}, **own)
