"""`tpu.*`: TPUEstimator, its spec and configs (estimator_compat/tpu/), and what runs without a
TPU, with tensorflow_estimator 2.15's behaviour:

- hooks and configs: ExamplesPerSecondHook, PeriodicLogger, InstallSignalHandlerHook,
  BatchConfig, ExportSavedModelApiVersion, tpu.util's checks;
- `tpu_config._get_tpu_job_name_from_tf_config`: tpu_config_privates.py;
- `error_handling.ErrorRendezvous`: tpu_error_rendezvous.py;
- `iteration_count_estimator.*`: tpu_iteration_count.py;
- `tpu_estimator`'s small helpers (`_CapturedObject`, `_get_scaffold`, `_add_item_to_params`,
  `_create_global_step`, ...): tpu_estimator_helpers.py; export outputs and transfer size:
  tpu_export_outputs.py; `TensorPacker`: tpu_tensor_packer.py; graph loops, the
  iterations_per_loop / eval-step variables and `_StopSignals`: tpu_loops.py;
  `_PaddingSignals`: tpu_padding.py; `_Inputs` and `_InputsWithStoppingSignals`:
  tpu_inputs.py; `_OpQueueContext` / `_OpSignalOnceQueueContext`: tpu_op_queue.py; the
  loop hooks (`_TPUStopAtStepHook`, ...): tpu_loop_hooks.py; the off-TPU host-call hook
  `_OutfeedHostCallHook`: tpu_host_call_hook.py;
- `_tpu_estimator_embedding`'s naming and feature helpers: tpu_embedding_inputs.py;
- `tpu_context._TPUEstimatorReplicaContext`: tpu_replica_context.py.
What is declined needs TPU hardware (infeed/outfeed, TPU computations, TPU system metadata,
TPU embedding) or only lays out a TPU computation; each reason says which, and what to use."""
from estimator_compat.legacy.estimator_tree.reasons import declined, names

_INFEED = ("drives TPU infeed/outfeed (the enqueue/dequeue ops need a TPU); off TPU "
           "TPUEstimator called input_fn directly, as estimator_compat's TPUEstimator does "
           "(use_tpu=True feeds a TPU through tf.distribute.TPUStrategy datasets)")
_TPU_LOOP = ("builds or runs the TPU computation (tpu.split_compile_and_shard / "
             "TPUPartitionedCall / CrossReplicaSum need a TPU); off TPU 2.15 ran model_fn "
             "directly, as estimator_compat's TPUEstimator(use_tpu=False) does")
_TPU_CONTROL_FLOW = ("an XLA/TPU control-flow context that checks the ops built inside a TPU "
                     "computation (none is built without a TPU); nothing to check off TPU")
_TPU_INFERENCE = ("serves a model on TPU (BatchFunction over a TPUPartitionedCall needs a "
                  "TPU); export for CPU/GPU with TPUEstimator.export_saved_model or "
                  "tf.contrib.tpu.export_estimator_savedmodel")
_TPU_LAYOUT = ("lays out a TPU computation from the TPU system's metadata (cores, hosts, "
               "topology, device assignment), which needs a TPU; off TPU 2.15's context "
               "only answered `batch_size` (the mode's batch size), which estimator_compat's "
               "TPUEstimator puts in params['batch_size'] and 2.15 gave user code no context")
_TPU_EMBEDDING = ("TF1's TPUEmbedding (tensorflow.python.tpu.tpu_embedding's TableConfig, "
                  "FeatureConfig and optimizer parameters, which TensorFlow 2.21 removed, and "
                  "the per-core input split) ran on a TPU's embedding cores; off TPU "
                  "estimator_compat trains the spec's embedding columns as ordinary embeddings "
                  "with the model_fn's optimizer (tf.tpu.experimental.embedding on a TPU)")


