"""A warm-started variable's rows (or columns) remapped from an old vocabulary to a new one
(`WarmStartSettings(var_name_to_vocab_info={name: VocabInfo(...)})`).

A model retrained with a changed vocabulary file (words added, dropped, reordered) keeps what
it learned per word: each row of the new `[new_vocab_size + num_oov_buckets, ...]` variable
is the old checkpoint's row of the same word; rows of new words, of words past
`old_vocab_size` and of the OOV buckets come from `backup_initializer` (zeros where it is
None). `axis=1` remaps columns instead (an output layer over a label vocabulary). TensorFlow's
own remapping op (`LoadAndRemapMatrix`, through `checkpoint_ops`) does the work, eagerly."""
from tensorflow.python.training import checkpoint_ops


def remapped(var, name, vocab, ckpt_path, prev_name):
    """The value `var` (called `name`) starts from: `prev_name` in `ckpt_path`, remapped as
    `vocab` (a VocabInfo) says."""
    shape = var.shape.as_list()
    if len(shape) != 2 or None in shape:
        raise ValueError(f"var_name_to_vocab_info[{name!r}]: vocabulary remapping needs a 2-D "
                         f"variable of known shape ([vocabulary, ...] for axis=0, [..., "
                         f"vocabulary] for axis=1); {name} has shape {var.shape}.")
    if vocab.axis not in (0, 1):
        raise ValueError(f"var_name_to_vocab_info[{name!r}]: VocabInfo.axis must be 0 or 1, "
                         f"given {vocab.axis}.")
    if vocab.axis == 0:
        sizes = dict(new_row_vocab_size=vocab.new_vocab_size, new_col_vocab_size=shape[1],
                     old_row_vocab_size=vocab.old_vocab_size, old_row_vocab_file=vocab.old_vocab,
                     new_row_vocab_file=vocab.new_vocab,
                     num_row_oov_buckets=vocab.num_oov_buckets)
    else:
        sizes = dict(new_row_vocab_size=shape[0], new_col_vocab_size=vocab.new_vocab_size,
                     old_col_vocab_file=vocab.old_vocab, new_col_vocab_file=vocab.new_vocab,
                     num_col_oov_buckets=vocab.num_oov_buckets)
    initializer = checkpoint_ops._load_and_remap_matrix_initializer(  # noqa: SLF001
        ckpt_path=ckpt_path, old_tensor_name=prev_name,
        initializer=vocab.backup_initializer, **sizes)
    return initializer(shape=shape, dtype=var.dtype)
