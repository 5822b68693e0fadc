"""tensorflow_estimator 2.15's `run_config` privates: how RunConfig read a TF_CONFIG cluster
(`_get_session_master`, `_get_eval_session_master`, `_count_ps`, `_count_worker`,
`_validate_service`, `_validate_task_type_and_task_id`, `_get_global_id_in_cluster`,
`_get_model_dir`) and checked its properties (`_validate_properties`,
`_validate_save_ckpt_with_replaced_keys`), with 2.15's results and errors. They work on
estimator_compat's RunConfig (whose own constructor reads TF_CONFIG in run_config.py)."""
import tensorflow as tf

from estimator_compat.fn_args import fn_args
from estimator_compat.run_config import TaskType

_SAVE_CKPT_ERR = "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set."
_FROM_TF_CONFIG = ("\n\nNote that these values may be coming from the TF_CONFIG environment "
                   "variable.")


def _get_session_master(cluster_spec, task_type, task_id, tf_config):
    """TF_CONFIG's `session_master` if set; '' for a one-task cluster; else the task's
    `grpc://` address. RuntimeError for an empty cluster_spec."""
    if "session_master" in tf_config:
        return tf_config["session_master"]
    if not cluster_spec:
        raise RuntimeError("Internal error: `_get_session_master` does not expect empty "
                           "cluster_spec.")
    jobs = cluster_spec.jobs
    if len(jobs) == 1 and len(cluster_spec.job_tasks(jobs[0])) == 1:
        return ""
    return "grpc://" + cluster_spec.job_tasks(task_type)[task_id]


def _get_eval_session_master(task_type, tf_config):
    """The evaluator's `eval_session_master` from TF_CONFIG (default ''); '' for other tasks."""
    if task_type == TaskType.EVALUATOR:
        return tf_config.get("eval_session_master", "")
    return ""


def _jobs(cluster_spec, caller):
    if not cluster_spec:
        raise RuntimeError(f"Internal error: `{caller}` does not expect empty cluster_spec.")
    return cluster_spec.as_dict()


def _count_ps(cluster_spec):
    """The number of `ps` tasks (RuntimeError for an empty cluster_spec)."""
    return len(_jobs(cluster_spec, "_count_ps").get(TaskType.PS, []))


def _count_worker(cluster_spec, chief_task_type):
    """The number of `worker` tasks plus `chief_task_type` tasks."""
    jobs = _jobs(cluster_spec, "_count_worker")
    return len(jobs.get(TaskType.WORKER, [])) + len(jobs.get(chief_task_type, []))


def _validate_service(service):
    """`service` (TF_CONFIG's), TypeError unless None or a dict."""
    if service is not None and not isinstance(service, dict):
        raise TypeError(f'If "service" is set in TF_CONFIG, it must be a dict. Given '
                        f"{type(service)}")
    return service


def _validate_task_type_and_task_id(cluster_spec, task_env, chief_task_type):
    """(task type, int task index) from TF_CONFIG's `task` dict, ValueError when the cluster
    lacks exactly one `chief_task_type` node, the type or index is missing, or they name no
    task of the cluster (an evaluator's index need only be >= 0)."""
    if chief_task_type not in cluster_spec.jobs:
        raise ValueError(f'If "cluster" is set in TF_CONFIG, it must have one '
                         f'"{chief_task_type}" node.')
    if len(cluster_spec.job_tasks(chief_task_type)) > 1:
        raise ValueError(f'The "cluster" in TF_CONFIG must have only one "{chief_task_type}" '
                         "node.")
    task_type, task_id = task_env.get("type"), task_env.get("index")
    if not task_type:
        raise ValueError('If "cluster" is set in TF_CONFIG, task type must be set.')
    if task_id is None:
        raise ValueError('If "cluster" is set in TF_CONFIG, task index must be set.')
    task_id = int(task_id)
    if task_id < 0:
        raise ValueError("Task index must be non-negative number.")
    if task_type == TaskType.EVALUATOR:
        return task_type, task_id
    if task_type not in cluster_spec.jobs:
        raise ValueError(f"{task_type} is not a valid task_type in the cluster_spec:\n"
                         f"{cluster_spec}{_FROM_TF_CONFIG}")
    if not 0 <= task_id < len(cluster_spec.job_tasks(task_type)):
        raise ValueError(f"{task_id} is not a valid task_id for task_type {task_type} in the "
                         f"cluster_spec:\n{cluster_spec}{_FROM_TF_CONFIG}")
    return task_type, task_id


