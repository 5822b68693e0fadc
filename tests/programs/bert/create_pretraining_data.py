"""Create masked LM/next sentence masked_lm TF examples for BERT (as create_pretraining_data.py)."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections
import random

import tensorflow as tf

import tokenization

flags = tf.flags

FLAGS = flags.FLAGS

flags.DEFINE_string("input_file", None, "Input raw text file (or comma-separated list of files).")
flags.DEFINE_string("output_file", None, "Output TF example file (or comma-separated list of files).")
flags.DEFINE_string("vocab_file", None, "The vocabulary file that the BERT model was trained on.")
flags.DEFINE_bool("do_lower_case", True, "Whether to lower case the input text.")
flags.DEFINE_integer("max_seq_length", 32, "Maximum sequence length.")
flags.DEFINE_integer("max_predictions_per_seq", 5, "Maximum number of masked LM predictions per sequence.")
flags.DEFINE_integer("random_seed", 12345, "Random seed for data generation.")
flags.DEFINE_integer("dupe_factor", 4, "Number of times to duplicate the input data (with different masks).")
flags.DEFINE_float("masked_lm_prob", 0.15, "Masked LM probability.")


class TrainingInstance(object):
    """A single training instance (sentence pair)."""

    def __init__(self, tokens, segment_ids, masked_lm_positions, masked_lm_labels, is_random_next):
        self.tokens = tokens
        self.segment_ids = segment_ids
        self.is_random_next = is_random_next
        self.masked_lm_positions = masked_lm_positions
        self.masked_lm_labels = masked_lm_labels


def create_int_feature(values):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))


def create_float_feature(values):
    return tf.train.Feature(float_list=tf.train.FloatList(value=list(values)))


def write_instance_to_example_files(instances, tokenizer, max_seq_length, max_predictions_per_seq,
                                    output_files):
    """Create TF example files from `TrainingInstance`s."""
    writers = [tf.python_io.TFRecordWriter(output_file) for output_file in output_files]
    writer_index = 0
    total_written = 0
    for (inst_index, instance) in enumerate(instances):
        input_ids = tokenizer.convert_tokens_to_ids(instance.tokens)
        input_mask = [1] * len(input_ids)
        segment_ids = list(instance.segment_ids)
        while len(input_ids) < max_seq_length:
            input_ids.append(0)
            input_mask.append(0)
            segment_ids.append(0)
        masked_lm_positions = list(instance.masked_lm_positions)
        masked_lm_ids = tokenizer.convert_tokens_to_ids(instance.masked_lm_labels)
        masked_lm_weights = [1.0] * len(masked_lm_ids)
        while len(masked_lm_positions) < max_predictions_per_seq:
            masked_lm_positions.append(0)
            masked_lm_ids.append(0)
            masked_lm_weights.append(0.0)

        features = collections.OrderedDict()
        features["input_ids"] = create_int_feature(input_ids)
        features["input_mask"] = create_int_feature(input_mask)
        features["segment_ids"] = create_int_feature(segment_ids)
        features["masked_lm_positions"] = create_int_feature(masked_lm_positions)
        features["masked_lm_ids"] = create_int_feature(masked_lm_ids)
        features["masked_lm_weights"] = create_float_feature(masked_lm_weights)
        features["next_sentence_labels"] = create_int_feature([1 if instance.is_random_next else 0])

        tf_example = tf.train.Example(features=tf.train.Features(feature=features))
        writers[writer_index].write(tf_example.SerializeToString())
        writer_index = (writer_index + 1) % len(writers)
        total_written += 1

        if inst_index < 2:
            tf.logging.info("*** Example ***")
            tf.logging.info("tokens: %s" % " ".join(instance.tokens))
    for writer in writers:
        writer.close()
    tf.logging.info("Wrote %d total instances", total_written)


def create_training_instances(input_files, tokenizer, max_seq_length, dupe_factor,
                              masked_lm_prob, max_predictions_per_seq, rng):
    """Create `TrainingInstance`s from raw text (one sentence per line, blank line between docs)."""
    all_documents = [[]]
    for input_file in input_files:
        with tf.gfile.GFile(input_file, "r") as reader:
            for line in reader:
                line = tokenization.convert_to_unicode(line).strip()
                if not line:
                    all_documents.append([])
                    continue
                tokens = tokenizer.tokenize(line)
                if tokens:
                    all_documents[-1].append(tokens)
    all_documents = [x for x in all_documents if len(x) > 1]
    rng.shuffle(all_documents)
    vocab_words = list(tokenizer.vocab.keys())
    instances = []
    for _ in range(dupe_factor):
        for document_index, document in enumerate(all_documents):
            for i in range(len(document) - 1):
                tokens_a = document[i]
                if rng.random() < 0.5:
                    is_random_next = True
                    other = all_documents[rng.randint(0, len(all_documents) - 1)]
                    tokens_b = other[rng.randint(0, len(other) - 1)]
                else:
                    is_random_next = False
                    tokens_b = document[i + 1]
                while len(tokens_a) + len(tokens_b) > max_seq_length - 3:
                    longer = tokens_a if len(tokens_a) > len(tokens_b) else tokens_b
                    longer = longer[:-1]
                    if len(tokens_a) > len(tokens_b):
                        tokens_a = longer
                    else:
                        tokens_b = longer
                tokens = ["[CLS]"] + tokens_a + ["[SEP]"] + tokens_b + ["[SEP]"]
                segment_ids = [0] * (len(tokens_a) + 2) + [1] * (len(tokens_b) + 1)
                tokens, positions, labels = create_masked_lm_predictions(
                    tokens, masked_lm_prob, max_predictions_per_seq, vocab_words, rng)
                instances.append(TrainingInstance(tokens, segment_ids, positions, labels,
                                                  is_random_next))
    rng.shuffle(instances)
    return instances


def create_masked_lm_predictions(tokens, masked_lm_prob, max_predictions_per_seq, vocab_words, rng):
    """Creates the predictions for the masked LM objective."""
    cand_indexes = [i for i, token in enumerate(tokens) if token not in ("[CLS]", "[SEP]")]
    rng.shuffle(cand_indexes)
    output_tokens = list(tokens)
    num_to_predict = min(max_predictions_per_seq,
                         max(1, int(round(len(tokens) * masked_lm_prob))))
    masked = sorted(cand_indexes[:num_to_predict])
    for index in masked:
        if rng.random() < 0.8:
            masked_token = "[MASK]"
        elif rng.random() < 0.5:
            masked_token = tokens[index]
        else:
            masked_token = vocab_words[rng.randint(0, len(vocab_words) - 1)]
        output_tokens[index] = masked_token
    return output_tokens, masked, [tokens[i] for i in masked]


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)

    tokenizer = tokenization.FullTokenizer(vocab_file=FLAGS.vocab_file,
                                           do_lower_case=FLAGS.do_lower_case)

    input_files = []
    for input_pattern in FLAGS.input_file.split(","):
        input_files.extend(tf.gfile.Glob(input_pattern))

    tf.logging.info("*** Reading from input files ***")
    for input_file in input_files:
        tf.logging.info("  %s", input_file)

    rng = random.Random(FLAGS.random_seed)
    instances = create_training_instances(
        input_files, tokenizer, FLAGS.max_seq_length, FLAGS.dupe_factor, FLAGS.masked_lm_prob,
        FLAGS.max_predictions_per_seq, rng)

    output_files = FLAGS.output_file.split(",")
    tf.logging.info("*** Writing to output files ***")
    for output_file in output_files:
        tf.logging.info("  %s", output_file)

    write_instance_to_example_files(instances, tokenizer, FLAGS.max_seq_length,
                                    FLAGS.max_predictions_per_seq, output_files)


if __name__ == "__main__":
    flags.mark_flag_as_required("input_file")
    flags.mark_flag_as_required("output_file")
    flags.mark_flag_as_required("vocab_file")
    tf.app.run()
