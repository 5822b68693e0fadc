"""Cases for the small tf.contrib modules (staging, batching, input_pipeline, memory_stats,
compiler, copy_graph, stat_summarizer, tfprof, testing, autograph), as TF 1.15 ran them.

TF 1.15's `tf.contrib.compiler.jit` / `.xla` submodules' public names are listed here
(`COMPILER_SUBMODULE_NAMES`, read from TF 1.15.5: the census lists only the top level)."""
import os
import tempfile

import numpy as np

COMPILER_SUBMODULE_NAMES = {
    "jit": ["absolute_import", "division", "experimental_jit_scope", "jit", "print_function"],
    "xla": ["absolute_import", "array_ops", "check_function_argument_count", "compile",
            "division", "estimator_model_fn", "function_utils", "logging", "model_fn_lib",
            "ops", "print_function", "tf_decorator", "xla"],
}


def case_staging_area(tf):
    area = tf.contrib.staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []],
                                          capacity=3)
    x = tf.placeholder(tf.float32, [2])
    put = area.put([x, tf.constant(7)])
    peek = area.peek(0)
    got = area.get()
    size = area.size()
    clear = area.clear()
    named = tf.contrib.staging.StagingArea([tf.float32], names=["a"], shapes=[[2]])
    put_named = named.put({"a": x})
    got_named = named.get()

    def run(sess):
        sess.run(put, {x: [1.0, 2.0]})
        sess.run(put, {x: [3.0, 4.0]})
        out = {"size2": sess.run(size), "peek": sess.run(peek)[0]}
        out["get_x"], out["get_n"] = sess.run(got)
        out["size1"] = sess.run(size)
        sess.run(clear)
        out["cleared"] = sess.run(size)
        sess.run(put_named, {x: [5.0, 6.0]})
        out["named"] = sess.run(got_named)
        out["names"] = [area.name, put.name, got[0].name.split(":")[0]]
        out["dtypes"] = [d.name for d in area.dtypes]
        return out
    return run


def case_staging_area_put_checks(tf):
    area = tf.contrib.staging.StagingArea([tf.float32], shapes=[[2]])
    area.put([tf.constant([1.0, 2.0, 3.0])])


def case_batch_function(tf):
    @tf.contrib.batching.batch_function(1, 4, 100000)
    def times_ten(a, b):
        return a * 10.0 + b
    out = times_ten(tf.constant([[1.0], [2.0]]), tf.constant([[0.5], [0.25]]))
    return {"out": out}


def case_batch_function_larger_than_max(tf):
    @tf.contrib.batching.batch_function(1, 2, 100000)
    def double(a):
        return a * 2.0
    return {"out": double(tf.constant([[1.0], [2.0], [3.0]]))}


def case_obtain_next(tf):
    counter = tf.Variable(tf.constant(-1, tf.int64), name="counter")
    strings = tf.constant(["a", "b", "c"])
    element = tf.contrib.input_pipeline.obtain_next(strings, counter)

    def run(sess):
        seen = [sess.run(element) for _ in range(5)]
        return {"seen": seen, "counter": sess.run(counter), "shape": element.shape.as_list(),
                "dtype": element.dtype.name}
    return run


def case_memory_stats_without_gpu(tf):
    ms = tf.contrib.memory_stats
    ops = [ms.BytesInUse(), ms.BytesLimit(), ms.MaxBytesInUse()]
    return {"bytes": ops[0], "shapes": [o.shape.as_list() for o in ops],
            "dtypes": [o.dtype.name for o in ops]}


def case_compiler(tf):
    jit = tf.contrib.compiler.jit
    xla = tf.contrib.compiler.xla
    x = tf.constant([1.0, 2.0, 3.0])
    with jit.experimental_jit_scope():
        scoped = x * 3.0
    with jit.experimental_jit_scope(compile_ops=False, separate_compiled_gradients=True):
        off = x + 1.0
    (compiled,) = xla.compile(lambda a: [a * 2.0 + 1.0], [x])
    two = xla.compile(lambda a, b: (a + b, a * b), [x, x])
    names = {m: sorted(n for n in dir(getattr(tf.contrib.compiler, m)) if not n.startswith("_")
                       and n in COMPILER_SUBMODULE_NAMES[m])
             for m in COMPILER_SUBMODULE_NAMES}
    return {"scoped": scoped, "compiled": compiled, "two": list(two),
            "attrs": [scoped.op.get_attr("_XlaCompile"), off.op.get_attr("_XlaCompile")],
            "names": names == COMPILER_SUBMODULE_NAMES}


def _xla_model_fn(tf):
    def model_fn(features, labels, mode, params):
        w = tf.get_variable("w", [2], initializer=tf.constant_initializer([0.5, -0.5]),
                            use_resource=True)
        loss = tf.reduce_sum(tf.square(features * w - labels))
        if mode != tf.estimator.ModeKeys.TRAIN:
            return tf.estimator.EstimatorSpec(mode=mode, loss=loss)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    return tf.contrib.compiler.xla.estimator_model_fn(model_fn)


