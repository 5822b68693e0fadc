"""Multi-machine training: parameter-server clusters from TF_CONFIG."""
