"""`tensorflow.python.estimator.gc`: choosing which versioned exports to keep.

TF 1.x export code (contrib's export strategies, users' own export cleanup) lists a directory's
`<base>/<version>` paths with `get_paths(base_dir, parser)` and filters them with these
composable functions, each taking and returning a list of `Path(path, export_version)`.
"""
import collections
import heapq
import os

import tensorflow as tf

Path = collections.namedtuple("Path", "path export_version")


def largest_export_versions(n):
    """A filter keeping the `n` largest export versions."""
    def keep(paths):
        heap = [(p.export_version, i) for i, p in enumerate(paths)
                if p.export_version is not None]
        return sorted(paths[i] for _, i in heapq.nlargest(n, heap))
    return keep


def one_of_every_n_export_versions(n):
    """A filter keeping, per interval of n versions, the largest version in it."""
    def keep(paths):
        kept = {}
        for p in paths:
            if p.export_version is None:
                continue
            bucket = (p.export_version + n - 1) // n
            if bucket not in kept or p.export_version > kept[bucket].export_version:
                kept[bucket] = p
        return sorted(kept.values())
    return keep


def mod_export_version(n):
    """A filter keeping the versions that are multiples of n."""
    def keep(paths):
        return sorted(p for p in paths if p.export_version is not None
                      and p.export_version % n == 0)
    return keep


def union(lf, rf):
    """A filter keeping what either filter keeps."""
    def keep(paths):
        return sorted(set(lf(paths)) | set(rf(paths)))
    return keep


def negation(f):
    """A filter keeping what `f` drops."""
    def keep(paths):
        kept = set(f(paths))
        return sorted(set(paths) - kept)
    return keep


def get_paths(base_dir, parser):
    """The `Path`s of base_dir's entries that `parser(Path(path, None))` accepts (it returns a
    Path with the version filled in, or None)."""
    paths = []
    for name in tf.io.gfile.listdir(base_dir):
        full = os.path.join(base_dir, name.rstrip("/"))
        parsed = parser(Path(full, None))
        if parsed is not None:
            paths.append(parsed)
    return sorted(paths)
