"""Parameter-server clusters from TF_CONFIG: which strategy the chief trains under, and what the
`ps` and `worker` tasks do (serve until the chief is done).

tf.estimator ran such a cluster with between-graph replication: every worker ran its own TF1
graph, variables placed on the ps tasks. TensorFlow 2 runs it from one program: the chief
(a `ClusterCoordinator` over `tf.distribute.ParameterServerStrategy`) owns the variables on the
ps tasks and schedules compiled train steps on the workers; `ps` and `worker` tasks only run a
`tf.distribute.Server`. The same script runs on every task, unchanged.
"""
import atexit
import contextlib
import logging
import os
import sys
import time

import tensorflow as tf
from tensorflow.python.distribute.coordinator import cluster_coordinator

from estimator_compat import checkpoints
from estimator_compat.run_config import TaskType

logger = logging.getLogger("tensorflow")

_SERVING_TASKS = (TaskType.PS, TaskType.WORKER)
_POLL_SECS = 1.0
_strategies = {}  # one per process: connecting to a cluster is once per process
_served = {"done": None}  # a serving task's server, once the chief has finished with it
_chief = {"model_dirs": {}, "failed": False}  # what the chief tells its servers at exit


def is_parameter_server_cluster(config):
    """TF_CONFIG names `ps` tasks (and the RunConfig gives no other train_distribute)."""
    if config.train_distribute is not None and not is_parameter_server_strategy(
            config.train_distribute):
        return False
    return bool(config.cluster_spec.as_dict().get(TaskType.PS))


def is_parameter_server_strategy(strategy):
    return isinstance(strategy, tf.distribute.experimental.ParameterServerStrategy)


def serves(config):
    """A `ps` or `worker` task of a parameter-server cluster: it runs a server, not steps."""
    return is_parameter_server_cluster(config) and config.task_type in _SERVING_TASKS


def cluster_spec(config):
    """TF_CONFIG's cluster as TensorFlow 2's parameter-server runtime names it: the TF1
    `master` is the `chief`; the evaluator is not a member (it reads checkpoints)."""
    jobs = dict(config.cluster_spec.as_dict())
    jobs.pop(TaskType.EVALUATOR, None)
    if TaskType.MASTER in jobs:
        jobs[TaskType.CHIEF] = jobs.pop(TaskType.MASTER)
    return tf.train.ClusterSpec(jobs)


def strategy_for(config):
    """The chief's ParameterServerStrategy: RunConfig's train_distribute, or one made from
    TF_CONFIG (as tf.estimator trained with parameter servers when TF_CONFIG named them)."""
    if config.train_distribute is not None:
        strategy = config.train_distribute
    else:
        key = str(cluster_spec(config).as_dict())
        if key not in _strategies:
            resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
                cluster_spec(config), task_type=TaskType.CHIEF, task_id=0,
                rpc_layer=config.protocol or "grpc")
            _strategies[key] = tf.distribute.experimental.ParameterServerStrategy(resolver)
        strategy = _strategies[key]
    _tell_servers_at_exit(config)
    return strategy


class ParameterServerLostError(RuntimeError):
    """A ps task became unavailable during training: the variables it held are gone."""


@contextlib.contextmanager
def explained_failures(config):
    """Turns the loss of a ps task into an error that says what happened and how to go on
    (a worker's loss is not an error: the coordinator retries its steps on other workers)."""
    try:
        yield
    except Exception as e:
        if not (isinstance(e, tf.errors.UnavailableError) or
                cluster_coordinator._is_ps_failure(e)):
            raise
        latest = checkpoints.latest_checkpoint(config.model_dir)
        resume = (f"from its last checkpoint {latest} (step {checkpoints.checkpoint_step(latest)})"
                  if latest else "from the start (no checkpoint was written yet)")
        raise ParameterServerLostError(
            "A parameter server (ps task) became unavailable during training, and the "
            "variables it held are lost, so training stops rather than go on with a wrong "
            "model. Restart the ps task(s) and then the chief (ps and worker tasks keep "
            f"serving): training resumes {resume}. Cause: {type(e).__name__}: "
            f"{str(e).splitlines()[0] if str(e) else ''}") from e


def done_marker(model_dir, task_type, task_id):
    """The file by which the chief tells a serving task that training is over."""
    return os.path.join(model_dir, f".estimator_compat-done-{task_type}-{task_id}")


def serve(config):
    """Runs this `ps` / `worker` task's server until the chief's process ends after training
    (it leaves a marker in model_dir); then returns, and the script goes on (and exits 0)."""
    job = config.task_type
    if _served["done"]:  # a later train() of the same script: the chief has finished
        logger.info("The chief is done: %s:%d has nothing more to serve.", job, config.task_id)
        return _served["done"]
    marker = done_marker(config.model_dir, job, config.task_id)
    if tf.io.gfile.exists(marker):  # from an earlier run of this cluster
        tf.io.gfile.remove(marker)
    server = tf.distribute.Server(cluster_spec(config), job_name=job, task_index=config.task_id,
                                  protocol=config.protocol or "grpc", start=True)
    logger.info("Started server for %s:%d at %s (parameter-server training: the chief runs "
                "the steps); serving until the chief is done, which it marks in %s.",
                job, config.task_id, server.target, marker)
    while not tf.io.gfile.exists(marker):
        time.sleep(_POLL_SECS)
    tf.io.gfile.remove(marker)
    logger.info("The chief is done: %s:%d stops serving.", job, config.task_id)
    _served["done"] = server
    return server


def _tell_servers_at_exit(config):
    """At the chief's exit, marks training done for every ps and worker task (not after an
    unhandled exception: a restarted chief then finds its servers still up)."""
    if not _chief["model_dirs"]:
        atexit.register(_mark_done)
        previous = sys.excepthook

        def excepthook(*args):
            _chief["failed"] = True
            previous(*args)
        sys.excepthook = excepthook
    _chief["model_dirs"][config.model_dir] = cluster_spec(config).as_dict()


def _mark_done():
    if _chief["failed"]:
        logger.info("The chief failed: ps and worker tasks keep serving for its restart.")
        return
    for model_dir, jobs in _chief["model_dirs"].items():
        for job in _SERVING_TASKS:
            for index in range(len(jobs.get(job, ()))):
                try:
                    with tf.io.gfile.GFile(done_marker(model_dir, job, index), "w") as f:
                        f.write("done\n")
                except (OSError, tf.errors.OpError) as e:
                    logger.warning("Could not tell %s:%d that training is done (%s); stop "
                                   "it by hand.", job, index, e)
