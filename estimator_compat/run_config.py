"""RunConfig: tf.estimator's run settings and the cluster read from TF_CONFIG."""
import copy
import json
import logging
import os
import tempfile

import tensorflow as tf

logger = logging.getLogger("tensorflow")

_USE_DEFAULT = object()
_DEFAULT_CHECKPOINT_SECS = 600

_REPLACEABLE = (
    "model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
    "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute", "device_fn",
    "protocol", "eval_distribute", "experimental_distribute", "experimental_max_worker_delay_secs",
    "session_creation_timeout_secs", "checkpoint_save_graph_def", "progress_bar",
    "steps_per_execution", "jit_compile",
)


class TaskType:
    MASTER = "master"
    PS = "ps"
    WORKER = "worker"
    CHIEF = "chief"
    EVALUATOR = "evaluator"


def _from_distribute_config(config, train_distribute, eval_distribute):
    """TF 1.15's `RunConfig(experimental_distribute=DistributeConfig(train_distribute=...,
    eval_distribute=...))`: its strategies become the RunConfig's, given once only."""
    if config is None:
        return train_distribute, eval_distribute
    for name, given in (("train_distribute", train_distribute),
                        ("eval_distribute", eval_distribute)):
        if given is not None and getattr(config, name, None) is not None:
            raise ValueError(f"Either `{name}` or `experimental_distribute.{name}` can be set, "
                             "not both.")
    return (train_distribute or getattr(config, "train_distribute", None),
            eval_distribute or getattr(config, "eval_distribute", None))


class RunConfig:
    """How an Estimator runs: where it writes, how often, and on which cluster (from TF_CONFIG).

    Keyword-only estimator_compat extensions: `progress_bar` shows a Keras progress bar during
    train/evaluate; `steps_per_execution` runs that many train / evaluation / prediction steps
    per compiled call (hooks see one run per call, with the last step's values); `jit_compile`
    compiles the steps with XLA.
    """

    def __init__(self, model_dir=None, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_steps=_USE_DEFAULT, save_checkpoints_secs=_USE_DEFAULT,
                 session_config=None, keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, train_distribute=None, device_fn=None, protocol=None,
                 eval_distribute=None, experimental_distribute=None,
                 experimental_max_worker_delay_secs=None, session_creation_timeout_secs=7200,
                 checkpoint_save_graph_def=True, *, progress_bar=False, steps_per_execution=1,
                 jit_compile=False):
        steps_given = save_checkpoints_steps is not _USE_DEFAULT
        secs_given = save_checkpoints_secs is not _USE_DEFAULT
        if not steps_given and not secs_given:
            save_checkpoints_steps, save_checkpoints_secs = None, _DEFAULT_CHECKPOINT_SECS
        else:
            save_checkpoints_steps = save_checkpoints_steps if steps_given else None
            save_checkpoints_secs = save_checkpoints_secs if secs_given else None
        if save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError("Can not provide both save_checkpoints_steps and "
                             "save_checkpoints_secs.")
        train_distribute, eval_distribute = _from_distribute_config(
            experimental_distribute, train_distribute, eval_distribute)
        self._values = dict(
            model_dir=_normalise_model_dir(model_dir), tf_random_seed=tf_random_seed,
            save_summary_steps=save_summary_steps, save_checkpoints_steps=save_checkpoints_steps,
            save_checkpoints_secs=save_checkpoints_secs, session_config=session_config,
            keep_checkpoint_max=keep_checkpoint_max,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
            log_step_count_steps=log_step_count_steps, train_distribute=train_distribute,
            device_fn=device_fn, protocol=protocol, eval_distribute=eval_distribute,
            experimental_distribute=experimental_distribute,
            experimental_max_worker_delay_secs=experimental_max_worker_delay_secs,
            session_creation_timeout_secs=session_creation_timeout_secs,
            checkpoint_save_graph_def=checkpoint_save_graph_def, progress_bar=progress_bar,
            steps_per_execution=steps_per_execution, jit_compile=bool(jit_compile))
        _validate(self._values)
        self._cluster = _Cluster.from_env()

    def replace(self, **kwargs):
        """A copy with some properties changed, as tf.estimator's RunConfig.replace."""
        for key in kwargs:
            if key not in _REPLACEABLE:
                raise ValueError(f"{key} is not supported by RunConfig.replace. Allowed "
                                 f"properties: {sorted(_REPLACEABLE)}")
        new = copy.copy(self)
        values = dict(self._values)
        if "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" not in kwargs:
            values["save_checkpoints_secs"] = None
        if "save_checkpoints_secs" in kwargs and "save_checkpoints_steps" not in kwargs:
            values["save_checkpoints_steps"] = None
        values.update(kwargs)
        if "model_dir" in kwargs:
            values["model_dir"] = _normalise_model_dir(values["model_dir"])
        if values["save_checkpoints_steps"] is not None and values["save_checkpoints_secs"] is not None:
            raise ValueError("Can not provide both save_checkpoints_steps and "
                             "save_checkpoints_secs.")
        _validate(values)
        new._values = values
        return new

    def __getattr__(self, name):
        values = self.__dict__.get("_values")
        if values is not None and name in values:
            return values[name]
        raise AttributeError(f"'RunConfig' object has no attribute {name!r}")

    def __repr__(self):
        return "RunConfig(" + ", ".join(f"{k}={v!r}" for k, v in self._values.items()) + ")"

    # Cluster properties, read from TF_CONFIG when the RunConfig was made.
    cluster_spec = property(lambda self: self._cluster.cluster_spec)
    task_type = property(lambda self: self._cluster.task_type)
    task_id = property(lambda self: self._cluster.task_id)
    is_chief = property(lambda self: self._cluster.is_chief)
    master = property(lambda self: self._cluster.master)
    evaluation_master = property(lambda self: self._cluster.evaluation_master)
    num_ps_replicas = property(lambda self: self._cluster.num_ps_replicas)
    num_worker_replicas = property(lambda self: self._cluster.num_worker_replicas)
    global_id_in_cluster = property(lambda self: self._cluster.global_id_in_cluster)
    service = property(lambda self: self._cluster.service)


