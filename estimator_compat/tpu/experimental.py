"""`tf.compat.v1.estimator.tpu.experimental`."""
from estimator_compat.tpu.embedding_config import EmbeddingConfigSpec  # noqa: F401
