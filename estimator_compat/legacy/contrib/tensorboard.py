"""`tf.contrib.tensorboard`, served whole: `plugins.projector`, the Embedding Projector's config
protos (TensorBoard's own, `tensorboard.plugins.projector`) and `visualize_embeddings`, which
writes `projector_config.pbtxt` into a summary writer's logdir as TF 1.15's did."""
import __future__
import os

import tensorflow as tf
from google.protobuf import text_format

from estimator_compat.legacy.namespaces import namespace

_FUTURE = dict(absolute_import=__future__.absolute_import, division=__future__.division,
               print_function=__future__.print_function)


def visualize_embeddings(summary_writer, config):
    """Write `config` (a ProjectorConfig) as text to <writer's logdir>/projector_config.pbtxt."""
    logdir = summary_writer.get_logdir()
    if logdir is None:
        raise ValueError("Summary writer must have a logdir")
    with tf.io.gfile.GFile(os.path.join(logdir, "projector_config.pbtxt"), "w") as f:
        f.write(text_format.MessageToString(config))


def build():
    from tensorboard.plugins.projector import projector_config_pb2 as pb2
    protos = dict(DESCRIPTOR=pb2.DESCRIPTOR, EmbeddingInfo=pb2.EmbeddingInfo,
                  ProjectorConfig=pb2.ProjectorConfig, SpriteMetadata=pb2.SpriteMetadata)
    base = "tensorflow.contrib.tensorboard.plugins"
    config_pb2 = namespace(base + ".projector.projector_config_pb2",
                           "the projector's config protos (TensorBoard's)", **protos)
    projector = namespace(base + ".projector", "tf.contrib.tensorboard.plugins.projector",
                          **_FUTURE, **protos, projector_config_pb2=config_pb2,
                          visualize_embeddings=visualize_embeddings)
    plugins = namespace(base, "tf.contrib.tensorboard.plugins", **_FUTURE, projector=projector)
    return namespace("tensorflow.contrib.tensorboard", "tf.contrib.tensorboard",
                     __served_whole__=True, **_FUTURE, plugins=plugins)