_CLUSTER_KEYS = ("service", "cluster_spec", "task_type", "task_id", "global_id_in_cluster",
                 "master", "evaluation_master", "is_chief", "num_ps_replicas",
                 "num_worker_replicas")
_TF2_ONLY = ("checkpoint_save_graph_def",)


def log_text(config):
    """tf.estimator's `Using config: {...}` text, vars(RunConfig) as TF printed them (TF 1.15
    had no `_checkpoint_save_graph_def`), then this RunConfig's own settings."""
    from estimator_compat.legacy import graph_mode
    skip = _TF2_ONLY if graph_mode.tf1_behavior() else ()
    values = {f"_{k}": v for k, v in config._values.items() if k not in skip}
    values.update((f"_{k}", getattr(config, k, None)) for k in _CLUSTER_KEYS)
    for own in ("_progress_bar", "_steps_per_execution", "_jit_compile"):
        values[own] = values.pop(own)
    return str(values)


def with_model_dir(config, model_dir):
    """The RunConfig an Estimator runs with: `config` (default RunConfig()) with the model_dir
    given to the constructor (the two must agree), or a temporary folder, with a warning,
    when neither gives one (tf.estimator's `maybe_overwrite_model_dir_and_session_config`)."""
    if config is None:
        config = RunConfig()
        logger.info("Using default config.")
    elif not isinstance(config, RunConfig):
        raise ValueError(f"config must be an instance of RunConfig, but provided {config!r}.")
    model_dir = os.fspath(model_dir) if model_dir is not None else None
    if model_dir is not None and config.model_dir is not None and \
            os.path.abspath(model_dir) != os.path.abspath(config.model_dir):
        raise ValueError(f"model_dir are set both in constructor and RunConfig, but with "
                         f"different values. In constructor: '{model_dir}', in RunConfig: "
                         f"'{config.model_dir}'.")
    model_dir = model_dir or config.model_dir
    if model_dir is None:
        model_dir = tempfile.mkdtemp()
        logger.warning("Using temporary folder as model directory: %s", model_dir)
    if tf.io.gfile.exists(model_dir) and not tf.io.gfile.isdir(model_dir):
        raise ValueError(f"model_dir {model_dir!r} is a file, not a directory: give a "
                         "directory (it is created if missing).")
    if config.model_dir != model_dir:
        config = config.replace(model_dir=model_dir)
    return config


def _normalise_model_dir(model_dir):
    if model_dir is None:
        return None
    return os.fspath(model_dir)


