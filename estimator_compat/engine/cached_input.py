"""An evaluate / predict input and what is known of it: its length, and whether it re-reads an
in-memory cache that an earlier call filled.

Making an iterator rewrites the dataset's graph (tf.data's default static optimizations: map
fusion and parallelisation, parallel batch, an injected prefetch). That costs 1.3 ms of Grappler
plus a copy of the tensors the graph holds (2.3 ms more for 20 MB of `from_tensor_slices`
data, 21 ms for 200 MB) on every call, since an input_fn returns a new dataset each time. The
usual way to evaluate data held in memory, `lambda: cached.prefetch(n)` over a `cache()` built
once, gains nothing from it once the cache is complete: nothing below the cache runs again and
a prefetch has nothing to rewrite. Such an input is read without the rewrite (3.6 ms of a
25 ms MLP evaluate; Keras' `evaluate` / `predict` pay it for each new dataset they are given).

Nor does the rewrite gain anything on in-memory slices batched (`from_tensor_slices(arrays)
.batch(n)`, with take / skip / repeat / prefetch), the commonest eval and predict input_fn:
there is no map to fuse or parallelise, and of what it would add only the prefetch matters,
which is appended here instead (and the batches are read whole: `batched_slices.py`). MLP
evaluate / predict at spe 10: 5-12% a call. Nor is there anything to autotune, and an
autotuned iterator is destroyed only once its model thread wakes (up to tens of ms after the
call: `iterator_reaper.py`), holding the call's tensors: the next call's 20 MB copy then
found no buffer free to reuse and paid fresh memory (`aligned_numpy.py`: 47 ms, one call in
ten).

An input_fn that returns one dataset built outside it (`lambda: dataset`, as Keras users hand
`fit` / `predict` a dataset once) gets, from its third call on, the dataset read in its place
the second time (datasets are immutable): the prefetch and options are not made again (1.5 ms
of a 30 ms MLP predict). A dataset seen once is only noted weakly: one built per call (and
its tensors) goes with its call.
"""
import weakref

import tensorflow as tf

from estimator_compat.engine import batched_slices
from estimator_compat.engine.input_pipeline import known_length

_filled = weakref.WeakSet()  # in-memory CacheDatasets an earlier call read to their end
_READ = "_estimator_compat_read"  # on a returned dataset: (length, the dataset read for it)
_returned = weakref.WeakSet()  # datasets an input_fn returned once (`lambda: dataset` twice?)
_DEFAULT = tf.data.Options()
_NO_REWRITE = tf.data.Options()
_NO_REWRITE.experimental_optimization.apply_default_optimizations = False
_NO_REWRITE.experimental_optimization.inject_prefetch = False
_NO_REWRITE.autotune.enabled = False  # nothing to tune, and no model thread to outlive the call
# the datasets of in-memory slices batched, whose rewrite only adds a prefetch
_PLAIN = frozenset(("_TensorSliceDataset", "_TensorDataset", "_BatchDataset", "_TakeDataset",
                    "_SkipDataset", "_RepeatDataset", "_PrefetchDataset"))


class Input:
    """The dataset an evaluate / predict call iterates, its `length` (None: unknown) and,
    through `note_read(done, ended)`, what the call read of it."""

    def __init__(self, dataset):
        self._cache = None
        if isinstance(dataset, tf.data.Dataset) and _READ in vars(dataset):
            self.length, self.dataset = vars(dataset)[_READ]
            return
        self.length = known_length(dataset)
        self._cache = _cache_under_prefetch(dataset)
        returned = dataset
        if self._cache is not None and self._cache in _filled:
            dataset = dataset.with_options(_NO_REWRITE)
        elif _batched_slices(dataset):
            dataset = batched_slices.rebatched(dataset)
            if type(dataset).__name__ != "_PrefetchDataset":
                dataset = dataset.prefetch(tf.data.AUTOTUNE)
            dataset = dataset.with_options(_NO_REWRITE)
        self.dataset = dataset
        if dataset is not returned and (self._cache is None or self._cache in _filled):
            if returned in _returned:  # returned again: kept on the dataset itself (a cycle,
                setattr(returned, _READ, (self.length, dataset))  # which only such get)
            else:  # an input_fn's new dataset per call is freed with the call, cycle-free
                _returned.add(returned)

    def note_read(self, done, ended):
        """The call read `done` elements, `ended`: it saw the input's end. Either way, having
        read every element, an in-memory cache under the input is complete (tf.data completes
        it at its end or at its input's known cardinality) and the next call skips the
        rewrite."""
        if self._cache is not None and (ended or (self.length is not None
                                                   and done >= self.length)):
            _filled.add(self._cache)


def _cache_under_prefetch(dataset):
    """The in-memory `cache()` dataset that `dataset` is (or reaches through prefetches only),
    where the user set no tf.data options; else None. (The options are looked at last:
    merging them down the chain is the slow part, 2 ms a call.)"""
    if not isinstance(dataset, tf.data.Dataset):
        return None
    top = dataset
    while type(dataset).__name__ == "_PrefetchDataset":
        dataset = getattr(dataset, "_input_dataset", None)
    if type(dataset).__name__ != "CacheDataset":
        return None
    try:
        in_memory = tf.get_static_value(dataset._filename) == b""
    except (AttributeError, TypeError):  # another TensorFlow's internals: no skipping
        return None
    return dataset if in_memory and top.options() == _DEFAULT else None


def _batched_slices(dataset):
    """Whether `dataset` is in-memory tensors, sliced, batched, taken / skipped / repeated /
    prefetched, and nothing else (so no tf.data options of the user's either: those would be
    an options dataset in the chain)."""
    if not isinstance(dataset, tf.data.Dataset):
        return False
    while True:
        if type(dataset).__name__ not in _PLAIN:
            return False
        try:
            inputs = dataset._inputs()
        except Exception:  # noqa: BLE001 - another TensorFlow's internals: keep the rewrite
            return False
        if not inputs:
            return type(dataset).__name__ in ("_TensorSliceDataset", "_TensorDataset")
        if len(inputs) != 1:
            return False
        dataset = inputs[0]
