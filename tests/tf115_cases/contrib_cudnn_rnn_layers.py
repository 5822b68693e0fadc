"""Our tf.contrib.cudnn_rnn layers, run here only (TF 1.15's need a GPU): with the fixed
weights of contrib_cudnn_rnn.py's compatible-cell cases, loaded by variable order, their
outputs are compared in tests/test_contrib_cudnn_rnn.py with TF 1.15's record of those cells;
their checkpoint keys with TF 1.15's saveable names."""
import os
import tempfile

import numpy as np

from tf115_cases.contrib_cudnn_rnn import _filled, _fixed, _inputs


def case_cudnn_lstm_layer(tf):
    layer = tf.contrib.cudnn_rnn.CudnnLSTM(2, 4)
    out, (h, c) = layer(tf.constant(_inputs(5, 2, 3)), sequence_lengths=[5, 3])
    return _filled(tf, {"out": out, "h0": h[0], "c1": c[1], "h1": h[1]})


def case_cudnn_gru_bidirectional_layer(tf):
    layer = tf.contrib.cudnn_rnn.CudnnGRU(1, 3, direction="bidirectional")
    out, (h,) = layer(tf.constant(_inputs(4, 2, 3)))
    return _filled(tf, {"out": out, "fw": h[0], "bw": h[1]})


def case_checkpoint_keys_and_saveable_restore(tf):
    """The layer's checkpoint keys; a buffer saved through CudnnLSTMSaveable (TF 1.15's way of
    writing canonical weights) restores into the layer's variables."""
    cudnn = tf.contrib.cudnn_rnn
    layer = cudnn.CudnnLSTM(2, 4)
    out, _ = layer(tf.constant(_inputs(5, 2, 3)), sequence_lengths=[5, 3])
    converter = cudnn.CudnnParamsFormatConverterLSTM(2, 4, 3)
    opaque = tf.get_variable("opaque", initializer=converter.tf_canonical_to_opaque(
        [tf.constant(_fixed(v.shape.as_list(), i)) for i, v in enumerate(layer.variables)
         if v.op.name.endswith("kernel")] +
        [tf.constant(_fixed(v.shape.as_list(), i)) for i, v in enumerate(layer.variables)
         if v.op.name.endswith("bias")]))
    saveable = cudnn.CudnnLSTMSaveable(opaque, 2, 4, 3, scope="cudnn_lstm")
    directory = tempfile.mkdtemp()

    def run(sess):
        path = tf.train.Saver([saveable]).save(sess, os.path.join(directory, "buffer"))
        tf.train.Saver(layer.variables).restore(sess, path)
        mine = tf.train.Saver(layer.variables).save(sess, os.path.join(directory, "layer"))
        return {"buffer_keys": sorted(n for n, _ in tf.train.list_variables(path)),
                "layer_keys": sorted(n for n, _ in tf.train.list_variables(mine)),
                "out": sess.run(out),
                "roundtrip": np.concatenate([np.ravel(x) for x in sess.run(
                    converter.opaque_to_tf_canonical(opaque)[0])])}
    return run


def case_layer_called_twice_shares_its_variables(tf):
    layer = tf.contrib.cudnn_rnn.CudnnLSTM(1, 3, dropout=0.5)
    x = tf.constant(_inputs(4, 2, 3))
    train_out, _ = layer(x)
    eval_out, _ = layer(x, training=False)
    again, _ = layer(x, training=False)
    return _filled(tf, {"eval": eval_out, "again": again, "train_shape": tf.shape(train_out)})
