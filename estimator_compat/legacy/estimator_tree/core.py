"""The top-level modules: `estimator`, `estimator_lib`, `model_fn`, `mode_keys`, `run_config`,
`training`, `util`, `keras`/`keras_lib`, `extenders`, `checkpoint_utils`, `estimator_export`,
`tools.analytics`, `tools.checkpoint_converter` (runnable with runpy after install()).
Their privates live in files of their own: spec_validation.py (model_fn), run_config_privates.py,
estimator_privates.py, training_privates.py (with _TrainingExecutor),
fn_arg_checks.py (extenders), checkpoint_converter_privates.py; keras_lib's are the
keras_bridge package's (keras_io.py, keras_model_fn.py: model_to_estimator's pieces)."""
import os
import types

import tensorflow as tf


def _names(module, names):
    return {n: getattr(module, n) for n in names}


def _public(module):
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")
            and not isinstance(getattr(module, n), types.ModuleType)}


def modules():
    import estimator_compat as api
    from estimator_compat import checkpoint_converter, checkpoints, training
    from estimator_compat import run_config as run_config_lib
    from estimator_compat.canned.extenders import add_metrics
    from estimator_compat.canned.logit_fns import call_logit_fn
    from estimator_compat.fn_args import fn_args
    from estimator_compat.keras_bridge.model_to_estimator import model_to_estimator
    from estimator_compat.hooks import dataset_initializer_hooks as initializer_hooks
    from estimator_compat.legacy.estimator_tree import imported_privates as privates
    from estimator_compat.legacy.estimator_tree import input_fn_result as parsing
    from estimator_compat.legacy.estimator_tree import \
        checkpoint_converter_privates as converter_privates
    from estimator_compat.keras_bridge import keras_io as keras_lib_privates
    from estimator_compat.keras_bridge import keras_model_fn as keras_lib_model_fn
    from estimator_compat.legacy.estimator_tree import (estimator_privates, fn_arg_checks,
                                                        run_config_privates, spec_validation,
                                                        training_privates)
    return {
        "estimator": dict(Estimator=api.Estimator, EstimatorV2=api.Estimator,
                          VocabInfo=api.VocabInfo, WarmStartSettings=api.WarmStartSettings,
                          _load_global_step_from_checkpoint_dir=_global_step_in,
                          maybe_overwrite_model_dir_and_session_config=_config_for,
                          _check_hooks_type=privates._check_hooks_type,
                          _get_default_warm_start_settings=(
                              privates._get_default_warm_start_settings),
                          _verify_model_fn_args=privates._verify_model_fn_args,
                          _get_replica_device_setter=privates._get_replica_device_setter,
                          _write_dict_to_summary=privates._write_dict_to_summary,
                          _extract_metric_update_ops=privates._extract_metric_update_ops,
                          _has_dataset_or_queue_runner=privates._has_dataset_or_queue_runner,
                          **_names(estimator_privates, (
                              "_assert_members_are_not_overridden", "_check_checkpoint_available",
                              "_check_listeners_type", "_combine_distributed_scaffold",
                              "_dict_to_str", "_get_loss_reduce_op_for_reporting",
                              "_verify_and_create_loss_metric", "_write_checkpoint_path_to_summary",
                              "create_per_replica_ready_for_local_init_op"))),
        "estimator_lib": _public(api),
        "model_fn": dict(EstimatorSpec=api.EstimatorSpec, ModeKeys=api.ModeKeys,
                         call_logit_fn=call_logit_fn,
                         verify_model_fn_args=privates._verify_model_fn_args,
                         **_names(spec_validation, (
                             "_check_is_tensor", "_check_is_tensor_or_operation",
                             "_update_variable_collection",
                             "_validate_estimator_spec_export_outputs",
                             "_validate_estimator_spec_hooks", "_validate_estimator_spec_loss",
                             "_validate_estimator_spec_predictions",
                             "_validate_estimator_spec_train_op", "_validate_eval_metric_ops",
                             "_validate_scaffold", "_TPUEstimatorSpec"))),
        "mode_keys": dict(ModeKeys=api.ModeKeys),
        "run_config": dict(RunConfig=api.RunConfig, TaskType=api.TaskType,
                           get_default_session_config=get_default_session_config,
                           path_to_str=path_to_str,
                           _USE_DEFAULT=run_config_lib._USE_DEFAULT,
                           **_names(run_config_privates, (
                               "_count_ps", "_count_worker", "_get_eval_session_master",
                               "_get_global_id_in_cluster", "_get_model_dir",
                               "_get_session_master", "_validate_properties",
                               "_validate_save_ckpt_with_replaced_keys", "_validate_service",
                               "_validate_task_type_and_task_id"))),
        "training": dict(TrainSpec=training.TrainSpec, EvalSpec=training.EvalSpec,
                         train_and_evaluate=training.train_and_evaluate,
                         _assert_eval_spec=privates._assert_eval_spec,
                         _EvalStatus=privates._EvalStatus,
                         _is_google_env=privates._is_google_env,
                         **_names(training_privates, (
                             "_ContinuousEvalListener", "_EvalResult",
                             "_NewCheckpointListenerForEvaluate", "_StopAtSecsHook",
                             "_TrainingExecutor", "_validate_exporters", "_validate_hooks",
                             "_validate_input_fn", "_validate_saving_listeners"))),
        "util": dict(fn_args=fn_args, parse_input_fn_result=parsing.parse_input_fn_result,
                     parse_iterator_result=parsing.parse_iterator_result,
                     _DatasetInitializerHook=parsing._DatasetInitializerHook,
                     DistributedIteratorInitializerHook=(
                         initializer_hooks.DistributedIteratorInitializerHook),
                     MultiHostDatasetInitializerHook=(
                         initializer_hooks.MultiHostDatasetInitializerHook)),
        "keras": dict(model_to_estimator=model_to_estimator),
        "keras_lib": dict(model_to_estimator=model_to_estimator, **_names(keras_lib_privates, (
            "FormattedKeyError", "_any_weight_initialized", "_assert_valid_model",
            "_cast_tensor_to_floatx", "_convert_estimator_io_to_keras", "_convert_tensor",
            "_extract_sample_weight_tensors",
            "_get_file_from_google_storage", "standardize_sample_weights")), **_names(
            keras_lib_model_fn, ("_clone_and_build_model", "_convert_keras_metrics_to_estimator",
                                 "_create_keras_model_fn", "_save_first_checkpoint"))),
        "extenders": dict(add_metrics=add_metrics, **_names(fn_arg_checks, (
            "_call_metric_fn", "_verify_metric_fn_args"))),
        "checkpoint_utils": dict(latest_checkpoint=checkpoints.latest_checkpoint),
        "estimator_export": dict(estimator_export=estimator_export),
        "tools": {},
        "tools.analytics": dict(track_usage=track_usage,
                                track_numerical_issues=track_numerical_issues),
        "tools.checkpoint_converter": dict(
            convert_checkpoint=checkpoint_converter.convert_checkpoint,
            main=checkpoint_converter.main,
            **_names(converter_privates, (
                "_add_new_variable", "_add_opt_variable", "_convert_hyper_params_in_graph",
                "_convert_variables_in_ckpt")),
            __spec__=_runnable_spec("tensorflow_estimator.python.estimator.tools."
                                    "checkpoint_converter", checkpoint_converter.__file__)),
    }


