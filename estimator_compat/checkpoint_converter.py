"""tensorflow_estimator 2.15's `tools/checkpoint_converter`: rewrites a checkpoint of a TF1
canned estimator (tf.compat.v1.estimator DNN*, Linear*, DNNLinearCombined*) with the variable
names its V2 class (Keras optimizers) reads, so `tf.estimator.DNNClassifier` & co. can go on
from it.

    python -m estimator_compat.checkpoint_converter {dnn,linear,combined} SOURCE_CKPT GRAPH TARGET

(also served as `tensorflow_estimator.python.estimator.tools.checkpoint_converter`, whose
`convert_checkpoint` / `main` these are). What it writes, as 2.15's tool did:
- the model's variables and `global_step`, unchanged;
- each optimizer slot `<var>[/t_0|/part_0]/<Slot>` as `training/<Opt>/<var>/<slot>`
  (Adagrad: accumulator; Adam: m, v; Ftrl: accumulator, linear; RMSProp: rms, its momentum
  slot dropped); the optimizer is read from the slot names, SGD where there are none (a
  Momentum model's slots stay as they were);
- the V2 optimizer's hyperparameters as float32 variables `training/<Opt>/<name>` with the
  Keras optimizer's defaults (2.15 looked them up in the graph under names a TF1 graph never
  has, so it always wrote the defaults), Adam's `beta_1` / `beta_2` as
  `beta1_power ** (1 / global_step)`;
- for `combined`: the dnn/ and linear/ optimizers each converted, every source variable kept
  under its old name too, and `training/<linear Opt>/iter` = global_step.
"""
import argparse
import logging
import sys

import numpy as np
import tensorflow as tf
from google.protobuf import text_format

v1 = tf.compat.v1
logger = logging.getLogger("tensorflow")

ESTIMATOR_TYPES = ("dnn", "linear", "combined")
# TF1 slot name -> (Keras optimizer name, {TF1 slot variable suffix: Keras slot name or None})
_SLOTS = {
    "Adagrad": ("Adagrad", {"Adagrad": "accumulator"}),
    "Adam": ("Adam", {"Adam": "m", "Adam_1": "v"}),
    "Ftrl": ("Ftrl", {"Ftrl": "accumulator", "Ftrl_1": "linear"}),
    "RMSProp": ("RMSprop", {"RMSProp": "rms", "RMSProp_1": None}),
}
# the Keras (legacy) optimizers' default hyperparameters, as 2.15 wrote them
_HYPER_PARAMETERS = {
    "Adagrad": {"decay": 0.0, "learning_rate": 0.001},
    "Adam": {"decay": 0.0, "learning_rate": 0.001},
    "Ftrl": {"beta": 0.0, "decay": 0.0, "l1_regularization_strength": 0.0,
             "l2_regularization_strength": 0.0, "learning_rate": 0.001,
             "learning_rate_power": -0.5},
    "RMSprop": {"decay": 0.0, "learning_rate": 0.001, "momentum": 0.0, "rho": 0.9},
    "SGD": {"decay": 0.0, "learning_rate": 0.01, "momentum": 0.0},
}
_BETA_POWERS = {"beta1_power": "beta_1", "beta2_power": "beta_2"}


