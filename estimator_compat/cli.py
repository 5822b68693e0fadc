"""`estimator-compat` command: run legacy scripts, inspect a model_dir.

    estimator-compat run [--tf1|--tf2] SCRIPT.py [ARGS...]
    estimator-compat run [--tf1|--tf2] -m PACKAGE.MODULE [ARGS...]
        run a TF 1.x program as TensorFlow 1.15 did (its `import tensorflow` gets TF 1.x's API),
        or a TF 2.x estimator program as TensorFlow 2.15 did; which one is detected from the
        names the script uses, and said in one line on stderr. `-m` runs a module of a package
        as `python -m` does (`-m trainer.task`, the Cloud ML Engine layout).
    estimator-compat tensorboard-summary MODEL_DIR   last value of every scalar, per event dir
"""
import argparse
import os
import runpy
import sys


def run_script(script, args, force=None, module=None):
    """Runs `script` (or the module named `module`) as __main__ with `args` as its argv, with
    TF 1.x's API if it is a TF 1.x program (or `force` == 'tf1'), else TensorFlow 2's;
    estimator_compat.install() either way."""
    import estimator_compat
    from estimator_compat.legacy import detect, user_code
    estimator_compat.install()
    _numpy_1_printing()
    if module is not None:
        sys.path.insert(0, os.getcwd())  # as `python -m` puts the working directory first
        script = user_code.module_file(module)
    tf1, reason = detect.decide(script, force)
    print(f"estimator-compat: running {module or os.path.basename(script)} with TensorFlow "
          f"{'1.x' if tf1 else '2'}'s API: {reason}.", file=sys.stderr, flush=True)
    if tf1:
        user_code.run_script(script, args, module=module)
        return 0
    sys.argv = [script] + list(args)
    if module is not None:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


def _numpy_1_printing():
    """numpy scalars print as TensorFlow 1.15 and 2.15 printed them (numpy 1.x): a program's
    `print(estimator.evaluate(...))` shows `{'accuracy': 0.7775}`, not numpy 2's
    `{'accuracy': np.float32(0.7775)}`, which log scrapers would not read."""
    import numpy as np
    if int(np.__version__.split(".")[0]) >= 2:
        np.set_printoptions(legacy="1.25")


def tensorboard_summary(model_dir, out=None):
    """Prints, for model_dir and each eval*/ dir in it, the last step and value of each tag."""
    from estimator_compat import summaries
    out = out or sys.stdout
    dirs = [model_dir] + sorted(os.path.join(model_dir, d) for d in os.listdir(model_dir)
                                if d.startswith("eval") and os.path.isdir(os.path.join(model_dir, d)))
    found_any = False
    for logdir in dirs:
        last = {}
        for step, values in summaries.read_scalars(logdir, "tensorboard-summary").items():
            for tag, value in values.items():
                last[tag] = (step, value)
        if not last:
            continue
        found_any = True
        print(f"{os.path.relpath(logdir, model_dir) if logdir != model_dir else '.'}:", file=out)
        width = max(len(t) for t in last)
        for tag in sorted(last):
            step, value = last[tag]
            print(f"  {tag:<{width}}  step {step:>8}  {value:.6g}", file=out)
    if not found_any:
        print(f"No scalar summaries found in {model_dir}.", file=out)
    return 0 if found_any else 1


def _module_argument(argv):
    """`run [--tf1|--tf2] -m MODULE ARGS...`: takes `-m` out of argv (MODULE stays as the
    script argument); returns MODULE, or None."""
    if not argv or argv[0] != "run":
        return None
    i = 1
    while i < len(argv) and argv[i] in ("--tf1", "--tf2"):
        i += 1
    if i + 1 < len(argv) and argv[i] == "-m":
        del argv[i]
        return argv[i]
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(prog="estimator-compat", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a TF 1.x or tf.estimator program unchanged")
    api = run.add_mutually_exclusive_group()
    api.add_argument("--tf1", dest="force", action="store_const", const="tf1",
                     help="give the script TF 1.x's API whatever it looks like")
    api.add_argument("--tf2", dest="force", action="store_const", const="tf2",
                     help="give the script TensorFlow 2's API (tf.estimator from estimator_compat)")
    run.add_argument("script", metavar="SCRIPT.py | -m PACKAGE.MODULE")
    run.add_argument("args", nargs=argparse.REMAINDER)
    tb = sub.add_parser("tensorboard-summary", help="last value of each scalar in a model_dir")
    tb.add_argument("model_dir")
    argv = list(sys.argv[1:] if argv is None else argv)
    module = _module_argument(argv)
    args = parser.parse_args(argv)
    if args.command == "run":
        if module is not None:
            return run_script(None, args.args, args.force, module=module)
        if not os.path.isfile(args.script):
            parser.error(f"{args.script!r} is not a file")
        return run_script(args.script, args.args, args.force)
    if args.command == "tensorboard-summary":
        if not os.path.isdir(args.model_dir):
            parser.error(f"{args.model_dir!r} is not a directory")
        return tensorboard_summary(args.model_dir)
    return 2


if __name__ == "__main__":
    sys.exit(main())
