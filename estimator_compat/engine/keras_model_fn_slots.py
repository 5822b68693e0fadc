"""A custom model_fn's Keras optimizer checkpointed under tf.estimator 2.15's (Keras 2) names.

A model_fn that trains with a Keras optimizer in graph mode (`opt.get_updates(loss, vars)`,
`opt.apply_gradients(...)`; `tf.keras.optimizers.legacy.Adagrad` in TF 2.11-2.15) saved, under
TF 2.15, legacy OptimizerV2 names: `Adagrad/iter`, `Adagrad/learning_rate`, `Adagrad/decay`,
`Adagrad/<var>/accumulator`, a second optimizer of one name as `Adagrad_1/...`. Here the
model_fn trains Keras 3's optimizer, whose variables are `adagrad/iteration`,
`adagrad/<var_with_underscores>_accumulator`. The variables keep Keras 3's names; only the
checkpoint uses 2.15's: a save writes each noted optimizer's variables under them (plus the
hyperparameter variables 2.15 held), so tf.estimator 2.15 continues from our model_dir, and a
restore reads them back (2.15's model_dirs and ours; our older Keras-3-named checkpoints match
the variables' own names, so they are read as they are).

Slots are paired with model variables through the optimizer's own lists (Keras 3 keeps each
slot list aligned with `_trainable_variables`), not by parsing names. The quantities agree
for Adagrad, Adam (and amsgrad's vhat), SGD's momentum, RMSprop, Ftrl, Adadelta and Adamax.
Nadam's m and v agree; Keras 2's `momentum_cache` and Keras 3's `_u_product` are both the
product of the step's momentum factors, but by different schedules (Keras 2:
0.96 ** (0.004 * t), Keras 3: 0.96 ** t), so each is recomputed from the step count for its
own rule (and Nadam's weights then follow Keras 3's rule, not 2.15's). Keras 3 state 2.15 never
had (use_ema's averages, gradient accumulators) stays under our names.

keras_optimizer_ops notes each Keras optimizer a model_fn trace applies (`note`);
`compose(other)` gives CheckpointIO this hook together with an estimator's own (the canned
classes').
"""
import re
import threading
import weakref

import keras
import numpy as np
import tensorflow as tf
from keras.src.utils.naming import to_snake_case

from estimator_compat.checkpoint_holders import Holders, read_through
from estimator_compat.variables import current_store

# Keras 3 class name: (Keras 2 name, {Keras 3 slot list attribute: Keras 2 slot name},
#                      Keras 2 hyperparameter variables other than learning_rate and decay)
_KINDS = {
    "Adagrad": ("Adagrad", {"_accumulators": "accumulator"}, ()),
    "Adam": ("Adam", {"_momentums": "m", "_velocities": "v", "_velocity_hats": "vhat"},
             ("beta_1", "beta_2")),
    "SGD": ("SGD", {"momentums": "momentum"}, ("momentum",)),
    "RMSprop": ("RMSprop", {"_velocities": "rms", "_momentums": "momentum",
                            "_average_gradients": "mg"}, ("rho", "momentum")),
    "Ftrl": ("Ftrl", {"_accumulators": "accumulator", "_linears": "linear"},
             ("learning_rate_power", "l1_regularization_strength",
              "l2_regularization_strength", "beta")),
    "Adadelta": ("Adadelta", {"_accumulated_grads": "accum_grad",
                              "_accumulated_delta_vars": "accum_var"}, ("rho",)),
    "Adamax": ("Adamax", {"_m": "m", "_u": "v"}, ("beta_1", "beta_2")),
    "Nadam": ("Nadam", {"_momentums": "m", "_velocities": "v"}, ("beta_1", "beta_2")),
}
_NADAM_DECAY = 0.004  # Keras 2 Nadam's schedule decay, saved as its `decay`
_NOTED = weakref.WeakKeyDictionary()  # store: (trace graph, [optimizers in order applied])
_LOCK = threading.Lock()
_IGNORED = weakref.WeakSet()  # optimizers whose variables keep Keras 3's names (`ignore`)


