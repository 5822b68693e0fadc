"""tensorflow.org tutorial "Build a linear model with Estimators", cell by cell (TF 2.x).

Only the data location differs: the CSVs come from a local directory (argv[1]) instead of
storage.googleapis.com. Prints one `RESULT <name> <json>` line per evaluation.
"""
import json
import sys

import numpy as np
import pandas as pd
import tensorflow as tf

data_dir = sys.argv[1]
dftrain = pd.read_csv(data_dir + '/train.csv')
dfeval = pd.read_csv(data_dir + '/eval.csv')
y_train = dftrain.pop('survived')
y_eval = dfeval.pop('survived')

CATEGORICAL_COLUMNS = ['sex', 'n_siblings_spouses', 'parch', 'class', 'deck',
                       'embark_town', 'alone']
NUMERIC_COLUMNS = ['age', 'fare']

feature_columns = []
for feature_name in CATEGORICAL_COLUMNS:
  vocabulary = dftrain[feature_name].unique()
  feature_columns.append(tf.feature_column.categorical_column_with_vocabulary_list(feature_name, vocabulary))

for feature_name in NUMERIC_COLUMNS:
  feature_columns.append(tf.feature_column.numeric_column(feature_name, dtype=tf.float32))


def make_input_fn(data_df, label_df, num_epochs=10, shuffle=True, batch_size=32):
  def input_function():
    ds = tf.data.Dataset.from_tensor_slices((dict(data_df), label_df))
    if shuffle:
      ds = ds.shuffle(1000)
    ds = ds.batch(batch_size).repeat(num_epochs)
    return ds
  return input_function


train_input_fn = make_input_fn(dftrain, y_train)
eval_input_fn = make_input_fn(dfeval, y_eval, num_epochs=1, shuffle=False)

ds = make_input_fn(dftrain, y_train, batch_size=10)()
for feature_batch, label_batch in ds.take(1):
  print('Some feature keys:', list(feature_batch.keys()))
  print()
  print('A batch of class:', feature_batch['class'].numpy())
  print()
  print('A batch of Labels:', label_batch.numpy())

age_column = feature_columns[7]
ages = tf.keras.layers.DenseFeatures([age_column])(feature_batch).numpy()
assert ages.shape == (10, 1) and np.allclose(ages[:, 0], feature_batch['age'].numpy()), ages

gender_column = feature_columns[0]
genders = tf.keras.layers.DenseFeatures([tf.feature_column.indicator_column(gender_column)])(feature_batch).numpy()
assert genders.shape == (10, 2) and (genders.sum(axis=1) == 1).all(), genders
print("DENSE_FEATURES ok")

linear_est = tf.estimator.LinearClassifier(feature_columns=feature_columns)
linear_est.train(train_input_fn)
result = linear_est.evaluate(eval_input_fn)
print("RESULT linear", json.dumps({k: float(v) for k, v in result.items()}))

age_x_gender = tf.feature_column.crossed_column(['age', 'sex'], hash_bucket_size=100)
derived_feature_columns = [age_x_gender]
linear_est = tf.estimator.LinearClassifier(feature_columns=feature_columns+derived_feature_columns)
linear_est.train(train_input_fn)
result = linear_est.evaluate(eval_input_fn)
print("RESULT crossed", json.dumps({k: float(v) for k, v in result.items()}))

pred_dicts = list(linear_est.predict(eval_input_fn))
probs = pd.Series([pred['probabilities'][1] for pred in pred_dicts])

from sklearn.metrics import roc_auc_score  # the tutorial plots roc_curve; its area here
print("RESULT roc", json.dumps({"auc": float(roc_auc_score(y_eval, probs)), "n": len(probs)}))
