"""`train`: slim's training loop (tf_slim.learning.train) that runs the mask update op after
every training step, as TF 1.15's model_pruning.python.learning did, to its end: TF 1.15's
then unpacked slim's loss (one value) as a pair, so it raised a TypeError once the training was
done and saved; it does here too."""
from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim

_USE_DEFAULT = 0


def _learning():
    import importlib
    tf_slim()
    return importlib.import_module("tf_slim.learning")


def train(train_op, logdir, mask_update_op, train_step_fn=None, train_step_kwargs=_USE_DEFAULT,
          log_every_n_steps=1, graph=None, master="", is_chief=True, global_step=None,
          number_of_steps=None, init_op=_USE_DEFAULT, init_feed_dict=None,
          local_init_op=_USE_DEFAULT, init_fn=None, ready_op=_USE_DEFAULT,
          summary_op=_USE_DEFAULT, save_summaries_secs=600, summary_writer=_USE_DEFAULT,
          startup_delay_steps=0, saver=None, save_interval_secs=600, sync_optimizer=None,
          session_config=None, trace_every_n_steps=None):
    """slim.learning.train, `mask_update_op` run after each `train_step_fn` step (slim's
    train_step by default); then TF 1.15's TypeError (see the module's docstring)."""
    learning = _learning()
    step_fn = train_step_fn or learning.train_step

    def train_step_with_pruning_fn(sess, op, step, kwargs):
        total_loss, should_stop = step_fn(sess, op, step, kwargs)
        sess.run(mask_update_op)
        return total_loss, should_stop

    total_loss, _ = learning.train(
        train_op, logdir, train_step_fn=train_step_with_pruning_fn,
        train_step_kwargs=train_step_kwargs, log_every_n_steps=log_every_n_steps, graph=graph,
        master=master, is_chief=is_chief, global_step=global_step,
        number_of_steps=number_of_steps, init_op=init_op, init_feed_dict=init_feed_dict,
        local_init_op=local_init_op, init_fn=init_fn, ready_op=ready_op,
        summary_op=summary_op, save_summaries_secs=save_summaries_secs,
        summary_writer=summary_writer, startup_delay_steps=startup_delay_steps, saver=saver,
        save_interval_secs=save_interval_secs, sync_optimizer=sync_optimizer,
        session_config=session_config, trace_every_n_steps=trace_every_n_steps)
    return total_loss
