"""Unit tests of optimization.py in the shape of BERT's own optimization_test.py (TF 1.x).

A variable, a loss, `tf.gradients`, AdamWeightDecayOptimizer's apply_gradients and a hundred
`sess.run(train_op)` in a tf.test.TestCase session; then create_optimizer's whole train op
(warmup, polynomial decay, clipping, the global step it advances).
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import optimization
import tensorflow as tf


class OptimizationTest(tf.test.TestCase):

    def test_adam(self):
        with self.test_session() as sess:
            w = tf.get_variable("w", shape=[3],
                                initializer=tf.constant_initializer([0.1, -0.2, -0.1]))
            x = tf.constant([0.4, 0.2, -0.5])
            loss = tf.reduce_mean(tf.square(x - w))
            tvars = tf.trainable_variables()
            grads = tf.gradients(loss, tvars)
            global_step = tf.train.get_or_create_global_step()
            optimizer = optimization.AdamWeightDecayOptimizer(learning_rate=0.2)
            train_op = optimizer.apply_gradients(zip(grads, tvars), global_step)
            init_op = tf.group(tf.global_variables_initializer(),
                               tf.local_variables_initializer())
            sess.run(init_op)
            for _ in range(100):
                sess.run(train_op)
            w_np = sess.run(w)
            self.assertAllClose(w_np.flat, [0.4, 0.2, -0.5], rtol=1e-2, atol=1e-2)
            print("ADAM W %s" % " ".join("%.6f" % v for v in w_np.flat))

    def test_create_optimizer(self):
        with self.test_session() as sess:
            w = tf.get_variable("w", shape=[2, 2], initializer=tf.ones_initializer())
            bias = tf.get_variable("output_bias", shape=[2], initializer=tf.zeros_initializer())
            x = tf.placeholder(tf.float32, shape=[None, 2])
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + bias - 1.0))
            train_op = optimization.create_optimizer(loss, init_lr=0.1, num_train_steps=20,
                                                     num_warmup_steps=5, use_tpu=False)
            sess.run(tf.global_variables_initializer())
            feed = {x: [[1.0, 0.0], [0.5, 0.5]]}
            for _ in range(20):
                sess.run(train_op, feed_dict=feed)
            step, final_loss = sess.run([tf.train.get_global_step(), loss], feed_dict=feed)
            self.assertEqual(step, 20)
            self.assertLess(final_loss, 0.5)
            slots = sorted(v.name for v in tf.global_variables() if "adam_" in v.name)
            self.assertEqual(slots, ["output_bias/adam_m:0", "output_bias/adam_v:0",
                                     "w/adam_m:0", "w/adam_v:0"])
            print("CREATE_OPTIMIZER step %d loss %.6f" % (step, final_loss))


if __name__ == "__main__":
    tf.test.main()
