"""The `session` handed to hooks: the parts of tf.compat.v1.Session that hooks use.

Supported: `run(fetches)` for variables, eager tensors and nests of them (values as numpy);
`graph` (the mode's trace graph). Graph tensors cannot be run outside the compiled step: return
them from `before_run` as fetches instead, and they arrive in `after_run`.
"""
import tensorflow as tf


class HookSession:
    def __init__(self, graph=None):
        self.graph = graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if feed_dict:
            raise ValueError("session.run(feed_dict=...) is not supported by estimator_compat: "
                             "the model runs as a compiled tf.function with no placeholders.")

        def value(x):
            if isinstance(x, tf.Variable) or (isinstance(x, tf.Tensor) and not tf.is_symbolic_tensor(x)):
                return x.numpy()
            if isinstance(x, tf.Operation) or x is None:
                return None
            raise ValueError(f"session.run({x!r}): only variables and eager tensors can be run "
                             "outside the compiled step; fetch graph tensors from before_run.")
        return tf.nest.map_structure(value, fetches)

    def should_stop(self):
        return False
