"""`tf.contrib.learn`'s graph actions: `train`, `evaluate`, `infer`, `run_n`, `run_feeds`
(`graph_actions` module), TF 1.x's session loops before Estimator.

They run the TF 1.x graph they are given in a `tf.compat.v1` session, in the caller's graph
mode (a TF 1.x program's thread): `train` in a MonitoredTrainingSession writing checkpoints
and summaries to `output_dir` (it finalizes the graph, as TF 1.15's did) and returns the last
step's loss; `evaluate` restores `checkpoint_path`, runs `update_op` until the input ends or
`max_steps`, then returns (`eval_dict`'s values, global step) and writes them as summaries;
`run_n` / `run_feeds` / `infer` restore a checkpoint (or initialize the variables) and fetch
`output_dict`.
"""
import itertools
import logging

import numpy as np
import tensorflow as tf

from estimator_compat.learn.interfaces import NanLossDuringTrainingError

logger = logging.getLogger("tensorflow")
v1 = tf.compat.v1


def _graph_of(output_dict):
    for value in output_dict.values():
        graph = getattr(value, "graph", None)
        if graph is not None:
            return graph
    return v1.get_default_graph()


def _check_graph_mode(what):
    if tf.executing_eagerly():
        raise RuntimeError(f"tf.contrib.learn.{what} runs a TF 1.x graph in a session: call it "
                           "from a TF 1.x program (estimator-compat run) or inside "
                           "`with tf.Graph().as_default():`.")


def run_feeds_iter(output_dict, feed_dicts, restore_checkpoint_path=None):
    """Yields `output_dict`'s values for each of `feed_dicts` (variables restored from
    `restore_checkpoint_path`, or initialized; queue runners started)."""
    _check_graph_mode("run_feeds")
    if not output_dict:
        raise ValueError("output_dict is invalid: %s." % output_dict)
    graph = _graph_of(output_dict)
    with graph.as_default(), v1.Session(graph=graph) as session:
        if restore_checkpoint_path:
            v1.train.Saver().restore(session, restore_checkpoint_path)
        else:
            session.run(v1.global_variables_initializer())
        session.run([v1.local_variables_initializer(), v1.tables_initializer()])
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(session, coord=coord)
        try:
            for feed_dict in feed_dicts:
                yield session.run(output_dict, feed_dict=feed_dict)
        finally:
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)


def run_feeds(output_dict, feed_dicts, restore_checkpoint_path=None):
    """`output_dict`'s values for each of `feed_dicts`, as a list."""
    return list(run_feeds_iter(output_dict, feed_dicts, restore_checkpoint_path))


def run_n(output_dict, feed_dict=None, restore_checkpoint_path=None, n=1):
    """`output_dict`'s values `n` times over (a list of dicts)."""
    return run_feeds(output_dict, itertools.repeat(feed_dict, n), restore_checkpoint_path)


def infer(restore_checkpoint_path, output_dict, feed_dict=None):
    """`output_dict`'s values once, from `restore_checkpoint_path`."""
    return run_feeds(output_dict, [feed_dict], restore_checkpoint_path)[0]


class _FeedFnHook(v1.train.SessionRunHook):
    def __init__(self, feed_fn):
        self._feed_fn = feed_fn

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(fetches=None, feed_dict=self._feed_fn())


class _NanLossHook(v1.train.SessionRunHook):
    def __init__(self, loss_op):
        self._loss_op = loss_op

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(self._loss_op)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            logger.error("Model diverged with loss = NaN.")
            raise NanLossDuringTrainingError