def _validate(values):
    for key in ("save_summary_steps", "save_checkpoints_steps", "save_checkpoints_secs",
                "keep_checkpoint_max", "keep_checkpoint_every_n_hours", "log_step_count_steps",
                "session_creation_timeout_secs"):
        value = values[key]
        if value is not None and value < 0:
            raise ValueError(f"{key} should be >= 0, given: {value}")
    spe = values["steps_per_execution"]
    if not isinstance(spe, int) or spe < 1:
        raise ValueError(f"steps_per_execution must be an integer >= 1, given: {spe!r}")
    if values["tf_random_seed"] is not None and not isinstance(values["tf_random_seed"], int):
        raise ValueError(f"tf_random_seed must be an int, given: {values['tf_random_seed']!r}")
    if values["device_fn"] is not None and not callable(values["device_fn"]):
        raise ValueError("device_fn must be callable with exactly one argument (an op).")


class _Cluster:
    """The task this process is, as tf.estimator derived it from TF_CONFIG."""

    def __init__(self, cluster, task_type, task_id, service=None):
        self.service = service
        self.cluster_spec = tf.train.ClusterSpec(cluster)
        self.task_type, self.task_id = task_type, task_id
        jobs = cluster
        if not jobs:
            self.master, self.evaluation_master = "", ""
            self.is_chief, self.num_ps_replicas, self.num_worker_replicas = True, 0, 1
            self.global_id_in_cluster = 0
            return
        self.evaluation_master = ""
        self.num_ps_replicas = len(jobs.get(TaskType.PS, []))
        self.num_worker_replicas = (len(jobs.get(TaskType.CHIEF, [])) + len(jobs.get(TaskType.MASTER, []))
                                    + len(jobs.get(TaskType.WORKER, [])))
        if task_type == TaskType.EVALUATOR:
            self.master, self.is_chief = "", False
            self.num_ps_replicas = self.num_worker_replicas = 0
            self.global_id_in_cluster = None
            return
        self.master = "grpc://" + jobs[task_type][task_id]
        chief_job = TaskType.CHIEF if TaskType.CHIEF in jobs else TaskType.MASTER
        self.is_chief = task_type == chief_job
        order = [chief_job, TaskType.WORKER, TaskType.PS]
        gid = 0
        for job in order:
            if job == task_type:
                self.global_id_in_cluster = gid + task_id
                break
            gid += len(jobs.get(job, []))

    @classmethod
    def from_env(cls):
        raw = os.environ.get("TF_CONFIG", "")
        if not raw:
            return cls({}, TaskType.WORKER, 0)
        try:
            config = json.loads(raw)
        except ValueError as e:
            raise ValueError(f"TF_CONFIG is not valid JSON ({e}): {raw!r}") from None
        cluster = config.get("cluster") or {}
        task = config.get("task") or {}
        service = config.get("service")
        if not cluster:
            return cls({}, task.get("type", TaskType.WORKER), int(task.get("index", 0)), service)
        cluster = {job: list(addrs.values()) if isinstance(addrs, dict) else list(addrs)
                   for job, addrs in cluster.items()}
        if "type" not in task:
            raise ValueError('If "cluster" is set in TF_CONFIG, it must have "task" with a '
                             '"type", e.g. {"task": {"type": "worker", "index": 0}}.')
        task_type = task["type"]
        if "index" not in task and task_type != TaskType.EVALUATOR:
            raise ValueError('If "cluster" is set in TF_CONFIG, "task" must have an "index".')
        task_id = int(task.get("index", 0))
        if task_type == TaskType.EVALUATOR:
            if task_id != 0:
                raise ValueError(f"Evaluator task index must be 0, given: {task_id}")
        else:
            if task_type not in cluster:
                raise ValueError(f"{task_type} is not a valid task_type in the cluster_spec: "
                                 f"{sorted(cluster)}")
            if not 0 <= task_id < len(cluster[task_type]):
                raise ValueError(f"{task_id} is not a valid task_id for task_type {task_type} "
                                 f"(the cluster has {len(cluster[task_type])}).")
        for job in (TaskType.CHIEF, TaskType.MASTER):
            if len(cluster.get(job, [])) > 1:
                raise ValueError(f'The "cluster" in TF_CONFIG must have at most one "{job}" '
                                 f"node, given: {cluster[job]}")
        if TaskType.CHIEF in cluster and TaskType.MASTER in cluster:
            raise ValueError('The "cluster" in TF_CONFIG cannot have both "chief" and "master".')
        if (TaskType.WORKER in cluster or TaskType.PS in cluster) and not (
                TaskType.CHIEF in cluster or TaskType.MASTER in cluster):
            raise ValueError('If "cluster" is set in TF_CONFIG, it must have one "chief" node.')
        return cls(cluster, task_type, task_id, service)
