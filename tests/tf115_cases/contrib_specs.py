"""tf.contrib.specs cases (TF 1.15 style, Python 3.7): nets built from spec strings (values with
deterministic initializers, slim's variable names and shapes), the summaries' strings and
counts, the parameter language's seeded draws, LocalImport, and the errors' messages."""
import contextlib
import io
import random

import numpy as np


def _init(tf):
    """A deterministic, non-constant initializer (works as get_variable's in both)."""
    def init(shape, dtype=None, partition_info=None):
        n = int(np.prod(shape))
        return tf.constant((np.sin(np.arange(n) * 0.7) * 0.5).reshape(shape), tf.float32)
    return init


def _images(shape):
    return (np.cos(np.arange(int(np.prod(shape))) * 0.3)).reshape(shape).astype(np.float32)


def _captured(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue().splitlines()


def case_conv_net_and_summaries(tf):
    specs = tf.contrib.specs
    env = {"w": _init(tf), "b": tf.constant_initializer(0.05)}
    spec = ("net = (Cr(4, [3, 3], weights_initializer=w, biases_initializer=b) | Mp([2, 2])) ** 2"
            " | Reshape([2, -1]) | Fs(5, weights_initializer=w) | Fl(3, weights_initializer=w)")
    x = tf.constant(_images([2, 8, 8, 3]))
    net = specs.create_net(spec, x, env)
    lines = []
    specs.tf_parameter_summary(net, printer=lines.append)
    uncombined = []
    specs.tf_parameter_summary(net, printer=uncombined.append, combine=False)
    printed = []
    specs.tf_print(net, printer=printed.append)
    return {
        "net": net,
        "structure": specs.tf_structure(net),
        "structure_shapes": specs.tf_structure(net, include_shapes=True),
        "num_params": specs.tf_num_params(net),
        "summary": lines,
        "summary_uncombined": uncombined,
        "printed": printed,
        "iter": ["%s %d %s" % row for row in specs.tf_parameter_iter(net)],
        "left_split": str(specs.tf_left_split(net.op)[0].op.name),
    }


def case_spec_strings(tf):
    specs = tf.contrib.specs
    spec = "net = Cx(3, [1, 1]) | Flat | Fl(4) | Smax"
    structure = specs.tf_spec_structure(spec, input_shape=[2, 5, 5, 1])
    summary = _captured(specs.tf_spec_summary, "net = Fr(6) | Fs(2)", None, [3, 4])
    printed = _captured(specs.tf_spec_print, "net = Ft(2) | Sig", None, [3, 4])
    return {"structure": structure, "summary": summary, "printed": printed,
            "short": " ".join(specs.SHORT_NAMES_SRC),
            "shorts": ["%s=%s" % kv for kv in sorted(specs.SHORT_NAMES.items())]}


def case_layer_vocabulary(tf):
    specs = tf.contrib.specs
    env = {"w": _init(tf), "tf_sum": tf.reduce_sum}
    spec = "\n".join([
        "a = Cs(2, [3, 3], weights_initializer=w) | Ap([2, 2]) | Ct(2, 1, weights_initializer=w)",
        "b = Cm(3, [1, 1], weights_initializer=w) + Cl(3, [1, 1], weights_initializer=w)",
        "c = Conc(3, Idx(), Dws(2), Dwm(2)) | Unit(dim=3) | Lrn()",
        "d = Cx(3, [1, 1], weights_initializer=w) * (Relu | Sig | Tanh)",
        "e = Flat | Fx(4, weights_initializer=w) | Ft(3, weights_initializer=w)"
        " | Fr(3, weights_initializer=w) | Fm(2, weights_initializer=w) | Id | Print([], 'p: ')",
        "f = Flat | Reshape([2, -1]) | Expand(1) | Transpose([1, 0, 2]) | Squeeze([0])"
        " | Fun(tf_sum)",
        "g = Do(0.5, is_training=False) | Cx(1, [2, 2], padding='VALID', weights_initializer=w)",
        "h = Bn(is_training=False) ** 2 | Fun(tf_sum)",
        "z = Relu ** 0",
    ])
    bindings = specs.eval_spec(spec, env)
    x = tf.constant(_images([2, 4, 4, 3]) - 0.2)
    # Dws / Dwm take no initializer: slim's arg_scope gives them one
    with tf.contrib.framework.arg_scope([specs.layers.conv2d], weights_initializer=env["w"]):
        return {k: bindings[k].funcall(x) for k in "abcdefghz"}


def case_shared_and_var(tf):
    specs = tf.contrib.specs
    specs.Shared.shared_number = 1
    env = {"w": _init(tf), "c": tf.constant_initializer(0.5)}
    spec = ("f = Shared(Fr(3, weights_initializer=w)); g = Shared(Ft(3, weights_initializer=w))\n"
            "net = f | g | f | g | Fl(2, weights_initializer=w)\n"
            "v = Var('v', [2, 2], initializer=c)")
    bindings = specs.eval_spec(spec, env)
    x = tf.constant(_images([2, 3]))
    with tf.variable_scope("outer") as scope:
        tf.get_variable("u", [3], initializer=env["c"])
    shared_scope = specs.Shared(specs.Var("u"), scope=scope).funcall(x)
    return {"net": bindings["net"].funcall(x), "v": bindings["v"].funcall(None),
            "name": bindings["f"].name, "next": specs.Shared.shared_number,
            "scoped": shared_scope}


def case_params_and_bindings(tf):
    specs = tf.contrib.specs
    random.seed(3)
    params = specs.eval_params(
        "n = Ui(1, 100); u = Uf(); v = Uf(2, 3); g = Lf(1, 100); h = Li(1, 100)\n"
        "k = Nt(0, 1); t = Nt(5, 0.001, limit=1.0); p = pi + e; s = sqrt(16) + floor(2.5)",
        {"given": 7})
    random.seed(3)
    ops = specs.params_ops
    direct = [ops.Ui(1, 100), ops.Uf(), ops.Uf(2, 3), ops.Lf(1, 100), ops.Li(1, 100),
              ops.Nt(0, 1)]
    values = [float(params[k]) for k in sorted(params) if k != "__builtins__"]
    fun = specs.create_net_fun("net = Fun(tf_mul, 3.0) | Fun(tf_add)(_0=1.0)",
                               {"tf_mul": tf.multiply, "tf_add": tf.add})
    pos = specs.get_positional([1, None], {"_1": 5, "_3": 6, "k": 2})
    pos_over = specs.get_positional([1, 2], {"_1": 5}, kw_overrides=True)
    ext = specs.External("math", "sqrt").funcall(9.0)
    imp = specs.Import("def f(x, k=2):\n  return x * k").funcall(4)
    comp = (specs.Callable(lambda x: x + 1) | specs.Fun(lambda x, a: x * a)(3)) ** 2
    return {"params": values, "direct": [float(d) for d in direct], "net": fun(tf.constant(2.0)),
            "pos": [repr(p) for p in pos], "pos_over": [repr(p) for p in pos_over],
            "ext": ext, "imp": imp, "comp": comp.funcall(1),
            "sum": (specs.Callable(lambda x: x) + specs.Callable(lambda x: 2 * x)).funcall(5),
            "keys": sorted(k for k in params if k != "__builtins__")}


def case_local_import_and_debug(tf):
    specs = tf.contrib.specs
    x = tf.constant(_images([2, 3]))
    with specs.specs.ops:
        inside = sorted(k for k in ("Cr", "Fl", "Shared", "Var") if k in globals())
        built = globals()["Fl"](2, weights_initializer=_init(tf)).funcall(x)
    outside = sorted(k for k in ("Cr", "Fl", "Shared", "Var") if k in globals())
    lines = []
    specs.debug()
    try:
        lines = _captured(specs.create_net, "net = Fun(tf_neg)", x, {"tf_neg": tf.negative})
    finally:
        specs.debug(False)
    return {"inside": inside, "outside": outside, "net": built,
            "debug": [line.split(" ")[0] for line in lines], "debug_flag": specs.specs_lib.debug_}


def case_errors(tf):
    specs = tf.contrib.specs
    attempts = {
        "keyword": lambda: specs.check_keywords("net = Cr(3)\nimport os"),
        "keyword_exec": lambda: specs.eval_params("exec('x=1')"),
        "no_net": lambda: specs.create_net("left = Fl(2)", tf.zeros([1, 2])),
        "shared_name": lambda: specs.Shared(specs.Id, name="mine"),
        "shared_scope": lambda: specs.Shared(specs.Id, scope="mine"),
        "not_callable": lambda: specs.Fun(3),
        "import": lambda: specs.Import("g = 1"),
    }
    out = {}
    for name, attempt in sorted(attempts.items()):
        try:
            attempt()
            out[name] = "no error"
        except ValueError as error:
            out[name] = str(error)
    out["quoted_ok"] = str(specs.check_keywords("net = Fun(f, 'import def')"))
    return out