def convert_checkpoint(estimator_type, source_checkpoint, source_graph, target_checkpoint):
    """Writes `target_checkpoint` (a checkpoint prefix, e.g. `<dir>/model.ckpt-100`): the V2
    canned estimator's names for the TF1 canned estimator checkpoint `source_checkpoint`
    (its `graph.pbtxt` is `source_graph`). `estimator_type`: 'dnn', 'linear' or 'combined'."""
    if estimator_type not in ESTIMATOR_TYPES:
        raise ValueError(f"estimator_type must be one of {', '.join(ESTIMATOR_TYPES)} (the "
                         f"canned estimator that wrote the checkpoint), given "
                         f"{estimator_type!r}.")
    reader = tf.train.load_checkpoint(source_checkpoint)
    with tf.io.gfile.GFile(source_graph) as f:  # read as 2.15 did: a bad graph file fails here
        text_format.Parse(f.read(), v1.GraphDef())
    names = sorted(reader.get_variable_to_shape_map())
    if v1.GraphKeys.GLOBAL_STEP not in names:
        raise ValueError(f"{source_checkpoint} has no global_step: it is not a checkpoint a "
                         "canned estimator wrote.")
    step = int(reader.get_tensor(v1.GraphKeys.GLOBAL_STEP))
    if estimator_type == "combined":
        groups = [([n for n in names if n.startswith("dnn/")], False),
                  ([n for n in names if n.startswith("linear/")], True)]
    else:
        groups = [(names, False)]
    out, dropped = {}, set()
    for group, counts_iterations in groups:
        optimizer = _optimizer_of(group)
        logger.info("Converting the %s optimizer's variables to %s.", optimizer,
                    _SLOTS.get(optimizer, ("SGD",))[0])
        dropped |= _convert_optimizer(reader, names, group, optimizer, step, out)
        if counts_iterations:
            out[f"training/{_SLOTS.get(optimizer, ('SGD',))[0]}/iter"] = np.int64(step)
    for name in names:
        if estimator_type == "combined" or name not in dropped:
            out.setdefault(name, reader.get_tensor(name))
    _write(out, target_checkpoint)
    logger.info("Wrote the converted checkpoint %s.", target_checkpoint)


def _optimizer_of(names):
    """The TF1 optimizer whose slots `names` hold (None: no slots, i.e. SGD)."""
    for name in names:
        slot = name.rsplit("/", 1)[-1]
        for optimizer, (_, suffixes) in _SLOTS.items():
            if slot in suffixes:
                return optimizer
    return None


def _convert_optimizer(reader, all_names, group, optimizer, step, out):
    """Adds the Keras optimizer's slots and hyperparameters to `out`; returns the TF1 names
    they replace."""
    keras_name, suffixes = _SLOTS.get(optimizer, ("SGD", {}))
    replaced = set()
    for name in group:
        base, _, slot = name.rpartition("/")
        if slot not in suffixes:
            continue
        replaced.add(name)
        head, _, last = base.rpartition("/")
        if head in all_names and last.startswith(("t_", "part_")):
            base = head
        if suffixes[slot] is not None:
            out[f"training/{keras_name}/{base}/{suffixes[slot]}"] = reader.get_tensor(name)
    for hyper, value in _HYPER_PARAMETERS[keras_name].items():
        out[f"training/{keras_name}/{hyper}"] = np.float32(value)
    if optimizer == "Adam":
        for name in all_names:
            power = name.rsplit("/", 1)[-1]
            if power in _BETA_POWERS:
                replaced.add(name)
                value = np.power(np.float64(reader.get_tensor(name)), 1.0 / step)
                out[f"training/Adam/{_BETA_POWERS[power]}"] = np.float32(value)
    return replaced


def _write(values, target_checkpoint):
    """Saves {name: value} at `target_checkpoint` (values fed, not baked into the graph)."""
    with tf.Graph().as_default():
        variables, feeds, inits = {}, {}, []
        for i, (name, value) in enumerate(sorted(values.items())):
            value = np.asarray(value)
            initial = v1.placeholder(tf.as_dtype(value.dtype), value.shape, name=f"value_{i}")
            variable = v1.Variable(initial, name=name)
            variables[name], feeds[initial] = variable, value
            inits.append(variable.initializer)
        saver = v1.train.Saver(variables)
        with v1.Session() as session:
            session.run(inits, feeds)
            saver.save(session, target_checkpoint)


def _parser():
    parser = argparse.ArgumentParser(
        description="Converts a TF1 canned estimator's checkpoint to the names of the V2 "
                    "classes (Keras optimizers).")
    parser.add_argument("estimator_type", choices=ESTIMATOR_TYPES,
                        help="The canned estimator that wrote the checkpoint: linear, dnn or "
                             "combined.")
    parser.add_argument("source_checkpoint", help="Path to source checkpoint file to be read in.")
    parser.add_argument("source_graph", help="Path to source graph file to be read in.")
    parser.add_argument("target_checkpoint",
                        help="Path to checkpoint file to be written out.")
    return parser


def main(_=None, argv=None):
    """The command line: `estimator_type source_checkpoint source_graph target_checkpoint`
    (sys.argv[1:] unless `argv` is given)."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    convert_checkpoint(args.estimator_type, args.source_checkpoint, args.source_graph,
                       args.target_checkpoint)


if __name__ == "__main__":
    main()
