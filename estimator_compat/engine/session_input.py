"""input_fns that need TF 1.x's graph and session, run as TF 1.x ran them.

Some input_fns cannot be executed eagerly nor cut out of their graph into a tf.data pipeline:
placeholders fed through a hook (`session.run(iterator.initializer, feed_dict=...)` in
`after_create_session`, the `IteratorInitializerHook` idiom), queue runners
(`string_input_producer`, `TextLineReader.read_up_to`, `shuffle_batch`, `num_epochs`),
initializable iterators, lookup tables and `match_filenames_once` in the input graph. Such an
input_fn is built in a graph of its own (with TF 1.x's reference variables) and a
`tf.compat.v1.Session`, as tf.estimator built it in the training graph: the graph's variables,
local variables and tables are initialized, its queue runners started; the hooks'
`session.run` on its ops (with `feed_dict`) goes to that session (`session_of`, used by
hooks/session.py), and each step's element is one `session.run` of the input_fn's outputs,
read through `Dataset.from_generator` (a SparseTensor or RaggedTensor fetched by its component
tensors and rebuilt by its type spec; a `sparse_placeholder` is fed a SparseTensorValue). The end of the input (`OutOfRangeError`: `num_epochs`
reached, the fed arrays read) ends the dataset, which ends training or evaluation as it did in
TF 1.x. The session and its threads are closed when the call's iterator is released.

An input_fn that returns placeholders, fed at each step by a hook's `before_run`
(`tf.train.FeedFnHook(feed_fn)`, `SessionRunArgs(feed_dict={'input:0': batch})`, the seq2seq
tutorials' idiom): the hooks' feeds for this graph (`feeds`, `feed_next`) go to the
`session.run` that reads the step's element, which tf.data then reads one step at a time
(no read-ahead, which would run before the feed), as TF 1.x fed the step's run. A hook may
fetch the input_fn's own tensors (`LoggingTensorHook(['input_0'])` on a `tf.identity` the
input_fn named; `names_fall_back`, `fetch_next`): that run fetches them too, and the hook gets
them with the step's values (`fetched`).
"""
import atexit
import contextlib
import logging
import threading
import weakref

import tensorflow as tf

logger = logging.getLogger("tensorflow")

_SESSIONS = weakref.WeakValueDictionary()  # id(graph) -> SessionInput, while it lives
_INPUT = "_estimator_compat_session_input"
_STEP_BY_STEP = tf.data.Options()  # no prefetch or parallel map: each element read at its step
_STEP_BY_STEP.experimental_optimization.apply_default_optimizations = False
_STEP_BY_STEP.experimental_optimization.inject_prefetch = False
_INIT_HINT = ("the input_fn's iterator was not initialized: run `iterator.initializer` from a "
              "hook's after_create_session(session, coord) (with its feed_dict), or put it in "
              "the TABLE_INITIALIZERS collection")


def needs_graph(error):
    """Whether an exception raised by an input_fn called eagerly says it needs a TF1 graph."""
    return isinstance(error, RuntimeError) and "eager execution" in str(error)


