"""An input_fn that needs TF 1.x's session (an initializable iterator fed by a hook, the
IteratorInitializerHook idiom): its session is closed when the call ends, as TF's
MonitoredSession closed its own. Left open past the call (as in a program saving checkpoints
mid-training), its threads were destroyed at interpreter exit and the
process aborted ("terminate called without an active exception", exit status 134)."""
from helpers import Program

PROGRAM = """
import tempfile
import numpy as np
import tensorflow as tf

class InitHook(tf.train.SessionRunHook):
    def after_create_session(self, session, coord):
        self.initialize(session)

hook = InitHook()
x = np.random.RandomState(0).rand(100, 28, 28, 1).astype(np.float32)
y = (x.sum((1, 2, 3)) > 392).astype(np.uint8)

def input_fn():
    xp, yp = tf.placeholder(x.dtype, x.shape), tf.placeholder(y.dtype, y.shape)
    dataset = tf.data.Dataset.from_tensor_slices((xp, yp)).repeat().shuffle(100).batch(128)
    iterator = dataset.make_initializable_iterator()
    hook.initialize = lambda session: session.run(iterator.initializer, {xp: x, yp: y})
    return iterator.get_next()

def model_fn(features, labels, mode):
    logits = tf.layers.dense(tf.layers.flatten(features), 2)
    loss = tf.losses.sparse_softmax_cross_entropy(tf.cast(labels, tf.int32), logits)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.train.AdamOptimizer().minimize(
        loss, tf.train.get_global_step()))

est = tf.estimator.Estimator(model_fn, tempfile.mkdtemp(),
                             config=tf.estimator.RunConfig(save_checkpoints_steps=10))
est.train(input_fn, hooks=[hook], steps=20)
print("TRAINED", est.get_variable_value("global_step"))
"""


def test_a_tf1_program_with_a_hook_fed_iterator_exits_cleanly(tmp_path):
    """Without the close, this program aborted at exit in 2 runs of 3 here."""
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    out, _ = Program(str(script)).wait()  # fails with the output on a non-zero exit
    assert "TRAINED 20" in out
