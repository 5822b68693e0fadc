"""tf.contrib.training's evaluation loop (`...contrib.training.python.training.evaluation`).

`checkpoints_iterator`, `wait_for_new_checkpoint`, `evaluate_once` (TensorFlow's
`tf.compat.v1` evaluation loop over one checkpoint), `StopAfterNEvalsHook` and
`get_or_create_eval_step` are TensorFlow 2.21's own, the code TF 1.15 ran. Defined here:
`evaluate_repeatedly` (the same loop over each new checkpoint of a directory) and
`SummaryAtEndHook` (one summary written when a session ends).
"""
import logging
import time

import tensorflow as tf
from tensorflow.python.training import checkpoint_utils
from tensorflow.python.training import evaluation as _evaluation

logger = logging.getLogger("tensorflow")
v1 = tf.compat.v1

checkpoints_iterator = checkpoint_utils.checkpoints_iterator
wait_for_new_checkpoint = checkpoint_utils.wait_for_new_checkpoint
evaluate_once = _evaluation._evaluate_once
StopAfterNEvalsHook = _evaluation._StopAfterNEvalsHook
get_or_create_eval_step = _evaluation._get_or_create_eval_step


def evaluate_repeatedly(checkpoint_dir, master="", scaffold=None, eval_ops=None, feed_dict=None,
                        final_ops=None, final_ops_feed_dict=None, eval_interval_secs=60,
                        hooks=None, config=None, max_number_of_evaluations=None, timeout=None,
                        timeout_fn=None):
    """Evaluates each new checkpoint of `checkpoint_dir` (at most one per
    `eval_interval_secs`): a MonitoredSession restores it, `eval_ops` run until a hook stops
    the session (or once per step with none), `final_ops` run at its end. Stops after
    `max_number_of_evaluations`, or when no new checkpoint came within `timeout` seconds
    (and `timeout_fn()` says so). Returns the last evaluation's `final_ops` values."""
    eval_step = get_or_create_eval_step()
    hooks = list(hooks or [])
    if eval_ops is not None:
        update_eval_step = v1.assign_add(eval_step, 1)
        for hook in hooks:
            if isinstance(hook, StopAfterNEvalsHook):
                hook._set_evals_completed_tensor(update_eval_step)
        if isinstance(eval_ops, dict):
            eval_ops = dict(eval_ops, update_eval_step=update_eval_step)
        elif isinstance(eval_ops, (tuple, list)):
            eval_ops = list(eval_ops) + [update_eval_step]
        else:
            eval_ops = [eval_ops, update_eval_step]
    final_ops_hook = v1.train.FinalOpsHook(final_ops, final_ops_feed_dict)
    hooks.append(final_ops_hook)

    evaluations = 0
    for checkpoint_path in checkpoints_iterator(checkpoint_dir, eval_interval_secs, timeout,
                                                timeout_fn):
        creator = v1.train.ChiefSessionCreator(
            scaffold=scaffold, checkpoint_filename_with_path=checkpoint_path, master=master,
            config=config)
        with v1.train.MonitoredSession(session_creator=creator, hooks=hooks) as session:
            logger.info("Starting evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S",
                                                                   time.gmtime()))
            if eval_ops is not None:
                while not session.should_stop():
                    session.run(eval_ops, feed_dict)
            logger.info("Finished evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S",
                                                                   time.gmtime()))
        evaluations += 1
        if max_number_of_evaluations is not None and evaluations >= max_number_of_evaluations:
            return final_ops_hook.final_ops_values
    return final_ops_hook.final_ops_values


class SummaryAtEndHook(v1.train.SessionRunHook):
    """Writes `summary_op` (default: every summary of the graph, `merge_all()`) once, at the
    global step, when the session ends: to `summary_writer`, or the cached writer of
    `log_dir`."""

    def __init__(self, log_dir=None, summary_writer=None, summary_op=None, feed_dict=None):
        if log_dir is None and summary_writer is None:
            raise ValueError("SummaryAtEndHook needs log_dir or summary_writer: where to write "
                             "the summary.")
        self._log_dir = log_dir
        self._summary_writer = summary_writer
        self._summary_op = summary_op
        self._replace_summary_op = summary_op is None
        self._feed_dict = feed_dict

    def begin(self):
        if self._replace_summary_op:
            self._summary_op = v1.summary.merge_all()
        self._global_step = v1.train.get_or_create_global_step()

    def after_create_session(self, session, coord):
        if self._summary_writer is None and self._log_dir:
            self._summary_writer = v1.summary.FileWriterCache.get(self._log_dir)

    def end(self, session):
        if self._summary_op is not None:
            global_step = v1.train.global_step(session, self._global_step)
            summary = session.run(self._summary_op, self._feed_dict)
            if self._summary_writer:
                self._summary_writer.add_summary(summary, global_step)
        if self._summary_writer:
            self._summary_writer.flush()
