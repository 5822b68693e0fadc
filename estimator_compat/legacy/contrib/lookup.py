"""`tf.contrib.lookup`: the TF1 lookup tables, on `tf.compat.v1.lookup`'s ops.

TensorFlow 2 keeps the tables and the `index_table_from_*` functions (in `lookup_ops`);
contrib's names took the vocabulary as `mapping` (`index_table_from_tensor(mapping=...)`).
A table made in an input_fn is initialized with the input graph (engine/session_input.py), one
made in a model_fn by the engine's table initialization, as tf.estimator's Scaffold did.
"""
from tensorflow.python.ops import lookup_ops


def index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                            hasher_spec=lookup_ops.FastHashSpec, dtype=None, name=None):
    """A table mapping each string (or int) of `mapping` to its index."""
    kwargs = {"dtype": dtype} if dtype is not None else {}
    return lookup_ops.index_table_from_tensor(
        vocabulary_list=mapping, num_oov_buckets=num_oov_buckets, default_value=default_value,
        hasher_spec=hasher_spec, name=name, **kwargs)


def string_to_index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                                      hasher_spec=lookup_ops.FastHashSpec, name=None):
    """contrib's older name of `index_table_from_tensor` (deprecated in TF 1.15 already)."""
    return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec,
                                   name=name)


def string_to_index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None,
                                    default_value=-1, hasher_spec=lookup_ops.FastHashSpec,
                                    name=None):
    """contrib's older name of `index_table_from_file` (deprecated in TF 1.15 already)."""
    return lookup_ops.index_table_from_file(
        vocabulary_file=vocabulary_file, num_oov_buckets=num_oov_buckets,
        vocab_size=vocab_size, default_value=default_value, hasher_spec=hasher_spec, name=name)


def index_to_string_table_from_tensor(mapping, default_value="UNK", name=None):
    """A table mapping each index to the string of `mapping` there."""
    return lookup_ops.index_to_string_table_from_tensor(
        vocabulary_list=mapping, default_value=default_value, name=name)


def string_to_index(tensor, mapping, default_value=-1, name=None):
    """The index in `mapping` of each string of `tensor` (a table made on the way)."""
    return index_table_from_tensor(mapping, default_value=default_value, name=name).lookup(tensor)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
    return index_to_string_table_from_tensor(mapping, default_value, name).lookup(tensor)


FUNCTIONS = dict(
    index_table_from_tensor=index_table_from_tensor,
    index_to_string_table_from_tensor=index_to_string_table_from_tensor,
    index_table_from_file=lookup_ops.index_table_from_file,
    index_to_string_table_from_file=lookup_ops.index_to_string_table_from_file,
    string_to_index=string_to_index, index_to_string=index_to_string,
    string_to_index_table_from_tensor=string_to_index_table_from_tensor,
    string_to_index_table_from_file=string_to_index_table_from_file,
    TableInitializerBase=lookup_ops.TableInitializerBase,
    HashTable=lookup_ops.HashTable, KeyValueTensorInitializer=lookup_ops.KeyValueTensorInitializer,
    TextFileInitializer=lookup_ops.TextFileInitializer, TextFileIndex=lookup_ops.TextFileIndex,
    TextFileStringTableInitializer=lookup_ops.TextFileStringTableInitializer,
    TextFileIdTableInitializer=lookup_ops.TextFileIdTableInitializer,
    IdTableWithHashBuckets=lookup_ops.IdTableWithHashBuckets,
    MutableHashTable=lookup_ops.MutableHashTable,
    MutableDenseHashTable=lookup_ops.DenseHashTable, HasherSpec=lookup_ops.HasherSpec,
    FastHashSpec=lookup_ops.FastHashSpec, StrongHashSpec=lookup_ops.StrongHashSpec,
    LookupInterface=lookup_ops.LookupInterface,
    InitializableLookupTableBase=lookup_ops.InitializableLookupTableBaseV1)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.lookup", "tf.contrib.lookup", __served_whole__=True,
                     **FUNCTIONS)
