"""Private helpers of tensorflow_estimator 2.15's `inputs` modules, with 2.15's results:

- `inputs.numpy_io._get_unique_target_key(features)`: '__target_key__', '_n' appended until
  it is not a key of `features`; `_validate_and_convert_features(x)`: a dict's items sorted by
  key, or an array under '__direct_np_input__', as an OrderedDict;
- `inputs.pandas_io._get_unique_target_key(features, target_column_name)`: the name, with
  '_<uuid4>' appended when `features` has it;
- `inputs.queues.feeding_functions._fill_array`, `_pad_if_needed` (a batch of sequences padded
  to the longest), `_get_integer_indices_for_next_batch` (the row indices of a feeding
  function's next batch, and the epoch count after it).
"""
import collections
import itertools
import uuid

import numpy as np
import tensorflow as tf

TARGET_KEY = "__target_key__"
DIRECT_INPUT_KEY = "__direct_np_input__"


def numpy_unique_target_key(features):
    """numpy_io's key for the targets in the features dict: '__target_key__' (+ '_n'...)."""
    key = TARGET_KEY
    while key in features:
        key += "_n"
    return key


def _validate_and_convert_features(x):
    """`x` as an OrderedDict: a non-empty dict by sorted key, a non-empty array under
    '__direct_np_input__'; ValueError when empty, TypeError for anything else."""
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return collections.OrderedDict(sorted(x.items(), key=lambda item: item[0]))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return collections.OrderedDict({DIRECT_INPUT_KEY: x})
    raise TypeError(f"x must be a dict or array; got {type(x).__name__}")


def pandas_unique_target_key(features, target_column_name):
    """pandas_io's target name: `target_column_name`, made unique with a uuid4 suffix."""
    if target_column_name in features:
        target_column_name += "_" + str(uuid.uuid4())
    return target_column_name


def _fill_array(arr, seq, fillvalue=0):
    """Writes nested sequence `seq` into array `arr` in place, padding each innermost row
    with `fillvalue` (a missing row is all `fillvalue`)."""
    if arr.ndim == 1:
        try:
            length = len(seq)
        except TypeError:
            length = 0
        arr[:length] = seq
        arr[length:] = fillvalue
        return
    for sub_array, sub_sequence in itertools.zip_longest(arr, seq, fillvalue=()):
        _fill_array(sub_array, sub_sequence, fillvalue)


def _pad_if_needed(batch_key_item, fillvalue=0):
    """A batch of arrays whose last dimensions differ, as one array padded with `fillvalue`
    to the longest (the batch as given when they agree); ValueError when the other
    dimensions differ."""
    shapes = [seq.shape[:-1] if len(seq.shape) > 0 else -1 for seq in batch_key_item]
    if not all(shapes[0] == shape for shape in shapes):
        raise ValueError("Array shapes must match.")
    lengths = [seq.shape[-1] if len(seq.shape) > 0 else 0 for seq in batch_key_item]
    if all(length == lengths[0] for length in lengths):
        return batch_key_item
    out = np.zeros([len(batch_key_item)] + list(shapes[0]) + [max(lengths)],
                   dtype=batch_key_item[0].dtype)
    _fill_array(out, batch_key_item, fillvalue)
    return out


def _get_integer_indices_for_next_batch(batch_indices_start, batch_size, epoch_end,
                                        array_length, current_epoch, total_epochs):
    """(row indices, epochs completed after them) of the batch starting at
    `batch_indices_start` (wrapping around an `array_length` array whose epoch ends at row
    `epoch_end`); the batch stops short at the end of the last of `total_epochs` epochs,
    and OutOfRangeError is raised once they were all emitted."""
    if total_epochs is not None and current_epoch >= total_epochs:
        raise tf.errors.OutOfRangeError(None, None,
                                        f"Already emitted {current_epoch} epochs.")
    indices = [j % array_length for j in range(batch_indices_start,
                                               batch_indices_start + batch_size)]
    ends = [i for i, index in enumerate(indices) if index == epoch_end]
    current_epoch += len(ends)
    if total_epochs is None or current_epoch < total_epochs:
        return indices, current_epoch
    last = ends[-(current_epoch - total_epochs + 1)]  # the final epoch's last row
    return indices[:last + 1], total_epochs
