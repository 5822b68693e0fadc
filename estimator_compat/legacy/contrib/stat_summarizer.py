"""`tf.contrib.stat_summarizer`, served whole: TensorFlow's StatSummarizer (TF 2.21 still has
it, `_pywrap_stat_summarizer`), and TF 1.15's two helpers around it: `NewStatSummarizer(unused)`
made one with the default options; `DeleteStatSummarizer(ss)` freed it (Python frees the
pybind object when its last reference goes, so there is nothing more to do)."""
from tensorflow.python.util._pywrap_stat_summarizer import StatSummarizer


def NewStatSummarizer(unused):  # noqa: N802 - TF 1.15's name
    """A StatSummarizer with the default options (the argument was ignored in TF 1.15)."""
    if not isinstance(unused, bytes):
        raise TypeError("expected bytes, %s found" % type(unused).__name__)
    return StatSummarizer()


def DeleteStatSummarizer(ss):  # noqa: N802 - TF 1.15's name
    """Releases `ss` (the caller's reference; the object is freed with its last one)."""
    if not isinstance(ss, StatSummarizer):
        raise TypeError("in method 'DeleteStatSummarizer', argument 1 of type "
                        "'tensorflow::StatSummarizer *'")


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.stat_summarizer", __doc__, __served_whole__=True,
                     StatSummarizer=StatSummarizer, NewStatSummarizer=NewStatSummarizer,
                     DeleteStatSummarizer=DeleteStatSummarizer)
