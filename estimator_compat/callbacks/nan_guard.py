"""Stops training on a NaN loss before anything is saved (NanTensorHook's semantics)."""
import logging

import numpy as np

from estimator_compat.hooks import NanLossDuringTrainingError

logger = logging.getLogger("tensorflow")


def check_loss(loss, fail_on_nan_loss=True):
    """Raises NanLossDuringTrainingError on NaN; returns True when training must stop."""
    if np.isnan(loss):
        message = "Model diverged with loss = NaN."
        if fail_on_nan_loss:
            logger.error(message)
            raise NanLossDuringTrainingError
        logger.warning(message)
        return True
    return False
