"""tf.contrib.learn.RunConfig: tf.estimator's RunConfig with contrib's extra arguments."""
from estimator_compat.run_config import _USE_DEFAULT
from estimator_compat.run_config import RunConfig as _CoreRunConfig

# What TF 1.15's contrib RunConfig.uid() left out by default (settled by running it):
# learn_runner.run accepts an Estimator built on `run_config.replace(<these>=...)`.
DEFAULT_UID_WHITE_LIST = ("tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
                          "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
                          "keep_checkpoint_every_n_hours", "log_step_count_steps")


def uid_values(config, whitelist=None):
    """The settings of a (core or contrib) RunConfig that its uid() is made of."""
    whitelist = DEFAULT_UID_WHITE_LIST if whitelist is None else whitelist
    return {k: v for k, v in config._values.items() if k not in whitelist}


class RunConfig(_CoreRunConfig):
    """Takes contrib.learn's arguments; session/device ones (num_cores, log_device_placement,
    gpu_memory_fraction) are accepted and have no effect on compiled steps."""

    def __init__(self, master=None, num_cores=0, log_device_placement=False,
                 gpu_memory_fraction=1, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_secs=_USE_DEFAULT, save_checkpoints_steps=None,
                 keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, protocol=None, evaluation_master="", model_dir=None,
                 session_config=None, session_creation_timeout_secs=7200, **kwargs):
        if save_checkpoints_steps is None:
            save_checkpoints_steps = _USE_DEFAULT
        super().__init__(model_dir=model_dir, tf_random_seed=tf_random_seed,
                         save_summary_steps=save_summary_steps,
                         save_checkpoints_steps=save_checkpoints_steps,
                         save_checkpoints_secs=save_checkpoints_secs,
                         session_config=session_config, keep_checkpoint_max=keep_checkpoint_max,
                         keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                         log_step_count_steps=log_step_count_steps, protocol=protocol,
                         session_creation_timeout_secs=session_creation_timeout_secs, **kwargs)

    def uid(self, whitelist=None):
        """A string naming this config's settings but those in `whitelist` (by default
        DEFAULT_UID_WHITE_LIST): equal for configs that differ only there."""
        return ", ".join(f"{k}={v!r}" for k, v in sorted(uid_values(self, whitelist).items()))
