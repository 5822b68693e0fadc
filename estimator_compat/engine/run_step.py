"""One step of any mode's loop: ask the hooks for fetches, run the compiled step, hand back."""
import tensorflow as tf


def run_step(runner, step, iterator):
    """(outputs, {fetched name: numpy}) of one compiled call; None when hooks stopped or the
    input is exhausted (`runner.stop_requested` tells which)."""
    names = runner.before_step()
    if runner.stop_requested:
        return None
    try:
        out = step.function(names)(iterator)
    except tf.errors.OutOfRangeError:
        return None
    return out, {n: v.numpy() for n, v in out["fetches"].items()}
