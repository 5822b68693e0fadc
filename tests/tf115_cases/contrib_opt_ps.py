"""tf.contrib.opt's parameter-server averaging optimizers, on a local cluster of in-process
servers (one ps, two workers, started once per process): each case builds its own graph the way
their docs did (`replica_device_setter` + the custom getter, the optimizer on the worker), trains
a quadratic from constant values in a `MonitoredTrainingSession` with the optimizer's hook, and
returns the variables' names, devices and collections and every variable's value after each
step (the harness's own session and graph stay empty)."""
import socket
import threading

import numpy as np

_CLUSTER = {}
_RUNS = []
TARGET = np.array([3.0, 1.0], np.float32)


def _port():
    s = socket.socket()
    s.bind(("localhost", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _cluster(tf):
    """(cluster spec, {task: server}) of the process's local cluster; servers never stop."""
    if not _CLUSTER:
        spec = tf.train.ClusterSpec({"ps": ["localhost:%d" % _port()],
                                     "worker": ["localhost:%d" % _port(),
                                                "localhost:%d" % _port()]})
        _CLUSTER["spec"] = spec
        _CLUSTER["ps"] = tf.train.Server(spec, job_name="ps", task_index=0, start=True)
        for i in range(2):
            _CLUSTER[i] = tf.train.Server(spec, job_name="worker", task_index=i, start=True)
    return _CLUSTER["spec"], _CLUSTER


def _model(tf, getter, task=0, target=TARGET):
    spec, _ = _cluster(tf)
    worker = "/job:worker/task:%d" % task
    with tf.device(tf.train.replica_device_setter(worker_device=worker, ps_device="/job:ps",
                                                  cluster=spec)), \
            tf.variable_scope("", custom_getter=getter):
        step = tf.train.get_or_create_global_step()
        w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        with tf.variable_scope("dense"):
            b = tf.get_variable("b", initializer=tf.constant(0.5))
        loss = tf.reduce_sum(tf.square(w - target)) + tf.square(b)
    return step, loss


def _layout(tf):
    graph = tf.get_default_graph()
    keys = ("variables", "local_variables", "trainable_variables", "model_variables")
    out = {k: [v.op.name for v in graph.get_collection(k)] for k in keys}
    out["devices"] = {v.op.name: v.device for v in tf.global_variables() + tf.local_variables()}
    return out


def _train(tf, train_op, hook, loss, steps=5, task=0, is_chief=True, started=None):
    _, servers = _cluster(tf)
    out = {}
    variables = tf.global_variables() + tf.local_variables()
    config = tf.ConfigProto(operation_timeout_in_ms=60000)  # a stuck barrier fails, not hangs
    with tf.train.MonitoredTrainingSession(master=servers[task].target, is_chief=is_chief,
                                           hooks=[hook], config=config) as sess:
        out["initial"] = sess.run({v.op.name: v for v in variables})
        if started is not None:
            started.set()
        for i in range(steps):
            sess.run(train_op)
            out["step%d" % i] = sess.run({v.op.name: v for v in variables})
        out["loss"] = sess.run(loss)
    return out


def _container(name):
    """A container of the servers' own for each run of a case: its variables, queues and
    accumulators start afresh (names: letters and digits)."""
    _RUNS.append(name)
    return "%s%d" % (name.replace("_", ""), len(_RUNS))


def _own_graph(tf, build, name):
    """The case runs in a graph of its own (the harness's session cannot reach the cluster),
    in a container of its own on the servers."""
    def run(unused_sess):
        with tf.Graph().as_default(), tf.container(_container(name)):
            return build()
    return run


def case_elastic_average(tf):
    def build():
        getter = tf.contrib.opt.ElasticAverageCustomGetter("/job:worker/task:0")
        step, loss = _model(tf, getter)
        with tf.device("/job:worker/task:0"):
            opt = tf.contrib.opt.ElasticAverageOptimizer(
                tf.train.MomentumOptimizer(0.1, 0.5), num_worker=1, ea_custom_getter=getter,
                communication_period=2, moving_rate=0.5)
            train_op = opt.minimize(loss, global_step=step)
        hook = opt.make_session_run_hook(True, 0)
        out = _layout(tf)
        out.update(_train(tf, train_op, hook, loss))
        return out
    return _own_graph(tf, build, "elastic_average")


def case_elastic_average_defaults(tf):
    """moving_rate = 0.9 / period / num_worker, rho = moving_rate / learning_rate; a worker
    trains on while the other one is away (asynchronous)."""
    def build():
        getter = tf.contrib.opt.ElasticAverageCustomGetter("/job:worker/task:1")
        step, loss = _model(tf, getter, task=1)
        with tf.device("/job:worker/task:1"):
            opt = tf.contrib.opt.ElasticAverageOptimizer(
                tf.train.GradientDescentOptimizer(0.05), num_worker=2, ea_custom_getter=getter,
                communication_period=3)
            train_op = opt.minimize(loss, global_step=step)
        out = {"moving_rate": float(opt._moving_rate), "rho": float(opt._rho)}
        out.update(_train(tf, train_op, opt.make_session_run_hook(True, 1), loss, steps=6,
                          task=1))
        return out
    return _own_graph(tf, build, "elastic_average_defaults")


def case_elastic_average_synchronous(tf):
    """synchronous=True: the init op also passes a token barrier between the workers."""
    def build():
        getter = tf.contrib.opt.ElasticAverageCustomGetter("/job:worker/task:0")
        step, loss = _model(tf, getter)
        with tf.device("/job:worker/task:0"):
            opt = tf.contrib.opt.ElasticAverageOptimizer(
                tf.train.GradientDescentOptimizer(0.1), num_worker=1, ea_custom_getter=getter,
                communication_period=1, moving_rate=0.25, rho=0.0, synchronous=True)
            train_op = opt.minimize(loss, global_step=step)
        return _train(tf, train_op, opt.make_session_run_hook(True, 0), loss, steps=2)
    return _own_graph(tf, build, "elastic_average_synchronous")


def case_elastic_average_getter_placement(tf):
    """Non-trainable variables: a local one goes to the worker, others stay where the device
    setter puts them; a reused name returns the local variable."""
    def build():
        getter = tf.contrib.opt.ElasticAverageCustomGetter("/job:worker/task:0")
        spec, _ = _cluster(tf)
        with tf.device(tf.train.replica_device_setter(
                worker_device="/job:worker/task:0", ps_device="/job:ps", cluster=spec)), \
                tf.variable_scope("", custom_getter=getter):
            w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
            tf.get_variable("frozen", initializer=tf.constant(3.0), trainable=False,
                            collections=[tf.GraphKeys.GLOBAL_VARIABLES,
                                         tf.GraphKeys.MODEL_VARIABLES])
            tf.get_variable("counter", initializer=tf.constant(4.0), trainable=False,
                            collections=[tf.GraphKeys.LOCAL_VARIABLES])
            with tf.variable_scope("", reuse=True):
                again = tf.get_variable("w")
        out = _layout(tf)
        out["reused"] = again.op.name
        out["same"] = again is w
        return out
    return _own_graph(tf, build, "elastic_average_getter_placement")


def case_elastic_average_swapping_saver(tf):
    def build():
        getter = tf.contrib.opt.ElasticAverageCustomGetter("/job:worker/task:0")
        step, loss = _model(tf, getter)
        with tf.device("/job:worker/task:0"):
            opt = tf.contrib.opt.ElasticAverageOptimizer(
                tf.train.GradientDescentOptimizer(0.1), num_worker=1, ea_custom_getter=getter,
                communication_period=1, moving_rate=0.5)
            opt.minimize(loss, global_step=step)
        saver = opt.swapping_saver()
        pairs = saver._var_list
        return {"saved": {k: v.op.name for k, v in sorted(pairs.items())}}
    return _own_graph(tf, build, "elastic_average_swapping_saver")


def case_model_average(tf):
    def build():
        getter = tf.contrib.opt.ModelAverageCustomGetter("/job:worker/task:0")
        step, loss = _model(tf, getter)
        with tf.device("/job:worker/task:0"):
            opt = tf.contrib.opt.ModelAverageOptimizer(
                tf.train.GradientDescentOptimizer(0.1), num_worker=1, is_chief=True,
                ma_custom_getter=getter, interval_steps=2)
            train_op = opt.minimize(loss, global_step=step)
        hook = opt.make_session_run_hook()
        out = _layout(tf)
        out.update(_train(tf, train_op, hook, loss))
        return out
    return _own_graph(tf, build, "model_average")


def case_model_average_two_workers(tf):
    """Both workers on threads, each in its own graph, pulled to different targets: every
    second local step the chief writes the two workers' mean into the global copies. The other
    worker starts once the chief has initialized the ps (else it polls every 30 s)."""
    chief_ready = threading.Event()
    container = _container("model_average_two_workers")

    def worker(task, results):
        tf.disable_v2_behavior()  # a new thread: TF 1.x's graph mode and variables there too
        if task:
            chief_ready.wait(30)
        with tf.Graph().as_default(), tf.container(container):
            getter = tf.contrib.opt.ModelAverageCustomGetter("/job:worker/task:%d" % task)
            target = TARGET if task == 0 else -TARGET
            step, loss = _model(tf, getter, task=task, target=target)
            with tf.device("/job:worker/task:%d" % task):
                opt = tf.contrib.opt.ModelAverageOptimizer(
                    tf.train.GradientDescentOptimizer(0.1), num_worker=2,
                    is_chief=task == 0, ma_custom_getter=getter, interval_steps=2)
                train_op = opt.minimize(loss, global_step=step)
            results[task] = _train(tf, train_op, opt.make_session_run_hook(), loss, steps=4,
                                   task=task, is_chief=task == 0,
                                   started=chief_ready if task == 0 else None)

    def run(unused_sess):
        results = {}
        threads = [threading.Thread(target=worker, args=(i, results)) for i in (0, 1)]
        for t in threads:
            t.daemon = True  # a stuck barrier must not keep the process alive
            t.start()
        for t in threads:
            t.join(60)
        if len(results) != 2:
            raise RuntimeError("the two workers did not finish: %s" % sorted(results))
        return {"worker%d" % i: {k: results[i][k] for k in ("step1", "step3")}
                for i in (0, 1)}
    return run


def case_model_average_needs_global_step(tf):
    getter = tf.contrib.opt.ModelAverageCustomGetter("/job:worker/task:0")
    with tf.variable_scope("", custom_getter=getter):
        w = tf.get_variable("w", initializer=tf.constant(1.0))
    opt = tf.contrib.opt.ModelAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), 1, True,
                                               getter)
    opt.minimize(w * w)
    return {}


