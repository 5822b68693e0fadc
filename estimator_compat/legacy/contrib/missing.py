"""What the parts of `tf.contrib` that estimator_compat does not serve became in TensorFlow 2.

An unknown `tf.contrib.<name>` raises an error naming its replacement from this table.
"""
REPLACEMENTS = {
    "slim": "the tf_slim package (pip install tf-slim; import tf_slim as slim)",
    "rnn": "tf.keras.layers.LSTMCell / GRUCell / RNN (estimator_compat serves the TF1 cells)",
    "cudnn_rnn": "tf.keras.layers.LSTM / GRU (cuDNN kernels are used automatically)",
    "seq2seq": "keras_nlp / keras_hub decoders (tensorflow_addons.seq2seq is archived)",
    "crf": "a CRF layer of your own on tf.math (tensorflow_addons.text.crf is archived)",
    "framework": "tf.compat.v1.train / tf.compat.v1 (arg_scope: the tf_slim package)",
    "distributions": "tensorflow_probability.distributions",
    "bayesflow": "tensorflow_probability",
    "summary": "tf.summary (TF2) or tf.compat.v1.summary",
    "image": "tf.image (and tensorflow_addons.image, archived)",
    "losses": "tf.compat.v1.losses or tf.keras.losses",
    "opt": "tf.keras.optimizers (AdamW, Lion, ...) or the tf.compat.v1.train optimizers",
    "keras": "tf.keras",
    "predictor": "tf.saved_model.load(export_dir).signatures['serving_default']",
    "quantize": "tensorflow_model_optimization",
    "eager": "tf (eager execution is the default in TensorFlow 2)",
    "mixed_precision": "tf.keras.mixed_precision",
    "distribute": "tf.distribute",
    "nccl": "tf.distribute.MirroredStrategy (NCCL all-reduce)",
    "tensorboard": "tf.summary and TensorBoard's plugins",
    "util": "tf.make_ndarray / tf.make_tensor_proto",
    "staging": "tf.data prefetching (Dataset.prefetch)",
    "stat_summarizer": "the TensorFlow profiler (tf.profiler.experimental)",
    "factorization": "tf.compat.v1.estimator.experimental.KMeans, or your own on tf.math",
    "feature_column": "tf.feature_column",
    "input_pipeline": "tf.data",
    "graph_editor": "tf.function and tf.compat.v1.wrap_function's prune",
    "deprecated": "tf.summary",
    "hooks": "tf.compat.v1.train hooks (tf.estimator.*Hook)",
    "checkpoint": "tf.train.Checkpoint",
    "compiler": "tf.function(jit_compile=True)",
    "boosted_trees": "TensorFlow Decision Forests (tensorflow_decision_forests)",
    "timeseries": "tf.keras models on tf.data windows",
    "text": "tensorflow_text",
    "tfprof": "tf.profiler.experimental",
    "layers.conv2d": "tf.compat.v1.layers.conv2d",
    "layers.batch_norm": "tf.compat.v1.layers.batch_normalization",
    "layers.embed_sequence": "tf.nn.embedding_lookup on a tf.compat.v1.get_variable",
    "layers.flatten": "tf.compat.v1.layers.flatten",
    "layers.dropout": "tf.compat.v1.layers.dropout",
    "layers.optimize_loss": "an optimizer's minimize() with tf.compat.v1.train.get_global_step()",
    "layers.summarize_activation": "tf.compat.v1.summary.histogram",
    "layers.real_valued_column": "tf.feature_column.numeric_column (a key, shape=...)",
    "layers.sparse_column_with_keys":
        "tf.feature_column.categorical_column_with_vocabulary_list",
    "layers.sparse_column_with_hash_bucket":
        "tf.feature_column.categorical_column_with_hash_bucket",
    "layers.sparse_column_with_integerized_feature":
        "tf.feature_column.categorical_column_with_identity",
    "layers.embedding_column": "tf.feature_column.embedding_column",
    "layers.one_hot_column": "tf.feature_column.indicator_column",
    "layers.bucketized_column": "tf.feature_column.bucketized_column",
    "layers.crossed_column": "tf.feature_column.crossed_column",
    "layers.input_from_feature_columns": "tf.compat.v1.feature_column.input_layer",
    "learn.infer_real_valued_columns_from_input":
        "a tf.feature_column.numeric_column per input feature",
    "learn.SKCompat": "the Estimator's own fit/evaluate/predict with an input_fn",
    "data.shuffle_and_repeat": "dataset.shuffle(buffer_size).repeat(count)",
    "data.batch_and_drop_remainder": "dataset.batch(batch_size, drop_remainder=True)",
    "data.TFRecordDataset": "tf.data.TFRecordDataset",
    "training.bucket_by_sequence_length": "tf.data.Dataset.bucket_by_sequence_length",
    "training.HParams": "estimator_compat serves it; this message should not appear",
    "tpu.TPUDistributionStrategy": "tf.distribute.TPUStrategy",
    "tpu.keras_to_tpu_model": "tf.distribute.TPUStrategy with a Keras model",
    "opt.AdamWOptimizer": "tf.keras.optimizers.AdamW",
    "opt.LazyAdamOptimizer": "tf.compat.v1.train.AdamOptimizer (dense updates)",
    "opt.MovingAverageOptimizer": "tf.train.ExponentialMovingAverage",
    "metrics.f1_score": "tf.keras.metrics.F1Score, or precision and recall from tf.compat.v1.metrics",
}


def message(dotted):
    """The error text for `tf.contrib.<dotted>`, naming the TF2 replacement where one is known."""
    replacement = REPLACEMENTS.get(dotted) or REPLACEMENTS.get(dotted.split(".")[0])
    text = f"tf.contrib.{dotted} is not provided by TensorFlow 2 nor by estimator_compat"
    if replacement:
        return f"{text}; in TensorFlow 2 use {replacement}."
    return f"{text} (tf.contrib was removed in TensorFlow 2.0)."
