"""The parts of `tf.contrib.specs` (TF 1.15's `tensorflow.contrib.specs.python` modules): the
parameter language (`params_ops`), the composable-function core (`specs_lib`), the layer
vocabulary (`specs_ops`), the evaluators (`builder`, TF 1.15's `specs.py`) and the graph
summaries (`summaries`)."""
