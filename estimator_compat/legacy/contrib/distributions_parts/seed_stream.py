"""SeedStream: a reproducible stream of seeds for the random ops inside one sampler, derived
from one user seed and a salt (a fresh seed per call); gone from TensorFlow 2 with tf.contrib.
The seeds are TF 1.15's: sha512 of the (seed, call count, salt) text, as an integer."""
import hashlib


class SeedStream:
    """`stream()` gives the next seed (`None` while the stream's seed is None)."""

    def __init__(self, seed, salt):
        self._seed = seed.original_seed if isinstance(seed, SeedStream) else seed
        self._salt = salt
        self._counter = 0

    def __call__(self):
        self._counter += 1
        if self._seed is None:
            return None
        text = str((self._seed, self._counter, self._salt)).encode("utf-8")
        return int(hashlib.sha512(text).hexdigest(), 16)

    @property
    def original_seed(self):
        return self._seed

    @property
    def salt(self):
        return self._salt
