"""input_fn → tf.data.Dataset: every form a legacy input_fn returns, as one pipeline.

Accepted: a Dataset of (features, labels) or of features; a (features, labels) tuple or a
features dict of tensors; and the TF1 style that builds
`tf.compat.v1.data.make_one_shot_iterator(ds).get_next()` (optionally with more ops after it).
For the last, input_fn is traced once into a graph where `get_next()` yields placeholders (a
SparseTensor or RaggedTensor rebuilt from one per component tensor); the dataset and the ops
between `get_next()` and the returned tensors are recovered from that graph and re-run, per
element, as a `Dataset.map` (composite tensors passed by their components). An input_fn that
needs a TF1 session (placeholders fed by a hook, queue runners, initializable iterators, tables
in the input graph) runs in one (`session_input.py`).
"""
import contextlib
import copy
import functools

import tensorflow as tf

from estimator_compat.engine import aligned_numpy, session_input
from estimator_compat.fn_args import accepted_kwargs


def call_input_fn(input_fn, mode, params, config, input_context=None):
    """Calls `input_fn` with the arguments it declares and returns its raw result."""
    if not callable(input_fn):
        raise TypeError(f"input_fn must be callable, given: {input_fn!r}")
    aligned_numpy.install()  # an input_fn's numpy arrays become tensors in one copy
    return input_fn(**accepted_kwargs(input_fn, mode=mode, params=params, config=config,
                                      input_context=input_context))


def dataset_from_input_fn(input_fn, mode, params, config, input_context=None):
    """A Dataset whose elements are `features` or `(features, labels)`.

    No prefetch is appended: TensorFlow injects one after a synchronous last transformation
    when the iterator is made (`experimental_optimization.inject_prefetch`, on by default), and
    an explicit one was an extra stage and op per call (7% of a 50-batch MLP evaluate or
    predict). Where a user turned that off, the pipeline runs as written, as in tf.estimator."""
    call = functools.partial(call_input_fn, input_fn, mode, params, config, input_context)
    capture = _IteratorCapture()
    with capture.patched():
        try:
            result = call()
        except _IteratorUsed:
            result = None
        except RuntimeError as e:  # a TF1 graph-only API: placeholders, queues, readers
            if not session_input.needs_graph(e):
                raise
            capture.used = "graph"
    if capture.used in ("graph", "make_initializable_iterator"):  # they need a TF1 session
        return _session_dataset(call, config)
    if capture.used:
        return _dataset_from_iterator_graph(call, config)
    return _as_dataset(result, input_fn)


def known_length(dataset):
    """How many elements `dataset` yields, where tf.data knows it statically (a finite
    cardinality), else None. A loop given it stops after that many steps instead of asking
    the input once more to find its end (one compiled call, 0.9-1.3 ms, as Keras' own loops
    skip it)."""
    if not isinstance(dataset, tf.data.Dataset):
        return None
    length = int(dataset.cardinality())
    return length if length >= 0 else None


def _session_dataset(call, config):
    return session_input.SessionInput(
        call, split_element, getattr(config, "session_config", None)).dataset()


def split_element(element):
    """(features, labels) of one element; labels None for a features-only element.

    A dict is the caller's own (a shallow copy), as each TF1 `get_next()` gave a new one: a
    model_fn that adds to or pops from its features (TF-Ranking's adds its transformed
    features) leaves the element the step reads after it as the input gave it."""
    if isinstance(element, (tuple, list)):
        if len(element) != 2:
            raise ValueError("input_fn should return (features, labels) as a len 2 tuple, "
                             f"given a tuple of length {len(element)}.")
        return _own(element[0]), _own(element[1])
    return _own(element), None


def _own(value):
    return copy.copy(value) if isinstance(value, dict) else value


def _as_dataset(result, input_fn):
    if isinstance(result, tf.data.Dataset):
        return result
    if isinstance(result, (tuple, list)) and len(result) == 2 or _is_features(result):
        # Tensors, as TF1 input_fns returned them: evaluated again for every step.
        features, labels = split_element(result) if isinstance(result, (tuple, list)) else (result, None)
        element = features if labels is None else (features, labels)
        return tf.data.Dataset.from_tensors(element).repeat()
    raise ValueError(
        f"input_fn ({getattr(input_fn, '__name__', input_fn)}) returned {type(result).__name__}: "
        "it must return a tf.data.Dataset of (features, labels) or features, or a "
        "(features, labels) tuple of Tensors / dicts of Tensors.")


def _is_features(x):
    if isinstance(x, (tf.Tensor, tf.SparseTensor, tf.RaggedTensor)):
        return True
    return isinstance(x, dict) and all(isinstance(v, (tf.Tensor, tf.SparseTensor, tf.RaggedTensor))
                                       for v in x.values())


class _IteratorUsed(Exception):
    pass


