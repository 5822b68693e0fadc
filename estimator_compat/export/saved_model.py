"""Estimator.export_saved_model: the PREDICT model_fn over a serving receiver, as a SavedModel.

As tf.estimator did, the receiver fn and the model_fn are built in one TF 1.x graph, the
checkpoint restored into it, and the graph written once with every SignatureDef sharing it
(`export/all_modes.py`, `tf.compat.v1.saved_model.Builder`, attributes at their default values
stripped so older TensorFlow reads it): export time and size grow with the graph, not with
graph x signatures. model_to_estimator's Estimators (Keras variables outside any graph), and a
model_fn that cannot be built in a TF 1.x graph (one INFO line says why), get a TF2 SavedModel
instead: the two traced together by `tf.compat.v1.wrap_function` through the Estimator's
variable store, one function per signature pruned out and saved with `tf.saved_model.save`,
the signature method names (classify / regress / predict) then set as tf.estimator wrote them,
so TF Serving's Classify and Regress APIs and `tf.compat.v1.saved_model.loader.load` work.
"""
import logging
import os
import time

import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.protobuf import saved_model_pb2

from estimator_compat import checkpoints
from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.engine.summary_ops import tf1_summary_ops
from estimator_compat.export import old_readers
from estimator_compat.export.outputs import PredictOutput
from estimator_compat.export.receivers import (ServingInputReceiver, TensorServingInputReceiver,
                                              call_receiver_fn)
from estimator_compat.mode_keys import ModeKeys

logger = logging.getLogger("tensorflow")
DEFAULT_KEY = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY


def export_saved_model(estimator, export_dir_base, serving_input_receiver_fn, assets_extra=None,
                       as_text=False, checkpoint_path=None, experimental_mode=ModeKeys.PREDICT):
    """Writes `export_dir_base/<timestamp>/` and returns its path (bytes, as tf.estimator)."""
    if experimental_mode != ModeKeys.PREDICT:
        from estimator_compat.export import all_modes
        return all_modes.export_all_saved_models(
            estimator, export_dir_base, {experimental_mode: serving_input_receiver_fn},
            assets_extra=assets_extra, as_text=as_text, checkpoint_path=checkpoint_path)
    if not callable(serving_input_receiver_fn):
        raise ValueError("serving_input_receiver_fn must be defined (a function returning a "
                         f"ServingInputReceiver), given: {serving_input_receiver_fn!r}")
    path = checkpoint_to_export(estimator, export_dir_base, checkpoint_path)
    if getattr(estimator, "_meta_graph_buildable", True):
        from estimator_compat.export import all_modes
        try:
            return all_modes.export_all_saved_models(
                estimator, export_dir_base, {ModeKeys.PREDICT: serving_input_receiver_fn},
                assets_extra=assets_extra, as_text=as_text, checkpoint_path=path)
        except Exception as e:  # noqa: BLE001 - the function export below says what is wrong
            failure = e
        try:
            written = _export_functions(estimator, export_dir_base, serving_input_receiver_fn,
                                        assets_extra, as_text, path)
        except Exception:
            raise failure from None  # the one-graph export's own error, as before
        logger.info("Exported one function per signature: the model_fn could not be built "
                    "in a TF 1.x graph (%s: %s).", type(failure).__name__,
                    str(failure).splitlines()[0] if str(failure) else "")
        return written
    return _export_functions(estimator, export_dir_base, serving_input_receiver_fn,
                             assets_extra, as_text, path)


