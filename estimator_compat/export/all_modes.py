"""experimental_export_all_saved_models: TRAIN / EVAL / PREDICT graphs in one SavedModel.

As tf.estimator did, each mode is built in its own TF1 graph (through a variable store, so
variables keep their training names), the checkpoint is restored in a session, and the graphs are
added to one SavedModel with `tf.compat.v1.saved_model.Builder`: tags `train`, `eval`, `serve`,
signatures `train` (TrainOutput), `eval` (EvalOutput) and the serving ones. Loaded with
`tf.compat.v1.saved_model.loader.load(sess, ["eval"], path)` or `tf.saved_model.load(path,
tags=["eval"])`.
"""
import tensorflow as tf
from tensorflow.python.saved_model import constants as saved_model_constants

from estimator_compat import partitioned
from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.export import old_readers, saved_model
from estimator_compat.export.outputs import EvalOutput, TrainOutput
from estimator_compat.export.receivers import (ServingInputReceiver, SupervisedInputReceiver,
                                              TensorServingInputReceiver, call_receiver_fn)
from estimator_compat.export.supervised_receivers import UnsupervisedInputReceiver
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.variables import VariableStore

_TAGS = {ModeKeys.TRAIN: ["train"], ModeKeys.EVAL: ["eval"],
         ModeKeys.PREDICT: [tf.saved_model.SERVING]}
_ORDER = (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT)
_TRAIN_OP_KEY = saved_model_constants.TRAIN_OP_KEY


def export_all_saved_models(estimator, export_dir_base, input_receiver_fn_map, assets_extra=None,
                            as_text=False, checkpoint_path=None):
    unknown = sorted(set(input_receiver_fn_map) - set(_ORDER))
    if unknown or not input_receiver_fn_map:
        raise ValueError(f"input_receiver_fn_map keys must be tf.estimator.ModeKeys, given: "
                         f"{sorted(input_receiver_fn_map)}")
    path = saved_model.checkpoint_to_export(estimator, export_dir_base, checkpoint_path)

    def write(temp_dir):
        builder = tf.compat.v1.saved_model.Builder(temp_dir)
        first = True
        for mode in _ORDER:
            if mode in input_receiver_fn_map:
                _add_mode(builder, estimator, mode, input_receiver_fn_map[mode], path, first)
                first = False
        builder.save(as_text)
        old_readers.rewrite_saved_model(temp_dir, shown_path="the SavedModel")
    return saved_model.write_staged(export_dir_base, write, assets_extra)


def _add_mode(builder, estimator, mode, receiver_fn, checkpoint, first):
    with tf.Graph().as_default() as graph:
        receiver = call_receiver_fn(receiver_fn)
        store = VariableStore()
        labels = None
        if mode != ModeKeys.PREDICT:
            if not isinstance(receiver, (SupervisedInputReceiver, UnsupervisedInputReceiver)):
                raise TypeError(f"The receiver fn for mode {mode!r} must return a "
                                "SupervisedInputReceiver (e.g. from build_raw_supervised_input_"
                                "receiver_fn) or an UnsupervisedInputReceiver, given: "
                                f"{type(receiver).__name__}")
            labels = getattr(receiver, "labels", None)  # a model without labels: None
        elif not isinstance(receiver, (ServingInputReceiver, TensorServingInputReceiver)):
            raise TypeError("serving_input_receiver_fn must return a ServingInputReceiver or "
                            f"TensorServingInputReceiver, given: {type(receiver).__name__}")
        with store.trace_scope():
            spec = call_model_fn(estimator._model_fn, receiver.features, labels, mode,
                                 estimator._params_for_call(mode), estimator.config)
        signature_defs = _signature_defs(mode, receiver, spec, graph)
        if mode == ModeKeys.TRAIN:  # where TF1 loaders look for it
            graph.add_to_collection(_TRAIN_OP_KEY, spec.train_op)
        # a partitioned variable's parts as slices of the whole, as the checkpoint has it
        saver = tf.compat.v1.train.Saver(
            var_list=partitioned.checkpoint_entries(store.saveable()), sharded=False)
        init = tf.group(tf.compat.v1.local_variables_initializer(),
                        tf.compat.v1.tables_initializer())
        with tf.compat.v1.Session(graph=graph) as sess:
            saver.restore(sess, checkpoint)
            sess.run(init)
            # vocabulary files of lookup tables are copied into assets/, as tf.estimator did
            assets = graph.get_collection(tf.compat.v1.GraphKeys.ASSET_FILEPATHS)
            kwargs = dict(signature_def_map=signature_defs, main_op=init, saver=saver,
                          assets_collection=assets, strip_default_attrs=True)  # [] as TF
            if first:
                builder.add_meta_graph_and_variables(sess, _TAGS[mode], **kwargs)
            else:
                builder.add_meta_graph(_TAGS[mode], **kwargs)


def _signature_defs(mode, receiver, spec, graph):
    """The mode's SignatureDefs, reported as tf.estimator reported each mode's."""
    if mode == ModeKeys.PREDICT:
        signatures = saved_model._signatures(receiver, spec)
        saved_model.log_signature_report(signatures)
        return {key: tf.compat.v1.saved_model.signature_def_utils.build_signature_def(
            {k: tf.compat.v1.saved_model.build_tensor_info(graph.get_tensor_by_name(v.name))
             for k, v in inputs.items()},
            {k: tf.compat.v1.saved_model.build_tensor_info(graph.get_tensor_by_name(v.name))
             for k, v in outputs.items()}, method)
            for key, (inputs, outputs, method) in signatures.items()}
    metrics = {}
    for key, value in spec.eval_metric_ops.items():
        if hasattr(value, "result"):  # a Keras metric, updated inside model_fn
            value = (tf.convert_to_tensor(value.result()), tf.no_op())
        metrics[key] = value
    output_cls = TrainOutput if mode == ModeKeys.TRAIN else EvalOutput
    output = output_cls(loss=spec.loss, predictions=spec.predictions, metrics=metrics or None)
    signature_def = output.as_signature_def(receiver.receiver_tensors)
    saved_model.log_signature_report({mode: (None, None, signature_def.method_name)})
    return {mode: signature_def}