def _get_global_id_in_cluster(cluster_spec, task_type, task_id, chief_task_type):
    """The task's index counting the chief first, then the other jobs in alphabetical order,
    `ps` last. RuntimeError when `task_type` is not in the cluster."""
    order = [chief_task_type] + [job for job in sorted(cluster_spec.jobs)
                                 if job not in (chief_task_type, TaskType.PS)]
    if TaskType.PS in cluster_spec.jobs:
        order.append(TaskType.PS)
    first = 0
    for job in order:
        if job == task_type:
            return first + task_id
        first += len(cluster_spec.job_tasks(job))
    raise RuntimeError(f"Internal Error: `task_type` ({task_type}) is not in cluster_spec "
                       f"({cluster_spec}).")


def _set(config, name, value):
    values = getattr(config, "_values", None)
    if isinstance(values, dict):  # estimator_compat's RunConfig
        values[name] = value
    else:
        setattr(config, "_" + name, value)


def _validate_save_ckpt_with_replaced_keys(new_copy, replaced_keys):
    """After RunConfig.replace: both checkpoint triggers replaced and both set is ValueError;
    replacing one with a value clears the other on `new_copy`."""
    steps, secs = new_copy.save_checkpoints_steps, new_copy.save_checkpoints_secs
    if "save_checkpoints_steps" in replaced_keys and "save_checkpoints_secs" in replaced_keys:
        if steps is not None and secs is not None:
            raise ValueError(_SAVE_CKPT_ERR)
    elif "save_checkpoints_steps" in replaced_keys and steps is not None:
        _set(new_copy, "save_checkpoints_secs", None)
    elif "save_checkpoints_secs" in replaced_keys and secs is not None:
        _set(new_copy, "save_checkpoints_steps", None)


def _valid_device_fn(device_fn):
    return callable(device_fn) and set(fn_args(device_fn)) == {"op"}


_CHECKS = (
    ("model_dir", bool, "model_dir should be non-empty"),
    ("save_summary_steps", lambda v: v >= 0, "save_summary_steps should be >= 0"),
    ("save_checkpoints_steps", lambda v: v >= 0, "save_checkpoints_steps should be >= 0"),
    ("save_checkpoints_secs", lambda v: v >= 0, "save_checkpoints_secs should be >= 0"),
    ("session_config", lambda v: isinstance(v, tf.compat.v1.ConfigProto),
     "session_config must be instance of ConfigProto"),
    ("keep_checkpoint_max", lambda v: v >= 0, "keep_checkpoint_max should be >= 0"),
    ("keep_checkpoint_every_n_hours", lambda v: v > 0,
     "keep_checkpoint_every_n_hours should be > 0"),
    ("log_step_count_steps", lambda v: v > 0, "log_step_count_steps should be > 0"),
    ("tf_random_seed", lambda v: isinstance(v, int), "tf_random_seed must be integer."),
    ("experimental_max_worker_delay_secs", lambda v: isinstance(v, int),
     "experimental_max_worker_delay_secs must be an integer if set."),
    ("session_creation_timeout_secs", lambda v: v > 0,
     "session_creation_timeout_secs should be > 0"),
    ("device_fn", _valid_device_fn, 'device_fn must be callable with exactly one argument "op".'),
    ("protocol", lambda v: v in (None, "grpc", "grpc+verbs"),
     "protocol should be grpc or grpc+verbs"),
)


def _validate_properties(run_config):
    """ValueError naming the first property of `run_config` (set, not None) out of range:
    counts >= 0, keep_checkpoint_every_n_hours / log_step_count_steps /
    session_creation_timeout_secs > 0, integer seeds and delays, a ConfigProto, a
    device_fn(op), protocol grpc or grpc+verbs."""
    for name, valid, message in _CHECKS:
        value = getattr(run_config, name)
        if value is not None and not valid(value):
            raise ValueError(message)


def _get_model_dir(tf_config, model_dir):
    """`model_dir`, else TF_CONFIG's `model_dir`; ValueError for an empty one, or when both are
    set and differ."""
    if model_dir == "":
        raise ValueError("model_dir should be non-empty.")
    from_config = tf_config.get("model_dir")
    if from_config == "":
        raise ValueError("model_dir in TF_CONFIG should be non-empty.")
    if from_config:
        if model_dir and from_config != model_dir:
            raise ValueError(
                "`model_dir` provided in RunConfig construct, if set, must have the same value "
                f"as the model_dir in TF_CONFIG. model_dir: {model_dir}\n"
                f'TF_CONFIG["model_dir"]: {from_config}.\n')
        tf.compat.v1.logging.info("Using model_dir in TF_CONFIG: %s", from_config)
    return model_dir or from_config