class SessionInput:
    """One input_fn call's graph, its session and its queue-runner threads."""

    def __init__(self, call_input_fn, split_element, session_config=None):
        self.graph = tf.Graph()
        with self.graph.as_default(), tf.compat.v1.variable_scope(  # TF1's variables (a
                tf.compat.v1.get_variable_scope(), use_resource=False):  # resource one breaks
            result = call_input_fn()  # string_input_producer(match_filenames_once(...)))
            if isinstance(result, tf.data.Dataset):  # tf.estimator's own iterator for it
                iterator = tf.compat.v1.data.make_initializable_iterator(result)
                tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.TABLE_INITIALIZERS,
                                               iterator.initializer)
                result = iterator.get_next()
            features, labels = split_element(result)
            element = features if labels is None else (features, labels)
            self._specs = tf.nest.map_structure(tf.type_spec_from_value, element)
            self._flat = tf.nest.flatten(element, expand_composites=True)
            self.fed = _placeholders_under(self._flat)  # what a step's element needs fed
            init = tf.group(tf.compat.v1.global_variables_initializer(),
                            tf.compat.v1.local_variables_initializer(),
                            tf.compat.v1.tables_initializer())
        self.session = tf.compat.v1.Session(graph=self.graph, config=session_config)
        self.session.run(init)
        self._coord = tf.compat.v1.train.Coordinator()
        with self.graph.as_default():
            self._threads = tf.compat.v1.train.start_queue_runners(
                self.session, self._coord) if tf.compat.v1.get_collection(
                    tf.compat.v1.GraphKeys.QUEUE_RUNNERS) else []
        self._closed = False
        self._lock = threading.Lock()
        self._feed, self._fetch, self.fetched = {}, {}, {}
        _SESSIONS[id(self.graph)] = self
        logger.info("estimator_compat: the input_fn runs in a TF 1.x graph and session of its "
                    "own (%s).", "queue runners" if self._threads else "placeholders / iterators")

    def dataset(self):
        """The input_fn's elements, one `session.run` each, as a tf.data.Dataset."""
        flat_specs = tuple(tf.TensorSpec(t.shape, t.dtype) for t in self._flat)
        specs = self._specs

        def read():
            try:
                while True:
                    feed, self._feed = self._feed, {}
                    extra, self._fetch = self._fetch, {}
                    try:
                        values, fetched = self.session.run(
                            (self._flat, list(extra.values())), feed_dict=feed or None)
                        self.fetched = dict(zip(extra, fetched))
                        yield tuple(values)
                    except tf.errors.OutOfRangeError:
                        return
                    except tf.errors.FailedPreconditionError as e:
                        if "not been initialized" not in str(e) and "uninitialized" not in str(e):
                            raise
                        raise tf.errors.FailedPreconditionError(
                            e.node_def, e.op, f"{_INIT_HINT} ({e.message})") from None
            finally:
                self.close()

        flat = tf.data.Dataset.from_generator(read, output_signature=flat_specs)
        dataset = flat.map(lambda *values: tf.nest.pack_sequence_as(specs, list(values),
                                                                    expand_composites=True))
        if self.fed:
            dataset = dataset.with_options(_STEP_BY_STEP)
        setattr(dataset, _INPUT, self)  # the call's hooks feed this graph (`of_dataset`)
        return dataset

    def feed_next(self, feed_dict):
        """A hook's `feed_dict` (keys: this graph's tensors or their names) for the next
        element's `session.run`; several hooks' feeds are merged, as TF 1.x merged them."""
        tensors = {_tensor_in(self.graph, key): value for key, value in feed_dict.items()}
        conflicts = sorted(t.name for t in tensors if t in self._feed)
        if conflicts:  # TF 1.x's words
            raise RuntimeError(f"Same tensor is fed by two hooks. Conflict(s): {conflicts}")
        self._feed.update(tensors)

    def feeds(self, feed_dict):
        """Whether every key of a hook's `feed_dict` is a tensor of this graph (or its name)
        and the element needs a placeholder fed."""
        return bool(self.fed) and all(_tensor_in(self.graph, key) is not None
                                      for key in feed_dict)

    def check_fed(self):
        """Before a step: TF 1.x's error (InvalidArgumentError, its words) where the element
        needs a placeholder no hook fed for this step."""
        missing = [op for op in self.fed if op.outputs[0] not in self._feed]
        if not missing:
            return
        op = max(missing, key=lambda op: op._id)  # the newest, as TF 1.x's executor named it
        shape = op.outputs[0].shape
        dims = "<unknown>" if shape.rank is None else "[{}]".format(
            ",".join("?" if d is None else str(d) for d in shape.as_list()))
        dtype = {"float32": "float", "float64": "double"}.get(op.outputs[0].dtype.name,
                                                                op.outputs[0].dtype.name)
        raise tf.errors.InvalidArgumentError(
            None, op, f"You must feed a value for placeholder tensor '{op.name}' with dtype "
            f"{dtype} and shape {dims} (the input_fn returns it: feed it at each step from a "
            "hook's before_run, e.g. tf.train.FeedFnHook)")

    def fetch_next(self, name):
        """A hook's fetch of this graph's tensor `name`, run with the next element
        (`fetched`)."""
        self._fetch[name] = self.graph.get_tensor_by_name(name)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """A hook's `session.run` on this graph's ops and tensors."""
        return self.session.run(fetches, feed_dict=feed_dict, options=options,
                                run_metadata=run_metadata)

    def close(self):
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._coord.request_stop()
        self._coord.join(self._threads, stop_grace_period_secs=5,
                         ignore_live_threads=True)
        self.session.close()


@atexit.register
def _close_at_exit():
    """A call that ended by an error, or a predict generator left unread, leaves its session
    open: closed before the interpreter finalizes (a TF1 session and its queue threads
    destroyed after that aborted the process: "terminate called without an active
    exception")."""
    for source in list(_SESSIONS.values()):
        try:
            source.close()
        except Exception:  # noqa: BLE001 - exiting: nothing left to report it to
            pass


def of_dataset(dataset):
    """The SessionInput whose `dataset()` this is, or None."""
    return vars(dataset).get(_INPUT) if hasattr(dataset, "__dict__") else None


def _tensor_in(graph, key):
    """`key` (a tensor of `graph`, or its name) as a tensor of `graph`, or None."""
    if isinstance(key, tf.Tensor):
        return key if getattr(key, "graph", None) is graph else None
    try:
        element = graph.as_graph_element(key) if isinstance(key, str) else None
    except (KeyError, ValueError):
        return None
    return element if isinstance(element, tf.Tensor) else None


@contextlib.contextmanager
def names_fall_back(graph, source):
    """While hooks begin(): a name `graph` (the step's trace) lacks is looked up in the
    input_fn's graph of `source` (a SessionInput, or None), as TF 1.x had the two in one."""
    if source is None:
        yield
        return
    own = graph.as_graph_element  # get_tensor_by_name / get_operation_by_name call it

    def as_graph_element(obj, *args, **kwargs):
        try:
            return own(obj, *args, **kwargs)
        except (KeyError, ValueError):
            if not isinstance(obj, str):
                raise
            try:
                return source.graph.as_graph_element(obj, *args, **kwargs)
            except (KeyError, ValueError):
                pass
            raise
    graph.as_graph_element = as_graph_element
    try:
        yield
    finally:
        del graph.as_graph_element


def _placeholders_under(tensors):
    """The plain placeholders (no default) the ops computing `tensors` read, through their
    inputs and control inputs."""
    seen, todo, found = set(), [t.op for t in tensors], []
    while todo:
        op = todo.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type == "Placeholder":
            found.append(op)
        todo.extend(t.op for t in op.inputs)
        todo.extend(op.control_inputs)
    return found


def session_of(fetches):
    """The SessionInput whose graph holds the graph elements among `fetches`, or None."""
    for item in tf.nest.flatten(fetches, expand_composites=True):
        graph = getattr(item, "graph", None)
        if graph is not None:
            found = _SESSIONS.get(id(graph))
            if found is not None and found.graph is graph:
                return found
    return None