def modules():
    from estimator_compat import tpu
    from estimator_compat.hooks import dataset_initializer_hooks as hooks
    from estimator_compat.hooks.signal_handler_hook import InstallSignalHandlerHook
    from estimator_compat.legacy.estimator_tree import (
        tpu_config_privates,
        tpu_embedding_inputs,
        tpu_error_rendezvous,
        tpu_estimator_helpers,
        tpu_export_outputs,
        tpu_host_call_hook,
        tpu_inputs,
        tpu_iteration_count,
        tpu_loop_hooks,
        tpu_loops,
        tpu_op_queue,
        tpu_padding,
        tpu_replica_context,
        tpu_tensor_packer,
    )
    from estimator_compat.tpu import examples_per_second, export_options, loop_util
    from estimator_compat.tpu.embedding_config import EmbeddingConfigSpec
    from estimator_compat.tpu.periodic_logger import PeriodicLogger
    return {
        "tpu": {},
        "tpu.tpu_config": dict(
            InputPipelineConfig=tpu.InputPipelineConfig, RunConfig=tpu.RunConfig,
            TPUConfig=tpu.TPUConfig, **names(tpu_config_privates,
                                             "_get_tpu_job_name_from_tf_config")),
        "tpu.tpu_estimator": dict(
            TPUEstimator=tpu.TPUEstimator, TPUEstimatorSpec=tpu.TPUEstimatorSpec,
            BatchConfig=export_options.BatchConfig,
            ExportSavedModelApiVersion=export_options.ExportSavedModelApiVersion,
            ExamplesPerSecondHook=examples_per_second.ExamplesPerSecondHook,
            PeriodicLogger=PeriodicLogger, InstallSignalHandlerHook=InstallSignalHandlerHook,
            TensorPacker=tpu_tensor_packer.TensorPacker,
            **names(tpu_inputs, "_Inputs", "_InputsWithStoppingSignals"),
            **names(tpu_op_queue, "_OpQueueContext", "_OpSignalOnceQueueContext"),
            _PaddingSignals=tpu_padding._PaddingSignals,
            _OutfeedHostCallHook=tpu_host_call_hook._OutfeedHostCallHook,
            **names(tpu_loop_hooks, "_TPUStopAtStepHook", "_SetEvalIterationsHook",
                    "_StoppingPredictHook"),
            **names(tpu_estimator_helpers, "_SIGNAL", "_NotSaver", "_CapturedObject",
                    "_is_iterable", "_extract_key_names", "_add_item_to_params",
                    "_get_scaffold", "_create_global_step"),
            **names(tpu_export_outputs, "_export_output_to_tensors",
                    "_clone_export_output_with_tensors", "_verify_cross_hosts_transfer_size"),
            **names(tpu_loops, "_create_or_get_iterations_per_loop", "_increase_eval_step_op",
                    "_wrap_computation_in_while_loop", "_StopSignals",
                    "_wrap_computation_in_while_loop_with_stopping_signals")),
        "tpu._tpu_estimator_embedding": dict(
            EmbeddingConfigSpec=EmbeddingConfigSpec,
            **names(tpu_embedding_inputs, "_get_table_name_from_embedding_var_name",
                    "_get_embedding_var_name_from_table_name", "_get_embedding_variable_name",
                    "_get_weights_from_features", "_get_sparse_feature_from_feature",
                    "_maybe_dense_to_sparse", "_split_tensor", "get_tpu_embedding_columns",
                    "_get_slot_variable_names")),
        "tpu.tpu_context": names(tpu_replica_context, "_TPUEstimatorReplicaContext"),
        "tpu.error_handling": names(tpu_error_rendezvous, "ErrorRendezvous"),
        "tpu.iteration_count_estimator": names(tpu_iteration_count, "IterationCountEstimator",
                                               "RuntimeCounter"),
        "tpu.util": dict(check_positive_integer=loop_util.check_positive_integer,
                         parse_iterations_per_loop=loop_util.parse_iterations_per_loop,
                         IterationsPerLoopCounter=loop_util.IterationsPerLoopCounter,
                         MultiHostDatasetInitializerHook=hooks.MultiHostDatasetInitializerHook),
    }


DECLINED = {
    "tpu._tpu_estimator_embedding": dict(
        declined(_TPU_EMBEDDING, (
            "EmbeddingConfig", "get_configs_from_feature_columns", "split_inputs")),
        get_full_variable_names=(
            "reads the embedding variables TPU embedding columns record when built for a TPU "
            "embedding (off TPU they record none: 2.15 then raised 'Embedding feature column "
            "did not capture any thing'); name a CPU run's variables with "
            "_get_embedding_variable_name and _get_slot_variable_names")),
    "tpu.tpu_context": dict(
        declined(_TPU_LAYOUT, ("_InternalTPUContext", "_OneCoreTPUContext",
                               "_get_tpu_context")),
        TPUContext=(
            "TPUEstimator's per-host TPU input context (`params['context']`), built from the "
            "TPU system's metadata and given to an input_fn only on TPU: off TPU "
            "(use_tpu=False) tensorflow_estimator 2.15 passed none either; read "
            "params['batch_size'] for the per-call batch size")),
    "tpu.tpu_estimator": dict(
        declined(_INFEED, (
            "TPUInfeedOutfeedSessionHook", "TPUInfeedOutfeedSessionHookForPrediction",
            "_InputPipeline",
            "generate_broadcast_enqueue_ops_fn", "generate_per_core_enqueue_ops_fn_for_host",
            "generate_per_host_enqueue_ops_fn_for_host",
            "generate_per_host_v2_enqueue_ops_fn_for_host")),
        **declined(_TPU_LOOP, (
            "_eval_on_tpu_system", "_predict_on_tpu_system", "_train_on_tpu_system")),
        _sync_variables_ops=(
            "reads the variables back from the TPU workers' devices after a TPU loop (needs "
            "a TPU); off TPU the variables never leave the host"),
        _validate_tpu_training_graph=(
            "checks that a graph trained on several TPU replicas has CrossReplicaSum ops, "
            "from the TPU context's replica count (TPU system metadata, which needs a TPU); "
            "off TPU there are no TPU replicas to check"),
        **declined(_TPU_CONTROL_FLOW, ("CatchInvalidHostcallFunctions", "_CapturingContext")),
        _ModelFnWrapper=(
            "wraps model_fn into TPUEstimator's TPU train/eval/predict steps (needs a TPU); its "
            "off-TPU path (call_without_tpu: model_fn called with params['batch_size'], the "
            "TPUEstimatorSpec turned into an EstimatorSpec) is what estimator_compat's "
            "TPUEstimator does itself (TPUEstimatorSpec.as_estimator_spec)"),
        _OutfeedHostCall=(
            "sends TPUEstimatorSpec's host_call / eval_metrics tensors through the TPU outfeed "
            "(needs a TPU); off TPU 2.15 just called each fn on its tensors, as "
            "estimator_compat's TPUEstimatorSpec.as_estimator_spec does"),
        **declined(_TPU_INFERENCE, (
            "_build_computation_for_inference", "_build_tpu_computation_for_inference",
            "call_computation", "inference_on_tpu", "model_fn_inference_on_tpu",
            "export_estimator_savedmodel")),
        _check_add_preemption_hook=(
            "asks a Cloud TPU's GCE metadata whether the TPU can be preempted (needs a Cloud "
            "TPU); estimator_compat's TPUEstimator adds no preemption hook")),
}
