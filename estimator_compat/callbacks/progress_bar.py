"""A Keras progress bar over the steps of train/evaluate, for interactive use."""
import keras


class ProgressBar:
    def __init__(self, target=None, enabled=True):
        self._bar = keras.utils.Progbar(target, stateful_metrics=["global_step"]) if enabled else None
        self._seen = 0

    def update(self, values):
        if self._bar is not None:
            self._seen += 1
            self._bar.update(self._seen, values=list(values.items()))

    def finish(self, values=None):
        if self._bar is not None and self._bar.target is None:
            self._bar.update(self._seen, values=list((values or {}).items()), finalize=True)
