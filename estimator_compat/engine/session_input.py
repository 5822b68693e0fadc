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
"""
import logging
import threading
import weakref

import tensorflow as tf

logger = logging.getLogger("tensorflow")

_SESSIONS = weakref.WeakValueDictionary()  # id(graph) -> SessionInput, while it lives
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
                    try:
                        yield tuple(self.session.run(self._flat))
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
        return flat.map(lambda *values: tf.nest.pack_sequence_as(specs, list(values),
                                                                 expand_composites=True))

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


def session_of(fetches):
    """The SessionInput whose graph holds the graph elements among `fetches`, or None."""
    for item in tf.nest.flatten(fetches, expand_composites=True):
        graph = getattr(item, "graph", None)
        if graph is not None:
            found = _SESSIONS.get(id(graph))
            if found is not None and found.graph is graph:
                return found
    return None
