"""`tf.contrib.ffmpeg`, served whole as declined names: TensorFlow 2 removed the ops that ran
the ffmpeg binary, so decode_audio / decode_video / encode_audio raise the error naming what to
use (`missing.REPLACEMENTS`: tf.audio for WAV, tensorflow-io or ffmpeg itself otherwise)."""
from estimator_compat.legacy.namespaces import namespace


def build():
    return namespace("tensorflow.contrib.ffmpeg", "tf.contrib.ffmpeg (declined: no ffmpeg ops)",
                     __served_whole__=True)
