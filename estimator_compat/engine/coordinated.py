"""Steps scheduled on a parameter-server cluster's workers by a `ClusterCoordinator`.

The chief traces each step as on one machine (its variables live on the ps tasks), then
schedules compiled calls on the workers, each on that worker's own pipeline of the input_fn.
A train call runs up to `steps_per_execution` steps on each worker at once (asynchronously, as
tf.estimator's between-graph workers trained) and waits for all of them; hooks see the last
worker call's values. A worker that fails is retried by the coordinator on another worker.
"""
import tensorflow as tf
from tensorflow.python.distribute.coordinator import cluster_coordinator


def coordinator_for(strategy):
    """The strategy's ClusterCoordinator (one per strategy)."""
    return tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)


def per_worker_iterator(coordinator, strategy, build, takes_input_context):
    """An iterator per worker over the input_fn's dataset, built on each worker: one pipeline
    per worker, sharded by an input_fn that takes `input_context`, else the whole input (as
    each between-graph worker of tf.estimator ran the input_fn itself)."""
    if takes_input_context:
        def dataset_fn():
            return strategy.distribute_datasets_from_function(build)
    else:
        def dataset_fn():
            return build()
    return iter(coordinator.create_per_worker_dataset(dataset_fn))


def trace(function, iterator, strategy):
    """Traces `function` for the workers (as `schedule` will), creating the variables, without
    running it: a per-worker iterator is traced as its type spec."""
    first = cluster_coordinator._select_worker_slice(0, iterator)
    strategy.extended._being_scheduled = True  # as schedule() sets it: no "run outside
    try:  # the coordinator" warning for this trace
        function.get_concrete_function(cluster_coordinator._maybe_as_type_spec(first))
    finally:
        strategy.extended._being_scheduled = False


def number_of_workers(strategy):
    return strategy.extended._num_workers


def run(coordinator, one, several, iterator, steps, steps_per_execution):
    """Schedules `steps` steps as worker calls of at most `steps_per_execution` steps (one per
    worker at most), waits for them; the last call's outputs, with "steps": how many ran and
    "summaries": the train summaries the calls returned. OutOfRangeError where an input ended."""
    calls = []
    left = steps
    while left > 0:
        n = min(steps_per_execution, left)
        if n == 1 or several is None:
            calls.append(coordinator.schedule(one, args=(iterator,)))
            n = 1
        else:
            calls.append(coordinator.schedule(several, args=(iterator, tf.constant(n, tf.int32))))
        left -= n
    coordinator.join()
    outs = [call.fetch() for call in calls]
    last = max(outs, key=lambda out: int(out["global_step"]))
    result = dict(last, steps=sum(int(out.get("steps", 1)) for out in outs))
    result["summaries"] = sorted((int(out["global_step"]), out["summary"]) for out in outs
                                 if out.get("summary"))
    return result


def first_per_period(summaries, every, last_period):
    """Workers step asynchronously, so several may find the same period's summary due (each
    records while global_step is within a window after a multiple of save_summary_steps):
    the first of each period is written. Returns (to write, the last period written)."""
    kept = []
    for step, proto in summaries:
        if step // every > last_period:
            kept.append((step, proto))
            last_period = step // every
    return kept, last_period