def case_agn(tf):
    def build():
        getter = tf.contrib.opt.AGNCustomGetter("/job:worker/task:0")
        step, loss = _model(tf, getter)
        with tf.device("/job:worker/task:0"):
            opt = tf.contrib.opt.AGNOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                              num_worker=1, custom_getter=getter,
                                              communication_period=2)
            train_op = opt.minimize(loss, global_step=step)
        hook = opt.make_session_run_hook(True, 0)
        out = _layout(tf)
        out.update(_train(tf, train_op, hook, loss))
        return out
    return _own_graph(tf, build, "agn")


def case_agn_momentum(tf):
    """The wrapped optimizer also updates the centre: its slots exist for both copies."""
    def build():
        getter = tf.contrib.opt.AGNCustomGetter("/job:worker/task:0")
        step, loss = _model(tf, getter)
        with tf.device("/job:worker/task:0"):
            opt = tf.contrib.opt.AGNOptimizer(tf.train.MomentumOptimizer(0.1, 0.5),
                                              num_worker=1, custom_getter=getter,
                                              communication_period=3)
            train_op = opt.minimize(loss, global_step=step)
        out = _layout(tf)
        out.update(_train(tf, train_op, opt.make_session_run_hook(True, 0), loss, steps=6))
        return out
    return _own_graph(tf, build, "agn_momentum")
