"""`util.parse_input_fn_result` / `parse_iterator_result` / `_DatasetInitializerHook`: how
tf.estimator split what an input_fn returned into (features, labels, input hooks), a Dataset
read through an initializable iterator whose hook initializes it once the session exists.
Libraries with their own model loops (TPU samples, AdaNet) called them inside a graph."""
import tensorflow as tf

v1 = tf.compat.v1


class _DatasetInitializerHook(v1.train.SessionRunHook):
    """Runs `iterator.initializer` after the session is created."""

    def __init__(self, iterator):
        self._iterator = iterator
        self._initializer = None

    def begin(self):
        self._initializer = self._iterator.initializer

    def after_create_session(self, session, coord):
        session.run(self._initializer)


def parse_iterator_result(result):
    """(features, labels): a (features, labels) pair, or features alone with labels None."""
    if isinstance(result, (list, tuple)):
        if len(result) != 2:
            raise ValueError("input_fn should return (features, labels) as a len 2 tuple, "
                             f"got {len(result)} elements.")
        return result[0], result[1]
    return result, None


def parse_input_fn_result(result):
    """(features, labels, input_hooks) from an input_fn's result (a Dataset gets an
    initializable iterator in the current graph and the hook that initializes it)."""
    hooks = []
    if isinstance(result, tf.data.Dataset):
        iterator = v1.data.make_initializable_iterator(result)
        hooks.append(_DatasetInitializerHook(iterator))
        result = iterator.get_next()
    return parse_iterator_result(result) + (hooks,)
