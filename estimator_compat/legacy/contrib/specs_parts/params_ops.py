"""`tf.contrib.specs.params_ops`: the environment `eval_params` executes parameter strings in,
Python's math plus random draws for hyperparameter searches (`n=Li(5, 500); d=Ui(1, 5)`)."""
from __future__ import absolute_import, division, print_function

import math
import random

# the parameter language's vocabulary is all of math (TF 1.15: `from math import *`)
globals().update({k: v for k, v in vars(math).items() if not k.startswith("_")})


def Uf(lo=0.0, hi=1.0):
    """A float drawn uniformly from [lo, hi]."""
    return random.uniform(lo, hi)


def Ui(lo, hi):
    """An integer drawn uniformly from lo..hi, both included."""
    return random.randint(lo, hi)


def Lf(lo, hi):
    """A float drawn log-uniformly from [lo, hi]."""
    return math.exp(random.uniform(math.log(lo), math.log(hi)))


def Li(lo, hi):
    """An integer drawn log-uniformly from lo..hi, both included."""
    return int(math.floor(math.exp(random.uniform(math.log(lo), math.log(hi + 1 - 1e-5)))))


def Nt(mu, sigma, limit=3.0):
    """A normal draw clipped to mu +- limit * sigma."""
    return min(max(random.gauss(mu, sigma), mu - limit * sigma), mu + limit * sigma)
