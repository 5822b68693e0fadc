"""The parts of `tf.contrib.graph_editor` (see `legacy/contrib/graph_editor.py`), one concept
per module: `lists` / `trees` / `control_outputs` / `placeholders` (TF 1.15's `util`),
`regex_select` / `walks` (its `select`), `subgraph`, `reroute`, `edit`, and `handlers` /
`transformer` / `copying` (its `transform`)."""