def case_xla_estimator_model_fn_train(tf):
    model_fn = _xla_model_fn(tf)
    spec = model_fn(tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0]),
                    tf.estimator.ModeKeys.TRAIN, {})

    def run(sess):
        losses = [sess.run(spec.train_op) for _ in range(3)]
        w = [v for v in tf.global_variables() if v.op.name == "w"][0]
        return {"losses": losses, "w": sess.run(w), "loss_is_output": spec.loss is not None,
                "name": model_fn.__name__}
    return run


def case_xla_estimator_model_fn_eval_and_uncompiled(tf):
    model_fn = _xla_model_fn(tf)
    features, labels = tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0])
    spec = model_fn(features, labels, tf.estimator.ModeKeys.EVAL, {})
    with tf.variable_scope("plain"):
        plain = model_fn(features, labels, tf.estimator.ModeKeys.EVAL, {"use_tpu": True})
    return {"loss": spec.loss, "plain": plain.loss, "metrics": spec.eval_metric_ops or {},
            "compiled_op": spec.loss.op.type != plain.loss.op.type}


def case_xla_estimator_model_fn_rejects_predict(tf):
    _xla_model_fn(tf)(tf.constant([1.0, 2.0]), None, tf.estimator.ModeKeys.PREDICT, {})


def case_copy_graph(tf):
    cg = tf.contrib.copy_graph
    v = tf.Variable(tf.constant([1.0, 2.0]), name="v")
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.add(v * x, 1.0, name="y")
    tf.add_to_collection("outputs", y)
    other = tf.Graph()
    v2 = cg.copy_variable_to_graph(v, other, "copy")
    y2 = cg.copy_op_to_graph(y, other, [v2], "copy")
    again = cg.copy_op_to_graph(y, other, [v2], "copy")
    found = cg.get_copied_op(y, other, "copy")
    with other.as_default():
        init = tf.global_variables_initializer()
        collections = sorted(other.get_all_collection_keys())
        trainable = [t.name for t in tf.trainable_variables()]

    def run(sess):
        with tf.Session(graph=other) as copy_sess:
            copy_sess.run(init)
            value = copy_sess.run(y2, {other.get_tensor_by_name("copy/x:0"): [3.0, 4.0]})
        return {"value": value, "names": [v2.name, y2.name, found.name],
                "same": [again is y2, found is y2], "collections": collections,
                "trainable": trainable, "original": sess.run(y, {x: [3.0, 4.0]})}
    return run


def case_copy_variable_rejects_tensor(tf):
    tf.contrib.copy_graph.copy_variable_to_graph(tf.constant(1.0), tf.Graph())


def case_stat_summarizer(tf):
    ss_module = tf.contrib.stat_summarizer
    x = tf.placeholder(tf.float32, [1, 2])
    y = tf.matmul(x, tf.transpose(x), name="mm")

    def run(sess):
        meta = tf.RunMetadata()
        sess.run(y, {x: [[1.0, 2.0]]}, run_metadata=meta,
                 options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE))
        ss = ss_module.NewStatSummarizer(b"unused")
        empty = ss.GetOutputString()
        ss.ProcessStepStatsStr(meta.step_stats.SerializeToString())
        text = ss.GetOutputString()
        ss_module.DeleteStatSummarizer(ss)
        direct = ss_module.StatSummarizer()
        direct.ProcessStepStatsStr(meta.step_stats.SerializeToString())
        return {"empty_counts": "count=0" in empty, "has_matmul": "MatMul" in text,
                "direct": "MatMul" in direct.GetOutputString(), "observed": "observed" in text,
                "class": type(ss).__name__}
    return run


def case_stat_summarizer_wants_bytes(tf):
    tf.contrib.stat_summarizer.NewStatSummarizer("not bytes")


