"""tf.contrib.framework's two specialised checkpoint-remapping initializers, on TensorFlow 2's
own `load_and_remap_matrix_initializer` (the LoadAndRemapMatrix kernel TF 1.15 used):

- `load_linear_multiclass_bias_initializer`: a linear model's [classes, 1] bias, its rows
  remapped from an old class vocabulary to a new one (new classes and OOV buckets get
  `initializer`, zeros by default)
- `load_variable_slot_initializer`: a slot (an optimizer accumulator) of a remapped variable,
  initialised as its primary variable's partition is: the slot's own partition info is
  replaced by the primary's, because slot variables are created without it
"""
from tensorflow.python.training import checkpoint_ops


def load_linear_multiclass_bias_initializer(ckpt_path, bias_tensor_name, new_class_vocab_size,
                                            old_class_vocab_file, new_class_vocab_file,
                                            num_class_oov_buckets=0, initializer=None,
                                            max_rows_in_memory=-1):
    """An initializer of a [new_class_vocab_size + num_class_oov_buckets, 1] bias whose rows
    are `bias_tensor_name`'s in `ckpt_path`, reordered from the old to the new class vocab."""
    return checkpoint_ops._load_and_remap_matrix_initializer(
        ckpt_path=ckpt_path, old_tensor_name=bias_tensor_name,
        new_row_vocab_size=new_class_vocab_size, new_col_vocab_size=1,
        old_row_vocab_file=old_class_vocab_file, new_row_vocab_file=new_class_vocab_file,
        num_row_oov_buckets=num_class_oov_buckets, num_col_oov_buckets=0,
        initializer=initializer, max_rows_in_memory=max_rows_in_memory)


def load_variable_slot_initializer(ckpt_path, old_tensor_name, primary_partition_info,
                                   new_row_vocab_size, new_col_vocab_size,
                                   old_row_vocab_file=None, new_row_vocab_file=None,
                                   old_col_vocab_file=None, new_col_vocab_file=None,
                                   num_row_oov_buckets=0, num_col_oov_buckets=0,
                                   initializer=None, max_rows_in_memory=-1):
    """An initializer of a slot of shape [new_row_vocab_size + num_row_oov_buckets,
    new_col_vocab_size + num_col_oov_buckets] (or its primary's partition of it) loaded from
    `old_tensor_name` with the rows and columns remapped by the vocab files."""
    remap = checkpoint_ops._load_and_remap_matrix_initializer(
        ckpt_path=ckpt_path, old_tensor_name=old_tensor_name,
        new_row_vocab_size=new_row_vocab_size, new_col_vocab_size=new_col_vocab_size,
        old_row_vocab_file=old_row_vocab_file, new_row_vocab_file=new_row_vocab_file,
        old_col_vocab_file=old_col_vocab_file, new_col_vocab_file=new_col_vocab_file,
        num_row_oov_buckets=num_row_oov_buckets, num_col_oov_buckets=num_col_oov_buckets,
        initializer=initializer, max_rows_in_memory=max_rows_in_memory)

    def _initializer(shape, dtype=None, partition_info=None):
        del partition_info  # the slot's own: the primary variable's partition decides
        kwargs = {} if dtype is None else {"dtype": dtype}
        return remap(shape, partition_info=primary_partition_info, **kwargs)
    return _initializer


NAMES = {"load_linear_multiclass_bias_initializer": load_linear_multiclass_bias_initializer,
         "load_variable_slot_initializer": load_variable_slot_initializer}
