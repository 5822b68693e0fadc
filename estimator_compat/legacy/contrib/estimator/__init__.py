"""`tf.contrib.estimator`: TF 1.15's estimator extensions. Where each name lives:

- the heads (`binary_classification_head`, `multi_class_head`, `multi_label_head`,
  `regression_head`, `poisson_regression_head`, `logistic_regression_head`, `multi_head`):
  `heads.py`, TF1 head objects over `canned/heads/`;
- `forward_features`, `clip_gradients_by_norm`: `extenders.py`; `add_metrics`:
  `canned/extenders.py`;
- `export_saved_model_for_mode`, `export_all_saved_models`, the supervised receiver builders:
  `export.py`;
- `call_logit_fn`, `dnn_logit_fn_builder`, `linear_logit_fn_builder`: `logit_fns.py` (over
  `canned/logit_fns.py`, the layers in the caller's variable scope as TF 1.15 named them);
- the early-stopping hooks and `InMemoryEvaluatorHook`: `experimental.py`; the boosted-trees
  in-memory trainers: `canned/boosted_trees`;
- `RNNClassifier`, `RNNEstimator`: `rnn.py` (contrib's TF1 model: `dynamic_rnn` over TF1 cells,
  contrib's checkpoint names, not `tf.estimator.experimental`'s Keras RNN);
- `DNNClassifierWithLayerAnnotations`, `DNNRegressorWithLayerAnnotations`:
  `layer_annotations.py` (tf.compat.v1.estimator's DNNs recording the input layer's
  annotations in graph collections).

- `SavedModelEstimator`: `saved_model_estimator.py` (each mode's MetaGraph of the SavedModel
  imported into its traced step, `engine/mode_graph_import.py`).

- `replicate_model_fn` / `TowerOptimizer`: `replicate.py` (one device, run as TF 1.15 did).
"""
import importlib

from estimator_compat.legacy.namespaces import namespace


def build():
    from estimator_compat import experimental
    from estimator_compat.canned import boosted_trees, extenders as canned_extenders
    from estimator_compat.legacy.contrib.estimator import (
        export, extenders, heads, layer_annotations, logit_fns, rnn, saved_model_estimator)
    names = {n: getattr(experimental, n) for n in (
        "stop_if_higher_hook", "stop_if_lower_hook", "stop_if_no_increase_hook",
        "stop_if_no_decrease_hook", "make_early_stopping_hook", "InMemoryEvaluatorHook")}
    names.update({n: getattr(boosted_trees, n) for n in (
        "boosted_trees_classifier_train_in_memory", "boosted_trees_regressor_train_in_memory")})
    names.update({n: getattr(heads, n) for n in (
        "binary_classification_head", "multi_class_head", "multi_label_head",
        "regression_head", "poisson_regression_head", "logistic_regression_head",
        "multi_head")})
    names.update({n: getattr(logit_fns, n) for n in (
        "call_logit_fn", "dnn_logit_fn_builder", "linear_logit_fn_builder")})
    names.update({n: getattr(export, n) for n in (
        "export_saved_model_for_mode", "export_all_saved_models",
        "build_raw_supervised_input_receiver_fn",
        "build_supervised_input_receiver_fn_from_input_fn")})
    names.update(forward_features=extenders.forward_features,
                 clip_gradients_by_norm=extenders.clip_gradients_by_norm,
                 add_metrics=canned_extenders.add_metrics,
                 RNNClassifier=rnn.RNNClassifier, RNNEstimator=rnn.RNNEstimator,
                 SavedModelEstimator=saved_model_estimator.SavedModelEstimator,
                 **{n: getattr(layer_annotations, n) for n in (
                     "DNNClassifierWithLayerAnnotations", "DNNRegressorWithLayerAnnotations")})
    names.update(importlib.import_module(__name__ + ".replicate").NAMES)
    return namespace("tensorflow.contrib.estimator", "tf.contrib.estimator (heads, extenders, "
                     "exports, early stopping, in-memory boosted trees)",
                     __served_whole__=True, **names)