def train(graph, output_dir, train_op, loss_op, global_step_tensor=None, init_op=None,
          init_feed_dict=None, init_fn=None, log_every_steps=10, supervisor_is_chief=True,
          supervisor_master="", supervisor_save_model_secs=600, keep_checkpoint_max=5,
          supervisor_save_summaries_steps=100, feed_fn=None, steps=None,
          fail_on_nan_loss=True, monitors=None, max_steps=None):
    """Runs `train_op` `steps` more steps (or to `max_steps`, or to the end of the input)
    with checkpoints in `output_dir`; returns the last step's loss."""
    _check_graph_mode("train")
    if graph is None:
        raise ValueError("graph must be provided.")
    if not output_dir:
        raise ValueError("Output directory should be non-empty %s." % output_dir)
    if train_op is None:
        raise ValueError("Missing train_op.")
    if loss_op is None:
        raise ValueError("Missing loss_op.")
    if steps is not None and max_steps is not None:
        raise ValueError("Can not provide both steps and max_steps.")
    from estimator_compat.learn.monitors import replace_monitors_with_hooks
    with graph.as_default():
        global_step_tensor = global_step_tensor or v1.train.get_global_step(graph)
        if global_step_tensor is None:
            raise ValueError("No global step was found in the graph: create one with "
                             "tf.train.get_or_create_global_step() before train_op.")
        hooks = []
        if steps is not None or max_steps is not None:
            hooks.append(v1.train.StopAtStepHook(num_steps=steps, last_step=max_steps))
        if fail_on_nan_loss:
            hooks.append(_NanLossHook(loss_op))
        if feed_fn is not None:
            hooks.append(_FeedFnHook(feed_fn))
        hooks.append(v1.train.LoggingTensorHook({"loss": loss_op, "step": global_step_tensor},
                                                every_n_iter=log_every_steps))
        hooks.extend(replace_monitors_with_hooks(monitors, None))
        scaffold = v1.train.Scaffold(
            init_op=init_op, init_feed_dict=init_feed_dict,
            init_fn=(lambda scaffold, session: init_fn(session)) if init_fn else None,
            saver=v1.train.Saver(max_to_keep=keep_checkpoint_max, sharded=False))
        loss = None
        with v1.train.MonitoredTrainingSession(
                master=supervisor_master, is_chief=supervisor_is_chief,
                checkpoint_dir=output_dir, scaffold=scaffold, hooks=hooks,
                save_checkpoint_secs=supervisor_save_model_secs,
                save_summaries_steps=supervisor_save_summaries_steps,
                log_step_count_steps=log_every_steps) as session:
            while not session.should_stop():
                _, loss = session.run([train_op, loss_op])
        return loss


def evaluate(graph, output_dir, checkpoint_path, eval_dict, update_op=None,
             global_step_tensor=None, supervisor_master="", log_every_steps=10, feed_fn=None,
             max_steps=None):
    """(`eval_dict`'s values, global step) of `checkpoint_path` after running `update_op`
    to the end of the input (or `max_steps` times); written as summaries to `output_dir`."""
    _check_graph_mode("evaluate")
    if not eval_dict:
        raise ValueError("Invalid eval_dict %s." % eval_dict)
    with graph.as_default():
        global_step_tensor = global_step_tensor or v1.train.get_global_step(graph)
        saver = v1.train.Saver()
        with v1.Session(supervisor_master or "", graph=graph) as session:
            session.run(v1.global_variables_initializer())
            if checkpoint_path:
                saver.restore(session, checkpoint_path)
            session.run([v1.local_variables_initializer(), v1.tables_initializer()])
            coord = v1.train.Coordinator()
            threads = v1.train.start_queue_runners(session, coord=coord)
            step = 0
            try:
                while update_op is not None and (max_steps is None or step < max_steps):
                    session.run(update_op, feed_dict=feed_fn() if feed_fn else None)
                    step += 1
                    if step % log_every_steps == 0:
                        logger.info("Update steps: %d", step)
            except tf.errors.OutOfRangeError:
                logger.info("Input iterator is exhausted after %d steps.", step)
            results = session.run(eval_dict)
            global_step = (int(session.run(global_step_tensor))
                           if global_step_tensor is not None else None)
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
    scalars = {k: float(v) for k, v in results.items() if np.ndim(v) == 0}
    if output_dir and scalars:
        writer = v1.summary.FileWriter(output_dir)
        writer.add_summary(v1.Summary(value=[v1.Summary.Value(tag=k, simple_value=v)
                                             for k, v in sorted(scalars.items())]),
                           global_step or 0)
        writer.close()
    return results, global_step
