"""tf.contrib.grid_rnn against TF 1.15.5 (tests/tf115_cases/contrib_grid_rnn.py): every grid
cell one step, under dynamic_rnn and static_rnn, tied and untied, with non-recurrent
dimensions, custom dimensions and concatenated states; outputs, states and variable names;
TF 1.15's errors (bad dims, a non-cell cell_fn, its non-recurrent and concatenated-state
quirks)."""
from tf115_cases import harness

MODULE = "contrib_grid_rnn"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
