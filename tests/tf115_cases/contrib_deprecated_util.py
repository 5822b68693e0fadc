"""tf.contrib.deprecated's summary ops and tf.contrib.util, as TF 1.15 ran them."""


def case_deprecated_summaries(tf):
    d = tf.contrib.deprecated
    s1 = d.scalar_summary(["a", "b"], tf.constant([1.0, 2.0]))
    s2 = d.histogram_summary("h", tf.constant([1.0, 2.0, 3.0]))
    s3 = d.image_summary("img", tf.zeros([2, 4, 4, 1]), max_images=1)
    s4 = d.audio_summary("aud", tf.zeros([1, 10]), sample_rate=16000)
    merged = d.merge_summary([s1, s2])
    every = d.merge_all_summaries()
    ops = [t.op.type + " " + t.op.name for t in (s1, s2, s3, s4, merged, every)]

    def run(sess):
        tags = []
        for out in sess.run([merged, s3, every]):
            summary = tf.Summary()
            summary.ParseFromString(out)
            tags.append([v.tag for v in summary.value])
        return {"ops": ops, "tags": tags}
    return run


def case_merge_all_of_an_empty_collection(tf):
    return {"none": str(tf.contrib.deprecated.merge_all_summaries("nothing_here"))}


def case_util(tf):
    u = tf.contrib.util
    tf.constant([1, 2], name="c")
    graph_def = tf.get_default_graph().as_graph_def()
    return {"static": u.constant_value(tf.constant([1, 2])).tolist(),
            "ndarray": u.make_ndarray(u.make_tensor_proto([1.5, 2.0])).tolist(),
            "ops": sorted(u.ops_used_by_graph_def(graph_def)),
            "stripped": sorted(op.name for op in u.stripped_op_list_for_graph(graph_def).op),
            "loader": u.loader.load_op_library.__name__}
