"""The legacy API surface: every alias that makes TF 1.x / tf.estimator code resolve here.

The engine never imports this package; it only serves user code. What maps where:

`install()` (install.py; also `estimator_compat.install()`), for every importer in the process:
- `tf.estimator`, `tf.compat.v2.estimator`, `tensorflow_estimator.estimator` → `estimator_compat`
  (V2 canned classes); `tf.compat.v1.estimator`, `tensorflow_estimator.compat.v1.estimator` →
  `estimator_v1` (the TF1 canned classes: summed loss, `partitioner` arguments); their
  `export`, `experimental`, `inputs`, `tpu` submodules importable by name.
- `tf.contrib` (and `tf.compat.v1.contrib`) → `contrib/`: one module (or package) of ours per
  contrib module, listed in `contrib/__init__.py::MODULES`, each serving every name TF 1.15
  had there or declining it with the error naming its TF2 replacement (`contrib/missing.py`);
  `layers` / `framework` / `slim` through the tf_slim package (`contrib/tf_slim_loader.py`).
  Any other contrib module, or a module path not registered, is that error in every import
  form (`unserved_paths.py`).
- `tf.compat.v1.layers` → `layers.py` (the functions: dense, conv1d/2d/3d, conv2d_transpose,
  conv3d_transpose, separable_conv1d/2d, pooling, dropout, flatten, batch_normalization) and
  `layer_classes.py` (Layer to subclass, InputSpec, Dense, Conv*D, Conv2D/3DTranspose,
  SeparableConv1D/2D, *Pooling*D, Dropout, Flatten, BatchNormalization, `experimental`), on
  `get_variable` with TF1's variable names; only names TensorFlow no longer serves are replaced.
- `tf.compat.v1.nn.rnn_cell` (and `tf.contrib.rnn`) → `rnn_cells.py` (BasicRNNCell, GRUCell,
  BasicLSTMCell, LSTMCell, MultiRNNCell, DropoutWrapper, ResidualWrapper, DeviceWrapper,
  LSTMStateTuple, RNNCell), where TensorFlow's only raise (Keras 3).
- `tf.compat.v1.train.ProfilerHook` → `estimator_compat.hooks.builtin.ProfilerHook`;
  `tf.compat.v1.train.LoggingTensorHook` → its subclass there (TF 1.x's list of Tensors).
- `tf.compat.v1.disable_v2_behavior` & co. act on the calling thread (`graph_mode.py`).
- TF 1.x module paths (`tensorflow.python.estimator.*`, `tensorflow_estimator.python.
  estimator.*`: every module of tensorflow_estimator 2.15's tree, mapped in `estimator_tree/`;
  `tensorflow.examples.tutorials.mnist.input_data`): `module_paths.py`.
- `tf.keras.optimizers.legacy.*` → Keras 3's optimizers of the same names (`keras_legacy.py`);
  a compat.v1 optimizer given to `model.compile` → the Keras 3 one of the same kind
  (`keras_tf1_optimizers.py`).

The TF 1.x view, for user code only (`estimator-compat run`, `tf1_view.py`, `user_code.py`):
- `import tensorflow as tf` / `from tensorflow import x` / `import tensorflow.contrib...` in the
  script and the modules it imports from its own directory or PYTHONPATH give `tf1_view.TF1`:
  `tf.compat.v1` with the aliases above (`tf.estimator` is `estimator_v1`), `tf.compat.v1` /
  `tf.compat.v2` as TF 1.15 had them, `tf.disable_v2_behavior()` a no-op (the engine needs
  TF2's eager runtime). TensorFlow's and Keras' own modules keep seeing TensorFlow 2.
- `dim.value` in that code also reads a TF2 shape's plain int (`shape[-1].value`, as BERT
  writes it) (`dimension_value.py`).
- `detect.py` tells a TF 1.x program from a TF 2.x one by the names it uses.
"""
from estimator_compat.legacy.install import install  # noqa: F401