def _kind(optimizer):
    """The Keras 3 class an optimizer is (or subclasses), where it is one 2.15 had."""
    for cls in type(optimizer).__mro__:
        if cls.__module__.startswith("keras.src.optimizers"):
            return cls.__name__ if cls.__name__ in _KINDS else None  # AdamW, Lion...: none
    return None


def ignore(optimizer):
    """Leaves `optimizer`'s names alone (the Keras bridge's clone: 2.15's keras_lib named its
    variables otherwise)."""
    _IGNORED.add(optimizer)


def note(optimizer):
    """Records a Keras optimizer a model_fn trace applied (in order: 2.15 named a second one
    of the same name `<Name>_1`)."""
    store = current_store()
    if store is None or _kind(optimizer) is None or optimizer in _IGNORED:
        return
    graph = tf.compat.v1.get_default_graph()
    with _LOCK:
        noted_graph, optimizers = _NOTED.get(store, (None, []))
        if noted_graph is not graph:  # a new train trace: its optimizers replace the last's
            optimizers = []
        if not any(o is optimizer for o in optimizers):
            optimizers.append(optimizer)
        _NOTED[store] = (graph, optimizers)


def _variable(value):
    value = value.value if isinstance(value, keras.Variable) else value
    return value if isinstance(value, tf.Variable) else None


def _number(value):
    return float(value) if isinstance(value, (int, float, np.number)) else None


def _momentum_cache(beta_1, steps, decay):
    """Nadam's product of momentum factors after `steps` steps: Keras 2's (decay 0.004) or
    Keras 3's (decay 1)."""
    t = np.arange(1, int(steps) + 1, dtype=np.float64)
    return np.asarray(np.prod(beta_1 * (1.0 - 0.5 * 0.96 ** (decay * t))), np.float32)


class _Optimizer:
    """One noted optimizer: {our name: 2.15's name} of its variables and 2.15's hyperparameter
    values."""

    def __init__(self, optimizer, prefix, names):
        kind = _kind(optimizer)
        self.prefix = prefix
        _, slot_lists, hypers = _KINDS[kind]
        self.renames = {}
        self.by_global_step = None  # our name of its own counter, unused (iterations=global_step)
        iterations = _variable(optimizer._iterations)
        if names.get(id(iterations)) == "global_step":
            for var in optimizer.variables:
                name = names.get(id(_variable(var)))
                if name is not None and var.name == "iteration":
                    self.by_global_step = name
        elif id(iterations) in names:
            self.renames[names[id(iterations)]] = f"{prefix}/iter"
        rate = _variable(getattr(optimizer, "_learning_rate", None))
        if id(rate) in names:  # a schedule: 2.15 saved no learning_rate variable either
            self.renames[names[id(rate)]] = f"{prefix}/learning_rate"
        trainable = list(getattr(optimizer, "_trainable_variables", []))
        for attribute, slot in slot_lists.items():
            for var, slot_var in zip(trainable, getattr(optimizer, attribute, None) or []):
                var_name, slot_name = names.get(id(_variable(var))), \
                    names.get(id(_variable(slot_var)))
                if var_name is not None and slot_name is not None:
                    self.renames[slot_name] = f"{prefix}/{var_name}/{slot}"
        self.u_product = None  # Nadam's: our name
        if kind == "Nadam":
            self.u_product = names.get(id(_variable(getattr(optimizer, "_u_product", None))))
        self.hypers = {h: _number(getattr(optimizer, h, None)) for h in hypers}
        self.hypers["decay"] = _NADAM_DECAY if kind == "Nadam" else 0.0
        self.hypers = {h: v for h, v in self.hypers.items() if v is not None}
        self.beta_1 = self.hypers.get("beta_1")
        self.iterations = iterations
        self.ours = set(self.renames) | {self.by_global_step, self.u_product} - {None}


