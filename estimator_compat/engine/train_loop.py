"""Estimator.train: the loop around the compiled train step, with tf.estimator's default hooks."""
import logging
import os

import numpy as np
import tensorflow as tf

from estimator_compat import checkpoints, summaries, warm_start
from estimator_compat.callbacks.checkpoint_saver import CheckpointSaver
from estimator_compat.callbacks.nan_guard import check_loss
from estimator_compat.callbacks.progress_bar import ProgressBar
from estimator_compat.callbacks.step_logger import StepLogger
from estimator_compat.engine import session_log
from estimator_compat.engine.run_step import note_hooks_per_call, run_step
from estimator_compat.hooks import input_checkpoint
from estimator_compat.hooks.runner import HookRunner
from estimator_compat.legacy import graph_mode
from estimator_compat.mode_keys import ModeKeys

logger = logging.getLogger("tensorflow")


def check_steps(steps, max_steps):
    if steps is not None and max_steps is not None:
        raise ValueError("Can not provide both steps and max_steps.")
    if steps is not None and steps <= 0:
        raise ValueError(f"Must specify steps > 0, given: {steps}")
    if max_steps is not None and max_steps <= 0:
        raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")


def train(state, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
    state.training = True  # an evaluate from a hook keeps these variables (EngineState)
    try:
        _train(state, input_fn, hooks, steps, max_steps, saving_listeners)
    finally:
        state.training = False


def _train(state, input_fn, hooks, steps, max_steps, saving_listeners):
    est, config = state.estimator, state.estimator.config
    check_steps(steps, max_steps)
    latest = checkpoints.latest_checkpoint(est.model_dir)
    if max_steps is not None and latest is not None and checkpoints.checkpoint_step(latest) >= max_steps:
        logger.info("Skipping training since max_steps has already saved.")
        return
    runner = HookRunner(ModeKeys.TRAIN, hooks, state, epoch_steps=config.log_step_count_steps)
    iterator, step, _ = state.prepare(ModeKeys.TRAIN, input_fn, runner)
    # Resolved again right before the restore: another trainer on this model_dir may have
    # saved (and rotated the one seen above away) while the model was built.
    latest = checkpoints.latest_checkpoint(est.model_dir) or latest
    if latest is None:  # as tf.estimator built its graph: before the hooks and the session
        state.initialise_from_checkpoints()
        if est._warm_start is not None:
            trainable = {v.name.split(":")[0] for v in spec_trainable(step)}
            warm_start.apply(est._warm_start, state.store, trainable)
    if config.is_chief and (config.save_checkpoints_steps or config.save_checkpoints_secs):
        session_log.checkpoint_saver_created()
    session_log.graph_finalized()
    if latest is not None:
        state.io.restore_newest(latest)
    session_log.local_init_done()
    start = int(state.global_step.numpy())
    step.begin_call(start)
    last_step = start + steps if steps is not None else max_steps

    if config.is_chief and config.checkpoint_save_graph_def:
        _write_graph(state, step.graph)
        state.meta_graphs.element_spec = step.element_spec
        state.meta_graphs.renamed = state.io.renamed_in_checkpoint
        state.io.meta_graphs = state.meta_graphs  # TF1's model.ckpt-N.meta files
    saving_listeners = list(saving_listeners or ()) + input_checkpoint.attach(hooks, iterator)
    saver = CheckpointSaver(state.io, config.save_checkpoints_steps, config.save_checkpoints_secs,
                            saving_listeners, runner.session,
                            summary_dir=est.model_dir) if config.is_chief else None
    step_logger = StepLogger(config.log_step_count_steps, est.model_dir if config.is_chief else None,
                             step_after=graph_mode.tf1_behavior())
    progress = ProgressBar(None if last_step is None else last_step - start, config.progress_bar)
    if saver is not None:
        saver.begin(start)
    if config.is_chief and config.save_summary_steps:
        # TF1's SummarySaverHook: a restarted job's events past here are dropped by TensorBoard
        summaries.write_session_log(est.model_dir, start + 1, "START")
    runner.after_create_session()
    note_hooks_per_call(runner, config.steps_per_execution)

    gs, loss, stalled, unmoved = start, None, False, 0
    counted = start  # TF1's StopAtStepHook's reckoning of the step (see below)
    while last_step is None or counted < last_step:
        steps_now = step.steps_per_call
        if last_step is not None:
            steps_now = max(1, min(steps_now, last_step - counted))
        state.io.forget()  # the variables move away from the checkpoint they were read from
        ran = run_step(runner, step, iterator, steps_now)
        if ran is None:
            if not runner.stop_requested:
                logger.info("Input exhausted: training ends at step %d.", gs)
            break
        out, fetched = ran
        steps_before_call = gs
        loss = np.asarray(out["loss"])[()]  # its dtype's scalar, as a session returned it
        step_before = int(out["global_step"])
        for summary_step, proto in out.get("summaries", ()):  # from the workers' steps
            summaries.write_raw(est.model_dir, summary_step + 1, proto)
        check_loss(loss)
        gs = int(out["global_step_after"] if "global_step_after" in out else
                 state.global_step.numpy())
        # TF1's StopAtStepHook took the step read in the run, plus one, for the step after
        # it, and stopped once that and the real step reached the last one: a train_op adding
        # 2 a step (contrib.learn's wide & deep) ends at 22, not 20, for steps=20
        counted = min(gs, step_before + steps_now)
        unmoved = unmoved + 1 if gs == step_before else 0
        if unmoved:  # some estimators take uncounted steps (k-means centers, quantiles)
            stalled = _global_step_stalled(stalled, last_step,
                                           unmoved - getattr(est, "_uncounted_steps", 0))
        # tf.estimator's order: the checkpoint saver first (after the NaN check, so no NaN
        # weights are saved), then the step counter, the user's hooks, the loss log line.
        if saver is not None:
            saver.after_step(gs)
        step_logger.on_step(step_before, loss, steps=gs - steps_before_call)
        runner.after_step(fetched, {"loss": loss, "global_step": gs})
        progress.update({"loss": loss, "global_step": gs})
        if runner.stop_requested or (saver is not None and saver.stop_requested):
            break
    del iterator
    step.end_call()
    if saver is not None:
        saver.end(gs, force=stalled)
    runner.end({"loss": loss, "global_step": gs})
    if runner.has_hooks() or saving_listeners:  # they may have changed variables since the save
        state.io.forget()
    progress.finish()
    summaries.flush(est.model_dir)
    if loss is not None:
        logger.info("Loss for final step: %s.", loss)


def _write_graph(state, graph):
    """graph.pbtxt and the events file's graph, as tf.estimator wrote them at each train call;
    again only for a new trace (text-formatting the canned wide & deep graph takes 0.1 s)."""
    model_dir = state.estimator.model_dir
    if state.graph_written is graph and tf.io.gfile.exists(os.path.join(model_dir, "graph.pbtxt")):
        return
    tf.io.write_graph(graph.as_graph_def(), model_dir, "graph.pbtxt")
    summaries.write_graph(model_dir, graph)
    state.graph_written = graph


_NO_STEP = ("global_step did not advance in a train step: the train_op of model_fn must "
            "increment it, e.g. optimizer.minimize(loss, "
            "global_step=tf.compat.v1.train.get_or_create_global_step())")


# Calls in a row that may leave global_step alone before that is an error (a k-means step
# that only chooses the centers does not count; a train_op that never counts is a mistake).
STALLED_CALLS = 3


def _global_step_stalled(already_warned, last_step, calls):
    """A train_op that leaves global_step alone: with a step limit that limit is never reached
    (TF 1.x looped forever), so it is an error; training to the end of the input goes on with
    TF 1.x's warning, and the final weights are saved (TF 1.x skipped that save)."""
    if calls < STALLED_CALLS:
        return already_warned
    if last_step is not None:
        raise ValueError(f"{_NO_STEP}; with steps/max_steps given, training would never end.")
    if not already_warned:
        logger.warning("It seems that global step (tf.train.get_global_step) has not been "
                       "increased: %s. Training goes on until the input is exhausted; the final "
                       "weights are saved under the unchanged step (TF 1.x did not save them).",
                       _NO_STEP)
    return True


def spec_trainable(step):
    return step.graph.get_collection(tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES)


