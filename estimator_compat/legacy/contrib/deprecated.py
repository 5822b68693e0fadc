"""`tf.contrib.deprecated`: the summary ops of TensorFlow 0.12 (`scalar_summary(tags, values)`,
`merge_all_summaries()`), which TF 1.15 still served there, as the same ops (`ScalarSummary`,
`HistogramSummary`, `ImageSummary`, `AudioSummaryV2`, `MergeSummary`), names and SUMMARIES
collection. TensorFlow 2: `tf.summary` (or `tf.compat.v1.summary`)."""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace

v1 = tf.compat.v1


def _collect(value, collections):
    for key in (v1.GraphKeys.SUMMARIES,) if collections is None else collections:
        v1.add_to_collection(key, value)
    return value


def scalar_summary(tags, values, collections=None, name=None):
    """A Summary of scalars, one per tag (tags and values of one shape)."""
    return _collect(tf.raw_ops.ScalarSummary(tags=tags, values=values,
                                             name=name or "ScalarSummary"), collections)


def histogram_summary(tag, values, collections=None, name=None):
    return _collect(tf.raw_ops.HistogramSummary(tag=tag, values=values,
                                                name=name or "HistogramSummary"), collections)


def image_summary(tag, tensor, max_images=3, collections=None, name=None):
    return _collect(tf.raw_ops.ImageSummary(tag=tag, tensor=tensor, max_images=max_images,
                                            name=name or "ImageSummary"), collections)


def audio_summary(tag, tensor, sample_rate, max_outputs=3, collections=None, name=None):
    sample_rate = tf.convert_to_tensor(sample_rate, tf.float32)
    return _collect(tf.raw_ops.AudioSummaryV2(tag=tag, tensor=tensor, sample_rate=sample_rate,
                                              max_outputs=max_outputs,
                                              name=name or "AudioSummary"), collections)


def merge_summary(inputs, collections=None, name=None):
    """One Summary of the values of `inputs` (serialized Summary tensors)."""
    with tf.name_scope(name or "MergeSummary"):
        merged = tf.raw_ops.MergeSummary(inputs=inputs, name=name or "MergeSummary")
    return _collect(merged, collections or [])


def merge_all_summaries(key=v1.GraphKeys.SUMMARIES):
    """Every summary in the `key` collection merged, or None when there is none."""
    found = v1.get_collection(key)
    return merge_summary(found) if found else None


def build():
    return namespace("tensorflow.contrib.deprecated", __doc__, __served_whole__=True,
                     scalar_summary=scalar_summary, histogram_summary=histogram_summary,
                     image_summary=image_summary, audio_summary=audio_summary,
                     merge_summary=merge_summary, merge_all_summaries=merge_all_summaries)
