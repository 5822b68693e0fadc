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
    "factorization.GMM": ("tfp.distributions.MixtureSameFamily fit by an EM loop of your "
                          "own, or sklearn.mixture.GaussianMixture (not served)"),
    "factorization.GmmAlgorithm": ("tfp.distributions.MixtureSameFamily fit by an EM loop "
                                   "of your own, or sklearn.mixture.GaussianMixture"),
    "factorization.gmm": ("tfp.distributions.MixtureSameFamily fit by an EM loop of your "
                          "own, or sklearn.mixture.GaussianMixture (not served)"),
    "factorization.WALSMatrixFactorization": ("alternating least squares of your own on "
                                              "tf.linalg.solve in a model_fn (the WALS "
                                              "kernel is gone from TensorFlow 2)"),
    "learn.binary_svm_head": "tf.estimator.BinaryClassHead(loss_fn=...) with a hinge loss (tf.compat.v1.losses.hinge_loss)",
    "learn.head.binary_svm_head": "tf.estimator.BinaryClassHead(loss_fn=...) with a hinge loss (tf.compat.v1.losses.hinge_loss)",
    "learn.head.multi_head": "tf.estimator.MultiHead",
    "learn.multi_head": "tf.estimator.MultiHead",
    "learn.LinearEstimator": "tf.estimator.LinearEstimator(head=tf.estimator.*Head(...)) (contrib.learn's estimators taking a head are not served)",
    "learn.DNNEstimator": "tf.estimator.DNNEstimator(head=tf.estimator.*Head(...)) (contrib.learn's estimators taking a head are not served)",
    "learn.DNNLinearCombinedEstimator": "tf.estimator.DNNLinearCombinedEstimator(head=tf.estimator.*Head(...)) (contrib.learn's estimators taking a head are not served)",
    "learn.DynamicRnnEstimator": "tf.contrib.estimator.RNNClassifier / RNNEstimator (served by estimator_compat on sequence feature columns) or a Keras RNN model",
    "learn.SVM": "tf.estimator.LinearClassifier(optimizer=tf.estimator.experimental.LinearSDCA(...)) (logistic loss; contrib's hinge-loss SDCA SVM is not served)",
    "data.TFRecordDataset": "tf.data.TFRecordDataset",
    "data.LMDBDataset": "the lmdb package read from a Python generator (tf.data.Dataset.from_generator); TensorFlow 2's LMDB kernel was removed",
    "data.CheckpointInputPipelineHook": "tf.train.Checkpoint(iterator=...) in a loop of your own (estimator_compat does not checkpoint the input's position; an input_fn may skip() what was read)",
    "estimator.replicate_model_fn": "tf.distribute.MirroredStrategy in RunConfig(train_distribute=...) (tower replication was replaced by tf.distribute)",
    "estimator.TowerOptimizer": "tf.distribute.MirroredStrategy in RunConfig(train_distribute=...) with a plain optimizer",
    "estimator.DNNClassifierWithLayerAnnotations": "tf.compat.v1.estimator.DNNClassifier (the layer annotations fed a Google-internal tool)",
    "estimator.DNNRegressorWithLayerAnnotations": "tf.compat.v1.estimator.DNNRegressor (the layer annotations fed a Google-internal tool)",
    "estimator.SavedModelEstimator": "tf.saved_model.load(export_dir) for inference, or an Estimator on the model_dir the SavedModel came from",
    "estimator.RNNClassifier": "tf.estimator.experimental.RNNClassifier(units=...) (its checkpoints name variables differently from contrib's)",
    "estimator.RNNEstimator": "tf.estimator.experimental.RNNEstimator(head, units=...) (its checkpoints name variables differently from contrib's)",
    "training.stratified_sample": "tf.data: Dataset.rejection_resample(class_func, target_dist) then batch()",
    "training.rejection_sample": "tf.data: Dataset.filter(lambda x: tf.random.uniform([]) < accept_prob_fn(x)) then batch()",
    "training.resample_at_rate": "tf.data: Dataset.flat_map(lambda x: Dataset.from_tensors(x).repeat(tf.random.poisson([], rate)))",
    "training.weighted_resample": "tf.data: Dataset.rejection_resample, or repeat each element by tf.random.poisson of its weight",
    "training.batch_sequences_with_states": "tf.keras.layers.RNN(stateful=True) over tf.data windows (Dataset.window / batch) of each sequence",
    "training.SequenceQueueingStateSaver": "tf.keras.layers.RNN(stateful=True) over tf.data windows of each sequence",
    "training.NextQueuedSequenceBatch": "tf.keras.layers.RNN(stateful=True) over tf.data windows of each sequence",
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
    "tpu.profiler": "tf.profiler.experimental.client.trace(service_addr, logdir, duration_ms) (needs a TPU)",
    **{f"opt.{name}": "tf.distribute (MultiWorkerMirroredStrategy or ParameterServerStrategy) "
       "with a tf.compat.v1.train optimizer: between-graph replicas averaging worker-local "
       "variables through parameter servers are not served" for name in (
           "AGNOptimizer", "AGNCustomGetter", "ElasticAverageOptimizer",
           "ElasticAverageCustomGetter", "ModelAverageOptimizer", "ModelAverageCustomGetter")},
    "losses.metric_learning.cluster_loss": "triplet_semihard_loss or lifted_struct_loss here "
                                           "(cluster_loss needed scikit-learn's clustering "
                                           "metrics and is not served)",
    "image.single_image_random_dot_stereograms": "no TensorFlow 2 op (TF 1.15's custom kernel "
                                                  "drawing autostereograms was removed)",
    "opt.GGTOptimizer": "tf.keras.optimizers.Adam (GGT's windowed full-matrix preconditioner "
                        "has no TensorFlow 2 port)",
    "opt.ShampooOptimizer": "tf.keras.optimizers.Adafactor, or google-research's "
                            "scalable_shampoo (Shampoo's preconditioners are not served)",
    "distribute.MultiWorkerAllReduce": "tf.distribute.MultiWorkerMirroredStrategy (its collective all-reduce across workers replaced the all-reduce spec class, which TensorFlow 2 removed)",
    "checkpoint.split_dependency": "a tf.train.experimental.PythonState, or a Trackable overriding _serialize_to_tensors / _restore_from_tensors (TensorFlow 2's saveable API replaced the split-buffer SaveableObjects it built)",
    "saved_model.save_keras_model": "model.save('model.keras') to reload it as a Keras model, and model.export(export_dir) for a serving SavedModel (Keras 3 cannot rebuild a Keras model from a SavedModel)",
    "saved_model.load_keras_model": "keras.models.load_model('model.keras') (Keras 3 cannot rebuild a Keras model from a SavedModel; tf.saved_model.load(export_dir) serves one for inference)",
    "distribute.UpdateContext": "strategy.extended.update(var, fn) (the update context is internal to tf.distribute; TensorFlow 2's takes a replica id, not TF 1.15's device)",
}


def message(dotted):
    """The error text for `tf.contrib.<dotted>`, naming the TF2 replacement where one is known."""
    replacement = REPLACEMENTS.get(dotted) or REPLACEMENTS.get(dotted.split(".")[0])
    text = f"tf.contrib.{dotted} is not provided by TensorFlow 2 nor by estimator_compat"
    if replacement:
        return f"{text}; in TensorFlow 2 use {replacement}."
    return f"{text} (tf.contrib was removed in TensorFlow 2.0)."
