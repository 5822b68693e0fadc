"""tf.contrib.summary in a TF1 graph: the event files it writes (tags, steps, kinds, values)."""
import glob
import os
import sqlite3
import tempfile

import numpy as np


def _events(tf, logdir):
    """{'files': suffixes, tag: [{step, kind, plugin, value}, ...]} of logdir's event files."""
    out = {"files": sorted(os.path.basename(p).split(".")[-1]
                           for p in glob.glob(os.path.join(logdir, "events.out.tfevents.*")))}
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            if event.HasField("graph_def"):
                out.setdefault("graph_def", []).append(event.step)
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                if kind == "simple_value":
                    number = [value.simple_value]
                elif kind == "histo":
                    number = [value.histo.num, value.histo.sum, value.histo.min, value.histo.max]
                elif kind == "image":
                    number = [value.image.height, value.image.width, value.image.colorspace]
                elif kind == "audio":
                    number = [value.audio.sample_rate, value.audio.num_channels,
                              value.audio.length_frames]
                else:
                    number = np.asarray(tf.make_ndarray(value.tensor), np.float64).ravel().tolist()
                plugin = value.metadata.plugin_data.plugin_name
                out.setdefault(value.tag, []).append(
                    {"step": event.step, "kind": kind, "plugin": plugin, "value": number})
    return out


def _writer_run(tf, logdir, writer, ops):
    def run(sess):
        sess.run(tf.contrib.summary.summary_writer_initializer_op())
        sess.run(ops)
        sess.run(tf.contrib.summary.flush(writer))
        return _events(tf, logdir)
    return run


def case_scalar_histogram_image_audio_generic(tf):
    logdir = tempfile.mkdtemp()
    writer = tf.contrib.summary.create_file_writer(logdir, max_queue=3)
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
        tf.contrib.summary.scalar("loss", tf.constant(0.25), step=7)
        tf.contrib.summary.scalar("lr", tf.constant(3, tf.int64), family="opt", step=7)
        tf.contrib.summary.histogram("weights", tf.constant([1.0, 2.0, 4.0]), step=7)
        tf.contrib.summary.image("pic", tf.zeros([2, 4, 5, 3]), max_images=1, step=7)
        tf.contrib.summary.audio("sound", tf.zeros([1, 8, 2]), 16000, 1, step=7)
        tf.contrib.summary.generic("vec", tf.constant([1.0, 2.0]), step=7)
        ops = tf.contrib.summary.all_summary_ops()
    assert len(ops) == 6
    run = _writer_run(tf, logdir, writer, ops)
    return lambda sess: {"events": run(sess), "n_ops": len(ops),
                         "init_ops": len(tf.contrib.summary.summary_writer_initializer_op())}


def case_global_step_and_every_n(tf):
    logdir = tempfile.mkdtemp()
    step = tf.train.get_or_create_global_step()
    writer = tf.contrib.summary.create_file_writer(logdir)
    with writer.as_default(), tf.contrib.summary.record_summaries_every_n_global_steps(2):
        written = tf.contrib.summary.scalar("x", tf.cast(step, tf.float32) * 2.0)
        should = tf.contrib.summary.should_record_summaries()
    with tf.control_dependencies([written]):
        advance = tf.assign_add(step, 1)

    def run(sess):
        sess.run(tf.contrib.summary.summary_writer_initializer_op())
        recorded = [bool(sess.run([should, advance])[0]) for _ in range(5)]
        sess.run(tf.contrib.summary.flush(writer))
        return {"events": _events(tf, logdir), "should": recorded}
    return run


def case_never_record(tf):
    logdir = tempfile.mkdtemp()
    writer = tf.contrib.summary.create_file_writer(logdir, filename_suffix=".mine")
    with writer.as_default(), tf.contrib.summary.never_record_summaries():
        op = tf.contrib.summary.scalar("x", tf.constant(1.0), step=1)
        should = tf.contrib.summary.should_record_summaries()
    with tf.contrib.summary.always_record_summaries():
        always = tf.contrib.summary.should_record_summaries()
    run = _writer_run(tf, logdir, writer, op)
    return lambda sess: {"events": run(sess), "should": sess.run([should, always])}


def case_no_writer_is_a_no_op(tf):
    with tf.contrib.summary.always_record_summaries():
        op = tf.contrib.summary.scalar("x", tf.constant(1.0), step=1)
    return {"type": op.type, "all": len(tf.contrib.summary.all_summary_ops())}


def case_graph_initialize_and_import_event(tf):
    logdir = tempfile.mkdtemp()
    tf.constant(1.0, name="some_constant")
    writer = tf.contrib.summary.create_summary_file_writer(logdir)
    event = tf.Event(step=11, wall_time=5.0)
    event.summary.value.add(tag="imported", simple_value=2.5)
    with writer.as_default():
        imported = tf.contrib.summary.import_event(tf.constant(event.SerializeToString()))
        graph_op = tf.contrib.summary.graph(
            tf.constant(tf.get_default_graph().as_graph_def().SerializeToString()), step=3)

    def run(sess):
        with writer.as_default():
            tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)
        sess.run([imported, graph_op])
        sess.run(writer.flush())
        return _events(tf, logdir)
    return run


def case_graph_of_a_graph_def_raises(tf):
    with tf.contrib.summary.create_file_writer(tempfile.mkdtemp()).as_default():
        return {"op": tf.contrib.summary.graph(tf.get_default_graph().as_graph_def(), step=3)}


def case_initialize_without_writer_raises(tf):
    def run(sess):
        tf.contrib.summary.initialize(session=sess)
    return run


def case_eval_dir_and_writer_class(tf):
    writer = tf.contrib.summary.create_file_writer(None)
    return {"eval_dir": tf.contrib.summary.eval_dir("/tmp/model"),
            "eval_dir_named": tf.contrib.summary.eval_dir("/tmp/model", name="other"),
            "is_writer": isinstance(writer, tf.contrib.summary.SummaryWriter)}


def case_db_writer(tf):
    path = os.path.join(tempfile.mkdtemp(), "summaries.sqlite")
    writer = tf.contrib.summary.create_db_writer(path, experiment_name="exp", run_name="run1",
                                                 user_name="me")
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
        op = tf.contrib.summary.scalar("loss", tf.constant(1.5), step=3)

    def run(sess):
        sess.run(tf.contrib.summary.summary_writer_initializer_op())
        sess.run(op)
        sess.run(tf.contrib.summary.flush(writer))
        db = sqlite3.connect(path)
        return {"experiments": [r[-1] for r in db.execute("SELECT * FROM Experiments")],
                "runs": [r[-1] for r in db.execute("SELECT * FROM Runs")],
                "users": [r[3] for r in db.execute("SELECT * FROM Users")],
                "tags": [{"tag": r[4], "plugin": r[6]} for r in db.execute("SELECT * FROM Tags")],
                "steps": [r[2] for r in db.execute("SELECT * FROM Tensors WHERE step IS NOT NULL")]}
    return run


def case_db_writer_bad_user_raises(tf):
    return tf.contrib.summary.create_db_writer("/tmp/x.sqlite", user_name="Not A User")