def case_tfprof(tf):
    tfprof = tf.contrib.tfprof
    w = tf.get_variable("w", initializer=tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    y = tf.reduce_sum(tf.matmul(w, w))
    logdir = tempfile.mkdtemp()

    def run(sess):
        options = tf.profiler.ProfileOptionBuilder(
            tf.profiler.ProfileOptionBuilder.trainable_variables_parameter()).with_empty_output(
            ).build()
        with tfprof.ProfileContext(logdir, trace_steps=[1], dump_steps=[1]) as pctx:
            pctx.add_auto_profiling("scope", options, [1])
            values = [sess.run(y) for _ in range(3)]
            profiles = pctx.get_profiles("scope")
        params = profiles[1].total_parameters
        analysis = tfprof.model_analyzer.print_model_analysis(
            tf.get_default_graph(), tfprof_options=dict(
                tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS, output="none"))
        tfprof.tfprof_logger.write_op_log(tf.get_default_graph(), logdir)
        return {"values": values, "profiled_steps": sorted(profiles), "params": params,
                "analysis_params": analysis.total_parameters,
                "files": sorted(os.listdir(logdir)),
                "float_ops_select": tfprof.model_analyzer.FLOAT_OPS_OPTIONS["select"],
                "timing_min": tfprof.model_analyzer.PRINT_ALL_TIMING_MEMORY["min_micros"],
                "advice": sorted(tfprof.model_analyzer.ALL_ADVICE),
                "run_restored": "profile_context" not in vars(tf.Session.__mro__[-2]) or
                tf.Session.__mro__[-2].profile_context is None}
    return run


def case_tfprof_needs_a_dir(tf):
    tf.contrib.tfprof.ProfileContext("")


def case_testing_helpers(tf):
    testing = tf.contrib.testing
    logdir = tempfile.mkdtemp()
    summary = tf.summary.merge([tf.summary.scalar("a", tf.constant(1.5)),
                                tf.summary.scalar("b", tf.constant(2.0))])

    def run(sess):
        writer = tf.summary.FileWriter(logdir)
        for step in (1, 3, 2):
            writer.add_summary(sess.run(summary), step)
        writer.close()
        proto = testing.to_summary_proto(sess.run(summary))
        testing.assert_summary(["a", "b"], {"a": 1.5}, proto)
        try:
            testing.assert_summary(["a"], {}, proto)
            mismatch = "none"
        except ValueError as error:
            mismatch = type(error).__name__
        events = list(testing.latest_events(logdir))
        summaries = testing.latest_summaries(logdir)
        return {"tags": [v.tag for v in proto.value],
                "latest": os.path.basename(testing.latest_event_file(logdir))[:18],
                "none": testing.latest_event_file(tempfile.mkdtemp()) is None,
                "events": len(events), "summaries": [e.step for e in summaries],
                "simple": testing.simple_values_from_events(summaries, ["a", "b"]),
                "mismatch": mismatch, "modules": [testing.np is np, testing.os is os,
                                                  testing.glob.__name__]}
    return run


def case_fake_summary_writer(tf):
    testing = tf.contrib.testing
    testing.FakeSummaryWriter.install()
    try:
        fake = testing.writer.FileWriter("/fake/dir", graph=None)
        cached = tf.summary.FileWriterCache.get("/fake/cached")
        summary = tf.summary.scalar("loss", tf.constant(0.25))
        kind = [type(fake).__name__, type(cached).__name__]
    finally:
        testing.FakeSummaryWriter.uninstall()

    def run(sess):
        fake.add_summary(sess.run(summary), 5)
        fake.add_graph(tf.get_default_graph())
        fake.add_session_log(tf.SessionLog(status=tf.SessionLog.START), 5)
        try:
            fake.add_graph(None, global_step=-1)
            bad_step = "none"
        except ValueError as error:
            bad_step = str(error)
        try:
            testing.FakeSummaryWriter.uninstall()
            twice = "none"
        except ValueError as error:
            twice = str(error)
        return {"kind": kind, "steps": sorted(fake.summaries),
                "tag": fake.summaries[5][0].value[0].tag,
                "value": fake.summaries[5][0].value[0].simple_value, "bad_step": bad_step,
                "twice": twice, "restored": testing.writer.FileWriter.__name__}
    return run


def case_autograph(tf):
    ag = tf.contrib.autograph

    def total(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += i
        return s

    def halve(x):
        if x > 10:
            x = x // 2
        return x

    @ag.do_not_convert
    def plain(x):
        return x + 1

    graph_total = ag.to_graph(total)
    code = ag.to_code(halve)
    called = ag.converted_call(halve, ag.ConversionOptions(recursive=True),
                               (tf.constant(30),), {})
    listed = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
    return {"total": graph_total(tf.constant(5)), "called": called, "stacked": ag.stack(listed),
            "plain": plain(1), "code_is_text": isinstance(code, str) and "def " in code,
            "features": sorted(f.value for f in ag.Feature),
            "error_is_exception": issubclass(ag.AutoGraphError, Exception),
            "modules": [hasattr(ag.operators, "for_stmt"), hasattr(ag.utils, "ag_logging")],
            "mapper": callable(getattr(ag.StackTraceMapper, "get_effective_source_map", None)),
            "convert": callable(ag.convert(recursive=True)(halve))}


def case_autograph_directives(tf):
    ag = tf.contrib.autograph
    return {"element": ag.set_element_type([], tf.int32) is None,
            "loop": ag.set_loop_options(parallel_iterations=1, maximum_iterations=10) is None}


def case_autograph_stack_of_a_python_list(tf):
    tf.contrib.autograph.stack([tf.constant(1.0), tf.constant(2.0)])
