"""One step of any mode's loop: ask the hooks for fetches, run the compiled step, hand back."""
import logging

import tensorflow as tf

logger = logging.getLogger("tensorflow")


def note_hooks_per_call(runner, steps_per_execution):
    """Says once per train / evaluate / predict call that hooks are sampled once per call."""
    if steps_per_execution > 1 and runner.has_hooks():
        logger.info("steps_per_execution=%d: hooks and callbacks run once per compiled call "
                    "(up to %d steps), with that call's last step's values.",
                    steps_per_execution, steps_per_execution)


def steps_to_run(steps, length, runner):
    """The steps an evaluate / predict loop runs: `steps` (None: to the end of the input),
    capped at the input's known length (`input_pipeline.known_length`) where no hook watches:
    a hook saw one more `before_run` than `after_run`, the call that found the end, as in a
    tf.estimator session, so with hooks that call is still made."""
    if length is None or runner.has_hooks():
        return steps
    return length if steps is None else min(steps, length)


def within_length(limit, length):
    """Whether a loop's `limit` (steps_to_run) is within the input's known length: then each
    call's batches are there (steps_this_call never passes the limit)."""
    return limit is not None and length is not None and limit <= length


def steps_this_call(per_call, limit, done):
    """Steps the next compiled call runs: steps_per_execution, fewer where `limit` (from
    `steps_to_run`; None: no limit) is `done` sooner."""
    return per_call if limit is None else min(per_call, limit - done)


def run_step(runner, step, iterator, steps=1, known=False):
    """(outputs, {fetched name: numpy}) of one compiled call (of `steps` steps; `known`: the
    input has that many left); None when hooks stopped or the input is exhausted
    (`runner.stop_requested` tells which)."""
    runner.session.iterator = iterator  # a hook's session.run of a train op reads from it
    try:
        names = runner.before_step()
    except tf.errors.OutOfRangeError:  # such a run found the input's end
        return None
    finally:
        runner.session.iterator = None  # the call's pipeline is not kept past its end
    if runner.stop_requested:
        return None
    try:
        out = step.run(iterator, names, steps, known)
        if out is None:
            return None
    except tf.errors.OutOfRangeError:
        return None
    except tf.errors.UnavailableError as e:
        state = runner.session.state
        config = state.estimator.config if state else None
        if config is None or not config.cluster_spec.as_dict() or state.coordinator is not None:
            raise  # one machine; or parameter servers (Estimator.train explains ps failures)
        raise RuntimeError(
            f"Step failed on task {config.task_type}:{config.task_id}: another task of the "
            "cluster is unavailable (a worker died, was stopped or cannot be reached). Restart "
            "all tasks; training resumes from the chief's last checkpoint in "
            f"{config.model_dir}.") from e
    return out, {n: v.numpy() if hasattr(v, "numpy") else v  # (ps: fetched already)
                 for n, v in out["fetches"].items()}
