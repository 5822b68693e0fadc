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
    "labeled_tensor": "plain tf.Tensor with your own axis names (labeled_tensor has no TensorFlow 2 successor)",
    "specs": "tf.keras.Sequential or the functional API (specs' model language has no TensorFlow 2 successor)",
    "tensor_forest": "TensorFlow Decision Forests (pip install tensorflow_decision_forests; tfdf.keras.RandomForestModel)",
    "cloud": "tf.io.gfile on gs:// paths for Cloud Storage, and tensorflow-io or the BigQuery / Bigtable Python clients for BigQueryReader and Bigtable",
    "bayesflow": "tensorflow_probability",
    "summary": "tf.summary (TF2) or tf.compat.v1.summary",
    "image": "tf.image (and tensorflow_addons.image, archived)",
    "losses": "tf.compat.v1.losses or tf.keras.losses",
    "opt": "tf.keras.optimizers (AdamW, Lion, ...) or the tf.compat.v1.train optimizers",
    "keras": "tf.keras",
    "predictor": "tf.saved_model.load(export_dir).signatures['serving_default']",
    "quantize": "tensorflow_model_optimization",
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
    "deprecated": "tf.summary",
    "hooks": "tf.compat.v1.train hooks (tf.estimator.*Hook)",
    "checkpoint": "tf.train.Checkpoint",
    "compiler": "tf.function(jit_compile=True)",
    "boosted_trees": "TensorFlow Decision Forests (tensorflow_decision_forests)",
    "timeseries": "tf.keras models on tf.data windows",
    "text": "tensorflow_text",
    "tfprof": "tf.profiler.experimental",
    "data.TFRecordDataset": "tf.data.TFRecordDataset",
    "tpu.TPUDistributionStrategy": "tf.distribute.TPUStrategy",
    "tpu.keras_to_tpu_model": "tf.distribute.TPUStrategy with a Keras model",
    "tpu.rewrite": "tf.distribute.TPUStrategy(resolver).run(fn) (TPU computations need a TPU; off one, call fn directly)",
    "tpu.shard": "tf.distribute.TPUStrategy(resolver).run(fn) (TPU computations need a TPU)",
    "tpu.replicate": "tf.distribute.TPUStrategy(resolver).run(fn) (TPU computations need a TPU)",
    "tpu.batch_parallel": "tf.distribute.TPUStrategy(resolver).run(fn) (TPU computations need a TPU)",
    "tpu.cross_replica_sum": "tf.distribute.get_replica_context().all_reduce('sum', x) (the op needs a TPU)",
    "tpu.initialize_system": "tf.tpu.experimental.initialize_tpu_system(resolver) (needs a TPU)",
    "tpu.shutdown_system": "tf.tpu.experimental.shutdown_tpu_system(resolver) (needs a TPU)",
    "tpu.InfeedQueue": "tf.distribute.TPUStrategy's distributed datasets (infeed needs a TPU)",
    "tpu.infeed_dequeue": "tf.distribute.TPUStrategy's distributed datasets (infeed needs a TPU)",
    "tpu.infeed_dequeue_tuple": "tf.distribute.TPUStrategy's distributed datasets (infeed needs a TPU)",
    "tpu.infeed_enqueue": "tf.distribute.TPUStrategy's distributed datasets (infeed needs a TPU)",
    "tpu.infeed_enqueue_tuple": "tf.distribute.TPUStrategy's distributed datasets (infeed needs a TPU)",
    "tpu.outfeed_dequeue": "values returned from tf.distribute.TPUStrategy.run (outfeed needs a TPU)",
    "tpu.outfeed_dequeue_tuple": "values returned from tf.distribute.TPUStrategy.run (outfeed needs a TPU)",
    "tpu.outfeed_enqueue": "values returned from tf.distribute.TPUStrategy.run (outfeed needs a TPU)",
    "tpu.outfeed_enqueue_tuple": "values returned from tf.distribute.TPUStrategy.run (outfeed needs a TPU)",
    "tpu.Topology": "tf.tpu.experimental.Topology (4-D in TensorFlow 2; TF 1.15's was 3-D), from initialize_tpu_system",
    "tpu.DeviceAssignment": "tf.tpu.experimental.DeviceAssignment (over TensorFlow 2's 4-D Topology)",
    "tpu.device_assignment": "tf.tpu.experimental.DeviceAssignment.build(topology, ...) (TensorFlow 2's 4-D Topology)",
    "losses.metric_learning.cluster_loss": "triplet_semihard_loss or lifted_struct_loss here "
                                           "(cluster_loss needed scikit-learn's clustering "
                                           "metrics and is not served)",
    "image.single_image_random_dot_stereograms": "no TensorFlow 2 op: draw the autostereogram with NumPy from the depth map (TF 1.15's custom kernel was removed; its dot pattern is the kernel's own, which TF 1.15's documented behaviour does not pin down, and TF 1.15's kernel itself aborted on a small output shape tried)",
    "distribute.MultiWorkerAllReduce": "tf.distribute.MultiWorkerMirroredStrategy (its collective all-reduce across workers replaced this class, whose xring / pscpu / nccl-hierarchical algorithms, TF 1.15's tensorflow.python.distribute.all_reduce, TensorFlow 2 removed)",
    "saved_model.save_keras_model": "model.save('model.keras') to reload it as a Keras model, and model.export(export_dir) for a serving SavedModel (Keras 3 cannot rebuild a Keras model from a SavedModel, nor read the tf.keras 2.2 model JSON TF 1.15 wrote in its assets)",
    "saved_model.load_keras_model": "keras.models.load_model('model.keras') (Keras 3 cannot rebuild a Keras model from a SavedModel, nor read the tf.keras 2.2 model JSON in TF 1.15's assets/saved_model.json; tf.saved_model.load(export_dir) serves one for inference)",
    "distribute.UpdateContext": "strategy.extended.update(var, fn) (the update context is internal to tf.distribute; TensorFlow 2's takes a replica id, not TF 1.15's device)",
    "rpc.rpc": "a gRPC client called from Python (grpcio), inside the graph through tf.py_function if it must be (TensorFlow 2 removed the Rpc op)",
    "rpc.try_rpc": "a gRPC client called from Python (grpcio), catching its errors for try_rpc's status codes, inside the graph through tf.py_function if it must be (TensorFlow 2 removed the TryRpc op)",
    "ffmpeg.decode_audio": "tf.audio.decode_wav for WAV files; for MP3 / Ogg / other formats the tensorflow-io package (tfio.audio.decode_mp3 / decode_vorbis / AudioIOTensor) or ffmpeg run from Python (TensorFlow 2 removed the ffmpeg ops)",
    "ffmpeg.encode_audio": "tf.audio.encode_wav for WAV output; for other formats ffmpeg run from Python (TensorFlow 2 removed the ffmpeg ops)",
    "ffmpeg.decode_video": "the tensorflow-io package (tfio.experimental.ffmpeg.decode_video) or ffmpeg / OpenCV run from Python; tf.io.decode_gif for GIFs (TensorFlow 2 removed the ffmpeg ops)",
    "remote_fused_graph.remote_fused_graph_execute": "TensorFlow Lite with its Hexagon delegate (TensorFlow 2 removed the RemoteFusedGraphExecute op that ran a subgraph on a Hexagon DSP)",
}


def message(dotted):
    """The error text for `tf.contrib.<dotted>`, naming the TF2 replacement where one is known."""
    replacement = REPLACEMENTS.get(dotted) or REPLACEMENTS.get(dotted.split(".")[0])
    text = f"tf.contrib.{dotted} is not provided by TensorFlow 2 nor by estimator_compat"
    if replacement:
        return f"{text}; in TensorFlow 2 use {replacement}."
    return f"{text} (tf.contrib was removed in TensorFlow 2.0)."
