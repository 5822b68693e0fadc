"""tf.contrib.tpu's names that run without a TPU, in a TF1 graph."""
import numpy as np


def case_bfloat16_scope(tf):
    with tf.contrib.tpu.bfloat16_scope() as scope:
        x = tf.cast(tf.constant(np.arange(12, dtype=np.float32).reshape([1, 2, 2, 3])),
                    tf.bfloat16)
        y = tf.layers.conv2d(x, 2, 1, kernel_initializer=tf.constant_initializer(0.5),
                             name="conv")
        z = tf.layers.dense(tf.layers.flatten(y), 2,
                            kernel_initializer=tf.constant_initializer(0.25), name="dense")
        w = tf.get_variable("w", [2], dtype=tf.bfloat16,
                            initializer=tf.constant_initializer(1.5))
    assert z.dtype == tf.bfloat16 and w.dtype == tf.bfloat16
    return {"scope": scope.name, "z": tf.cast(z, tf.float32), "w": tf.cast(w, tf.float32)}


def case_outside_compilation_repeat_while_loop(tf):
    x = tf.constant(3.0)
    y = tf.contrib.tpu.outside_compilation(lambda a, b: a * b + 1, x, 2.0)
    r = tf.contrib.tpu.repeat(4, lambda a: a * 2.0, [x])
    w = tf.contrib.tpu.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + 1.0), [0, x])
    return {"outside": y, "repeat": r, "while": w, "core": tf.contrib.tpu.core(3)}


def case_async_checkpoint_hook_is_a_checkpoint_saver(tf):
    hook = tf.contrib.tpu.AsyncCheckpointSaverHook("/tmp/ckpt", save_steps=10)
    return {"is_saver": isinstance(hook, tf.train.CheckpointSaverHook)}

