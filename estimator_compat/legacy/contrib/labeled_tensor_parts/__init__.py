"""The parts of `tf.contrib.labeled_tensor`: typecheck, core (axes, labeled tensors, elementwise
ops), ops (shape and reduction ops), io_ops, nn and sugar."""
