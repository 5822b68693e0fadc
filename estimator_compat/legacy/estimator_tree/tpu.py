"""`tpu.*`: TPUEstimator, its spec and configs (estimator_compat/tpu/), and what works off
TPU (ExamplesPerSecondHook, PeriodicLogger, InstallSignalHandlerHook, BatchConfig,
ExportSavedModelApiVersion, tpu.util's checks); the TPU-only machinery (infeed/outfeed,
contexts, loops, TPU embeddings) is declined."""
from estimator_compat.legacy.estimator_tree.reasons import TPU, declined


def modules():
    from estimator_compat import tpu
    from estimator_compat.hooks import dataset_initializer_hooks as hooks
    from estimator_compat.hooks.signal_handler_hook import InstallSignalHandlerHook
    from estimator_compat.tpu import examples_per_second, export_options, loop_util
    from estimator_compat.tpu.periodic_logger import PeriodicLogger
    from estimator_compat.tpu.embedding_config import EmbeddingConfigSpec
    return {
        "tpu": {},
        "tpu.tpu_config": dict(InputPipelineConfig=tpu.InputPipelineConfig,
                               RunConfig=tpu.RunConfig, TPUConfig=tpu.TPUConfig),
        "tpu.tpu_estimator": dict(
            TPUEstimator=tpu.TPUEstimator, TPUEstimatorSpec=tpu.TPUEstimatorSpec,
            BatchConfig=export_options.BatchConfig,
            ExportSavedModelApiVersion=export_options.ExportSavedModelApiVersion,
            ExamplesPerSecondHook=examples_per_second.ExamplesPerSecondHook,
            PeriodicLogger=PeriodicLogger, InstallSignalHandlerHook=InstallSignalHandlerHook),
        "tpu._tpu_estimator_embedding": dict(EmbeddingConfigSpec=EmbeddingConfigSpec),
        "tpu.tpu_context": {}, "tpu.error_handling": {}, "tpu.iteration_count_estimator": {},
        "tpu.util": dict(check_positive_integer=loop_util.check_positive_integer,
                         parse_iterations_per_loop=loop_util.parse_iterations_per_loop,
                         IterationsPerLoopCounter=loop_util.IterationsPerLoopCounter,
                         MultiHostDatasetInitializerHook=hooks.MultiHostDatasetInitializerHook),
    }


DECLINED = {
    "tpu.tpu_config": declined(TPU, ("_get_tpu_job_name_from_tf_config",)),
    "tpu._tpu_estimator_embedding": declined(TPU, (
        "EmbeddingConfig", "_get_embedding_var_name_from_table_name",
        "_get_embedding_variable_name", "_get_slot_variable_names",
        "_get_sparse_feature_from_feature", "_get_table_name_from_embedding_var_name",
        "_get_weights_from_features", "_maybe_dense_to_sparse", "_split_tensor",
        "get_configs_from_feature_columns", "get_full_variable_names",
        "get_tpu_embedding_columns", "split_inputs")),
    "tpu.tpu_context": dict(
        declined(TPU, ("_InternalTPUContext", "_OneCoreTPUContext",
                       "_TPUEstimatorReplicaContext", "_get_tpu_context")),
        TPUContext="TPUEstimator's per-host TPU input context (`params['context']`), given to "
                   "an input_fn only on TPU: off TPU (use_tpu=False) tf.estimator 2.15 passed "
                   "none either; read params['batch_size'] for the per-call batch size"),
    "tpu.error_handling": declined(TPU, ("ErrorRendezvous",)),
    "tpu.iteration_count_estimator": declined(TPU, ("IterationCountEstimator",
                                                    "RuntimeCounter")),
    "tpu.tpu_estimator": declined(TPU, (
        "CatchInvalidHostcallFunctions",
        "TPUInfeedOutfeedSessionHook", "TPUInfeedOutfeedSessionHookForPrediction",
        "TensorPacker", "_CapturedObject", "_CapturingContext", "_InputPipeline", "_Inputs",
        "_InputsWithStoppingSignals", "_ModelFnWrapper", "_NotSaver", "_OpQueueContext",
        "_OpSignalOnceQueueContext", "_OutfeedHostCall", "_OutfeedHostCallHook",
        "_PaddingSignals", "_SIGNAL", "_SetEvalIterationsHook", "_StopSignals",
        "_StoppingPredictHook", "_TPUStopAtStepHook", "_add_item_to_params",
        "_build_computation_for_inference", "_build_tpu_computation_for_inference",
        "_check_add_preemption_hook", "_clone_export_output_with_tensors", "_create_global_step",
        "_create_or_get_iterations_per_loop", "_eval_on_tpu_system", "_export_output_to_tensors",
        "_extract_key_names", "_get_scaffold", "_increase_eval_step_op", "_is_iterable",
        "_predict_on_tpu_system", "_sync_variables_ops", "_train_on_tpu_system",
        "_validate_tpu_training_graph", "_verify_cross_hosts_transfer_size",
        "_wrap_computation_in_while_loop", "_wrap_computation_in_while_loop_with_stopping_signals",
        "call_computation", "export_estimator_savedmodel", "generate_broadcast_enqueue_ops_fn",
        "generate_per_core_enqueue_ops_fn_for_host", "generate_per_host_enqueue_ops_fn_for_host",
        "generate_per_host_v2_enqueue_ops_fn_for_host", "inference_on_tpu",
        "model_fn_inference_on_tpu")),
}
