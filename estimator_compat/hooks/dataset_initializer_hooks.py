"""tensorflow_estimator 2.15's `util.DistributedIteratorInitializerHook` and
`util.MultiHostDatasetInitializerHook` (also `tpu.util`'s): SessionRunHooks that initialize
input iterators once a TF1 session exists, for programs driving their own
`tf.compat.v1.train.MonitoredSession` (an Estimator initializes its input_fn's datasets
itself)."""
import tensorflow as tf

v1 = tf.compat.v1


class DistributedIteratorInitializerHook(v1.train.SessionRunHook):
    """Runs `iterator.initialize()` (a tf.distribute v1 dataset iterator's initializer ops)
    after the session is created."""

    def __init__(self, iterator):
        self._iterator = iterator
        self._initializer = None

    def begin(self):
        self._initializer = self._iterator.initialize()

    def after_create_session(self, session, coord):
        del coord
        session.run(self._initializer)


class MultiHostDatasetInitializerHook(v1.train.SessionRunHook):
    """Runs every op of `dataset_initializers` (one per host's iterator) after the session is
    created."""

    def __init__(self, dataset_initializers):
        self._initializers = dataset_initializers
        self._initializer = None

    def begin(self):
        self._initializer = tf.group(self._initializers)

    def after_create_session(self, session, coord):
        del coord
        session.run(self._initializer)
