"""`tf.contrib.signal`, served whole: TF 1.15's contrib.signal was `tf.signal` under its
earlier name, and TensorFlow 2 keeps every function with the same arguments."""
import tensorflow as tf

NAMES = ("frame", "hamming_window", "hann_window", "inverse_stft", "inverse_stft_window_fn",
         "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "overlap_and_add",
         "stft")


def build():
    from estimator_compat.legacy.namespaces import namespace
    functions = {name: getattr(tf.signal, name) for name in NAMES}
    return namespace("tensorflow.contrib.signal", "tf.contrib.signal (tf.signal)",
                     __served_whole__=True, **functions)
