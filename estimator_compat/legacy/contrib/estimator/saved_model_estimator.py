"""`SavedModelEstimator`: an Estimator whose model_fn is a SavedModel's MetaGraph.

TF 1.15's `tf.contrib.estimator.SavedModelEstimator` and tensorflow_estimator 2.15's
`canned.saved_model_estimator.SavedModelEstimator` (2.15 exported it in no API module) wrap a
SavedModel that `Estimator.experimental_export_all_saved_models` wrote (tag sets `train`,
`eval`, `serve`) or `export_saved_model` (`serve` only). Each mode's step imports that mode's
MetaGraph (`engine/mode_graph_import.py`: only the sub-graph the signature's outputs and the
train op need), the input_fn's features and labels feeding the signature's inputs by key:

- `train` continues training with the SavedModel's own train op; `evaluate` returns `loss`,
  `metrics/<name>` (the eval signature's `metrics/<name>/value` and `update_op`) and
  `global_step`; `predict` yields the `serving_default` signature's outputs;
- the variables keep their graph names (the checkpoint names of the Estimator that exported
  them) and start from `<saved_model_dir>/variables/variables` while model_dir has no
  checkpoint of its own;
- a mode the SavedModel lacks is a RuntimeError naming it, a feature the signature needs and
  the input_fn lacks or of another dtype / shape a ValueError, as in TF 1.15.

The module's private helpers of 2.15 (`_get_saved_model_ckpt`, `_extract_eval_metrics`,
`_generate_input_map`, `_check_same_dtype_and_shape`, `_validate_and_extract_outputs`,
`_clear_saved_model_collections`) are here with 2.15's behaviour.
"""
import os

import tensorflow as tf
from tensorflow.python.saved_model import constants, loader_impl

from estimator_compat.engine.mode_graph_import import import_mode_graph
from estimator_compat.estimator import Estimator
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec

_TAGS = {ModeKeys.TRAIN: ["train"], ModeKeys.EVAL: ["eval"],
         ModeKeys.PREDICT: [tf.saved_model.SERVING]}
_SIGNATURE_KEYS = {ModeKeys.TRAIN: "train", ModeKeys.EVAL: "eval",
                   ModeKeys.PREDICT: tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY}
_METHOD_NAMES = {ModeKeys.TRAIN: "tensorflow/supervised/training",
                 ModeKeys.EVAL: "tensorflow/supervised/eval"}
_TRAIN_OP_KEY = constants.TRAIN_OP_KEY  # "saved_model_train_op"


class SavedModelEstimator(Estimator):
    """An Estimator over a SavedModel of `experimental_export_all_saved_models`:
    `SavedModelEstimator(saved_model_dir, model_dir=None)`."""

    def __init__(self, saved_model_dir, model_dir=None):
        self.saved_model_dir = os.fspath(saved_model_dir)
        self.saved_model_loader = loader_impl.SavedModelLoader(self.saved_model_dir)
        self._available_modes = self._extract_available_modes()
        super().__init__(model_fn=self._model_fn_from_saved_model, model_dir=model_dir)

    def _extract_available_modes(self):
        """The modes whose MetaGraph the SavedModel holds."""
        available = []
        for mode in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT):
            try:
                self._get_meta_graph_def_for_mode(mode)
            except RuntimeError:
                continue
            available.append(mode)
        return available

    def _validate_mode(self, mode):
        if mode not in self._available_modes:
            raise RuntimeError(f"{mode} mode is not available in the SavedModel. Use "
                               "saved_model_cli to check that the Metagraph for this mode has "
                               "been exported.")

    def _get_meta_graph_def_for_mode(self, mode):
        return self.saved_model_loader.get_meta_graph_def_from_tags(_TAGS[mode])

    def _get_signature_def_for_mode(self, mode):
        meta = self._get_meta_graph_def_for_mode(mode)
        key = _SIGNATURE_KEYS[mode]
        if key not in meta.signature_def:
            raise RuntimeError(f"The SavedModel's {mode} MetaGraph has no signature {key!r} "
                               f"(it has {sorted(meta.signature_def)}). Export it with "
                               "Estimator.experimental_export_all_saved_models.")
        return meta.signature_def[key]

    def _get_saver_def_from_mode(self, mode):
        return self._get_meta_graph_def_for_mode(mode).saver_def

    def _model_fn_from_saved_model(self, features, labels, mode):
        """The mode's MetaGraph imported, its signature's outputs as the EstimatorSpec."""
        self._validate_mode(mode)
        meta = self._get_meta_graph_def_for_mode(mode)
        signature = self._get_signature_def_for_mode(mode)
        input_map = {name: tensor for name, tensor in
                     _generate_input_map(signature, features, labels).items()
                     if not name.startswith("^")}
        keys = sorted(signature.outputs)
        for key in keys:
            if signature.outputs[key].WhichOneof("encoding") != "name":
                raise ValueError(f"SavedModelEstimator: output {key!r} of the SavedModel's "
                                 f"{mode} signature is not a dense tensor; only dense outputs "
                                 "are supported.")
        fetches = [signature.outputs[k].name for k in keys]
        if mode == ModeKeys.TRAIN:
            train_ops = meta.collection_def[_TRAIN_OP_KEY].node_list.value \
                if _TRAIN_OP_KEY in meta.collection_def else []
            if len(train_ops) != 1:
                raise ValueError(f"SavedModelEstimator: the SavedModel's train MetaGraph has "
                                 f"{len(train_ops)} ops in collection {_TRAIN_OP_KEY!r}, not 1. "
                                 "Export it with experimental_export_all_saved_models.")
            fetches.append(train_ops[0].split(":")[0])
        imported = import_mode_graph(
            meta, input_map, fetches, checkpoint=_get_saved_model_ckpt(self.saved_model_dir),
            what=f"the SavedModel {self.saved_model_dir} ({mode})")
        loss, predictions, metrics = _validate_and_extract_outputs(
            mode, dict(zip(keys, imported)), signature.method_name)
        train_op = imported[-1] if mode == ModeKeys.TRAIN else None
        return EstimatorSpec(mode, loss=loss, train_op=train_op, predictions=predictions,
                             eval_metric_ops=metrics if mode == ModeKeys.EVAL else None)