def _export_functions(estimator, export_dir_base, serving_input_receiver_fn, assets_extra,
                      as_text, path):
    """A TF2 SavedModel of one function per signature, pruned from one trace of the receiver
    and model_fn through the Estimator's variables (model_to_estimator's Keras variables live
    outside any TF1 graph)."""
    state = estimator._state(None)
    wrapped, tables, signatures = _trace(estimator, state, serving_input_receiver_fn)
    if tables:
        # lookup tables (vocabulary feature columns) are TF1 graph resources here, which a
        # TF2 SavedModel cannot track: the one-graph TF1 SavedModel, tables_initializer as its
        # main op
        from estimator_compat.export import all_modes
        return all_modes.export_all_saved_models(
            estimator, export_dir_base, {ModeKeys.PREDICT: serving_input_receiver_fn},
            assets_extra=assets_extra, as_text=as_text, checkpoint_path=path)
    state.io.restore(path)

    module = tf.Module()
    module.variables_to_save = list(state.store.saveable().values())
    functions = {key: _signature_function(wrapped, inputs, outputs)
                 for key, (inputs, outputs, _) in signatures.items()}
    methods = {key: method for key, (_, _, method) in signatures.items()}

    def write(temp_dir):
        tf.saved_model.save(module, temp_dir, signatures=functions)
        _set_method_names(temp_dir, methods, as_text)
        old_readers.rewrite_saved_model(temp_dir, shown_path="the SavedModel")
    return write_staged(export_dir_base, write, assets_extra)


def checkpoint_to_export(estimator, export_dir_base, checkpoint_path):
    """The checkpoint an export reads, after checking export_dir_base (clear errors)."""
    export_dir_base = os.fspath(export_dir_base)
    if tf.io.gfile.exists(export_dir_base) and not tf.io.gfile.isdir(export_dir_base):
        raise ValueError(f"export_dir_base {export_dir_base!r} is a file, not a directory.")
    path = checkpoints.resolve(checkpoint_path) if checkpoint_path else estimator.latest_checkpoint()
    if path is None:
        raise ValueError(f"Couldn't find trained model at {estimator.model_dir}.")
    return path


def write_staged(export_dir_base, write, assets_extra):
    """Runs write(temp_dir) into `temp-<ts>`, adds assets_extra, renames it to `<ts>`.

    A failure leaves no timestamped directory (and removes the staging one)."""
    final_dir = _timestamped_dir(os.fspath(export_dir_base))
    temp_dir = os.path.join(os.path.dirname(final_dir), "temp-" + os.path.basename(final_dir))
    try:
        write(temp_dir)
        for dest, source in (assets_extra or {}).items():
            target = os.path.join(temp_dir, "assets.extra", dest)
            tf.io.gfile.makedirs(os.path.dirname(target))
            tf.io.gfile.copy(source, target, overwrite=True)
        tf.io.gfile.rename(temp_dir, final_dir)
    except BaseException:
        if tf.io.gfile.exists(temp_dir):
            tf.io.gfile.rmtree(temp_dir)
        raise
    return final_dir.encode()


def _trace(estimator, state, serving_input_receiver_fn):
    holder = {}

    def build():
        receiver = call_receiver_fn(serving_input_receiver_fn)
        if not isinstance(receiver, (ServingInputReceiver, TensorServingInputReceiver)):
            raise TypeError("serving_input_receiver_fn must return a ServingInputReceiver or "
                            f"TensorServingInputReceiver, given: {type(receiver).__name__}")
        # the model_fn's compat.v1 summaries: TF1 ops (unused), without TF2's warning
        with state.store.trace_scope(), tf1_summary_ops():
            spec = call_model_fn(estimator._model_fn, receiver.features, None, ModeKeys.PREDICT,
                                 estimator._params_for_call(ModeKeys.PREDICT),
                                 estimator.config)
        holder["receiver"] = receiver
        holder["signatures"] = signatures = _signatures(receiver, spec)  # graph mode: here
        log_signature_report(signatures)
        holder["tables"] = bool(tf.compat.v1.get_collection(
            tf.compat.v1.GraphKeys.TABLE_INITIALIZERS))
        return []

    with state.strategy.scope():
        wrapped = tf.compat.v1.wrap_function(build, [])
    return wrapped, holder["tables"], holder["signatures"]


def _export_outputs(spec):
    outputs = spec.export_outputs
    if not outputs:
        return {DEFAULT_KEY: PredictOutput(spec.predictions)}
    if DEFAULT_KEY not in outputs:
        if len(outputs) > 1:
            raise ValueError(
                f"Multiple export_outputs were provided ({sorted(outputs)}), but none of them is "
                f"specified as the default. Do this by naming one of them '{DEFAULT_KEY}'.")
        outputs = dict(outputs, **{DEFAULT_KEY: next(iter(outputs.values()))})
    return outputs


