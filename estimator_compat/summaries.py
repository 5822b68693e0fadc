"""Event files: one summary writer per directory, and TF1-style scalars as tf.estimator wrote.

Scalars written from the host (`global_step/sec`, eval metrics) are TF1 `Summary` protos with
`simple_value`, exactly what tf.estimator's FileWriter wrote, so TensorBoard and readers of
legacy event files (early-stopping hooks, BestExporter) see the same records. So are an
evaluation's `checkpoint_path` (a string tensor with no plugin, which no dashboard shows, as
tf.estimator wrote it) and the `SessionLog`s of TF1's hooks: START where a training session
begins (TensorBoard then drops the events a killed run wrote past that step) and CHECKPOINT at
each save. tools/tag_census.py lists everything a model_dir's events hold.
"""
import collections
import logging
import os
import re
import threading
import time

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import summary_ops_v2

logger = logging.getLogger("tensorflow")
_writers = {}
_lock = threading.Lock()
_warned_truncated = set()
_graphs_written = {}  # logdir: the graph last written there (once per graph, as FileWriterCache)


def writer_for(logdir):
    """The process-wide summary writer of `logdir` (created once, as FileWriterCache did)."""
    logdir = os.path.abspath(os.fspath(logdir))
    with _lock:
        writer = _writers.get(logdir)
        if writer is None:
            with tf.init_scope():
                try:
                    writer = tf.summary.create_file_writer(logdir)
                except tf.errors.OpError as e:  # e.g. a model_dir the process cannot write
                    message = re.sub(r"\{\{[^}]*\}\}\s*|\s*\[Op:[^\]]*\].*$", "",
                                     e.message or str(e)).strip()
                    raise type(e)(None, None, f"Cannot write event files to {logdir}: "
                                  f"{message}. Check that model_dir exists or can be created, "
                                  "and that this process may write there.") from None
            _writers[logdir] = writer
        return writer


def write_scalars(logdir, step, values, texts=None):
    """Writes {tag: number} as simple_value scalars (a numpy array as a tensor) at `step`,
    then {tag: string} (string tensors without plugin metadata) as a second event, as
    tf.estimator wrote an evaluation's metrics and then its checkpoint_path (a write cut short
    then loses only the text); flushes once."""
    summary = tf.compat.v1.Summary()
    for tag, value in values.items():
        if isinstance(value, (bytes, str)):
            continue
        if isinstance(value, np.ndarray) and value.ndim:  # a tensor, as tf.estimator wrote it
            summary.value.add(tag=tag, node_name=tag, tensor=tf.make_tensor_proto(value))
            continue
        summary.value.add(tag=tag, simple_value=float(np.asarray(value)))
    records = [summary.SerializeToString()]
    if texts:
        text = tf.compat.v1.Summary()
        for tag, string in texts.items():
            text.value.add(tag=tag, tensor=tf.make_tensor_proto(string))
        records.append(text.SerializeToString())
    writer = writer_for(logdir)
    with writer.as_default():
        for record in records:  # (several in one write_raw_pb would merge into one event)
            tf.summary.experimental.write_raw_pb(record, step=int(step))
    writer.flush()


def write_raw(logdir, step, serialized):
    """Writes a serialized Summary proto (e.g. a fetched merge_all()) at `step`."""
    writer = writer_for(logdir)
    with writer.as_default():
        tf.summary.experimental.write_raw_pb(serialized, step=int(step))
    writer.flush()


def write_graph(logdir, graph, once=False, step=0):
    """The graph's GraphDef in the event file, for TensorBoard's graph tab, and a MetaGraphDef
    event around it, as TF1's FileWriter wrote the two (`graph`: a tf.Graph or a serialized
    MetaGraphDef, e.g. the TF1 train graph of the `.meta` files). `once`: not again while it
    is the graph last written there (an evaluation's, as tf.estimator wrote it once per
    process)."""
    key = os.path.abspath(os.fspath(logdir))
    if once and _graphs_written.get(key) is graph:
        return
    if isinstance(graph, bytes):
        meta = tf.compat.v1.MetaGraphDef.FromString(graph)
    else:
        meta = tf.compat.v1.MetaGraphDef(graph_def=graph.as_graph_def())
        meta.meta_info_def.tensorflow_version = tf.__version__
    events = [tf.compat.v1.Event(wall_time=time.time(), step=int(step), **{field: value})
              for field, value in (("graph_def", meta.graph_def.SerializeToString()),
                                   ("meta_graph_def", meta.SerializeToString()))]
    _import_events(logdir, events)
    _graphs_written[key] = graph


def _import_events(logdir, events):
    writer = writer_for(logdir)
    with tf.init_scope(), writer.as_default():
        for event in events:
            summary_ops_v2.import_event(tf.constant(event.SerializeToString()))
    writer.flush()


def write_session_log(logdir, step, status, checkpoint_path=None):
    """A `SessionLog` event (status "START" or "CHECKPOINT") at `step`, as TF1's summary and
    checkpoint hooks wrote them."""
    log = tf.compat.v1.SessionLog(status=getattr(tf.compat.v1.SessionLog, status))
    if checkpoint_path:
        log.checkpoint_path = checkpoint_path
    _import_events(logdir, [tf.compat.v1.Event(wall_time=time.time(), step=int(step),
                                               session_log=log)])


def flush(logdir):
    writer = _writers.get(os.path.abspath(os.fspath(logdir)))
    if writer is not None:
        writer.flush()


def read_scalars(logdir, reader="the early-stopping reader"):
    """{step: {tag: value}} of the scalars in `logdir`'s event files (TF1 simple_value or TF2
    scalar tensors), steps ascending: what tf.estimator's early stopping read. `reader` names
    who reads, in the warning about a cut-off file."""
    found = collections.defaultdict(dict)
    pattern = os.path.join(os.fspath(logdir), "*.tfevents.*")
    for path in sorted(tf.io.gfile.glob(pattern)):
        for event in _complete_events(path, reader):
            for value in event.summary.value:
                if value.HasField("simple_value"):
                    found[event.step][value.tag] = value.simple_value
                elif value.HasField("tensor") and value.tensor.dtype in _FLOAT_DTYPES:
                    array = tf.make_ndarray(value.tensor)
                    if array.ndim == 0:
                        found[event.step][value.tag] = float(array)
    return collections.OrderedDict(sorted(found.items()))


def _complete_events(path, reader):
    """The events of one file up to a cut-off last record (a writer killed mid-write): what
    tf.estimator's readers did; warns once per file and reader."""
    try:
        for event in tf.compat.v1.train.summary_iterator(path):
            yield event
    except tf.errors.DataLossError as e:
        if (reader, path) not in _warned_truncated:
            _warned_truncated.add((reader, path))
            logger.warning("Event file %s ends in a cut-off record (%s); %s read what was "
                           "complete.", path, (e.message or "").splitlines()[0], reader)


_FLOAT_DTYPES = {tf.float16.as_datatype_enum, tf.float32.as_datatype_enum,
                 tf.float64.as_datatype_enum}
