"""learn_runner.run (tf.contrib.learn): build an Experiment and run one of its schedules."""
import logging

from estimator_compat.fn_args import fn_args
from estimator_compat.learn.experiment import Experiment
from estimator_compat.learn.run_config import uid_values
from estimator_compat.run_config import RunConfig, TaskType

logger = logging.getLogger("tensorflow")


def _default_schedule(config):
    """tf.contrib.learn's choice: local → train_and_evaluate; else by the task's type."""
    jobs = config.cluster_spec.as_dict()
    if not jobs or sum(len(tasks) for tasks in jobs.values()) <= 1:
        return "train_and_evaluate"
    schedules = {TaskType.MASTER: "train_and_evaluate", TaskType.CHIEF: "train_and_evaluate",
                 TaskType.PS: "run_std_server", TaskType.WORKER: "train",
                 TaskType.EVALUATOR: "continuous_eval"}
    if config.task_type not in schedules:
        raise ValueError(f"Must specify a schedule (task type {config.task_type!r} has no "
                         "default one).")
    return schedules[config.task_type]


def _public_methods(experiment):
    return sorted(name for name in dir(experiment)
                  if not name.startswith("_") and callable(getattr(experiment, name)))


def _same_config(used, given):
    """The Estimator's config is `given`, with at most model_dir filled in, or
    `given.replace(...)` of settings TF 1.15's RunConfig.uid() left out (save_checkpoints_steps,
    tf_random_seed...): as TF 1.15 compared them."""
    mine = uid_values(used)
    theirs = uid_values(given)
    if theirs.get("model_dir") is None:
        mine.pop("model_dir"), theirs.pop("model_dir")
    return mine == theirs


def run(experiment_fn, output_dir=None, schedule=None, run_config=None, hparams=None):
    """Builds `experiment_fn(run_config, hparams)` (or the older `experiment_fn(output_dir)`)
    and runs `schedule` (by default chosen from the task type) on it; returns its result."""
    if not callable(experiment_fn):
        raise TypeError(f"experiment_fn should be callable, given {experiment_fn!r}")
    if output_dir is not None and run_config is not None:
        raise ValueError("Only one of `output_dir` and `run_config` can be given; put "
                         "model_dir in the RunConfig.")
    if output_dir is not None:
        experiment = experiment_fn(output_dir)
        config = experiment.estimator.config if isinstance(experiment, Experiment) else None
    else:
        if run_config is None:
            raise ValueError("Must set `run_config` (or the older `output_dir`).")
        if not isinstance(run_config, RunConfig):
            raise ValueError(f"`run_config` must be a RunConfig, given {type(run_config)}")
        if "hparams" in fn_args(experiment_fn) or len(fn_args(experiment_fn)) >= 2:
            experiment = experiment_fn(run_config, hparams)
        else:
            experiment = experiment_fn(run_config)
        config = run_config
    if not isinstance(experiment, Experiment):
        raise TypeError(f"Experiment builder did not return an Experiment instance, got "
                        f"{type(experiment).__name__} instead.")
    if run_config is not None and not _same_config(experiment.estimator.config, run_config):
        raise ValueError("`RunConfig` instance is expected to be used by the `Estimator` inside "
                         "the `Experiment`: build the Estimator with config=run_config.")
    schedule = schedule or _default_schedule(config)
    valid = _public_methods(experiment)
    if schedule not in valid or schedule in ("extend_train_hooks", "reset_export_strategies"):
        raise ValueError(f"Schedule references non-existent task {schedule!r}; valid tasks are "
                         f"{[v for v in valid if v not in ('extend_train_hooks', 'reset_export_strategies')]}")
    logger.info("Running schedule %s.", schedule)
    return getattr(experiment, schedule)()
