"""The tensorflow.org boosted trees tutorials as one program: a Titanic-like CSV through
pandas, one-hot categorical and numeric feature columns, the whole data as each batch,
BoostedTreesClassifier with bias centering, evaluation, gain-based feature importances and
directional feature contributions (which add up to each prediction)."""
import argparse
import json
import os

import numpy as np
import pandas as pd
import tensorflow as tf

CATEGORICAL_COLUMNS = ["sex", "n_siblings_spouses", "parch", "class", "deck", "embark_town",
                       "alone"]
NUMERIC_COLUMNS = ["age", "fare"]


def one_hot_cat_column(feature_name, vocab):
    return tf.feature_column.indicator_column(
        tf.feature_column.categorical_column_with_vocabulary_list(feature_name, vocab))


def make_input_fn(X, y, n_epochs=None, shuffle=True):
    num_examples = len(y)

    def input_fn():
        dataset = tf.data.Dataset.from_tensor_slices((dict(X), y))
        if shuffle:
            dataset = dataset.shuffle(num_examples)
        # For training, cycle thru dataset as many times as need (n_epochs=None).
        dataset = dataset.repeat(n_epochs)
        # In memory training doesn't use batching.
        dataset = dataset.batch(num_examples)
        return dataset
    return input_fn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    parser.add_argument("--model_dir", required=True)
    args = parser.parse_args()
    tf.random.set_seed(123)
    dftrain = pd.read_csv(os.path.join(args.data_dir, "train.csv"))
    dfeval = pd.read_csv(os.path.join(args.data_dir, "eval.csv"))
    y_train = dftrain.pop("survived")
    y_eval = dfeval.pop("survived")

    feature_columns = []
    for feature_name in CATEGORICAL_COLUMNS:
        # Need to one-hot encode categorical features.
        vocabulary = dftrain[feature_name].unique()
        feature_columns.append(one_hot_cat_column(feature_name, vocabulary))
    for feature_name in NUMERIC_COLUMNS:
        feature_columns.append(tf.feature_column.numeric_column(feature_name,
                                                                dtype=tf.float32))

    train_input_fn = make_input_fn(dftrain, y_train)
    eval_input_fn = make_input_fn(dfeval, y_eval, shuffle=False, n_epochs=1)

    params = {"n_trees": 50, "max_depth": 3, "n_batches_per_layer": 1,
              # You must enable center_bias = True to get DFCs. This will force the model to
              # make an initial prediction before using any features (e.g. use the mean of
              # the training labels for regression or log odds for classification when
              # using cross entropy loss).
              "center_bias": True}
    est = tf.estimator.BoostedTreesClassifier(feature_columns, model_dir=args.model_dir,
                                              **params)
    # Train model.
    est.train(train_input_fn, max_steps=100)
    results = est.evaluate(eval_input_fn)
    print(pd.Series(results).to_frame())

    pred_dicts = list(est.experimental_predict_with_explanations(eval_input_fn))
    labels = y_eval.values
    probs = pd.Series([pred["probabilities"][1] for pred in pred_dicts])
    df_dfc = pd.DataFrame([pred["dfc"] for pred in pred_dicts])
    print(df_dfc.describe().T)
    # Sum of DFCs + bias == probability.
    bias = pred_dicts[0]["bias"]
    dfc_prob = df_dfc.sum(axis=1) + bias
    np.testing.assert_almost_equal(dfc_prob.values, probs.values)

    importances = est.experimental_feature_importances(normalize=True)
    df_imp = pd.Series(importances)
    print(df_imp.head(8))
    out = {"accuracy": float(results["accuracy"]), "auc": float(results["auc"]),
           "global_step": int(results["global_step"]), "bias": float(bias),
           "importances": {k: float(v) for k, v in importances.items()},
           "mean_abs_dfc": {k: float(v) for k, v in df_dfc.abs().mean().items()},
           "first_probabilities": probs.values[:5].tolist(), "labels": labels[:5].tolist()}
    print("RESULT " + json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
