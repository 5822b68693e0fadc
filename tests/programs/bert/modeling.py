"""The main BERT model and related functions, in the shape of BERT's modeling.py (TF 1.x)."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections
import copy
import json
import math
import re

import numpy as np
import six
import tensorflow as tf


class BertConfig(object):
    """Configuration for `BertModel`."""

    def __init__(self, vocab_size, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                 intermediate_size=3072, hidden_act="gelu", hidden_dropout_prob=0.1,
                 attention_probs_dropout_prob=0.1, max_position_embeddings=512,
                 type_vocab_size=16, initializer_range=0.02):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.hidden_act = hidden_act
        self.intermediate_size = intermediate_size
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.initializer_range = initializer_range

    @classmethod
    def from_dict(cls, json_object):
        config = BertConfig(vocab_size=None)
        for (key, value) in six.iteritems(json_object):
            config.__dict__[key] = value
        return config

    @classmethod
    def from_json_file(cls, json_file):
        with tf.gfile.GFile(json_file, "r") as reader:
            text = reader.read()
        return cls.from_dict(json.loads(text))

    def to_json_string(self):
        return json.dumps(copy.deepcopy(self.__dict__), indent=2, sort_keys=True) + "\n"


class BertModel(object):
    """BERT model ("Bidirectional Encoder Representations from Transformers")."""

    def __init__(self, config, is_training, input_ids, input_mask=None, token_type_ids=None,
                 use_one_hot_embeddings=False, scope=None):
        config = copy.deepcopy(config)
        if not is_training:
            config.hidden_dropout_prob = 0.0
            config.attention_probs_dropout_prob = 0.0

        input_shape = get_shape_list(input_ids, expected_rank=2)
        batch_size = input_shape[0]
        seq_length = input_shape[1]

        if input_mask is None:
            input_mask = tf.ones(shape=[batch_size, seq_length], dtype=tf.int32)
        if token_type_ids is None:
            token_type_ids = tf.zeros(shape=[batch_size, seq_length], dtype=tf.int32)

        with tf.variable_scope(scope, default_name="bert"):
            with tf.variable_scope("embeddings"):
                (self.embedding_output, self.embedding_table) = embedding_lookup(
                    input_ids=input_ids, vocab_size=config.vocab_size,
                    embedding_size=config.hidden_size, initializer_range=config.initializer_range,
                    word_embedding_name="word_embeddings",
                    use_one_hot_embeddings=use_one_hot_embeddings)
                self.embedding_output = embedding_postprocessor(
                    input_tensor=self.embedding_output, token_type_ids=token_type_ids,
                    token_type_vocab_size=config.type_vocab_size,
                    initializer_range=config.initializer_range,
                    max_position_embeddings=config.max_position_embeddings,
                    dropout_prob=config.hidden_dropout_prob)

            with tf.variable_scope("encoder"):
                attention_mask = create_attention_mask_from_input_mask(input_ids, input_mask)
                self.all_encoder_layers = transformer_model(
                    input_tensor=self.embedding_output, attention_mask=attention_mask,
                    hidden_size=config.hidden_size, num_hidden_layers=config.num_hidden_layers,
                    num_attention_heads=config.num_attention_heads,
                    intermediate_size=config.intermediate_size,
                    intermediate_act_fn=get_activation(config.hidden_act),
                    hidden_dropout_prob=config.hidden_dropout_prob,
                    attention_probs_dropout_prob=config.attention_probs_dropout_prob,
                    initializer_range=config.initializer_range)

            self.sequence_output = self.all_encoder_layers[-1]
            with tf.variable_scope("pooler"):
                first_token_tensor = tf.squeeze(self.sequence_output[:, 0:1, :], axis=1)
                self.pooled_output = tf.layers.dense(
                    first_token_tensor, config.hidden_size, activation=tf.tanh,
                    kernel_initializer=create_initializer(config.initializer_range))

    def get_pooled_output(self):
        return self.pooled_output

    def get_sequence_output(self):
        return self.sequence_output

    def get_all_encoder_layers(self):
        return self.all_encoder_layers

    def get_embedding_table(self):
        return self.embedding_table


def gelu(x):
    """Gaussian Error Linear Unit (the tanh approximation)."""
    cdf = 0.5 * (1.0 + tf.tanh((np.sqrt(2 / np.pi) * (x + 0.044715 * tf.pow(x, 3)))))
    return x * cdf


def get_activation(activation_string):
    act = activation_string.lower()
    if act == "linear":
        return None
    elif act == "relu":
        return tf.nn.relu
    elif act == "gelu":
        return gelu
    elif act == "tanh":
        return tf.tanh
    raise ValueError("Unsupported activation: %s" % act)


def get_assignment_map_from_checkpoint(tvars, init_checkpoint):
    """Compute the union of the current variables and checkpoint variables."""
    initialized_variable_names = {}
    name_to_variable = collections.OrderedDict()
    for var in tvars:
        name = var.name
        m = re.match("^(.*):\\d+$", name)
        if m is not None:
            name = m.group(1)
        name_to_variable[name] = var

    init_vars = tf.train.list_variables(init_checkpoint)

    assignment_map = collections.OrderedDict()
    for x in init_vars:
        (name, var) = (x[0], x[1])
        if name not in name_to_variable:
            continue
        assignment_map[name] = name
        initialized_variable_names[name] = 1
        initialized_variable_names[name + ":0"] = 1
    return (assignment_map, initialized_variable_names)


def dropout(input_tensor, dropout_prob):
    if dropout_prob is None or dropout_prob == 0.0:
        return input_tensor
    return tf.nn.dropout(input_tensor, 1.0 - dropout_prob)


def layer_norm(input_tensor, name=None):
    return tf.contrib.layers.layer_norm(
        inputs=input_tensor, begin_norm_axis=-1, begin_params_axis=-1, scope=name)


def layer_norm_and_dropout(input_tensor, dropout_prob, name=None):
    return dropout(layer_norm(input_tensor, name), dropout_prob)


def create_initializer(initializer_range=0.02):
    return tf.truncated_normal_initializer(stddev=initializer_range)


def embedding_lookup(input_ids, vocab_size, embedding_size=128, initializer_range=0.02,
                     word_embedding_name="word_embeddings", use_one_hot_embeddings=False):
    if input_ids.shape.ndims == 2:
        input_ids = tf.expand_dims(input_ids, axis=[-1])
    embedding_table = tf.get_variable(
        name=word_embedding_name, shape=[vocab_size, embedding_size],
        initializer=create_initializer(initializer_range))
    flat_input_ids = tf.reshape(input_ids, [-1])
    if use_one_hot_embeddings:
        one_hot_input_ids = tf.one_hot(flat_input_ids, depth=vocab_size)
        output = tf.matmul(one_hot_input_ids, embedding_table)
    else:
        output = tf.gather(embedding_table, flat_input_ids)
    input_shape = get_shape_list(input_ids)
    output = tf.reshape(output, input_shape[0:-1] + [input_shape[-1] * embedding_size])
    return (output, embedding_table)


def embedding_postprocessor(input_tensor, token_type_ids, token_type_vocab_size,
                            initializer_range, max_position_embeddings, dropout_prob):
    input_shape = get_shape_list(input_tensor, expected_rank=3)
    batch_size, seq_length, width = input_shape[0], input_shape[1], input_shape[2]
    output = input_tensor
    token_type_table = tf.get_variable(
        name="token_type_embeddings", shape=[token_type_vocab_size, width],
        initializer=create_initializer(initializer_range))
    flat_token_type_ids = tf.reshape(token_type_ids, [-1])
    one_hot_ids = tf.one_hot(flat_token_type_ids, depth=token_type_vocab_size)
    token_type_embeddings = tf.matmul(one_hot_ids, token_type_table)
    output += tf.reshape(token_type_embeddings, [batch_size, seq_length, width])
    assert_op = tf.assert_less_equal(seq_length, max_position_embeddings)
    with tf.control_dependencies([assert_op]):
        full_position_embeddings = tf.get_variable(
            name="position_embeddings", shape=[max_position_embeddings, width],
            initializer=create_initializer(initializer_range))
        position_embeddings = tf.slice(full_position_embeddings, [0, 0], [seq_length, -1])
        num_dims = len(output.shape.as_list())
        position_broadcast_shape = [1 for _ in range(num_dims - 2)] + [seq_length, width]
        output += tf.reshape(position_embeddings, position_broadcast_shape)
    return layer_norm_and_dropout(output, dropout_prob)


def create_attention_mask_from_input_mask(from_tensor, to_mask):
    from_shape = get_shape_list(from_tensor, expected_rank=[2, 3])
    to_shape = get_shape_list(to_mask, expected_rank=2)
    to_mask = tf.cast(tf.reshape(to_mask, [from_shape[0], 1, to_shape[1]]), tf.float32)
    broadcast_ones = tf.ones(shape=[from_shape[0], from_shape[1], 1], dtype=tf.float32)
    return broadcast_ones * to_mask


def attention_layer(from_tensor, to_tensor, attention_mask, num_attention_heads, size_per_head,
                    attention_probs_dropout_prob, initializer_range, batch_size,
                    from_seq_length, to_seq_length):
    def transpose_for_scores(input_tensor, seq_length):
        output_tensor = tf.reshape(input_tensor,
                                   [batch_size, seq_length, num_attention_heads, size_per_head])
        return tf.transpose(output_tensor, [0, 2, 1, 3])

    query_layer = tf.layers.dense(from_tensor, num_attention_heads * size_per_head, name="query",
                                  kernel_initializer=create_initializer(initializer_range))
    key_layer = tf.layers.dense(to_tensor, num_attention_heads * size_per_head, name="key",
                                kernel_initializer=create_initializer(initializer_range))
    value_layer = tf.layers.dense(to_tensor, num_attention_heads * size_per_head, name="value",
                                  kernel_initializer=create_initializer(initializer_range))
    query_layer = transpose_for_scores(query_layer, from_seq_length)
    key_layer = transpose_for_scores(key_layer, to_seq_length)
    attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
    attention_scores = tf.multiply(attention_scores, 1.0 / math.sqrt(float(size_per_head)))
    attention_mask = tf.expand_dims(attention_mask, axis=[1])
    attention_scores += (1.0 - tf.cast(attention_mask, tf.float32)) * -10000.0
    attention_probs = dropout(tf.nn.softmax(attention_scores), attention_probs_dropout_prob)
    value_layer = tf.transpose(
        tf.reshape(value_layer, [batch_size, to_seq_length, num_attention_heads, size_per_head]),
        [0, 2, 1, 3])
    context_layer = tf.transpose(tf.matmul(attention_probs, value_layer), [0, 2, 1, 3])
    return tf.reshape(context_layer,
                      [batch_size * from_seq_length, num_attention_heads * size_per_head])


def transformer_model(input_tensor, attention_mask=None, hidden_size=768, num_hidden_layers=12,
                      num_attention_heads=12, intermediate_size=3072,
                      intermediate_act_fn=gelu, hidden_dropout_prob=0.1,
                      attention_probs_dropout_prob=0.1, initializer_range=0.02):
    attention_head_size = int(hidden_size / num_attention_heads)
    input_shape = get_shape_list(input_tensor, expected_rank=3)
    batch_size, seq_length, input_width = input_shape[0], input_shape[1], input_shape[2]
    prev_output = tf.reshape(input_tensor, [-1, input_width])
    all_layer_outputs = []
    for layer_idx in range(num_hidden_layers):
        with tf.variable_scope("layer_%d" % layer_idx):
            layer_input = prev_output
            with tf.variable_scope("attention"):
                with tf.variable_scope("self"):
                    attention_output = attention_layer(
                        layer_input, layer_input, attention_mask, num_attention_heads,
                        attention_head_size, attention_probs_dropout_prob, initializer_range,
                        batch_size, seq_length, seq_length)
                with tf.variable_scope("output"):
                    attention_output = tf.layers.dense(
                        attention_output, hidden_size,
                        kernel_initializer=create_initializer(initializer_range))
                    attention_output = dropout(attention_output, hidden_dropout_prob)
                    attention_output = layer_norm(attention_output + layer_input)
            with tf.variable_scope("intermediate"):
                intermediate_output = tf.layers.dense(
                    attention_output, intermediate_size, activation=intermediate_act_fn,
                    kernel_initializer=create_initializer(initializer_range))
            with tf.variable_scope("output"):
                layer_output = tf.layers.dense(
                    intermediate_output, hidden_size,
                    kernel_initializer=create_initializer(initializer_range))
                layer_output = dropout(layer_output, hidden_dropout_prob)
                layer_output = layer_norm(layer_output + attention_output)
                prev_output = layer_output
                all_layer_outputs.append(layer_output)
    return [tf.reshape(o, input_shape) for o in all_layer_outputs]


def get_shape_list(tensor, expected_rank=None, name=None):
    """A list of the shape of tensor, preferring static dimensions."""
    if expected_rank is not None:
        assert_rank(tensor, expected_rank, name)
    shape = tensor.shape.as_list()
    non_static_indexes = [i for i, dim in enumerate(shape) if dim is None]
    if not non_static_indexes:
        return shape
    dyn_shape = tf.shape(tensor)
    for index in non_static_indexes:
        shape[index] = dyn_shape[index]
    return shape


def assert_rank(tensor, expected_rank, name=None):
    if name is None:
        name = tensor.name
    expected_rank_dict = {}
    if isinstance(expected_rank, six.integer_types):
        expected_rank_dict[expected_rank] = True
    else:
        for x in expected_rank:
            expected_rank_dict[x] = True
    actual_rank = tensor.shape.ndims
    if actual_rank not in expected_rank_dict:
        scope_name = tf.get_variable_scope().name
        raise ValueError(
            "For the tensor `%s` in scope `%s`, the actual rank `%d` (shape = %s) is not "
            "equal to the expected rank `%s`" % (name, scope_name, actual_rank,
                                                 str(tensor.shape), str(expected_rank)))
