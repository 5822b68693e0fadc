"""BERT as the original TF1 code built it: tf.compat.v1 variables with BERT's checkpoint names
(bert/embeddings/..., bert/encoder/layer_N/attention/self/query/kernel, bert/pooler/...).
Our own implementation of the published architecture, so pretrained BERT-architecture weights
(converted to those names) load into it."""
import copy
import json
import math

import tensorflow.compat.v1 as tf


class BertConfig:
    """Hyperparameters of a BERT model (the fields of bert_config.json)."""

    def __init__(self, vocab_size, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                 intermediate_size=3072, hidden_act="gelu", hidden_dropout_prob=0.1,
                 attention_probs_dropout_prob=0.1, max_position_embeddings=512,
                 type_vocab_size=2, initializer_range=0.02):
        if hidden_size % num_attention_heads:
            raise ValueError(f"hidden_size {hidden_size} is not a multiple of "
                             f"num_attention_heads {num_attention_heads}")
        self.vocab_size, self.hidden_size = vocab_size, hidden_size
        self.num_hidden_layers, self.num_attention_heads = num_hidden_layers, num_attention_heads
        self.intermediate_size, self.hidden_act = intermediate_size, hidden_act
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings, self.type_vocab_size = max_position_embeddings, type_vocab_size
        self.initializer_range = initializer_range

    @classmethod
    def from_dict(cls, values):
        fields = cls.__init__.__code__.co_varnames[1:cls.__init__.__code__.co_argcount]
        return cls(**{k: v for k, v in values.items() if k in fields})

    @classmethod
    def from_json_file(cls, path):
        with tf.gfile.GFile(path, "r") as f:
            return cls.from_dict(json.load(f))

    def to_dict(self):
        return copy.deepcopy(self.__dict__)


def gelu(x):
    return 0.5 * x * (1.0 + tf.math.erf(x / math.sqrt(2.0)))


ACTIVATIONS = {"gelu": gelu, "relu": tf.nn.relu, "tanh": tf.tanh}


def initializer(config):
    return tf.truncated_normal_initializer(stddev=config.initializer_range)


def layer_norm(x, name=None):
    return tf.contrib.layers.layer_norm(inputs=x, begin_norm_axis=-1, begin_params_axis=-1,
                                        scope=name)


def dropout(x, rate, is_training):
    return tf.nn.dropout(x, rate=rate) if is_training and rate > 0 else x


class BertModel:
    """The encoder: `get_pooled_output()` ([CLS] through a tanh dense) and
    `get_sequence_output()` (the last layer)."""

    def __init__(self, config, is_training, input_ids, input_mask=None, token_type_ids=None,
                 scope=None):
        shape = tf.shape(input_ids)
        batch, seq = shape[0], shape[1]
        if input_mask is None:
            input_mask = tf.ones_like(input_ids)
        if token_type_ids is None:
            token_type_ids = tf.zeros_like(input_ids)
        with tf.variable_scope(scope, default_name="bert"):
            with tf.variable_scope("embeddings"):
                self.embedding_table = tf.get_variable(
                    "word_embeddings", [config.vocab_size, config.hidden_size],
                    initializer=initializer(config))
                x = tf.gather(self.embedding_table, input_ids)
                token_types = tf.get_variable(
                    "token_type_embeddings", [config.type_vocab_size, config.hidden_size],
                    initializer=initializer(config))
                x += tf.gather(token_types, token_type_ids)
                positions = tf.get_variable(
                    "position_embeddings", [config.max_position_embeddings, config.hidden_size],
                    initializer=initializer(config))
                x += tf.expand_dims(positions[:seq], 0)
                x = dropout(layer_norm(x, "LayerNorm"), config.hidden_dropout_prob, is_training)
            with tf.variable_scope("encoder"):
                mask = tf.cast(input_mask[:, None, None, :], tf.float32)  # [B, 1, 1, T]
                adder = (1.0 - mask) * -10000.0
                layer = tf.reshape(x, [-1, config.hidden_size])
                self.all_encoder_layers = []
                for i in range(config.num_hidden_layers):
                    with tf.variable_scope(f"layer_{i}"):
                        layer = _transformer_layer(config, layer, adder, batch, seq, is_training)
                    self.all_encoder_layers.append(
                        tf.reshape(layer, [batch, seq, config.hidden_size]))
            self.sequence_output = self.all_encoder_layers[-1]
            with tf.variable_scope("pooler"):
                first = self.sequence_output[:, 0]
                self.pooled_output = tf.layers.dense(first, config.hidden_size,
                                                     activation=tf.tanh, name="dense",
                                                     kernel_initializer=initializer(config))

    def get_pooled_output(self):
        return self.pooled_output

    def get_sequence_output(self):
        return self.sequence_output

    def get_embedding_table(self):
        return self.embedding_table


def _transformer_layer(config, x, mask_adder, batch, seq, is_training):
    heads = config.num_attention_heads
    size = config.hidden_size // heads

    def split(t):  # [B*T, H] -> [B, heads, T, size]
        return tf.transpose(tf.reshape(t, [batch, seq, heads, size]), [0, 2, 1, 3])
    with tf.variable_scope("attention"):
        with tf.variable_scope("self"):
            q, k, v = (split(tf.layers.dense(x, config.hidden_size, name=n,
                                             kernel_initializer=initializer(config)))
                       for n in ("query", "key", "value"))
            scores = tf.matmul(q, k, transpose_b=True) / math.sqrt(size) + mask_adder
            probs = dropout(tf.nn.softmax(scores), config.attention_probs_dropout_prob,
                            is_training)
            context = tf.reshape(tf.transpose(tf.matmul(probs, v), [0, 2, 1, 3]),
                                 [-1, config.hidden_size])
        with tf.variable_scope("output"):
            attention = tf.layers.dense(context, config.hidden_size, name="dense",
                                        kernel_initializer=initializer(config))
            attention = layer_norm(dropout(attention, config.hidden_dropout_prob, is_training) + x,
                                   "LayerNorm")
    with tf.variable_scope("intermediate"):
        inner = tf.layers.dense(attention, config.intermediate_size, name="dense",
                                activation=ACTIVATIONS[config.hidden_act],
                                kernel_initializer=initializer(config))
    with tf.variable_scope("output"):
        out = tf.layers.dense(inner, config.hidden_size, name="dense",
                              kernel_initializer=initializer(config))
        return layer_norm(dropout(out, config.hidden_dropout_prob, is_training) + attention,
                          "LayerNorm")


def get_assignment_map_from_checkpoint(tvars, init_checkpoint):
    """{checkpoint name: name} for the trainable variables the checkpoint has."""
    names = {v.name.split(":")[0] for v in tvars}
    assignment_map, initialized = {}, {}
    for name, _ in tf.train.list_variables(init_checkpoint):
        if name in names:
            assignment_map[name] = name
            initialized[name] = 1
            initialized[name + ":0"] = 1
    return assignment_map, initialized
