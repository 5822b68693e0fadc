"""`RunConfig(train_distribute=tf.distribute.ParameterServerStrategy(resolver,
variable_partitioner=...))` given explicitly, in one process: the workers and ps tasks are
in-process servers (as TensorFlow's own tests make them), no TF_CONFIG.

    python explicit_strategy.py MODEL_DIR STEPS_PER_EXECUTION
"""
import socket
import sys

import numpy as np
import tensorflow as tf

import estimator_compat as ec

v1 = tf.compat.v1


def free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def local_cluster(workers, ps):
    ports = iter(free_ports(1 + workers + ps))
    jobs = {"chief": 1, "worker": workers, "ps": ps}
    cluster = tf.train.ClusterSpec({job: [f"localhost:{next(ports)}" for _ in range(n)]
                                    for job, n in jobs.items()})
    threads = tf.compat.v1.ConfigProto(inter_op_parallelism_threads=16)  # no deadlock in
    servers = [tf.distribute.Server(cluster, job_name=job, task_index=i, protocol="grpc",
                                    config=threads, start=True)  # one process
               for job in ("worker", "ps") for i in range(jobs[job])]
    return cluster, servers


def model_fn(features, labels, mode, params):
    embeddings = v1.get_variable("embeddings", [20, 3])
    pooled = tf.reduce_sum(tf.nn.embedding_lookup(embeddings, features["id"]), axis=1)
    weights = v1.get_variable("weights", [3, 1])
    predictions = tf.matmul(pooled, weights)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions=predictions)
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = v1.train.AdagradOptimizer(0.1).minimize(
        loss, global_step=v1.train.get_or_create_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    ids = np.random.RandomState(0).randint(0, 20, size=(256, 2))
    targets = (ids.sum(axis=1, keepdims=True) / 20.0).astype(np.float32)
    return tf.data.Dataset.from_tensor_slices(({"id": ids}, targets)).repeat().batch(16)


class Placement(tf.compat.v1.train.SessionRunHook):
    def begin(self):
        for var in tf.compat.v1.global_variables():
            print("placed %s on %s" % (var.name, var.device))


def main(model_dir, steps_per_execution):
    cluster, _ = local_cluster(workers=2, ps=2)
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(cluster, rpc_layer="grpc")
    strategy = tf.distribute.ParameterServerStrategy(
        resolver, variable_partitioner=tf.distribute.experimental.partitioners.
        FixedShardsPartitioner(2))
    config = ec.RunConfig(model_dir=model_dir, train_distribute=strategy,
                          steps_per_execution=steps_per_execution, save_checkpoints_steps=50,
                          tf_random_seed=7)
    estimator = ec.Estimator(model_fn, config=config)
    estimator.train(input_fn, max_steps=100, hooks=[Placement()])
    result = estimator.evaluate(lambda: input_fn().take(4))
    print("loss = %.6f, global_step = %d" % (result["loss"], result["global_step"]))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