def _get_saved_model_ckpt(saved_model_dir):
    """The path of the SavedModel's variables checkpoint (`variables/variables`)."""
    prefix = os.path.join(os.fspath(saved_model_dir), "variables", "variables")
    if not tf.io.gfile.exists(prefix + ".index"):
        raise ValueError(f"Directory provided has an invalid SavedModel format: "
                         f"{saved_model_dir}")
    return prefix


def _extract_eval_metrics(output_dict):
    """{`<name>`: (value, update_op)} from `<name>/value` and `<name>/update_op` outputs."""
    values, updates = {}, {}
    for key, tensor in output_dict.items():
        name, _, suffix = key.rpartition("/")
        if suffix == "value":
            values[name] = tensor
        elif suffix == "update_op":
            updates[name] = tensor
    return {name: (values[name], updates[name]) for name in values if name in updates}


def _validate_and_extract_outputs(mode, output_dict, method_name):
    """(loss, predictions, metrics) of a signature's outputs; a train or eval signature of
    another method is a RuntimeError."""
    if mode in _METHOD_NAMES and method_name != _METHOD_NAMES[mode]:
        raise RuntimeError(f"Invalid SignatureDef method name for mode {mode}.\n\tExpected: "
                           f"{_METHOD_NAMES[mode]}\n\tGot: {method_name}\nPlease ensure that "
                           "the SavedModel was exported with "
                           "`tf.estimator.experimental_export_all_saved_models()`.")
    if mode == ModeKeys.PREDICT:
        return None, output_dict, None
    loss = output_dict.get("loss")
    predictions = {k: v for k, v in output_dict.items() if k.startswith("predictions")}
    metrics = _extract_eval_metrics({k: v for k, v in output_dict.items()
                                     if k.startswith("metrics")})
    return loss, predictions, metrics


def _check_same_dtype_and_shape(tensor, tensor_info, name):
    """A ValueError where `tensor` has not the dtype and a shape compatible with
    `tensor_info`'s."""
    dtype = tf.as_dtype(tensor_info.dtype)
    shape = tf.TensorShape(tensor_info.tensor_shape)
    problems = []
    if not tensor.shape.is_compatible_with(shape):
        problems.append(f"\tExpected shape: {shape}, Got: {tensor.shape}")
    if tensor.dtype != dtype:
        problems.append(f"\tExpected dtype: {dtype}, Got: {tensor.dtype}")
    if problems:
        raise ValueError(f"Tensor shape and/or dtype validation failed for input {name}:\n"
                         + "\n".join(problems))


def _generate_input_map(signature_def, features, labels):
    """{input node name (and `^name`): tensor}: each signature input fed by the feature or
    label of its key (a lone features tensor is `feature`, a lone labels tensor `label`)."""
    features = features if isinstance(features, dict) else {"feature": features}
    if labels is not None and not isinstance(labels, dict):
        labels = {"label": labels}
    given = dict(features)
    given.update(labels or {})
    input_map = {}
    for key, tensor_info in signature_def.inputs.items():
        if key not in given:
            raise ValueError(f'Key "{key}" not found in features or labels passed in to the '
                             f"model function. All required keys: {sorted(signature_def.inputs)}")
        tensor = given[key]
        if tensor_info.WhichOneof("encoding") != "name" or isinstance(
                tensor, (tf.SparseTensor, tf.RaggedTensor)):
            raise ValueError(f"SavedModelEstimator: input {key!r} is sparse; only dense "
                             "signature inputs are supported.")
        _check_same_dtype_and_shape(tensor, tensor_info, key)
        name = tensor_info.name.split(":")[0]
        input_map[name] = tensor
        input_map["^" + name] = tensor
    return input_map


def _clear_saved_model_collections():
    """Empties the collections a SavedModel builder fills (main op, train op, assets)."""
    graph = tf.compat.v1.get_default_graph()
    for key in (constants.ASSETS_KEY, constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY,
                constants.TRAIN_OP_KEY):
        graph.clear_collection(key)