class _SourceLoader:
    """Gives runpy the code of one of our files for a served module path, so `python -m
    <tensorflow_estimator path>` (runpy.run_module, after install()) runs it as __main__."""

    def __init__(self, path):
        self.path = path

    def get_code(self, fullname):
        del fullname
        with open(self.path, "rb") as f:
            return compile(f.read(), self.path, "exec")

    def is_package(self, fullname):
        del fullname
        return False


def _runnable_spec(name, path):
    import importlib.machinery
    return importlib.machinery.ModuleSpec(name, _SourceLoader(path), origin=path)


def _config_for(config, model_dir):
    """`estimator.maybe_overwrite_model_dir_and_session_config` (TF Lattice calls it): the
    Estimator's RunConfig for `model_dir`, with TF's default session config where none is
    given."""
    from estimator_compat.run_config import with_model_dir
    config = with_model_dir(config, model_dir)
    if config.session_config is None:
        config = config.replace(session_config=get_default_session_config())
    return config


def _global_step_in(checkpoint_dir):
    """The global step of `checkpoint_dir`'s latest checkpoint, 0 when there is none (the
    private helper TPU samples called as `estimator._load_global_step_from_checkpoint_dir`)."""
    try:
        reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(checkpoint_dir))
        return int(reader.get_tensor(tf.compat.v1.GraphKeys.GLOBAL_STEP))
    except Exception:  # noqa: BLE001 - any unreadable or absent checkpoint counts as step 0
        return 0


def get_default_session_config():
    """The ConfigProto RunConfig used by default: soft placement, one meta-optimizer pass."""
    from tensorflow.core.protobuf import rewriter_config_pb2
    rewrite = rewriter_config_pb2.RewriterConfig(
        meta_optimizer_iterations=rewriter_config_pb2.RewriterConfig.ONE)
    return tf.compat.v1.ConfigProto(
        allow_soft_placement=True,
        graph_options=tf.compat.v1.GraphOptions(rewrite_options=rewrite))


def path_to_str(path):
    """`path` as a str (os.PathLike objects converted; anything else returned as given)."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path


def estimator_export(*api_names, v1=None):
    """The decorator tensorflow_estimator marked its public symbols with: records the API
    names on the symbol and returns it unchanged."""
    def decorate(symbol):
        symbol._estimator_api_names = tuple(api_names)
        symbol._estimator_api_names_v1 = tuple(api_names if v1 is None else v1)
        return symbol
    return decorate


def track_usage(tool_id, tags):
    """Usage tracking: none outside Google (as tensorflow_estimator's)."""
    del tool_id, tags


def track_numerical_issues(exc_info):
    """Numerical-issue tracking: none outside Google (as tensorflow_estimator's)."""
    del exc_info


DECLINED = {}
