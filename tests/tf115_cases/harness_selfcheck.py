"""Harness self-check cases (tf.contrib.framework's global-step and variable helpers)."""


def case_variables_and_global_step(tf):
    step = tf.train.get_or_create_global_step()
    with tf.variable_scope("block"):
        w = tf.get_variable("w", [2, 3], initializer=tf.constant_initializer(0.5))
    found = tf.contrib.framework.get_variables("block")
    return {"w": w * 2.0, "step": step, "found": len(found),
            "restore": len(tf.contrib.framework.get_variables_to_restore(exclude=["block"]))}


def case_misuse_raises(tf):
    return {"x": tf.contrib.framework.get_variables(scope=3)}
