"""A wide & deep census classifier in the style of the 2017 Cloud ML Engine samples
(census/estimator/trainer/model.py, TensorFlow 1.2-1.4): a queue-runner input_fn
(`string_input_producer`, `TextLineReader.read_up_to`, `decode_csv`, `shuffle_batch` /
`batch` with enqueue_many and allow_smaller_final_batch), labels looked up with
`tf.contrib.lookup.index_table_from_tensor`, a `tf.contrib.learn.DNNLinearCombinedClassifier`
over core feature columns, and serving input_fns returning `tf.contrib.learn.InputFnOps`.
"""
import multiprocessing

import tensorflow as tf

CSV_COLUMNS = ['age', 'workclass', 'fnlwgt', 'education', 'education_num', 'marital_status',
               'occupation', 'relationship', 'race', 'gender', 'capital_gain', 'capital_loss',
               'hours_per_week', 'native_country', 'income_bracket']
CSV_COLUMN_DEFAULTS = [[0], [''], [0], [''], [0], [''], [''], [''], [''], [''], [0], [0], [0],
                       [''], ['']]
LABEL_COLUMN = 'income_bracket'
LABELS = [' <=50K', ' >50K']

INPUT_COLUMNS = [
    tf.feature_column.categorical_column_with_vocabulary_list('gender', [' Female', ' Male']),
    tf.feature_column.categorical_column_with_vocabulary_list(
        'race', [' Amer-Indian-Eskimo', ' Asian-Pac-Islander', ' Black', ' Other', ' White']),
    tf.feature_column.categorical_column_with_hash_bucket('education', hash_bucket_size=1000),
    tf.feature_column.categorical_column_with_hash_bucket('marital_status',
                                                          hash_bucket_size=100),
    tf.feature_column.categorical_column_with_hash_bucket('relationship', hash_bucket_size=100),
    tf.feature_column.categorical_column_with_hash_bucket('workclass', hash_bucket_size=100),
    tf.feature_column.categorical_column_with_hash_bucket('occupation', hash_bucket_size=100),
    tf.feature_column.categorical_column_with_hash_bucket('native_country',
                                                          hash_bucket_size=100),
    tf.feature_column.numeric_column('age'),
    tf.feature_column.numeric_column('education_num'),
    tf.feature_column.numeric_column('capital_gain'),
    tf.feature_column.numeric_column('capital_loss'),
    tf.feature_column.numeric_column('hours_per_week'),
]
UNUSED_COLUMNS = set(CSV_COLUMNS) - {col.name for col in INPUT_COLUMNS} - {LABEL_COLUMN}


def build_estimator(config, embedding_size=8, hidden_units=None):
    (gender, race, education, marital_status, relationship, workclass, occupation,
     native_country, age, education_num, capital_gain, capital_loss,
     hours_per_week) = INPUT_COLUMNS
    age_buckets = tf.feature_column.bucketized_column(
        age, boundaries=[18, 25, 30, 35, 40, 45, 50, 55, 60, 65])
    wide_columns = [
        tf.feature_column.crossed_column(['education', 'occupation'],
                                         hash_bucket_size=int(1e4)),
        tf.feature_column.crossed_column([age_buckets, race, 'occupation'],
                                         hash_bucket_size=int(1e5)),
        tf.feature_column.crossed_column(['native_country', 'occupation'],
                                         hash_bucket_size=int(1e4)),
        gender, native_country, education, occupation, workclass, marital_status,
        relationship, age_buckets,
    ]
    deep_columns = [
        tf.feature_column.indicator_column(workclass),
        tf.feature_column.indicator_column(education),
        tf.feature_column.indicator_column(marital_status),
        tf.feature_column.indicator_column(gender),
        tf.feature_column.indicator_column(relationship),
        tf.feature_column.indicator_column(race),
        tf.feature_column.embedding_column(native_country, dimension=embedding_size),
        tf.feature_column.embedding_column(occupation, dimension=embedding_size),
        age, education_num, capital_gain, capital_loss, hours_per_week,
    ]
    return tf.contrib.learn.DNNLinearCombinedClassifier(
        config=config, linear_feature_columns=wide_columns, dnn_feature_columns=deep_columns,
        dnn_hidden_units=hidden_units or [100, 70, 50, 25], fix_global_step_increment_bug=True)


def parse_label_column(label_string_tensor):
    table = tf.contrib.lookup.index_table_from_tensor(tf.constant(LABELS))
    return table.lookup(label_string_tensor)


def csv_serving_input_fn(default_batch_size=None):
    """Build the serving inputs: one CSV row (without the label) per example."""
    csv_row = tf.placeholder(shape=[default_batch_size], dtype=tf.string)
    features = parse_csv(csv_row)
    features.pop(LABEL_COLUMN)
    return tf.contrib.learn.InputFnOps(features, None, {'csv_row': csv_row})


def example_serving_input_fn(default_batch_size=None):
    """Build the serving inputs: serialized tf.Example protos."""
    feature_spec = tf.feature_column.make_parse_example_spec(INPUT_COLUMNS)
    example_bytestring = tf.placeholder(shape=[default_batch_size], dtype=tf.string)
    feature_scalars = tf.parse_example(example_bytestring, feature_spec)
    features = {key: tf.expand_dims(tensor, -1) for key, tensor in feature_scalars.items()}
    return tf.contrib.learn.InputFnOps(features, None, {'example_proto': example_bytestring})


def json_serving_input_fn(default_batch_size=None):
    """Build the serving inputs: one tensor per input column."""
    inputs = {}
    for feat in INPUT_COLUMNS:
        inputs[feat.name] = tf.placeholder(shape=[default_batch_size], dtype=feat.dtype)
    features = {key: tf.expand_dims(tensor, -1) for key, tensor in inputs.items()}
    return tf.contrib.learn.InputFnOps(features, None, inputs)


SERVING_FUNCTIONS = {'JSON': json_serving_input_fn, 'EXAMPLE': example_serving_input_fn,
                     'CSV': csv_serving_input_fn}


def parse_csv(rows_string_tensor):
    """Takes the string input tensor and returns a dict of rank-2 tensors."""
    row_columns = tf.expand_dims(rows_string_tensor, -1)
    columns = tf.decode_csv(row_columns, record_defaults=CSV_COLUMN_DEFAULTS)
    features = dict(zip(CSV_COLUMNS, columns))
    for col in UNUSED_COLUMNS:
        features.pop(col)
    return features


def generate_input_fn(filenames, num_epochs=None, shuffle=True, skip_header_lines=0,
                      batch_size=200):
    """An input_fn reading the CSV files through TF 1.x's queues."""
    def _input_fn():
        filename_queue = tf.train.string_input_producer(filenames, num_epochs=num_epochs,
                                                        shuffle=shuffle)
        reader = tf.TextLineReader(skip_header_lines=skip_header_lines)
        _, rows = reader.read_up_to(filename_queue, num_records=batch_size)
        features = parse_csv(rows)
        if shuffle:
            features = tf.train.shuffle_batch(
                features, batch_size, min_after_dequeue=2 * batch_size + 1,
                capacity=batch_size * 10, num_threads=multiprocessing.cpu_count(),
                enqueue_many=True, allow_smaller_final_batch=True)
        else:
            features = tf.train.batch(
                features, batch_size, capacity=batch_size * 10,
                num_threads=multiprocessing.cpu_count(), enqueue_many=True,
                allow_smaller_final_batch=True)
        return features, parse_label_column(features.pop(LABEL_COLUMN))
    return _input_fn
