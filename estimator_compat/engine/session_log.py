"""The INFO lines tf.estimator's session printed around each call, printed where a call here
does the same work: users and their log scrapers read them as a call's milestones.

TF 1.15 and 2.15 printed, in each train / evaluate / predict call: `Calling model_fn.` /
`Done calling model_fn.` (model_fn_call.py: at each real call of the model_fn, a mode's
trace), `Create CheckpointSaverHook.` (train, chief, when saving), `Graph was finalized.`,
`Restoring parameters from <checkpoint>` (TF's Saver prints it; checkpoints.py where the
variables hold the checkpoint already), `Running local_init_op.` / `Done running
local_init_op.` (the step's function built, the variables restored or initialised, the
metrics reset). Evaluate adds `Starting evaluation at <time>` (1.15: UTC with a `Z`), 2.15's
`Inference Time : <s>s`, `Finished evaluation at <local time>`, `Saving dict for global step
<step>: ...`; 2.15's checkpoint saves are framed by `Calling checkpoint listeners before /
after saving checkpoint <step>...`."""
import logging
import time

from estimator_compat.legacy import graph_mode

logger = logging.getLogger("tensorflow")


def checkpoint_saver_created():
    logger.info("Create CheckpointSaverHook.")


def graph_finalized():
    logger.info("Graph was finalized.")


def local_init_done():
    logger.info("Running local_init_op.")
    logger.info("Done running local_init_op.")


def evaluation_started():
    """Returns the start time, for `evaluation_finished`."""
    if graph_mode.tf1_behavior():
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    else:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    logger.info("Starting evaluation at %s", stamp)
    return time.time()


def evaluation_finished(started):
    if not graph_mode.tf1_behavior():
        logger.info("Inference Time : %0.5fs", time.time() - started)
    logger.info("Finished evaluation at %s", time.strftime("%Y-%m-%d-%H:%M:%S"))


def results_saved(step, results):
    """tf.estimator's line for an evaluation's results: each `key = str(value)` by key, bytes
    values left out."""
    logger.info("Saving dict for global step %d: %s", step,
                ", ".join(f"{k} = {results[k]!s}" for k in sorted(results)
                          if not isinstance(results[k], bytes)))


def checkpoint_listeners(when, step):
    """2.15's line before a save's listeners are called, and after the save, before they are
    called again (1.15 printed none)."""
    if not graph_mode.tf1_behavior():
        logger.info("Calling checkpoint listeners %s saving checkpoint %d...", when, step)