class _IteratorCapture:
    """Patches the TF1 iterator factories while input_fn runs, to see whether it uses them."""

    def __init__(self):
        self.used = False

    @contextlib.contextmanager
    def patched(self, make_iterator=None):
        make_iterator = make_iterator or self._eager_iterator
        data = tf.compat.v1.data
        dataset_v1 = tf.compat.v1.data.Dataset
        names = ("make_one_shot_iterator", "make_initializable_iterator")
        saved = [(owner, name, getattr(owner, name)) for owner in (data, dataset_v1)
                 for name in names]

        def factory(name):  # `ds.make_one_shot_iterator()` too: self is the dataset
            return lambda dataset, *args, **kwargs: make_iterator(name, dataset, *args, **kwargs)

        for owner, name, _ in saved:
            setattr(owner, name, factory(name))
        train = tf.compat.v1.train
        saved.append((train, "limit_epochs", train.limit_epochs))
        train.limit_epochs = _graph_only_limit_epochs(train.limit_epochs)
        try:
            yield
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)

    def _eager_iterator(self, name, dataset, *args, **kwargs):
        self.used = name
        raise _IteratorUsed()


def _graph_only_limit_epochs(limit_epochs):
    """`tf.compat.v1.train.limit_epochs` that sends an eagerly called input_fn to a TF1
    session: eagerly it would count once and never raise the end of input its epochs set."""
    @functools.wraps(limit_epochs)
    def wrapped(*args, **kwargs):
        if tf.executing_eagerly():
            raise RuntimeError("limit_epochs ends its input in a TF1 session, not under eager "
                               "execution")
        return limit_epochs(*args, **kwargs)
    return wrapped


class _PlaceholderIterator:
    """Stands for a TF1 iterator in the traced input graph: get_next() gives placeholders."""

    def __init__(self, dataset):
        self.dataset = dataset
        self.placeholders = tf.nest.map_structure(_placeholder_for, dataset.element_spec)
        self.initializer = tf.no_op()

    def get_next(self, name=None):
        """The element's placeholders, in a structure of the caller's own (which it may
        change: `features.pop("label")`)."""
        return tf.nest.map_structure(lambda t: t, self.placeholders)

    @property
    def element_spec(self):
        return self.dataset.element_spec

    @property
    def output_types(self):
        return tf.compat.v1.data.get_output_types(self.dataset)

    @property
    def output_shapes(self):
        return tf.compat.v1.data.get_output_shapes(self.dataset)

    @property
    def output_classes(self):
        return tf.compat.v1.data.get_output_classes(self.dataset)


def _placeholder_for(spec):
    """What `get_next()` gives for one component of the element: a placeholder for a
    TensorSpec; for a SparseTensor, RaggedTensor (any composite) one placeholder per component
    tensor (indices, values, dense_shape; flat_values and row_splits), rebuilt by its type spec
    as TF's own iterators rebuild them."""
    if isinstance(spec, tf.TensorSpec):
        return tf.compat.v1.placeholder(spec.dtype, spec.shape)
    components = [tf.compat.v1.placeholder(c.dtype, c.shape)
                  for c in tf.nest.flatten(spec, expand_composites=True)]
    return tf.nest.pack_sequence_as(spec, components, expand_composites=True)


def _dataset_from_iterator_graph(call, config):
    iterators = []

    def make_iterator(name, dataset, *args, **kwargs):
        it = _PlaceholderIterator(dataset)
        iterators.append(it)
        return it

    holder = {}

    def traced():
        with _IteratorCapture().patched(make_iterator):
            holder["result"] = call()
        return []

    wrapped = tf.compat.v1.wrap_function(traced, [])
    if len(iterators) != 1:
        raise ValueError(f"input_fn made {len(iterators)} iterators; estimator_compat supports "
                         "input_fns that read one Dataset through one iterator.")
    it = iterators[0]
    result = holder["result"]
    features, labels = split_element(result) if isinstance(result, (tuple, list)) else (result, None)
    element = features if labels is None else (features, labels)
    # Composite tensors (SparseTensor, RaggedTensor) in and out are fed and fetched by their
    # component tensors, and rebuilt from them by their type specs on the other side.
    flat_in = tf.nest.flatten(it.placeholders, expand_composites=True)
    flat_out = tf.nest.flatten(element, expand_composites=True)
    try:
        post = wrapped.prune(feeds=flat_in, fetches=flat_out)
        variant = wrapped.prune(feeds=[], fetches=it.dataset._variant_tensor)()
    except Exception:  # noqa: BLE001 - the ops need the graph's state (a table, a placeholder)
        return _session_dataset(call, config)
    source = tf.data.experimental.from_variant(variant, it.dataset.element_spec)

    def apply_post(*flat):
        outs = post(*tf.nest.flatten(flat, expand_composites=True))
        return tf.nest.pack_sequence_as(element, outs, expand_composites=True)

    if isinstance(it.dataset.element_spec, tuple):
        return source.map(lambda *e: apply_post(*e))
    return source.map(apply_post)
