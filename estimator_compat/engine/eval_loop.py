"""Estimator.evaluate: metrics over input_fn for one checkpoint, written to eval/ events."""
import logging
import os

import numpy as np

from estimator_compat import summaries
from estimator_compat.callbacks.progress_bar import ProgressBar
from estimator_compat.engine import session_log
from estimator_compat.engine.run_step import (note_hooks_per_call, run_step, steps_this_call,
                                              steps_to_run, within_length)
from estimator_compat.hooks import graph_reader
from estimator_compat.hooks.runner import HookRunner
from estimator_compat.mode_keys import ModeKeys

logger = logging.getLogger("tensorflow")
_RESERVED = ("loss", "global_step")


def eval_dir(model_dir, name=None):
    return os.path.join(model_dir, "eval" if not name else "eval_" + name)


def evaluate(state, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None,
             in_memory=False):
    """`in_memory`: evaluate the variables as they are (InMemoryEvaluatorHook), no restore."""
    est = state.estimator
    if steps is not None and steps <= 0:
        raise ValueError(f"Must specify steps > 0, given: {steps}")
    latest = None if in_memory else state.latest_for(ModeKeys.EVAL, checkpoint_path)
    runner = HookRunner(ModeKeys.EVAL, hooks, state)
    iterator, step, source = state.prepare(ModeKeys.EVAL, input_fn, runner)
    for key in step.spec.eval_metric_ops:
        if key in _RESERVED:
            raise ValueError(f"Metric with name {key!r} is not allowed, because Estimator "
                             "already defines a default metric with the same name.")
    started = session_log.evaluation_started()
    session_log.graph_finalized()
    path = None if in_memory else state.restore_for(ModeKeys.EVAL, checkpoint_path, runner,
                                                    latest)
    _reset_metrics(state, step)
    session_log.local_init_done()
    global_step = int(state.global_step.numpy())
    runner.after_create_session()
    note_hooks_per_call(runner, est.config.steps_per_execution)
    progress = ProgressBar(steps, est.config.progress_bar)
    metrics, done, ended = {}, 0, False
    log_every = max(1, (steps or 0) // 10)
    per_call = est.config.steps_per_execution
    limit = steps_to_run(steps, source.length, runner)
    known = within_length(limit, source.length)  # each call's batches are there
    while limit is None or done < limit:
        ran = run_step(runner, step, iterator, steps_this_call(per_call, limit, done),
                       known=known)
        if ran is None:
            ended = not runner.stop_requested
            break
        out, fetched = ran
        before, done = done, done + int(out["steps"])
        metrics = out["metrics"]
        if steps is not None and (done // log_every > before // log_every or done == steps):
            logger.info("Evaluation [%d/%d]", done, steps)
        loss = float(out["loss"].numpy())
        runner.after_step(fetched, {"loss": loss, "global_step": global_step})
        progress.update({"loss": loss})
        if runner.stop_requested:
            break
    del iterator
    step.end_call()
    source.note_read(done, ended)
    if done == 0 and not runner.stop_requested:
        raise ValueError(
            "evaluate(): the input_fn yielded no batches, so there is nothing to compute "
            "metrics from; nothing was written to the eval directory. Check the input_fn's "
            "data (an empty file, a filter or skip that drops everything, a shard with no "
            "records). tf.estimator returned 0 for every metric here.")
    results = _final_values(step, metrics)
    regroup = getattr(est, "_regroup_eval_results", None)  # metrics that are parts of one value
    if regroup is not None:
        results = regroup(results)
    if "loss" not in results:  # (a contrib.learn head's own `loss` replaces it, as in TF 1.15)
        loss_sum, loss_count = (v.numpy() for v in step.eval_loss)
        results["loss"] = np.float32(loss_sum / loss_count) if loss_count else np.float32(np.nan)
    results["global_step"] = np.int64(global_step)
    runner.end(results)
    progress.finish()
    session_log.evaluation_finished(started)
    session_log.results_saved(global_step, results)
    if path is not None:
        logger.info("Saving 'checkpoint_path' summary for global step %d: %s", global_step, path)
    out_dir = eval_dir(est.model_dir, name)
    if step.graph is not None:  # the Graphs tab's eval run, as tf.estimator wrote it
        summaries.write_graph(out_dir, step.graph, once=True)
    summaries.write_scalars(
        out_dir, global_step,
        {k: v for k, v in results.items()  # numbers and arrays, as tf.estimator (not tuples)
         if k != "global_step" and not isinstance(v, (tuple, list, dict))
         and (isinstance(v, np.ndarray) or np.ndim(v) == 0)},
        texts=None if path is None else {"checkpoint_path": path})
    return results


def _final_values(step, metrics):
    """Each metric's value after the last update: a Keras metric's result(), a compat.v1
    metric's value op computed from its variables (aggregated over replicas, as a TF1 session
    read it), else the last update's output."""
    results = {}
    names = {k: step.metric_value_names[k] for k in metrics
             if k in step.metric_value_names and k not in step.keras_metrics}
    values = {}
    if names:
        key = (step.graph, tuple(names.values()))
        try:
            cached = step.value_reader
            if cached is None or cached[0] != key:  # one function per trace: built once
                targets = [step.graph.get_tensor_by_name(n) for n in names.values()]
                step.value_reader = cached = (key, graph_reader.make_reader(step.graph,
                                                                            targets))
            values = dict(zip(names, cached[1]()))
        except (graph_reader.InputDependent, KeyError, ValueError):
            values = {}
    for key, value in metrics.items():
        metric = step.keras_metrics.get(key)
        value = metric.result() if metric is not None else values.get(key, value)
        value = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
        results[key] = value[()] if value.ndim == 0 else value
    return results


def _reset_metrics(state, step):
    step.metric_reset.reset(list(state.store.local()) + list(step.eval_loss))
    for metric in step.keras_metrics.values():  # eager: a custom reset_state may be Python
        metric.reset_state()