_REPORTED = (("Classify", "tensorflow/serving/classify"), ("Regress", "tensorflow/serving/regress"),
             ("Predict", "tensorflow/serving/predict"), ("Train", "tensorflow/supervised/training"),
             ("Eval", "tensorflow/supervised/eval"))


def log_signature_report(signatures):
    """tf.estimator's lines on what an export serves (`Signatures INCLUDED in export for
    Predict: ['serving_default']`, one per method), and the signatures it left out and why
    (`_signatures`' `excluded`)."""
    for label, method in _REPORTED:
        keys = [k for k, (_, _, m) in signatures.items() if m == method]
        logger.info("Signatures INCLUDED in export for %s: %s", label, keys or None)
    excluded = getattr(signatures, "excluded", None)
    if excluded:
        logger.info("Signatures EXCLUDED from export because they cannot be be served via "
                    "TensorFlow Serving APIs:")
        for key, reason in excluded.items():
            logger.info("'%s' : %s", key, reason)


class _Signatures(dict):
    """{signature key: (inputs, outputs, method name)}, and `excluded`: {key: why not}."""
    excluded = None


def _signatures(receiver, spec):
    """{signature key: (inputs, outputs, method name)}, named as tf.estimator's SignatureDefs
    (e.g. a classify signature's single input is 'inputs'); invalid ones are skipped, logged."""
    graph = tf.compat.v1.get_default_graph()
    out = _Signatures()
    out.excluded = {}
    receivers = {None: receiver.receiver_tensors}
    receivers.update(receiver.receiver_tensors_alternatives or {})
    for receiver_name, tensors in receivers.items():
        for key, export_output in _export_outputs(spec).items():
            name = key if receiver_name is None else f"{receiver_name}:{key}"
            try:
                signature_def = export_output.as_signature_def(tensors)
            except ValueError as e:
                if getattr(e, "refuses_export", False):  # (contrib.learn's, as TF 1.15's)
                    raise
                out.excluded[name] = str(e)
                continue
            by_name = lambda infos: {k: graph.get_tensor_by_name(v.name)  # noqa: E731
                                     for k, v in infos.items()}
            out[name] = (by_name(signature_def.inputs), by_name(signature_def.outputs),
                         signature_def.method_name)
    if not out:
        raise ValueError("No valid serving signature: check export_outputs against the "
                         "receiver_tensors of serving_input_receiver_fn ("
                         + "; ".join(f"{k}: {v}" for k, v in out.excluded.items()) + ").")
    return out


def _signature_function(wrapped, inputs, outputs):
    """A concrete function from the named signature inputs to the named outputs."""
    keys = sorted(inputs)
    pruned = wrapped.prune(feeds=[inputs[k] for k in keys], fetches=outputs)
    specs = [tf.TensorSpec(inputs[k].shape, inputs[k].dtype, name=k) for k in keys]
    fn = tf.function(lambda *args: pruned(*args), input_signature=specs)
    return fn.get_concrete_function()


def _set_method_names(export_dir, methods, as_text):
    pb_path = os.path.join(export_dir, "saved_model.pb")
    proto = saved_model_pb2.SavedModel()
    with tf.io.gfile.GFile(pb_path, "rb") as f:
        proto.ParseFromString(f.read())
    for meta_graph in proto.meta_graphs:
        for key, method in methods.items():
            if key in meta_graph.signature_def:
                meta_graph.signature_def[key].method_name = method
    if as_text:
        tf.io.gfile.remove(pb_path)
        with tf.io.gfile.GFile(os.path.join(export_dir, "saved_model.pbtxt"), "w") as f:
            f.write(text_format.MessageToString(proto))
    else:
        with tf.io.gfile.GFile(pb_path, "wb") as f:
            f.write(proto.SerializeToString())


def _timestamped_dir(export_dir_base):
    """export_dir_base/<seconds since epoch>, never an existing one."""
    tf.io.gfile.makedirs(export_dir_base)
    while True:
        stamp = str(int(time.time()))
        path = os.path.join(export_dir_base, stamp)
        if not tf.io.gfile.exists(path) and not tf.io.gfile.exists(
                os.path.join(export_dir_base, "temp-" + stamp)):
            return path
        time.sleep(1)



