"""`tpu.tpu_estimator.InstallSignalHandlerHook` (tensorflow_estimator 2.15): while the hook's
call runs, CTRL^C (SIGINT) kills the process at once (the default handler) instead of raising
KeyboardInterrupt into a call that may hang; the handler in place when the hook was made is
put back at the end. Signal handlers can only be set from the main thread."""
import signal

import tensorflow as tf


class InstallSignalHandlerHook(tf.compat.v1.train.SessionRunHook):
    def __init__(self):
        self._signal_fn = signal.getsignal(signal.SIGINT)

    def before_run(self, run_context):
        del run_context
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    def end(self, session):
        del session
        signal.signal(signal.SIGINT, self._signal_fn)