def _prefixes(optimizers):
    """2.15's name of each optimizer: the one given, else Keras 2's class name; `_1`, `_2`
    for later ones of the same name (as a graph's name scopes made them)."""
    seen, prefixes = {}, []
    for optimizer in optimizers:
        keras2 = _KINDS[_kind(optimizer)][0]
        default = to_snake_case(_kind(optimizer))  # Keras 3's default name (`adagrad_1`...)
        name = optimizer.name
        base = keras2 if re.fullmatch(re.escape(default) + r"(_\d+)?", name or "") else name
        count = seen[base] = seen.get(base, -1) + 1
        prefixes.append(base + (f"_{count}" if count else ""))
    return prefixes


class KerasModelFnSlots:
    """CheckpointIO's hook; `compose(other)` binds it with another estimator hook."""

    def __init__(self, other=None):
        self._other = other

    def for_store(self, store):
        other = self._other
        bind = getattr(other, "for_store", None)
        return _Bound(store, bind(store) if bind is not None else other)


def compose(other):
    """The hook for an estimator whose own is `other` (None: this one alone)."""
    return KerasModelFnSlots(other)


class _Bound:
    def __init__(self, store, other):
        self._store = store
        self._other = other
        self._holder = Holders()  # 2.15's values that are no variable here
        other_save = getattr(other, "save_entries", None)
        if other_save is not None:
            self.save_entries = lambda entries: other_save(self._save_entries(entries))
        else:
            self.save_entries = self._save_entries

    def _optimizers(self):
        _, noted = _NOTED.get(self._store, (None, []))
        if not noted:
            return []
        names = {id(v): n for n, v in self._store.saveable().items()}
        made, taken, kept = [], set(), []
        for optimizer in noted:
            opt = _Optimizer(optimizer, "", names)
            if not opt.ours or opt.ours & taken:  # a replica's copy of one already noted
                continue
            taken |= opt.ours
            kept.append(optimizer)
        for optimizer, prefix in zip(kept, _prefixes(kept)):
            made.append(_Optimizer(optimizer, prefix, names))
        return made

    def _save_entries(self, entries):
        """{checkpoint name: variable}: the optimizers' variables under 2.15's names, and the
        hyperparameter variables 2.15 had."""
        optimizers = self._optimizers()
        if not optimizers:
            return entries
        out = dict(entries)
        for opt in optimizers:
            for name, key in opt.renames.items():
                if name in out:
                    out[key] = out.pop(name)
            out.pop(opt.by_global_step, None)  # 2.15 counted in global_step: no `iter`
            if out.pop(opt.u_product, None) is not None and opt.beta_1 is not None:
                out[f"{opt.prefix}/momentum_cache"] = self._holder(
                    f"{opt.prefix}/momentum_cache", _momentum_cache(
                        opt.beta_1, opt.iterations.numpy(), _NADAM_DECAY))
            for hyper, value in opt.hypers.items():
                out[f"{opt.prefix}/{hyper}"] = self._holder(f"{opt.prefix}/{hyper}", value)
        return out

    def __call__(self, missing, reader, variables):
        """{our name: value} of the `missing` variables, read from 2.15's names."""
        filled = read_through(self._optimizers(), self._value, missing, reader, variables)
        rest = [n for n in missing if n not in filled]
        if rest and self._other is not None:
            filled.update(self._other(rest, reader, variables))
        return filled

    @staticmethod
    def _value(opt, name, reader):
        key = opt.renames.get(name)
        if key is not None:
            return reader.get_tensor(key) if reader.has_tensor(key) else None
        step = f"{opt.prefix}/iter"
        step = step if reader.has_tensor(step) else "global_step"
        if name == opt.by_global_step:  # unused: iterations count in global_step
            return np.zeros([], np.int64)
        if name == opt.u_product and opt.beta_1 is not None and reader.has_tensor(step) and \
                reader.has_tensor(f"{opt.prefix}/momentum_cache"):
            return _momentum_cache(opt.beta_1, reader.get_tensor(step), 1.0)
        return None
